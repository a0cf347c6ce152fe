# SPDX-License-Identifier: GPL-2.0
# bench/python/users.awk: of the samples of 'dunwind script' output whose
# newest Python frame is LEAF (and whose header matches EVENT, if given),
# how many show CHAIN exactly: their Python frames, newest first, begin
# with CHAIN's names (in users.py), with no truncation marker; and in how
# many threads.  POSIX awk (busybox's).
#
#   awk -v leaf=NAME -v chain="NAME NAME..." [-v event=RE] [-v show=N] \
#       -f pyframe.awk -f users.awk SCRIPT.txt
#
# Prints "FIGURE samples=N leafs=N exact=N tids=N unnamed=N"; with show=N
# the first N LEAF samples that miss the chain on stderr.
BEGIN {
	nchain = split(chain, want, " ")
}
function flush(   i, ok) {
	if (!insample)
		return
	insample = 0
	samples++
	if (npy == 0 || pyname[1] != leaf)
		return
	if (event != "" && header !~ event)
		return
	leafs++
	if (!(tid in seen)) {
		seen[tid] = 1
		tids++
	}
	ok = !trunc && npy >= nchain
	for (i = 1; ok && i <= nchain; i++)
		if (pyname[i] != want[i] || pyfile[i] !~ /users\.py$/)
			ok = 0
	if (ok)
		exact++
	else if (shown < show) {
		shown++
		print "--- not the chain:" > "/dev/stderr"
		print stack > "/dev/stderr"
	}
}
/^[^\t ]/ {
	flush()
	insample = 1
	npy = 0
	trunc = 0
	header = $0
	stack = $0
	tid = ""
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\/[0-9]+$/) {
			tid = $i
			sub(/^.*\//, "", tid)
		}
	next
}
/^[\t ]/ && insample {
	stack = stack "\n" $0
	kind = frame($0)
	if (kind == "trunc" || kind == "unnamed") {
		trunc = 1
		unnamed += kind == "unnamed"
	} else if (kind == "py") {
		npy++
		pyname[npy] = pf_name
		pyfile[npy] = pf_file
	}
	next
}
/^$/ { flush() }
END {
	flush()
	printf "FIGURE samples=%d leafs=%d exact=%d tids=%d unnamed=%d\n",
	       samples, leafs, exact, tids, unnamed + 0
}
