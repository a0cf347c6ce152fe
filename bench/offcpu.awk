# SPDX-License-Identifier: GPL-2.0
# bench/offcpu.awk: off-CPU time per known chain in 'dunwind script' output
# (offcpu-time samples), against the times bench/offcpu measured itself
# (its "offcpu: nap NS rd NS" line, read first as another file).  Prints
#   CHAIN profiled=NS measured=NS ratio=R samples=N complete=N
# A stack is complete when it holds the chain from the libc call to main
# and no truncation marker.
function flush() {
	if (ev == "offcpu-time:" && which != "") {
		t[which] += period
		n[which]++
		if (ok && !trunc && mainseen)
			c[which]++
	}
	which = ""; ev = ""; trunc = 0; mainseen = 0; ok = 0; depth = 0
}
/^offcpu: nap / { m["nap"] = $3; m["rd"] = $5; next }
/^[^ \t]/ { flush(); ev = $NF; period = $(NF - 1); next }
/^$/ { flush(); next }
{
	sym = $2; sub(/\+0x[0-9a-f]*$/, "", sym)
	if (sym ~ /^\[truncated/) trunc = 1
	if (sym == "nap" || sym == "rd") { which = sym; want = (sym == "nap") ? "s_mid" : "r_mid"; step = 1 }
	else if (which != "" && step == 1 && sym == want) { step = 2 }
	else if (which != "" && step == 2 && sym == (which == "nap" ? "sleeper" : "reader")) { step = 3 }
	else if (which != "" && step == 3 && sym == "main") { mainseen = 1; ok = 1 }
}
END {
	flush()
	for (k in m)
		printf "%s profiled=%d measured=%d ratio=%.4f samples=%d complete=%d\n", k, t[k], m[k],
			m[k] ? t[k] / m[k] : 0, n[k], c[k]
}
