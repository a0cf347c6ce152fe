# SPDX-License-Identifier: GPL-2.0
# bench/jit/chain.awk: of the samples of 'dunwind script' output that ran
# in bench/jit/chain.js's chain, how many name it in order and reach the
# root.  POSIX awk (busybox's).
#
#   awk [-v show=N] -f chain.awk SCRIPT.txt
#
# A sample is in the chain when a user frame is named jit_* or lies in
# anonymous memory ([unknown], //anon: JIT code the walk found but nothing
# named).  It is good when its jit_* frames, innermost first, are a run of
# jit_leaf jit_c jit_b jit_a jit_main that ends at jit_main with no unnamed
# or other frame between them, no frame is unnamed, no [truncated] marker
# ends it, and its outermost frame is the program's _start (or the loader's
# _dl_start_user).  Prints "CHAIN samples=N good=N unnamed=N truncated=N
# unrooted=N disorder=N" and, with show=N, the first N bad samples on stderr.
function flush(   ok, why) {
	if (!insample)
		return
	insample = 0
	if (!injit)
		return
	samples++
	why = ""
	if (unnamed)
		why = "unnamed"
	else if (trunc)
		why = "truncated"
	else if (chain != want_tail(nchain) || nchain == 0 || gap)
		why = "disorder"
	else if (outer != "_start" && outer != "_dl_start_user")
		why = "unrooted"
	if (why == "") {
		good++
		return
	}
	bad[why]++
	if (shown[why] < show) {
		shown[why]++
		printf "# %s:\n#%s\n", why, text > "/dev/stderr"
	}
}
# The last N names of the chain, innermost first.
function want_tail(n,   s, i) {
	s = ""
	for (i = 6 - n; i <= 5; i++)
		s = s " " order[i]
	return s
}
BEGIN {
	order[1] = "jit_leaf"; order[2] = "jit_c"; order[3] = "jit_b"
	order[4] = "jit_a"; order[5] = "jit_main"
}
/^[^ \t]/ && /: +[0-9]+ [a-z-]+: *$/ {
	flush()
	insample = 1
	text = $0
	injit = 0; unnamed = 0; trunc = 0; gap = 0
	chain = ""; nchain = 0; last = ""; outer = ""
	next
}
/^[ \t]+[0-9a-f]+ / && insample {
	text = text "\n#" $0
	dso = $NF
	if (dso == "([truncated])") {
		trunc = 1
		why = $3
		sub(/\]$/, "", why)
		truncs[why]++
		next
	}
	if (length($1) >= 16 && $1 ~ /^ffff/)
		next		# kernel
	sym = $2
	outer = sym
	sub(/\+0x[0-9a-f]+$/, "", outer)
	if (dso == "([unknown])" || dso == "(//anon)") {
		injit = 1
		unnamed = 1
		last = "?"
		next
	}
	if (match(sym, /jit_[a-z]+/)) {
		name = substr(sym, RSTART, RLENGTH)
		injit = 1
		# Another frame between two of the chain breaks it.
		if (nchain && last != "jit")
			gap = 1
		chain = chain " " name
		nchain++
		last = "jit"
		next
	}
	last = "other"
	next
}
/^$/ { flush() }
END {
	flush()
	for (w in truncs)
		printf "# truncated %s: %d\n", w, truncs[w]
	printf "CHAIN samples=%d good=%d unnamed=%d truncated=%d unrooted=%d disorder=%d\n",
		samples, good, bad["unnamed"], bad["truncated"], bad["unrooted"], bad["disorder"]
}
