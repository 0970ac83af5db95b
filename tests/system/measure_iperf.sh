#!/bin/bash
#
# tcptunectl measure iperf3://HOST[:PORT] end to end (TAP), in two
# private network namespaces joined by the TUN delay line of
# bench/throughput (lib.sh there): near (A) runs tcptuned and the tool,
# far (B) `iperf3 -s`.
#
#   - 200 Mbit/s, 300 ms, a 4 MiB ceiling each way in A: --streams 4 in
#     each direction, on the originals (tcptunectl restore) one stream
#     gets under 60 % of four, a per-stream limit; tuned (resume), one
#     stream's share is larger, and both shares are printed;
#   - the rounds (-n 2 --both): a verdict a direction, each "faster";
#     the server (a plain iperf3 -s) sends its report as text, so the
#     download's round trip under load is unknown, and the report says so;
#   - 20 Mbit/s, 20 ms with a 2 MB queue in the delay line each way, 32
#     KiB send and receive ceilings in A, senders without HyStart (reno
#     in A and B), an iperf3 -s -J server: the download's rounds carry
#     the server's own RTT under load and minimum; tuned, the upload
#     fills the uplink's queue and the far sender the downlink's, and
#     measure says "faster, but the queue grew" (queue_grew in the JSON)
#     each way, not a win;
#   - the kernel's cached metrics for the server (ip tcp_metrics) are
#     gone once a round has started, even one that then fails;
#   - faults, each one line and its exit status: no route to the server
#     (5), a wrong port (5), a server busy with another client's test (10,
#     "the server is busy"), a server that answers with a control message
#     this libiperf does not know, as a server of another protocol version
#     would (10), a bad iperf3:// URL (64) and --method, an http(s)
#     upload's, on an iperf3:// URL (64, usage).
#
# Rates are never asserted as timings: only the verdicts' direction, with
# margins the delay line keeps on a loaded machine.  The figures are
# printed as diagnostics:
#   make check TESTS=tests/system/measure_iperf.sh; see its .log
# Writes sysctls only inside its own namespaces (tb_assert_ns).

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

# shellcheck source=tests/system/two_ns.sh
. "$top_srcdir/tests/system/two_ns.sh"
two_ns_init measure-iperf jq iperf3 python3
"$TCPTUNECTL" measure iperf3://127.0.0.1:9 2>&1 |
    grep -q "built without libiperf" &&
    skip_all "this tcptunectl was built without libiperf"
SOCK=$TB_TMP/run/tcptuned.sock
mkdir -m 0755 "$TB_TMP/run"
ORIG_4M="4096 131072 4194304"
TUNED="4096 131072 67108864"

in_a() { ip netns exec "$TB_NS_A" "$@"; }
in_b() { ip netns exec "$TB_NS_B" "$@"; }
ctl() { in_a "$TCPTUNECTL" -s "$SOCK" "$@"; }
report() {
	local rc=$1 desc=$2
	shift 2
	if [ "$rc" -eq 0 ]; then ok "$desc"; else not_ok "$desc" "$@"; fi
	return "$rc"
}
rmem_is() {
	[ "$(in_a cat /proc/sys/net/ipv4/tcp_rmem | tr -s '\t ' ' ')" = "$1" ]
}
wmem_is() {
	[ "$(in_a cat /proc/sys/net/ipv4/tcp_wmem | tr -s '\t ' ' ')" = "$1" ]
}
enforcing() {
	ctl status --json 2>/dev/null |
	    jq -e '.daemon.paused == false and .daemon.lease == null' \
	    >/dev/null && rmem_is "$TUNED" && wmem_is "$TUNED"
}
# shellcheck disable=SC2317 # called through tb_wait
listening() { in_b ss -Hltn | grep -q "$TB_IP_B:$1"; }

# path_up RATE RTT QUEUE A_RMEM A_WMEM [SERVER_FLAG]: the delay line,
# iperf3 -s in B (with SERVER_FLAG, -J: a JSON report to its clients),
# tcptuned in A on a config that raises both ceilings to 64 MiB.
path_up() {
	local rate=$1 rtt=$2 queue=$3 rmem=$4 wmem=$5 sflag=${6:-}
	tb_up "$rate" "$rtt" "$queue" 1500 2>"$TB_TMP/up.err" ||
	    { diag_file up "$TB_TMP/up.err"; return 1; }
	tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "$rmem" &&
	    tb_sysctl "$TB_NS_A" net.ipv4.tcp_wmem "$wmem" &&
	    tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "$TUNED" &&
	    tb_sysctl "$TB_NS_B" net.ipv4.tcp_wmem "$TUNED" || return 1
	# shellcheck disable=SC2086 # no flag, or one
	in_b iperf3 -s -B "$TB_IP_B" --forceflush $sflag \
	    >"$TB_TMP/iperf3-server.log" 2>&1 &
	PIDS="$PIDS $!"
	cat >"$TB_TMP/tcptune.conf" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>Sysctls</key>
	<dict>
		<key>net.ipv4.tcp_rmem</key>
		<string>$TUNED</string>
		<key>net.ipv4.tcp_wmem</key>
		<string>$TUNED</string>
	</dict>
</dict>
</plist>
EOF
	chmod 0644 "$TB_TMP/tcptune.conf"
	tb_assert_ns "$TB_NS_A"
	# shellcheck disable=SC2086 # the wrapper is a command line
	in_a ${TT_DAEMON_WRAPPER:-} "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" \
	    -f "$TB_TMP/tcptune.conf" -s "$SOCK" -S "$TB_TMP/state-$rtt" \
	    2>>"$TB_TMP/tcptuned.log" &
	PIDS="$PIDS $!"
	tb_wait $((20 * SCALE)) enforcing && tb_wait 10 listening 5201
}

path_down() {
	local p
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
	tb_down
}

URL=
# streams NAME ARGS...: --streams 4 into NAME.json, the table as diagnostics
streams() {
	local name=$1
	shift
	tb_wait 10 listening 5201
	ctl measure --streams 4 -t 6 --json "$@" "$URL" >"$TB_TMP/$name.json" \
	    2>"$TB_TMP/$name.err" ||
	    { diag_file "measure --streams 4 $name" "$TB_TMP/$name.err"; return 1; }
	diag "$name: $(jq -c '{share, streams: [.streams[].rate_bps / 1e6 | round]}' "$TB_TMP/$name.json")"
}
share() { jq -r .share "$TB_TMP/$1.json"; }
# less A B: the number A is below B
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# ---- 200 Mbit/s, 300 ms: one stream against four, originals and tuned
# 300 ms, not 100 or 200: a 4 MiB ceiling gives one stream a window of
# about 2-3 MiB (tcp_rmem[2] scaled by the skb overhead; wmem alike), 112
# Mbit/s at 200 ms, too near 60 % of the line's 200; at 300 ms it is far
# below, and the delay line still carries 200 Mbit/s on a busy machine.
path_up 200000000 300 $((200000000 * 300 / 8000 + 150000)) "$ORIG_4M" \
    "$ORIG_4M"
report $? "200 Mbit/s 300 ms path up ($TB_EMU), iperf3 -s in B, tcptuned enforcing in A" ||
    { diag_file "daemon log" "$TB_TMP/tcptuned.log"; bail "no path"; }
URL=iperf3://$TB_IP_B

ctl restore >/dev/null 2>&1 && tb_wait 10 rmem_is "$ORIG_4M"
report $? "restore puts the 4 MiB ceilings back"
for dir in download upload; do
	flag=
	[ "$dir" = upload ] && flag=--upload
	# shellcheck disable=SC2086 # no flag, or one
	streams "orig-$dir" $flag &&
	    less "$(share "orig-$dir")" 0.6 &&
	    jq -e '.verdict | test("a per-stream limit")' \
	    "$TB_TMP/orig-$dir.json" >/dev/null
	report $? "$dir, 4 MiB ceiling: one stream far below four (a per-stream limit)" \
	    "$(cat "$TB_TMP/orig-$dir.json" 2>/dev/null)"
done
ctl resume >/dev/null 2>&1 && tb_wait 10 enforcing
report $? "resume puts the tuned ceilings back"
for dir in download upload; do
	flag=
	[ "$dir" = upload ] && flag=--upload
	# shellcheck disable=SC2086 # no flag, or one
	streams "tuned-$dir" $flag &&
	    less "$(share "orig-$dir")" "$(share "tuned-$dir")"
	report $? "$dir, tuned: one stream nearer four than on 4 MiB ($(share "orig-$dir") -> $(share "tuned-$dir"))"
done

# ---- the rounds, both directions, a verdict each
tb_wait 10 listening 5201
ctl measure -n 2 -t 5 --both --json "$URL" >"$TB_TMP/both.json" \
    2>"$TB_TMP/both.err"
rc=$?
for dir in download upload; do
	diag "$dir: $(jq -c --arg d "$dir" '.[$d] | {rounds: [.rounds[] | "\(.side) \(.mbps_after_first_second | round) Mbit/s rtt \(.rtt_under_load_ms) retrans \(.retransmits)"], verdict: .verdict.text}' "$TB_TMP/both.json" 2>/dev/null)"
done
[ "$rc" -eq 0 ] &&
    jq -e '.download.direction == "download" and .upload.direction == "upload" and
	.download.verdict.kind == "faster" and .upload.verdict.kind == "faster" and
	(.download.rounds | length) == 4 and (.upload.rounds | length) == 4' \
    "$TB_TMP/both.json" >/dev/null
report $? "--both: a verdict a direction, tuned faster each way" \
    "$(cat "$TB_TMP/both.err")"
# A plain iperf3 -s sends its report as text, without round trips: the
# download's are unknown, said, and none is made up; the upload's are
# A's own.
jq -e '(.download.rtt_under_load_unknown_reason | test("as text")) and
	([.download.rounds[].rtt_under_load_ms] | all(. == null)) and
	.upload.rtt_under_load_unknown_reason == null and
	([.upload.rounds[].rtt_under_load_ms] | all(. != null))' \
    "$TB_TMP/both.json" >/dev/null
report $? "a plain iperf3 -s: the download's round trip under load unknown, and why" \
    "$(jq -c '.download.rtt_under_load_unknown_reason' "$TB_TMP/both.json" 2>/dev/null)"
tb_wait 10 listening 5201
ctl measure -n 1 -t 2 "$URL" >"$TB_TMP/unknown.txt" 2>&1
# the note is wrapped running text: joined before it is read
tr -s '\n ' '  ' <"$TB_TMP/unknown.txt" |
    grep -q "round trip under load is unknown: the iperf3 server sends its"
report $? "the text report says so under the table" \
    "$(cat "$TB_TMP/unknown.txt")"
enforcing
report $? "the daemon enforces after the rounds"

# ---- faults
# fault NAME STATUS PATTERN URL [ARGS...]: one line on stderr, its status
fault() {
	local name=$1 want=$2 pattern=$3 rc lines
	shift 3
	ctl measure -n 1 -t 2 "$@" >"$TB_TMP/$name.out" 2>"$TB_TMP/$name.err"
	rc=$?
	lines=$(wc -l <"$TB_TMP/$name.err")
	[ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] &&
	    grep -q -- "$pattern" "$TB_TMP/$name.err" &&
	    [ ! -s "$TB_TMP/$name.out" ]
	report $? "$name: exit $want, one line: $(cat "$TB_TMP/$name.err")" \
	    "exit $rc, $lines lines"
}
tb_wait 10 listening 5201
fault "no route" 5 "unable to connect" iperf3://198.51.100.7
fault "wrong port" 5 "Connection refused" "iperf3://$TB_IP_B:5999"
# The cache: an iperf3 run of A's own leaves the server's entry in A's
# tcp_metrics; a round forgets it before it connects (this one then
# fails on a closed port, and a refused connection caches nothing).
cached() { [ -n "$(in_a ip tcp_metrics show "$TB_IP_B" 2>/dev/null)" ]; }
# The entry is written when a connection's close completes, a round trip
# after the program exits: wait for it, and for no connection to B that
# has yet to close (a TIME-WAIT one has written its entry).
# shellcheck disable=SC2317 # called through tb_wait
settled() {
	cached && [ -z "$(in_a ss -Htn exclude time-wait dst "$TB_IP_B")" ]
}
in_a iperf3 -c "$TB_IP_B" -n 1M >/dev/null 2>&1 && tb_wait 10 settled
report $? "a connection of A's own leaves $TB_IP_B in A's tcp_metrics" \
    "$(in_a ip tcp_metrics show)" "$(in_a ss -tn)"
ctl measure -n 1 -t 2 --json "iperf3://$TB_IP_B:5999" >/dev/null 2>&1
! cached
report $? "a round clears the server's tcp_metrics entry before it connects" \
    "$(in_a ip tcp_metrics show)"
tb_wait 10 listening 5201
ctl measure -n 1 -t 2 --json "$URL" >"$TB_TMP/metrics.json" 2>&1 &&
    jq -e '.tcp_metrics_cleared == true' "$TB_TMP/metrics.json" >/dev/null
report $? "the report says the cache was cleared before each round"
fault "bad URL" 64 "bad URL" "iperf3://$TB_IP_B/file"
fault "--method with iperf3" 64 "an iperf3 test has no HTTP method" \
    --upload --method post "$URL"

# A server busy with another client's test: iperf3 -s runs one at a time.
busy_since=$(grep -c "Accepted connection" "$TB_TMP/iperf3-server.log")
in_a iperf3 -c "$TB_IP_B" -t 60 >/dev/null 2>&1 &
OTHER=$!
PIDS="$PIDS $OTHER"
# shellcheck disable=SC2317 # called through tb_wait
accepted() {
	[ "$(grep -c "Accepted connection" "$TB_TMP/iperf3-server.log")" -gt \
	    "$busy_since" ]
}
tb_wait 10 accepted || diag_file "iperf3 -s" "$TB_TMP/iperf3-server.log"
fault "busy server" 10 "the server is busy" "$URL"
kill -TERM "$OTHER" 2>/dev/null
wait "$OTHER" 2>/dev/null

# A server of another protocol: it takes the cookie, then answers with a
# control state this libiperf does not know (iperf_api.h's states are
# small negative and positive numbers; 99 is none of them).
in_b python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5301))
s.listen(4)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    c.recv(37)
    c.sendall(bytes([99]))
    c.close()
' "$TB_IP_B" >"$TB_TMP/other.out" 2>&1 &
PIDS="$PIDS $!"
tb_wait 10 listening 5301
fault "another protocol" 10 "speaks" "iperf3://$TB_IP_B:5301"
enforcing
report $? "the daemon enforces after every fault"
path_down

# ---- harm: ceilings that fill a slow line's queue, each way
# The original upload has a 32 KiB send ceiling, the tuned one 64 MiB,
# which lets the sender fill the delay line's 2 MB queue (800 ms at 20
# Mbit/s): the round trip under load grows with it.  (The original side
# queued 50-180 ms in the runs so far, a 32 KiB ceiling bounding it less
# than its size says; the tuned side 300 ms with a 1 MB queue, 700 with
# this one.)
# The download's counterpart: B sends from a 64 MiB send buffer, and
# what bounds it is A's receive window, from a 32 KiB receive ceiling
# originally (about 16 KiB of window, under the 50 KB the line holds: no
# queue), from 64 MiB tuned, which receive autotuning grows past the
# queue, so B fills the downlink's own 2 MB queue.  The server runs with
# -J, so it sends its report with its round trips.
# The senders are reno (net.ipv4.tcp_congestion_control is per
# namespace): cubic's HyStart leaves slow start at the first sign of
# delay and then grows by seconds, so a 5 s round would show the queue
# only begin to fill; reno fills it, as a bloated line is filled.
path_up 20000000 20 2000000 "4096 16384 32768" "4096 16384 32768" -J &&
    tb_sysctl "$TB_NS_A" net.ipv4.tcp_congestion_control reno &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_congestion_control reno
report $? "20 Mbit/s 20 ms path with a 2 MB queue up, iperf3 -s -J, tcptuned enforcing" ||
    { diag_file "daemon log" "$TB_TMP/tcptuned.log"; bail "no path"; }
tb_wait 10 listening 5201
ctl measure -n 2 -t 5 --both --json "$URL" >"$TB_TMP/harm.json" \
    2>"$TB_TMP/harm.err"
rc=$?
for dir in download upload; do
	diag "$dir: $(jq -c --arg d "$dir" '.[$d] | {rounds: [.rounds[] | "\(.side) \(.mbps_after_first_second | round) Mbit/s rtt \(.rtt_ms) under load \(.rtt_under_load_ms) retrans \(.retransmits)"], verdict: .verdict.text}' "$TB_TMP/harm.json" 2>/dev/null)"
done
[ "$rc" -eq 0 ] &&
    jq -e '.download.rtt_under_load_unknown_reason == null and
	(.download.rounds | length) == 4 and
	([.download.rounds[] | .rtt_under_load_ms != null and .rtt_ms != null and
	    .rtt_under_load_ms >= .rtt_ms] | all)' \
    "$TB_TMP/harm.json" >/dev/null
report $? "an iperf3 -s -J server: each download round has its RTT under load and minimum" \
    "$(cat "$TB_TMP/harm.err")"
# Harm, not a win: "faster, but the queue grew" when the tuned side is
# 1.2 times faster, else the queue's growth said after the verdict (the
# line's 20 Mbit/s leaves the sides near that factor on a loaded host).
# harmed DIR: that direction's verdict says the RTT under load rose
harmed() {
	jq -e --arg d "$1" '.[$d] | .verdict.queue_grew == true and
	    (.verdict.text | test("the queue grew: the round trip under load rose")) and
	    (.verdict.text | startswith("tuned is") | not) and
	    .tuned.rtt_under_load_ms > .original.rtt_under_load_ms' \
	    "$TB_TMP/harm.json" >/dev/null
}
[ "$rc" -eq 0 ] && harmed upload
report $? "a send ceiling that bloats the uplink's queue: harm, not a win" \
    "$(cat "$TB_TMP/harm.err")"
[ "$rc" -eq 0 ] && harmed download
report $? "a receive ceiling that lets the far sender bloat the downlink's queue: harm, not a win" \
    "$(cat "$TB_TMP/harm.err")"
tb_wait 10 listening 5201
ctl measure -n 1 -t 3 --upload "$URL" >"$TB_TMP/harm.txt" 2>&1
diag_file "the text report" "$TB_TMP/harm.txt"
grep -q "load RTT  retrans" "$TB_TMP/harm.txt" &&
    [ "$(awk '{ if (length > w) w = length } END { print w + 0 }' \
    "$TB_TMP/harm.txt")" -le 80 ]
report $? "the text report has the RTT under load and retransmissions, within 80 columns"

tap_end
exit 0
