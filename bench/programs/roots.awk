# SPDX-License-Identifier: GPL-2.0
# bench/programs/roots.awk: per process and thread, how many user stacks of
# 'dunwind script' output reach the real root.  POSIX awk (busybox's).
#
#   awk [-v show=N] -f roots.awk SCRIPT.txt
#
# A user stack reaches the root when it has no [truncated: ...] marker (the
# module ended it at a root) and its outermost frame lies in a file and, if
# it has a symbol, is entry code: the program's or the loader's _start,
# _dl_start_user, or a new stack's clone3/clone (a thread, posix_spawn's
# child); or it is the one frame of a child sampled before its first return
# from clone (ret_from_fork in its kernel stack).  A frame outside any file
# mapping is one in [unknown] or //anon.
# Prints one line per thread, then per process:
#   T pid/tid comm samples=N user=N rooted=N unknown=N exited=N python=N top=SYM:N
#   P pid comm samples=N user=N rooted=N unknown=N exited=N python=N
# top: the most frequent outermost frame of the stacks that did not reach
# a root, to see why; show=N prints the first N of those stacks on stderr.
# whys=1 adds, per reason a stack missed the root (its stop and outermost
# frame, or the outermost frame where it ended), over all threads:
#   W N REASON
# A stack that ended 'exited' (the thread exited or exec'd before its walk:
# its user stack is gone) is no user stack: it counts in exited=N.
# python=N: the stacks holding a Python marker, [python: WHY] (a frame the
# capture could not name, or the interpreter's chain stopped there); the
# native frames go on past it, so it ends no stack.
function flush(   i, sym, rooted) {
	if (!insample)
		return
	insample = 0
	key = pid "/" tid
	if (!(key in tcomm)) {
		tcomm[key] = comm
		tkeys[++ntkeys] = key
	}
	if (!(pid in pcomm)) {
		pcomm[pid] = comm
		pkeys[++npkeys] = pid
	}
	tsamples[key]++
	psamples[pid]++
	if (!nuser && !trunc)
		return
	if (trunc && truncwhy == "exited") {
		texited[key]++
		pexited[pid]++
		return
	}
	tunknown[key] += unknown
	punknown[pid] += unknown
	sym = outer
	sub(/\+0x[0-9a-f]+$/, "", sym)
	# An address without a symbol is shown as FILE+0xADDR: unnamed.
	base = outerdso
	gsub(/^\(|\)$/, "", base)
	sub(/.*\//, "", base)
	if (index(sym, base "+0x") == 1 || sym == base)
		sym = "[unknown]"
	# Stripped distribution files name few symbols: an unnamed outermost
	# frame in a file passes on the module's word (stop END), a named one
	# must be entry code.
	tuser[key]++
	puser[pid]++
	tpy[key] += pymark > 0
	ppy[pid] += pymark > 0
	# A child sampled before its first return to user space (ret_from_fork
	# in its kernel stack) on a new stack: its one frame, where the clone
	# system call returns (libc's syscall() for a raw clone3), is its root.
	rooted = !trunc && outerdso ~ /^\(\// &&
		 (sym == "[unknown]" || sym == "_start" || sym == "_dl_start_user" ||
		  sym == "__clone3" || sym == "clone3" || sym == "__clone" || sym == "clone" ||
		  (forkret && nuser == 1))
	if (rooted) {
		trooted[key]++
		prooted[pid]++
		return
	}
	why = trunc ? truncwhy " in " outer : sym " (" outerdso ")"
	if (shown < show) {
		shown++
		printf "# not rooted:\n#%s\n", text > "/dev/stderr"
	}
	miss[key, why]++
	allmiss[why]++
	if (miss[key, why] > topn[key]) {
		topn[key] = miss[key, why]
		top[key] = why
	}
}
/^[^ \t]/ && /: +[0-9]+ [a-z-]+: *$/ {
	flush()
	insample = 1
	text = $0
	nuser = 0
	trunc = 0
	unknown = 0
	pymark = 0
	outer = ""
	outerdso = ""
	forkret = 0
	# COMM may hold spaces: PID/TID is the field before [CPU].
	for (i = 1; i <= NF; i++)
		if ($i ~ /^\[[0-9]+\]$/)
			break
	split($(i - 1), pt, "/")
	pid = pt[1]
	tid = pt[2]
	comm = $1
	for (j = 2; j < i - 1; j++)
		comm = comm " " $j
	next
}
/^[ \t]+[0-9a-f]+ / && insample {
	text = text "\n#" $0
	ip = $1
	dso = $NF
	# A Python marker ([python: WHY]: a frame the capture cannot name, or
	# where the interpreter's chain stopped) sits among native frames that
	# go on: it ends no stack.  Counted apart (python=N).
	if (dso == "([truncated])" && $2 ~ /^\[python:/) {
		pymark++
		next
	}
	if (dso == "([truncated])") {
		trunc = 1
		truncwhy = $3
		sub(/\]$/, "", truncwhy)
		next
	}
	if (length(ip) >= 16 && ip ~ /^ffff/) {
		if ($2 ~ /^ret_from_fork/)
			forkret = 1
		next		# kernel
	}
	nuser++
	outer = $2
	outerdso = dso
	if (dso == "([unknown])" || dso == "(//anon)")
		unknown++
	next
}
/^$/ { flush() }
END {
	flush()
	for (k = 1; k <= ntkeys; k++) {
		key = tkeys[k]
		printf "T %s %s samples=%d user=%d rooted=%d unknown=%d exited=%d python=%d " \
			"top=%s:%d\n", key, tcomm[key], tsamples[key], tuser[key], trooted[key],
			tunknown[key], texited[key], tpy[key], top[key] == "" ? "-" : top[key], topn[key]
	}
	for (k = 1; k <= npkeys; k++) {
		p = pkeys[k]
		printf "P %s %s samples=%d user=%d rooted=%d unknown=%d exited=%d python=%d\n",
			p, pcomm[p], psamples[p], puser[p], prooted[p], punknown[p], pexited[p],
			ppy[p]
	}
	if (whys)
		for (w in allmiss)
			printf "W %d %s\n", allmiss[w], w
}
