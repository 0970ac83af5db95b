#!/bin/bash
#
# bench/flows/accuracy.sh [--runs N] [--quiet-only] [--quick] OUTDIR: how often
# `tcptunectl diagnose` names what really held a transfer (issue 42,
# item 5), on the throughput bench's emulated path (bench/throughput/lib.sh,
# the delay line forced: 1 Gbit/s, 150 ms, a queue of one BDP).
#
# Near (A) runs tcptuned at the shipped CheckInterval 60, paused
# (`tcptunectl restore`), so that the ceilings each case sets in A by
# sysctl stay; far (B) runs an iperf3 server with 64 MiB ceilings.  Cases,
# each a 6 s iperf3 transfer from A, N runs (3), its verdict read from
# `diagnose --json --all` once the daemon saw the connection close:
#
#   download at a receive ceiling of 4, 8, 16, 64 MiB (A's tcp_rmem[2]);
#   upload at a send ceiling of 4, 8, 16, 64 MiB (A's tcp_wmem[2]);
#   a download and an upload paced by iperf3 at 100 Mbit/s (-b), 64 MiB.
#
# The truth: a ceiling whose window (Linux offers about 5/8 of tcp_rmem[2]
# as window at this MTU, and keeps about 5/6 of tcp_wmem[2] in flight:
# tools/advise/advise_model.c) passes one BDP of the link binds the link,
# network; one below binds the stream, receive-buffer / send-buffer; the
# paced sender is application.  Everything twice: on the machine as it
# is ("quiet"), then with two busy loops (sh -c 'while :; do :; done',
# started and stopped by their pids) on its two CPUs ("busy"); the
# 1-minute load average before and after each is recorded.
#
# Writes OUTDIR/accuracy.md (a markdown section for docs/BENCHMARKS.md),
# OUTDIR/accuracy.dat (one line a transfer: condition case direction
# truth run verdict iperf3_mbps diagnose_mbps rtt_ms path_rtt_ms
# path_full) and the flows' JSON under OUTDIR/accuracy-raw/.  Needs root,
# /dev/net/tun, iperf3, jq; writes sysctls only in its own namespaces
# (tb_assert_ns).  --quick: one run a case, quiet only.  ACC_ONLY="ID ..."
# runs only those cases (a smoke run).

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
if [ -z "${top_builddir:-}" ]; then
	if [ -x ./tcptuned ]; then top_builddir=$(pwd); else top_builddir=$top_srcdir; fi
fi

RUNS=3
CONDITIONS="quiet busy"
while [ $# -gt 0 ]; do
	case $1 in
	--runs) RUNS=${2:?--runs needs a number}; shift ;;
	--quiet-only) CONDITIONS=quiet ;;
	--quick) RUNS=1; CONDITIONS=quiet ;;	# bench/run.sh --quick
	-*) echo "usage: $0 [--runs N] [--quiet-only] OUTDIR" >&2; exit 64 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "usage: $0 [--runs N] [--quiet-only] OUTDIR" >&2; exit 64; }

fail() {
	echo "accuracy: $*" >&2
	exit 1
}
# shellcheck source=bench/throughput/lib.sh
. "$top_srcdir/bench/throughput/lib.sh"
tb_require ip iperf3 jq
[ -c /dev/net/tun ] || fail "no /dev/net/tun"

mkdir -p "$1/accuracy-raw" || fail "cannot create $1"
OUT=$(cd "$1" && pwd)
RAW=$OUT/accuracy-raw
rm -f "$RAW"/* "$OUT/accuracy.dat"
TB_TMP=$(mktemp -d /tmp/tt-bench-acc.XXXXXX) || fail "mktemp"
chmod 0755 "$TB_TMP"
export TB_FORCE_DELAYLINE=1
PIDS=
BUSY=
cleanup() {
	local p
	for p in $BUSY $PIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $BUSY $PIDS; do wait "$p" 2>/dev/null; done
	tb_down
	rm -rf "$TB_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

LINK=1000000000
RTT=150
MIB=1048576
BIG=$((64 * MIB))
PACE=100M
T=6
SOCK=$TB_TMP/tcptuned.sock
in_a() { ip netns exec "$TB_NS_A" "$@"; }
in_b() { ip netns exec "$TB_NS_B" "$@"; }
ctl() { in_a "$TB_TCPTUNECTL" -s "$SOCK" "$@"; }

# id|direction|A tcp_rmem[2]|A tcp_wmem[2]|iperf3 flags|truth
CASES="down4|download|$((4 * MIB))|$BIG|-R|receive-buffer
down8|download|$((8 * MIB))|$BIG|-R|receive-buffer
down16|download|$((16 * MIB))|$BIG|-R|receive-buffer
down64|download|$BIG|$BIG|-R|network
downpaced|download|$BIG|$BIG|-R -b $PACE|application
up4|upload|$BIG|$((4 * MIB))||send-buffer
up8|upload|$BIG|$((8 * MIB))||send-buffer
up16|upload|$BIG|$((16 * MIB))||send-buffer
up64|upload|$BIG|$BIG||network
uppaced|upload|$BIG|$BIG|-b $PACE|application"

cat >"$TB_TMP/tcptune.conf" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>CheckInterval</key>
	<integer>60</integer>
	<key>Sysctls</key>
	<dict>
		<key>net.ipv4.tcp_rmem</key>
		<string>4096 131072 $BIG</string>
		<key>net.ipv4.tcp_wmem</key>
		<string>4096 16384 $BIG</string>
	</dict>
</dict>
</plist>
EOF
chmod 0644 "$TB_TMP/tcptune.conf"

paused() { ctl status --json 2>/dev/null | jq -e '.daemon.paused == true' >/dev/null; }
# The flow of iperf3's data connection from A's PORT, once closed.
flow_of() {
	ctl diagnose --json --all 2>/dev/null | jq -e --arg l "$TB_IP_A:$1" \
	    '[.flows[] | select(.local == $l and .open == false)] | last // empty'
}
flow_closed() { flow_of "$1" | grep -q .; }

tb_up "$LINK" "$RTT" "$((LINK * RTT / 8000))" 1500 2>"$TB_TMP/up.err" ||
    fail "path: $(cat "$TB_TMP/up.err")"
# shellcheck disable=SC2015 # either failing is fatal
tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "4096 131072 $BIG" &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_wmem "4096 16384 $BIG" || fail "B sysctls"
in_b iperf3 -s -B "$TB_IP_B" >"$TB_TMP/iperf3-server.log" 2>&1 &
PIDS="$PIDS $!"
tb_assert_ns "$TB_NS_A"
in_a "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" -f "$TB_TMP/tcptune.conf" \
    -s "$SOCK" -S "$TB_TMP/state" 2>>"$RAW/tcptuned.log" &
PIDS="$PIDS $!"
tb_wait 20 ctl status >/dev/null || fail "tcptuned did not answer"
# shellcheck disable=SC2015 # either failing is fatal
ctl restore >/dev/null 2>&1 && tb_wait 10 paused || fail "tcptuned did not pause"
tb_wait 10 tb_listening || fail "iperf3 server did not start"

PORT=51000
# one COND ID DIR RMEM WMEM FLAGS TRUTH RUN: one transfer, one line.
one() {
	local cond=$1 id=$2 dir=$3 rmem=$4 wmem=$5 flags=$6 truth=$7 run=$8 j ip
	PORT=$((PORT + 1))
	tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "4096 131072 $rmem" &&
	    tb_sysctl "$TB_NS_A" net.ipv4.tcp_wmem "4096 16384 $wmem" || return 1
	ip=$RAW/$cond-$id-$run.iperf.json
	j=$RAW/$cond-$id-$run.flow.json
	# shellcheck disable=SC2086 # flags are words
	in_a iperf3 -c "$TB_IP_B" --cport "$PORT" -P 1 -t "$T" -J $flags >"$ip" 2>&1 ||
	    tb_log "iperf3 $cond $id $run failed"
	if tb_wait 60 flow_closed "$PORT"; then
		flow_of "$PORT" >"$j"
	else
		echo '{"held_by": "not-seen"}' >"$j"
	fi
	printf '%s %s %s %s %s %s %s %s %s %s %s\n' "$cond" "$id" "$dir" "$truth" "$run" \
	    "$(jq -r '.held_by // "none"' "$j")" \
	    "$(jq -r '.end.sum_received.bits_per_second / 1e5 | round / 10' "$ip" 2>/dev/null || echo nan)" \
	    "$(jq -r '(.rate_bps // 0) / 1e5 | round / 10' "$j")" \
	    "$(jq -r '.rtt_ms // "nan"' "$j")" "$(jq -r '.path_rtt_ms // "nan"' "$j")" \
	    "$(jq -r '.path_full // false' "$j")" | tee -a "$OUT/accuracy.dat" >&2
}

condition() {
	local cond=$1 id dir rmem wmem flags truth run i
	if [ "$cond" = busy ]; then
		for i in 1 2; do
			sh -c 'while :; do :; done' &
			BUSY="$BUSY $!"
		done
	fi
	echo "$cond start $(cut -d' ' -f1 /proc/loadavg)" >>"$RAW/load.txt"
	run=1
	while [ "$run" -le "$RUNS" ]; do
		while IFS='|' read -r id dir rmem wmem flags truth <&3; do
			case " ${ACC_ONLY:-$id} " in *" $id "*) ;; *) continue ;; esac
			one "$cond" "$id" "$dir" "$rmem" "$wmem" "$flags" "$truth" "$run" ||
			    fail "case $id failed"
		done 3<<EOF
$CASES
EOF
		run=$((run + 1))
	done
	echo "$cond end $(cut -d' ' -f1 /proc/loadavg)" >>"$RAW/load.txt"
	for i in $BUSY; do kill -TERM "$i" 2>/dev/null; wait "$i" 2>/dev/null; done
	BUSY=
}

START=$(date -u '+%Y-%m-%d %H:%M UTC')
T0=$(date +%s)
for c in $CONDITIONS; do
	condition "$c"
done
{ echo "rtt $(tb_rtt_ms 5)"; tb_counters; } >>"$RAW/counters.txt" 2>&1
ELAPSED=$(( $(date +%s) - T0 ))
printf 'START=%q\nELAPSED=%q\nRUNS=%q\nEMU=%q\n' "$START" "$ELAPSED" "$RUNS" "$TB_EMU" \
    >"$RAW/meta.sh"
bash "$here/accuracy_report.sh" "$OUT" >"$OUT/accuracy.md" || fail "report failed"
cat "$OUT/accuracy.md"
