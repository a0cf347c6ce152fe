# SPDX-License-Identifier: GPL-2.0
# bench/stacks.awk: count complete stacks in 'perf script' output (the format
# 'dunwind script' prints too).  POSIX awk (busybox awk in the VM).
#
#   awk -v exe=NAME -v chain='leaf c b a main' [-v caller=FUNC] [-v skip='F...']
#       [-v show=N] [-v loopcomm=NAME] -f stacks.awk [FILE]
#
# exe:    basename of the workload binary; its frames are the "own" frames.
# chain:  the workload's own functions from the hot leaf out to the root
#         (main or the thread function), leaf first; "f*N" is f N times.
# caller: the own function that calls into a library (write, qsort...), if any.
#
# A sample is complete when its own frames, up to the first root frame, are
# exactly the outermost part of the chain (the sample may be anywhere along
# it, e.g. in c itself), and when its innermost user frame is outside the
# executable (libc, vdso) the own frames start at caller: a walk that skips
# the caller of a frameless library function is caught.
#
# Only samples of threads named loopcomm (default bench-loop) count: the
# workloads name each thread so for its loop only (bench/workload.h), so the
# dynamic loader, setup and exit are out whatever the unwinder makes of them.
# skip: own functions whose samples never count (innermost own frame): the
# timer's signal handler; samples in prctl() (the renaming itself) never count
# either.  An innermost frame in the executable's PLT (foo@plt, or no symbol)
# counts as library code.
#
# Prints: samples=N window=N complete=N; with -v show=N also the user frames
# of up to N incomplete samples in the window on stderr (to see why).
function flush(   i, n, first, own, nown, ok, k, base) {
	if (!insample)
		return
	insample = 0
	nsamp++
	n = 0
	first = ""
	firstsym = ""
	nown = 0
	reached = 0
	for (i = 1; i <= nf; i++) {
		if (fkind[i] != "user")
			continue
		if (first == "") {
			first = fdso[i]
			firstsym = fsym[i]
			if (first == exe && (fsym[i] == "[unknown]" || fsym[i] ~ /@plt$/))
				first = "(plt)"
			if (first != exe)
				continue
		}
		if (fdso[i] != exe)
			continue
		own[++nown] = fsym[i]
		if (fsym[i] == root) {
			reached = 1
			break
		}
	}
	ok = reached
	if (ok && nown > nchain)
		ok = 0
	for (k = 1; ok && k <= nown; k++)
		if (own[k] != chainv[nchain - nown + k])
			ok = 0
	if (ok && first != exe && caller != "" && own[1] != caller)
		ok = 0
	if (ok && first != exe && caller == "")
		ok = 0
	if (show && !ok) {
		desc = ""
		for (i = 1; i <= nf; i++)
			if (fkind[i] != "kernel")
				desc = desc " " fsym[i] "(" fdso[i] ")"
		sdesc[nsamp] = desc
	}
	stime[nsamp] = stamp
	sok[nsamp] = ok
	sskip[nsamp] = (nown > 0 && (own[1] in skipset)) || comm != loopcomm ||
		firstsym ~ /prctl/
	nf = 0
}
function basename(p,   i) {
	while ((i = index(p, "/")) > 0)
		p = substr(p, i + 1)
	return p
}
BEGIN {
	n = split(chain, tok, " ")
	nchain = 0
	for (i = 1; i <= n; i++) {
		rep = 1
		name = tok[i]
		if ((j = index(name, "*")) > 0) {
			rep = substr(name, j + 1) + 0
			name = substr(name, 1, j - 1)
		}
		for (r = 0; r < rep; r++)
			chainv[++nchain] = name
	}
	root = chainv[nchain]
	n = split(skip, tok, " ")
	for (i = 1; i <= n; i++)
		skipset[tok[i]] = 1
	if (caller == "-")
		caller = ""
	if (loopcomm == "")
		loopcomm = "bench-loop"
}
/^[^ \t]/ {
	flush()
	insample = 1
	nf = 0
	stamp = ""
	comm = $1
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			stamp = substr($i, 1, length($i) - 1) + 0
			break
		}
	next
}
/^[ \t]+[0-9a-f]+ / && insample {
	addr = $1
	sym = $2
	sub(/\+0x[0-9a-f]+$/, "", sym)
	dso = $NF
	gsub(/^\(|\)$/, "", dso)
	sub(/\+0x[0-9a-f]+$/, "", dso)
	nf++
	if (addr == "0")
		fkind[nf] = "marker"
	else if (length(addr) == 16 && substr(addr, 1, 4) == "ffff")
		fkind[nf] = "kernel"
	else
		fkind[nf] = "user"
	fsym[nf] = sym
	fdso[nf] = basename(dso)
	next
}
/^[ \t]*$/ { flush() }
END {
	flush()
	win = 0
	comp = 0
	for (i = 1; i <= nsamp; i++) {
		if (sskip[i])
			continue
		win++
		comp += sok[i]
		if (show && !sok[i] && shown++ < show + 0)
			printf "incomplete @%.6f:%s\n", stime[i], sdesc[i] > "/dev/stderr"
	}
	printf "samples=%d window=%d complete=%d\n", nsamp, win, comp
}
