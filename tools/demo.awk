# SPDX-License-Identifier: GPL-2.0
# tools/demo.awk: one column of 'make demo' from 'perf script' text (the
# format 'dunwind script' prints too): the samples of threads named COMM,
# the share whose stack reaches _start (complete), the top functions by
# self samples and the call tree from the roots.  POSIX awk.
#
#   awk -v comm=demo -v width=38 [-v rows=6] [-v min=8] -f tools/demo.awk FILE
#
# Tree: root first; a function calling itself (any number of times in a
# row) is one node "name (recursive)"; nodes under min % of the samples are
# left out.
function flush(   i, j, path, name, nm) {
	if (!insample)
		return
	insample = 0
	if (nf == 0)
		return
	nsamp++
	if (f[nf] == "_start")
		complete++
	self[f[1]]++
	# Root first, runs of one function folded.
	path = ""
	for (i = nf; i >= 1; i = j) {
		name = f[i]
		for (j = i - 1; j >= 1 && f[j] == name; j--)
			;
		nm = i - j > 1 ? name " (recursive)" : name
		if (!((path, nm) in cnt)) {
			kids[path] = kids[path] SUBSEP nm
		}
		cnt[path, nm]++
		path = path SUBSEP nm
	}
}

function cut(s, w) {
	return length(s) > w ? substr(s, 1, w - 1) "~" : s
}

function pct(n) {
	return nsamp ? sprintf("%5.1f%%", 100 * n / nsamp) : "   - "
}

# tree PATH DEPTH: the children of PATH, heaviest first.
function tree(path, depth,   list, nk, k, i, best, bestn, done, c, pre) {
	nk = split(substr(kids[path], 2), list, SUBSEP)
	for (k = 1; k <= nk; k++) {
		best = 0
		bestn = -1
		for (i = 1; i <= nk; i++)
			if (!(i in done) && cnt[path, list[i]] > bestn) {
				best = i
				bestn = cnt[path, list[i]]
			}
		done[best] = 1
		if (100 * bestn / nsamp < min || lines >= maxlines)
			return
		pre = sprintf("%s %" (depth + 1) "s", pct(bestn), "")
		print cut(pre list[best], width)
		lines++
		tree(path SUBSEP list[best], depth + 1)
	}
}

BEGIN {
	if (!width) width = 38
	if (!rows) rows = 6
	if (!min) min = 8
	if (!maxlines) maxlines = 14
}

/^[^ \t]/ {
	flush()
	insample = ($1 == comm)
	nf = 0
	next
}

/^[ \t]+[0-9a-f]+ / {
	if (!insample)
		next
	name = $2
	if (name ~ /^\[truncated/)
		next
	sub(/\+0x[0-9a-f]+$/, "", name)
	if (name == "[unknown]")
		name = "?"
	f[++nf] = name
	next
}

/^$/ { flush() }

END {
	flush()
	printf "%d samples\n", nsamp
	printf "%s complete (reach _start)\n", pct(complete)
	print ""
	print "top functions (self)"
	for (r = 0; r < rows; r++) {
		best = ""
		bestn = -1
		for (s in self)
			if (!(s in shown) && self[s] > bestn) {
				best = s
				bestn = self[s]
			}
		if (best == "")
			break
		shown[best] = 1
		print cut(pct(bestn) " " best, width)
	}
	print ""
	print "call tree (root first)"
	lines = 0
	tree("", 0)
}
