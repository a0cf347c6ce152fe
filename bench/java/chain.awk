# SPDX-License-Identifier: GPL-2.0
# bench/java/chain.awk: of the samples of 'dunwind script' output that ran
# in bench/java/Chain.java's chain, how many name it in order and reach
# the thread's root.  POSIX awk (busybox's).
#
#   awk [-v show=N] -f chain.awk SCRIPT.txt
#
# A sample is in the chain when a user frame is named Chain.ja (HotSpot's
# perf map: "int Chain.ja(int)") and no interpreter frame lies between
# its innermost Chain frame and ja: the chain is JIT-compiled up to ja.
# In the first seconds only some are, their callers still run in the
# interpreter (named "Interpreter" only): those samples count as
# warmup=N, not judged.  jmain runs
# its loop in the interpreter, whose frames the perf map names
# "Interpreter" only: an Interpreter frame right after ja stands for
# jmain.  A sample is good when its Chain frames, innermost first, are a
# run of the tail of jleaf jc jb ja jmain that ends at jmain with no other
# frame between them, no frame is unnamed (anonymous memory without a
# name), no [truncated] marker ends it, and its outermost frame is the
# thread's clone3 (java runs main() in a thread of its own; in Debian's
# stripped libc, an unnamed libc frame where the module found the root).
# Prints "CHAIN samples=N good=N unnamed=N truncated=N unrooted=N
# disorder=N warmup=N" and, with show=N, the first N bad samples on stderr.
function flush(   why) {
	if (!insample)
		return
	insample = 0
	if (!hasja || mixed) {
		warmup += nchain > 0
		return
	}
	samples++
	why = ""
	if (unnamed)
		why = "unnamed"
	else if (trunc)
		why = "truncated"
	else if (chain != want_tail(nchain) || gap)
		why = "disorder"
	else if (outer !~ /^(__)?clone3?(\+0x[0-9a-f]+)?$/ &&
		 !(outerdso ~ /\/libc\.so\.6\)$/ && outer ~ /^libc\.so\.6\+0x/))
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
# add NAME: NAME is the next Chain frame outwards, at frame number nfr.
function add(name) {
	# Only jmain may be followed by other frames; the rest adjoin.
	if (nchain > 0 && nfr != last + 1 && prev != "jmain")
		gap = 1
	chain = chain " " name
	nchain++
	prev = name
	last = nfr
}
BEGIN {
	order[1] = "jleaf"; order[2] = "jc"; order[3] = "jb"; order[4] = "ja"; order[5] = "jmain"
}
/^[^ \t]/ && /: +[0-9]+ [a-z-]+: *$/ {
	flush()
	insample = 1
	hasja = mixed = unnamed = trunc = nchain = gap = last = nfr = 0
	chain = prev = outer = outerdso = ""
	text = $0
	next
}
/^[ \t]+[0-9a-f]+ / && insample {
	text = text "\n#" $0
	if ($NF == "([truncated])") {
		trunc = 1
		next
	}
	if (length($1) >= 16 && $1 ~ /^ffff/)
		next		# kernel
	nfr++
	outer = $2
	outerdso = $NF
	if ($2 == "[unknown]" && ($NF == "(//anon)" || $NF == "([unknown])")) {
		unnamed = 1
		next
	}
	if (match($0, /Chain\.j[a-z]+\(/)) {
		add(substr($0, RSTART + 6, RLENGTH - 7))
		hasja += prev == "ja"
	} else if (prev == "ja" && nfr == last + 1 && $2 ~ /^Interpreter(\+0x[0-9a-f]+)?$/) {
		add("jmain")
	} else if (nchain > 0 && prev != "ja" && prev != "jmain" && $2 ~ /^Interpreter/) {
		mixed = 1	# a caller not compiled yet
	}
	next
}
/^$/ { flush() }
END {
	flush()
	printf "CHAIN samples=%d good=%d unnamed=%d truncated=%d unrooted=%d disorder=%d warmup=%d\n",
	       samples, good, bad["unnamed"] + 0, bad["truncated"] + 0, bad["unrooted"] + 0,
	       bad["disorder"] + 0, warmup + 0
}
