# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/tap.sh: TAP for the test scripts in tools/ (bash), sourced:
#
#   . "$ROOT/tools/tap.sh"
#   tap_plan N                 "TAP version 13", then "1..N"
#   ok STATUS NAME [DIAG...]   "ok K NAME" when STATUS is 0, else "not ok K NAME"
#                              and DIAG's lines as "# " comments (the first 40;
#                              TAP_DIAG_CUT="tail -n 30" keeps the last 30)
#   tap_done                   "# P passed, F failed"; returns 0 only if none failed
#
# A skipped test is `ok 0 "# SKIP why"`.
tap_n=0
tap_failed=0
TAP_DIAG_CUT=${TAP_DIAG_CUT:-head -n 40}

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

ok() {
	local rc=$1 name=$2

	shift 2
	tap_n=$((tap_n + 1))
	if [ "$rc" = 0 ]; then
		echo "ok $tap_n $name"
	else
		echo "not ok $tap_n $name"
		tap_failed=$((tap_failed + 1))
		[ $# = 0 ] || printf '%s\n' "$@" | $TAP_DIAG_CUT | sed 's/^/# /'
	fi
}

tap_done() {
	echo "# $((tap_n - tap_failed)) passed, $tap_failed failed"
	[ $tap_failed = 0 ]
}
