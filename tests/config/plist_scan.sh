#!/bin/bash
#
# Issue 41's 1 MB plist, 143,208 attributes on its <plist>, refused by
# every program that reads XML, each with lib/plist_scan.c's words at the
# attribute's line, which is what shows it never reached libxml2 (whose
# duplicate check costs quadratic time: 31-46 s of CPU before).  No time
# is asserted here; bench/config/hostile_xml.sh prints the figures.
#
#   tcptunectl check       the file as a config
#   tcptunectl import      the file as a launchd job (it runs sysctl -w)
#   tcptuned -n            through its parse helper, tcptune-parse (root:
#                          the daemon reads only root's files)
#
# The config form of the same flood, and a flood of namespace
# declarations, are hostile.sh's attribute-flood and namespace-flood
# (golden.sh, and a running daemon's reload in hostile_reload.sh).  Speaks
# TAP.

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
: "${top_builddir:=$here/../..}"
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
top_builddir=$(cd "$top_builddir" && pwd) || exit 99
ctl=$top_builddir/tcptunectl
tcptuned=$top_builddir/tcptuned

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source=tests/config/hostile.sh
. "$top_srcdir/tests/config/hostile.sh"

[ -x "$ctl" ] || skip_all "$ctl is not built"

T=$(mktemp -d "${TMPDIR:-/tmp}/tt-plist-scan.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 99' HUP INT TERM

# A hang fails rather than stalls the suite (TT_WAIT_LIMIT, as golden.sh).
bounded() {
	if command -v timeout >/dev/null 2>&1; then
		timeout "${TT_WAIT_LIMIT:-120}" "$@"
	else
		"$@"
	fi
}

# In a directory of its own, root's and 0755 when run as root, so that
# tcptuned's trust rule takes it.
mkdir "$T/etc" && chmod 0755 "$T/etc" || exit 99
job=$T/etc/org.example.tune.plist
hostile_launchd_flood >"$job" && chmod 0644 "$job" || exit 99
size=$(wc -c <"$job")
[ "$size" -le 1048576 ]
report $? "the flood fits a config's 1 MiB ($size bytes)"

words='attribute "aa" on <plist> not allowed: '
words=$words'a plist has no attribute but version on <plist>'

# expect DESC STATUS WANT: the command's output ($T/out) is exactly WANT
# and it exited STATUS (1).
expect() {
	if [ "$2" -eq 124 ]; then
		not_ok "$1" "timed out after ${TT_WAIT_LIMIT:-120} s"
	elif [ "$2" -ne 1 ]; then
		not_ok "$1" "exit status $2, expected 1" \
		    "$(head -c 2000 "$T/out")"
	elif [ "$(cat "$T/out")" != "$3" ]; then
		not_ok "$1" "expected: $3" "     got: $(head -c 2000 "$T/out")"
	else
		ok "$1"
	fi
}

bounded "$ctl" check --platform darwin "$job" >"$T/out" 2>&1
expect "check refuses it at the first attribute" $? "$job:2: $words"

bounded "$ctl" import "$job" >"$T/stdout" 2>"$T/all"
status=$?
head -n 1 "$T/all" >"$T/out"
expect "import refuses it at the first attribute" "$status" \
    "tcptunectl: $job:2: $words"
[ ! -s "$T/stdout" ]
report $? "import writes nothing on stdout" "$(head -c 500 "$T/stdout")"

if [ "$(id -u)" -ne 0 ]; then
	skip "tcptuned -n refuses it, in its parse helper" "needs root"
else
	bounded "$tcptuned" -P "$top_builddir/tcptune-parse" -n -f "$job" \
	    >"$T/out" 2>&1
	expect "tcptuned -n refuses it, in its parse helper" $? "$job:2: $words"
fi

# A real launchd job, the same but for the flood, is still read: the
# scan lets through what launchd and plutil write.
sed '2s/^<plist version="1.0" .*/<plist version="1.0">/' "$job" \
    >"$T/etc/plain.plist"
bounded "$ctl" import --platform darwin "$T/etc/plain.plist" >"$T/out" 2>&1
status=$?
[ "$status" -eq 0 ] && grep -q '<key>kern.ipc.maxsockbuf</key>' "$T/out"
report $? "import still reads the job without the flood" \
    "exit $status" "$(head -c 2000 "$T/out")"

tap_end
