# SPDX-License-Identifier: GPL-2.0
# bench/python/chain.awk: how many samples of 'dunwind script' output taken
# in app.py show its Python chain exactly.  POSIX awk (busybox's).
#
#   awk -v lines=FILE -f pyframe.awk -f chain.awk SCRIPT.txt
#
# lines: "NAME FIRST LAST" per function of app.py (its def line to its last
# line).  A Python frame is a frame line "... NAME (FILE.py:LINE) ...".
# A sample is app's when one of its Python frames is in app.py; it shows the
# chain when, newest first, its Python frames are a tail of
# leaf key middle outer main <module>, each in app.py within its function's
# lines, with at least one native frame between key and middle (sorted's C
# code calls key back), and the stack has no truncation marker.
# Prints: "FIGURE samples=N python=N app=N exact=N rooted=N unnamed=N" where
# python counts samples with any Python frame, rooted the app samples whose
# outermost frame is _start, unnamed the Python frames without file and line
# (a "[python: ...]" marker); with show=N the first N app samples that miss
# the chain on stderr.
BEGIN {
	nchain = split("leaf key middle outer main <module>", chain, " ")
	while ((getline l < lines) > 0) {
		split(l, f, " ")
		lo[f[1]] = f[2]
		hi[f[1]] = f[3]
	}
}
function flush(   i, k, ok, text) {
	if (!insample)
		return
	insample = 0
	samples++
	if (npy)
		python++
	if (!inapp)
		return
	app++
	ok = !trunc && npy <= nchain
	# The Python frames newest first must be chain[k..nchain].
	k = nchain - npy
	for (i = 1; ok && i <= npy; i++) {
		if (pyname[i] != chain[k + i] || pyfile[i] !~ /app\.py$/ ||
		    pyline[i] < lo[pyname[i]] || pyline[i] > hi[pyname[i]])
			ok = 0
		if (ok && pyname[i] == "middle" && i > 1 && pyname[i - 1] == "key" &&
		    pyidx[i] - pyidx[i - 1] < 2)
			ok = 0
	}
	if (outer ~ /^_start(\+0x[0-9a-f]+)?$/ && !trunc)
		rooted++
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
	nfr = 0
	inapp = 0
	trunc = 0
	outer = ""
	stack = $0
	next
}
/^[\t ]/ && insample {
	stack = stack "\n" $0
	kind = frame($0)
	if (kind == "trunc" || kind == "unnamed") {
		trunc = 1
		unnamed += kind == "unnamed"
		next
	}
	nfr++
	if (kind == "py") {
		npy++
		pyidx[npy] = nfr
		pyname[npy] = pf_name
		pyline[npy] = pf_line
		pyfile[npy] = pf_file
		if (pf_file ~ /app\.py$/)
			inapp = 1
	}
	# The symbol of the frame: the field after the address.
	outer = $2
	next
}
/^$/ { flush() }
END {
	flush()
	printf "FIGURE samples=%d python=%d app=%d exact=%d rooted=%d unnamed=%d\n",
	       samples, python, app, exact, rooted, unnamed + 0
}
