# SPDX-License-Identifier: GPL-2.0
# bench/python/pyframe.awk: what one frame line of 'dunwind script' output
# is, for chain.awk and users.awk (awk -f pyframe.awk -f chain.awk ...).
#
# frame(LINE): "trunc" for a truncation marker, "unnamed" for a Python
# frame left unnamed ("[python: ...]"), "py" for a Python frame
# "NAME (FILE.py:LINE)" (its parts in pf_name, pf_file and pf_line), else
# "native".
function frame(l,   t, loc) {
	if (l ~ /\[truncated/)
		return "trunc"
	if (l ~ /\[python:/)
		return "unnamed"
	if (!match(l, /[^ \t]+ \([^()]*\.py:[0-9]+\)/))
		return "native"
	t = substr(l, RSTART, RLENGTH)
	pf_name = substr(t, 1, index(t, " (") - 1)
	loc = substr(t, index(t, " (") + 2)
	sub(/\)$/, "", loc)
	pf_line = loc
	sub(/^.*:/, "", pf_line)
	pf_file = loc
	sub(/:[0-9]+$/, "", pf_file)
	return "py"
}
