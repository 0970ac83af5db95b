#!/bin/bash
#
# bench/throughput/measure_iperf.sh OUTDIR: the seed's table (one stream
# against four, download and upload, a 4 MiB ceiling against the shipped
# ones) measured through `tcptunectl measure --streams 4 iperf3://`
# (issue 43, item 5), on the throughput bench's emulated path (lib.sh:
# the delay line forced, 1 Gbit/s, 150 ms, a queue of one BDP).
#
# Near (A) runs tcptuned on etc/tcptune.conf.linux and the tool; far (B)
# `iperf3 -s` (as tests/system/measure_iperf.sh sets it up).  Both ends
# get the ceilings of a row: 4 MiB (tcp_rmem[2] and tcp_wmem[2]; in A the
# daemon paused by `tcptunectl restore`, the sysctls set in the
# namespace), then the shipped ones (in A by tcptuned after `resume`, in
# B by sysctl, the same values).  One `measure --streams 4 -t 6` a
# direction and a row.
#
# Writes OUTDIR/measure-iperf.md (a markdown section for
# docs/BENCHMARKS.md) and each measure's JSON under
# OUTDIR/measure-iperf-raw/.  Needs root, /dev/net/tun, iperf3, jq and a
# tcptunectl built with libiperf; writes sysctls only in its own
# namespaces (tb_assert_ns).

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
if [ -z "${top_builddir:-}" ]; then
	if [ -x ./tcptuned ]; then top_builddir=$(pwd); else top_builddir=$top_srcdir; fi
fi
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 64; }
fail() {
	echo "measure-iperf: $*" >&2
	exit 1
}
# shellcheck source=bench/throughput/lib.sh
. "$here/lib.sh"
tb_require ip iperf3 jq
"$TB_TCPTUNECTL" measure iperf3://127.0.0.1:9 2>&1 | grep -q "built without libiperf" &&
    fail "this tcptunectl was built without libiperf"

mkdir -p "$1/measure-iperf-raw" || fail "cannot create $1"
OUT=$(cd "$1" && pwd)
RAW=$OUT/measure-iperf-raw
rm -f "$RAW"/*
TB_TMP=$(mktemp -d /tmp/tt-bench-mi.XXXXXX) || fail "mktemp"
chmod 0755 "$TB_TMP"
mkdir -m 0755 "$TB_TMP/run"
export TB_FORCE_DELAYLINE=1
PIDS=
cleanup() {
	local p
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	tb_down
	rm -rf "$TB_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

LINK=1000000000
RTT=150
SOCK=$TB_TMP/run/tcptuned.sock
CONF=$top_srcdir/etc/tcptune.conf.linux
conf_value() {
	sed -n "/<key>$1<\\/key>/,/<\\/string>/s/.*<string>\\(.*\\)<\\/string>.*/\\1/p" "$CONF"
}
SHIP_RMEM=$(conf_value net.ipv4.tcp_rmem)
SHIP_WMEM=$(conf_value net.ipv4.tcp_wmem)
[ -n "$SHIP_RMEM" ] || fail "no tcp_rmem in $CONF"
[ -n "$SHIP_WMEM" ] || fail "no tcp_rmem/tcp_wmem in $CONF"
FOUR="4096 131072 4194304"
FOURW="4096 16384 4194304"
in_a() { ip netns exec "$TB_NS_A" "$@"; }
in_b() { ip netns exec "$TB_NS_B" "$@"; }
ctl() { in_a "$TB_TCPTUNECTL" -s "$SOCK" "$@"; }
a_value() { in_a cat "/proc/sys/net/ipv4/$1" | tr -s '\t ' ' '; }
a_is() {		# a_is RMEM WMEM: A's ceilings are these
	[ "$(a_value tcp_rmem)" = "$1" ] && [ "$(a_value tcp_wmem)" = "$2" ]
}
paused() { ctl status --json 2>/dev/null | jq -e '.daemon.paused == true' >/dev/null; }

tb_up "$LINK" "$RTT" "$((LINK * RTT / 8000))" 1500 2>"$TB_TMP/up.err" ||
    fail "path: $(cat "$TB_TMP/up.err")"
in_b iperf3 -s -B "$TB_IP_B" --forceflush >"$TB_TMP/iperf3-server.log" 2>&1 &
PIDS="$PIDS $!"
install -m 0644 "$CONF" "$TB_TMP/tcptune.conf" || fail "config"
tb_assert_ns "$TB_NS_A"
in_a "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" -f "$TB_TMP/tcptune.conf" \
    -s "$SOCK" -S "$TB_TMP/state" 2>>"$RAW/tcptuned.log" &
PIDS="$PIDS $!"
tb_wait 20 a_is "$SHIP_RMEM" "$SHIP_WMEM" || fail "tcptuned did not apply $CONF"
tb_wait 10 tb_listening || fail "iperf3 server did not start"

# row NAME: both directions' --streams 4 into NAME-DIR.json
row() {
	local dir flag
	for dir in download upload; do
		flag=
		[ "$dir" = upload ] && flag=--upload
		tb_wait 10 tb_listening
		# shellcheck disable=SC2086 # no flag, or one
		ctl measure --streams 4 -t 6 --json $flag "iperf3://$TB_IP_B" \
		    >"$RAW/$1-$dir.json" 2>"$RAW/$1-$dir.err" ||
		    tb_log "measure $1 $dir failed: $(cat "$RAW/$1-$dir.err")"
	done
}

START=$(date -u '+%Y-%m-%d %H:%M UTC')
LOAD0=$(cut -d' ' -f1 /proc/loadavg)
# shellcheck disable=SC2015 # any failing is fatal
ctl restore >/dev/null 2>&1 && tb_wait 10 paused &&
    tb_bufs "$FOUR" "$FOURW" || fail "4 MiB ceilings"
row 4m
# shellcheck disable=SC2015 # any failing is fatal
tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "$SHIP_RMEM" &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_wmem "$SHIP_WMEM" &&
    ctl resume >/dev/null 2>&1 && tb_wait 10 a_is "$SHIP_RMEM" "$SHIP_WMEM" ||
    fail "shipped ceilings"
row shipped
LOAD1=$(cut -d' ' -f1 /proc/loadavg)

mbps() { jq -r ".streams[$2].rate_bps / 1e5 | round / 10" "$RAW/$1.json" 2>/dev/null || echo nan; }
{
	echo "### One stream against four through \`tcptunectl measure iperf3://\` (issue 43)"
	echo
	echo "The seed's table, measured by the tool a user has: \`tcptunectl measure"
	echo "--streams 4 -t 6 [--upload] iperf3://10.77.0.2\` in the near namespace, an"
	echo "\`iperf3 -s\` in the far one, over the delay line (1 Gbit/s, $RTT ms, queue"
	echo "of one BDP). Both ends at a row's ceilings: \"4 MiB\" is tcp_rmem[2] ="
	echo "tcp_wmem[2] = 4 MiB (tcptuned paused by \`restore\`); \"shipped\" is"
	echo "etc/tcptune.conf.linux (tcp_rmem $SHIP_RMEM, tcp_wmem $SHIP_WMEM), applied"
	echo "by tcptuned in the near namespace and by sysctl in the far one. One"
	echo "measure a row and direction; $START, load average $LOAD0 at the start,"
	echo "$LOAD1 at the end (a 2-CPU machine shared with other jobs: a busy one)."
	echo
	echo "Command: \`sudo bench/throughput/measure_iperf.sh OUTDIR\` (the measures'"
	echo "JSON in OUTDIR/measure-iperf-raw/)."
	echo
	echo "| ceilings | direction | 1 stream (Mbit/s) | 4 streams (Mbit/s) | one stream's share of four | measure's verdict |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for r in 4m shipped; do
		for dir in download upload; do
			j=$RAW/$r-$dir.json
			if [ -s "$j" ]; then
				printf '| %s | %s | %s | %s | %s | %s |\n' \
				    "$( [ "$r" = 4m ] && echo "4 MiB" || echo shipped)" "$dir" \
				    "$(mbps "$r-$dir" 0)" "$(mbps "$r-$dir" 1)" \
				    "$(jq -r '.share * 100 | round | tostring + " %"' "$j")" \
				    "$(jq -r '.verdict' "$j" | tr '\n' ' ' | sed 's/ *$//')"
			else
				printf '| %s | %s | failed: %s | | | |\n' "$r" "$dir" \
				    "$(tr '\n' ' ' <"$RAW/$r-$dir.err")"
			fi
		done
	done
	echo
} >"$OUT/measure-iperf.md"
cat "$OUT/measure-iperf.md"
