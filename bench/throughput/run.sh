#!/bin/bash
#
# bench/throughput/run.sh [--quick] [--cc NAME] [--report-only] OUTDIR
#
# Does the tuning lift one TCP stream on a long fat path?  Two network
# namespaces joined by an emulated 1 Gbit/s link (tc netem, or
# bench/throughput/delayline where the kernel has no sch_netem), queue of
# one bandwidth-delay product; single-stream iperf3 with the socket-buffer
# ceilings of each row, 3 runs per row, median; tcptune's shipped Linux
# default applied by the real tcptuned in both namespaces; 4 and 8
# parallel streams as the contrast; an RTT sweep; the predictions of
# `tcptunectl advise` beside the measurements; one stream against four
# through `tcptunectl measure iperf3://` (measure_iperf.sh).
#
# Writes OUTDIR/throughput.md (a markdown section, ready to include),
# OUTDIR/throughput-sweep.png, OUTDIR/throughput-rows.png, and the raw
# iperf3 JSON and data under OUTDIR/throughput-raw/.  --quick: one run per
# row, 1-second runs, 20 ms round trip, for the smoke test.
# --report-only: write the report and plots again from OUTDIR's raw data.
#
# Needs root, /dev/net/tun (or sch_netem), iperf3, jq, gnuplot, and a build
# tree: $top_builddir (else the current directory, if it holds tcptuned).
# Writes sysctls only inside its own namespaces (see lib.sh: tb_assert_ns).

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
if [ -z "${top_builddir:-}" ]; then
	if [ -x ./tcptuned ]; then top_builddir=$(pwd); else top_builddir=$top_srcdir; fi
fi

QUICK=0
REPORT_ONLY=0
CC=cubic
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--cc) CC=${2:?--cc needs a name}; shift ;;
	--report-only) REPORT_ONLY=1 ;;
	-*) echo "usage: $0 [--quick] [--cc NAME] [--report-only] OUTDIR" >&2; exit 64 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "usage: $0 [--quick] [--cc NAME] [--report-only] OUTDIR" >&2; exit 64; }
OUT=$1

fail() {
	echo "throughput: $*" >&2
	exit 1
}

if [ "$REPORT_ONLY" -eq 1 ]; then
	[ -r "$OUT/throughput-raw/meta.sh" ] || fail "no raw data in $OUT"
	RAW=$(cd "$OUT/throughput-raw" && pwd)
	OUT=$(cd "$OUT" && pwd)
	# shellcheck source=/dev/null
	. "$RAW/meta.sh"
fi
[ "$(id -u)" -eq 0 ] || [ "$REPORT_ONLY" -eq 1 ] || fail "needs root (network namespaces)"
for t in ip iperf3 jq gnuplot ss; do
	command -v "$t" >/dev/null 2>&1 || fail "$t not found"
done
TCPTUNED=$top_builddir/tcptuned
TB_TCPTUNECTL=$top_builddir/tcptunectl
TB_DELAYLINE=$top_builddir/bench/throughput/delayline
if [ ! -x "$TCPTUNED" ] || [ ! -x "$TB_TCPTUNECTL" ]; then
	fail "tcptuned/tcptunectl not built in $top_builddir"
fi
if [ ! -x "$TB_DELAYLINE" ]; then
	make -C "$top_builddir" bench/throughput/delayline >/dev/null ||
	    fail "cannot build $TB_DELAYLINE"
fi

# shellcheck source=bench/throughput/lib.sh
. "$here/lib.sh"
DAEMON_PIDS=
cleanup() {
	stop_daemons
	tb_down
	rm -rf "$TB_TMP"
}
if [ "$REPORT_ONLY" -eq 0 ]; then
	mkdir -p "$OUT/throughput-raw" || fail "cannot create $OUT"
	OUT=$(cd "$OUT" && pwd)
	RAW=$OUT/throughput-raw
	rm -f "$RAW"/*.json "$RAW"/*.txt "$RAW"/*.dat "$RAW"/*.log
	TB_TMP=$(mktemp -d /tmp/tt-bench-thru.XXXXXX) || fail "mktemp"
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
fi

# ---- the plan

LINK=1000000000			# bit/s
MTU=1500
[ "$REPORT_ONLY" -eq 1 ] || QUICK_SAVED=$QUICK
if [ "${QUICK_SAVED:-$QUICK}" -eq 1 ]; then
	QUICK=1; RUNS=1; MAIN_RTT=20; SWEEP="10 20"
else
	RUNS=3; MAIN_RTT=150; SWEEP="20 80 150 250"
fi

# id|label|tcp_rmem|tcp_wmem (both namespaces).  "tuned" is applied by
# tcptuned from etc/tcptune.conf.linux.  The pre-6.16 defaults are those
# of Documentation/networking/ip-sysctl.rst and net/ipv4/tcp.c tcp_init()
# (max_rshare 6 MiB, max_wshare 4 MiB); Linux 6.16 raised tcp_rmem[2] to
# 32 MiB (commit "tcp: increase tcp_rmem[2] to 32 MB", Eric Dumazet,
# May 2025), which is what this host's kernel ships.
ROWS_FULL="default|kernel default before 6.16|4096 131072 6291456|4096 16384 4194304
4m|4 MiB ceilings (stock Mac autorcvbufmax)|4096 131072 4194304|4096 16384 4194304
8m|8 MiB ceilings (stock Mac maxsockbuf)|4096 131072 8388608|4096 16384 8388608
16m|16 MiB ceilings|4096 131072 16777216|4096 16384 16777216
k616|kernel default from 6.16|4096 131072 33554432|4096 16384 4194304
tuned|tcptune Linux default, by tcptuned|daemon|daemon"
ROWS_QUICK="default|kernel default before 6.16|4096 131072 6291456|4096 16384 4194304
tuned|tcptune Linux default, by tcptuned|daemon|daemon"
PAR_FULL="default|4
default|8
4m|4"
PAR_QUICK="default|4"
if [ "$QUICK" -eq 1 ]; then ROWS=$ROWS_QUICK; PAR=$PAR_QUICK; else ROWS=$ROWS_FULL; PAR=$PAR_FULL; fi
TUNED_CONF=$top_srcdir/etc/tcptune.conf.linux
# Each key's first string: its value, alone or as a dict's Value (which
# comes before Mode in the shipped config).
conf_value() {
	sed -n "/<key>$1<\\/key>/,/<\\/string>/s/.*<string>\\(.*\\)<\\/string>.*/\\1/p" \
	    "$TUNED_CONF"
}
TUNED_RMEM=$(conf_value net.ipv4.tcp_rmem)
TUNED_WMEM=$(conf_value net.ipv4.tcp_wmem)
if [ -z "$TUNED_RMEM" ] || [ -z "$TUNED_WMEM" ]; then
	fail "cannot read tcp_rmem/tcp_wmem from $TUNED_CONF"
fi

row_field() {		# row_field ID FIELD(1-4)
	printf '%s\n' "$ROWS_FULL" | awk -F'|' -v id="$1" -v f="$2" '$1 == id { print $f }'
}
row_rmem() { if [ "$1" = tuned ]; then echo "$TUNED_RMEM"; else row_field "$1" 3; fi; }
row_wmem() { if [ "$1" = tuned ]; then echo "$TUNED_WMEM"; else row_field "$1" 4; fi; }

# iperf3 run length for a round trip: past slow start (-O), then long
# enough to average over several congestion epochs.
iperf_times() {		# iperf_times RTT_MS -> "T OMIT"
	if [ "$QUICK" -eq 1 ]; then echo "1 0"; return; fi
	awk -v r="$1" 'BEGIN { t = int(r / 10); if (t < 8) t = 8;
	    o = int(r / 30); if (o < 2) o = 2; print t, o }'
}

# ---- tcptuned in both namespaces

stop_daemons() {
	local pid
	for pid in $DAEMON_PIDS; do
		kill -TERM "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	DAEMON_PIDS=
}

# keys_in_force NS: both net.ipv4 keys of the config are in force.
keys_in_force() {
	ip netns exec "$1" "$TB_TCPTUNECTL" -s "$TB_TMP/$1.sock" status --json |
	    jq -e '[.keys[] | select(.name | startswith("net.ipv4.")) |
		select(.state == "in force")] | length == 2' >/dev/null
}

start_daemons() {
	local ns
	install -m 0644 "$TUNED_CONF" "$TB_TMP/tcptune.conf" || return 1
	for ns in "$TB_NS_A" "$TB_NS_B"; do
		tb_assert_ns "$ns"
		ip netns exec "$ns" "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" -f "$TB_TMP/tcptune.conf" \
		    -s "$TB_TMP/$ns.sock" -S "$TB_TMP/$ns.state" \
		    2>>"$RAW/tcptuned-$ns.log" &
		DAEMON_PIDS="$DAEMON_PIDS $!"
	done
	for ns in "$TB_NS_A" "$TB_NS_B"; do
		tb_wait 10 keys_in_force "$ns" || {
			tb_log "tcptuned in $ns: net.ipv4 keys not in force"
			return 1
		}
	done
	ip netns exec "$TB_NS_A" "$TB_TCPTUNECTL" -s "$TB_TMP/$TB_NS_A.sock" \
	    status >"$RAW/tuned-status-$RTT.txt" 2>&1
	return 0
}

# ---- one measurement

# sample_ss FILE DELAY: the sender's view of the data connection(s) once,
# DELAY seconds in (window offered by the receiver, limits hit).
sample_ss() {
	sleep "$2"
	ip netns exec "$TB_NS_A" ss -tin dst "$TB_IP_B" >"$1" 2>&1
}

# measure ROW_ID PARALLEL RUN: one iperf3 run; appends to $RAW/runs.dat
# "rtt row parallel run mbps retransmits snd_wnd".
measure() {
	local row=$1 par=$2 run=$3 t o json ssf mbps retr wnd
	read -r t o <<EOF
$(iperf_times "$RTT")
EOF
	json=$RAW/$RTT-$row-P$par-$run.json
	ssf=$RAW/$RTT-$row-P$par-$run.ss.txt
	sample_ss "$ssf" "$(awk -v t="$t" -v o="$o" 'BEGIN { print o + t * 0.7 }')" &
	tb_iperf "$json" -t "$t" -O "$o" -P "$par" -C "$CC" ||
	    tb_log "iperf3 failed: $(jq -r '.error // empty' "$json" 2>/dev/null)"
	wait $!
	mbps=$(tb_mbps "$json" 2>/dev/null)
	retr=$(jq -r '.end.sum_sent.retransmits // 0' "$json" 2>/dev/null)
	# the largest window B offers on a data connection (not the
	# control one, which has sent next to nothing)
	wnd=$(awk '{ b = 0; w = 0
	    for (i = 1; i <= NF; i++) {
		if ($i ~ /^bytes_sent:/) { b = substr($i, 12) + 0 }
		if ($i ~ /^snd_wnd:/) { w = substr($i, 9) + 0 } }
	    if (b > 1000000 && w > m) m = w } END { print m + 0 }' "$ssf")
	echo "$RTT $row $par $run ${mbps:-0} ${retr:-0} $wnd" >>"$RAW/runs.dat"
	tb_log "  rtt $RTT ms, $row, -P $par, run $run: ${mbps:-FAILED} Mbit/s," \
	    "$retr retransmits, receiver window $wnd"
}

measure_row() {		# measure_row ROW_ID PARALLEL
	local i=1
	if [ "$1" = tuned ]; then
		tb_bufs "$(row_rmem default)" "$(row_wmem default)" || return 1
		start_daemons || { stop_daemons; return 1; }
	else
		tb_bufs "$(row_rmem "$1")" "$(row_wmem "$1")" || return 1
	fi
	while [ "$i" -le "$RUNS" ]; do
		measure "$1" "$2" "$i"
		i=$((i + 1))
	done
	[ "$1" = tuned ] && stop_daemons
	return 0
}

# link_up RTT: the emulated path for one round trip, queue = 1 BDP.
link_up() {
	RTT=$1
	tb_up "$LINK" "$RTT" "$((LINK * RTT / 8000))" "$MTU" ||
	    fail "cannot set up the emulated link"
	tb_iperf_server || fail "iperf3 server did not start"
	tb_rtt_ms 1 >/dev/null		# first contact: warm caches
	echo "$RTT $(tb_rtt_ms 7)" >>"$RAW/rtt.dat"
}

link_down() {
	{ echo "rtt $RTT:"; tb_counters; } >>"$RAW/counters.txt"
	tb_down
}

# ---- run

if [ "$REPORT_ONLY" -eq 1 ]; then
	TB_EMU=$EMU
	# shellcheck source=bench/throughput/report.sh
	. "$here/report.sh"
	report >"$OUT/throughput.md" || fail "report failed"
	exit 0
fi
START=$(date -u '+%Y-%m-%d %H:%M UTC')
T0=$(date +%s)
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
tb_log "throughput: link $((LINK / 1000000)) Mbit/s, MTU $MTU, cc $CC, rows at $MAIN_RTT ms, sweep $SWEEP"
link_up "$MAIN_RTT"
# fd 3, so nothing a row runs can read the list
while IFS='|' read -r id _ <&3; do
	measure_row "$id" 1 || fail "row $id failed"
done 3<<EOF
$ROWS
EOF
while IFS='|' read -r id par <&3; do
	measure_row "$id" "$par" || fail "row $id -P $par failed"
done 3<<EOF
$PAR
EOF
EMU=$TB_EMU
link_down
for r in $SWEEP; do
	[ "$r" = "$MAIN_RTT" ] && continue
	link_up "$r"
	measure_row default 1 || fail "sweep default at $r ms failed"
	measure_row tuned 1 || fail "sweep tuned at $r ms failed"
	link_down
done
# The seed's table through `tcptunectl measure iperf3://` (issue 43), on
# a path of its own; the report includes it (measure-iperf.md).
if [ "$QUICK" -eq 0 ]; then
	bash "$here/measure_iperf.sh" "$OUT" >"$RAW/measure-iperf.log" 2>&1 ||
	    tb_log "measure_iperf.sh failed: see $RAW/measure-iperf.log"
fi
ELAPSED=$(( $(date +%s) - T0 ))
LOADS="$LOAD_START at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
printf 'START=%q\nELAPSED=%q\nEMU=%q\nCC=%q\nQUICK_SAVED=%q\nLOADS=%q\n' \
    "$START" "$ELAPSED" "$EMU" "$CC" "$QUICK" "$LOADS" >"$RAW/meta.sh"
TB_EMU=$EMU

# shellcheck source=bench/throughput/report.sh
. "$here/report.sh"
report >"$OUT/throughput.md" || fail "report failed"
tb_log "throughput: wrote $OUT/throughput.md in ${ELAPSED}s"
