# shellcheck shell=bash disable=SC2154 # top_srcdir, top_builddir: the test sets them
# tests/system/two_ns.sh: sourced by the system tests that run on two
# network namespaces joined by the delay line of bench/throughput (its
# lib.sh), not one private namespace (lib.sh): measure.sh, diagnose.sh.
#
# two_ns_init NAME TOOL...: skip unless this is Linux, root, with
# /dev/net/tun, `ip netns` and every TOOL; the programs (TB_DELAYLINE,
# TCPTUNED, TCPTUNECTL); TB_TMP, a 0755 root-owned directory (one the
# daemon accepts for its socket, reachable by the non-root cases);
# bench/throughput/lib.sh with the delay line forced (the same emulator
# everywhere); PIDS, the processes the EXIT trap stops before it takes
# the namespaces down and removes TB_TMP; SCALE, TT_TIME_SCALE as a whole
# number (the sanitizer and valgrind stages stretch every bound by it).
# Call it from the script itself, after tests/tap.sh.

two_ns_cleanup() {
	local p
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	tb_down
	rm -rf "$TB_TMP"
}

two_ns_init() {
	local name=$1 t b
	shift
	[ "$(uname -s)" = Linux ] || skip_all "Linux only (TUN, network namespaces)"
	[ "$(id -u)" -eq 0 ] || skip_all "needs root for network namespaces"
	[ -c /dev/net/tun ] || skip_all "no /dev/net/tun"
	for t in ip "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip_all "no $t"
	done
	ip netns list >/dev/null 2>&1 || skip_all "ip netns does not work here"

	TB_DELAYLINE=$top_builddir/bench/throughput/delayline
	TCPTUNED=$top_builddir/tcptuned
	TCPTUNECTL=$top_builddir/tcptunectl
	for b in "$TB_DELAYLINE" "$TCPTUNED" "$TCPTUNECTL"; do
		[ -x "$b" ] || bail "$b not built"
	done
	TB_TMP=$(mktemp -d "/tmp/tt-$name.XXXXXX") || bail "mktemp"
	chmod 0755 "$TB_TMP"
	# shellcheck source=bench/throughput/lib.sh
	. "$top_srcdir/bench/throughput/lib.sh"
	export TB_FORCE_DELAYLINE=1
	PIDS=
	trap two_ns_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	SCALE=${TT_TIME_SCALE:-1}
	case $SCALE in *[!0-9]*|'') SCALE=1 ;; esac
}
