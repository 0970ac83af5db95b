#!/bin/bash
#
# Issue 42: a 3 s transfer that starts and ends while tcptuned's sampling
# tick sleeps gets a verdict, from the kernel's close notice alone
# (daemon/flows/flows.c flows_close, flows_verdict.c flows_close_rate).
# Two private network namespaces joined by the delay line of
# bench/throughput (tests/system/two_ns.sh), 100 ms of round trip, the
# daemon in A at CheckInterval 60 as shipped:
#
#   asleep   with nothing moving in A the tick backs off to a long sleep
#            (flows_tick_next); the daemon's own answer says for how long
#            at least: no tick before its last pass plus the period now
#            (the tick is armed after its pass, and only a tick or a
#            close notice re-arms it), less a second each for
#            last_pass's and our clock's rounding;
#   inside   a download from B that sends for 3 s, then stops and shuts
#            its side; A's reader holds the connection open while the
#            daemon is asked again: the tick's period unchanged (a tick
#            would have seen the segments and gone back to a second), its
#            last pass too but for last_pass's rounding (a pass would have
#            moved it a whole period on) and the connection in no history
#            entry;
#   judged   then A closes: the daemon shows it closed, judged_at_close,
#            with a verdict, its count of close notices and of
#            connections closed before any pass read them one higher.
#
# A machine busy enough to put the download past the sleep (two make
# -j4 check beside it) shows as a changed tick or last pass, or as
# judged_at_close false (a pass read it between the check and the
# close): that try is said, and the next one waits for the next sleep;
# no try that overlapped a pass is counted as a pass.  Every wait is on
# the daemon's state, asked once a second; the only sleep is the
# download's own 3 s, timed by its sender.  Writes sysctls only inside
# its own namespaces (tb_assert_ns).
#   make check TESTS=tests/system/diagnose_sleep.sh; see its .log

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

# shellcheck source=tests/system/two_ns.sh
. "$top_srcdir/tests/system/two_ns.sh"
two_ns_init diagsleep jq python3
SOCK=$TB_TMP/tcptuned.sock
RTT=100
RATE=1000000000
ORIG_RMEM="4096 131072 2097152"
TUNED_RMEM="4096 131072 67108864"
SECONDS_SENT=3	# the download's own length, timed by its sender
ROOM=20		# seconds of sleep a try needs left when it starts
TRIES=3
# a safety net for the reader's answer, as tb_wait's (TT_WAIT_LIMIT)
LIMIT=$(awk -v l="${TT_WAIT_LIMIT:-120}" -v k="$SCALE" \
    'BEGIN { if (l < 60) l = 60; printf "%d", l * k }')

in_a() { ip netns exec "$TB_NS_A" "$@"; }
in_b() { ip netns exec "$TB_NS_B" "$@"; }
ctl() { in_a "$TCPTUNECTL" -s "$SOCK" "$@"; }
rmem_is() {
	[ "$(in_a cat /proc/sys/net/ipv4/tcp_rmem | tr -s '\t ' ' ')" = "$1" ]
}

# wait_slow SECONDS CMD...: tb_wait, asking once a second: the waits
# here last a minute or more, and a busy machine need not answer twenty
# diagnose requests a second.  Bounded as tb_wait (TT_WAIT_LIMIT), times
# SCALE.
wait_slow() {
	local n
	n=$(awk -v s="$1" -v l="${TT_WAIT_LIMIT:-120}" -v k="$SCALE" \
	    'BEGIN { if (l > s) s = l; printf "%d", s * k }')
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		n=$((n - 1))
		sleep 1
	done
	"$@" >/dev/null 2>&1
}

# summary FILE: diagnose --json --all into FILE; true if it parses.
summary() {
	ctl diagnose --json --all >"$1" 2>&1 && jq -e . "$1" >/dev/null 2>&1
}

# sleep_left FILE: the seconds of the tick's sleep left at least, by the
# summary in FILE: its last pass plus the period now, less 2 s (last_pass
# is a whole second, and so is our clock); "" without a pass yet.
sleep_left() {
	jq -r --argjson now "$(date +%s)" '
	    if .last_pass == null or .tick_now_ms == null then ""
	    else (.last_pass | fromdateiso8601) + .tick_now_ms / 1000 - 2 -
		$now | floor end' "$1"
}

# asleep: the tick has backed off past its busy period, with ROOM
# seconds of sleep left at least; the summary in $TB_TMP/asleep.json.
# shellcheck disable=SC2317 # called through wait_slow
asleep() {
	local left
	summary "$TB_TMP/asleep.json" &&
	    jq -e '.tick_now_ms > .tick_ms' "$TB_TMP/asleep.json" >/dev/null &&
	    left=$(sleep_left "$TB_TMP/asleep.json") && [ -n "$left" ] &&
	    [ "$left" -ge "$ROOM" ]
}

# flow_is FILE PORT [TEST]: the summary in FILE has exactly one flow from
# A's PORT, and it passes the jq TEST.  One jq on the summary, never
# `flow | jq -e`: jq 1.6's -e is true on empty input.
flow_is() {
	jq -e --arg l "$TB_IP_A:$2" "[.flows[] | select(.local == \$l)] |
	    length == 1 and (.[0] | ${3:-true})" "$1" >/dev/null
}
# shellcheck disable=SC2317 # called through tb_wait
flow_closed() {
	summary "$TB_TMP/closed.json" &&
	    flow_is "$TB_TMP/closed.json" "$1" '.open == false'
}

cat >"$TB_TMP/tcptune.conf" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>CheckInterval</key>
	<integer>60</integer>
	<key>Sysctls</key>
	<dict>
		<key>net.ipv4.tcp_rmem</key>
		<string>$TUNED_RMEM</string>
	</dict>
</dict>
</plist>
EOF
chmod 0644 "$TB_TMP/tcptune.conf"

tb_up "$RATE" "$RTT" "$((RATE * RTT / 8000 + 150000))" 1500 \
    2>"$TB_TMP/up.err" || { diag_file up "$TB_TMP/up.err"; bail "path"; }
# shellcheck disable=SC2015 # any failure of the chain bails
tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "$ORIG_RMEM" &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_wmem "4096 16384 67108864" ||
    bail "namespace sysctls"

# B's sender: for each connection, SECONDS_SENT of data as fast as the
# path takes it, then its side shut; it reads until A closes.
in_b python3 -c '
import socket, sys, time
s = socket.create_server((sys.argv[1], 5302))
print("listening", flush=True)
data = b"x" * 65536
while True:
    c, _ = s.accept()
    end = time.monotonic() + float(sys.argv[2])
    try:
        while time.monotonic() < end:
            c.sendall(data)
        c.shutdown(socket.SHUT_WR)
        while c.recv(65536):
            pass
    except OSError:
        pass
    c.close()
' "$TB_IP_B" "$SECONDS_SENT" >"$TB_TMP/sender.out" 2>&1 &
PIDS="$PIDS $!"
# A's reader, from PORT: reads to the sender's end, says "done BYTES",
# and closes once a line comes on its standard input.
READER='
import socket, sys
s = socket.create_connection((sys.argv[1], 5302),
    source_address=("", int(sys.argv[2])))
n = 0
while True:
    b = s.recv(1 << 20)
    if not b:
        break
    n += len(b)
print("done", n, flush=True)
sys.stdin.readline()
s.close()
'

tb_assert_ns "$TB_NS_A"
# shellcheck disable=SC2086 # the wrapper is a command line
in_a ${TT_DAEMON_WRAPPER:-} "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" \
    -f "$TB_TMP/tcptune.conf" -s "$SOCK" -S "$TB_TMP/state" \
    2>>"$TB_TMP/tcptuned.log" &
PIDS="$PIDS $!"
tb_wait $((20 * SCALE)) rmem_is "$TUNED_RMEM" &&
    tb_wait 10 grep -q listening "$TB_TMP/sender.out"
report $? "$RTT ms path up ($TB_EMU), tcptuned enforcing in $TB_NS_A" ||
    { diag_file "daemon log" "$TB_TMP/tcptuned.log"; bail "no daemon"; }
# shellcheck disable=SC2015 # any failure of the chain bails
summary "$TB_TMP/start.json" &&
    jq -e '.close_notices == true' "$TB_TMP/start.json" >/dev/null ||
    bail "the daemon watches no close notices here: $(jq -c \
    '.close_notices_problem' "$TB_TMP/start.json" 2>&1)"

# try N: one download inside a sleep, from port 52000+N.  0 when it ran
# inside the sleep and closed; 1 when it overlapped a tick or a pass
# (said); 2 when something else failed (said).
PORT=52000
try() {
	local n=$1 port=$((PORT + $1)) line='' rc=0 reader
	if ! wait_slow 150 asleep; then
		diag "try $n: the tick never slept with ${ROOM} s left: $(jq -c \
		    '{tick_ms, tick_now_ms, last_pass}' "$TB_TMP/asleep.json" 2>&1)"
		return 2
	fi
	cp "$TB_TMP/asleep.json" "$TB_TMP/before$n.json"
	diag "try $n: asleep, $(sleep_left "$TB_TMP/before$n.json") s left at least: $(jq -c \
	    '{tick_now_ms, last_pass, closes, closed_before_sampled}' \
	    "$TB_TMP/before$n.json")"
	coproc READ { exec ip netns exec "$TB_NS_A" python3 -c "$READER" \
	    "$TB_IP_B" "$port" 2>"$TB_TMP/reader$n.err"; }
	reader=$READ_PID
	PIDS="$PIDS $reader"
	read -r -t "$LIMIT" line <&"${READ[0]}"
	case $line in
	"done "*) ;;
	*)
		diag "try $n: no download: '$line'" "$(cat "$TB_TMP/reader$n.err")"
		kill "$reader" 2>/dev/null
		wait "$reader" 2>/dev/null
		return 2 ;;
	esac
	# the data is over, the connection still open: what the daemon did
	summary "$TB_TMP/inside$n.json" || rc=2
	if [ "$rc" -eq 0 ] && ! jq -e --slurpfile b "$TB_TMP/before$n.json" \
	    '.tick_now_ms == $b[0].tick_now_ms and
	    ((.last_pass | fromdateiso8601) -
	    ($b[0].last_pass | fromdateiso8601)) as $moved |
	    $moved <= 1 and $moved >= -1' "$TB_TMP/inside$n.json" \
	    >/dev/null; then
		diag "try $n: a tick or a pass ran during the download: $(jq -c \
		    '{tick_now_ms, last_pass}' "$TB_TMP/inside$n.json")"
		rc=1
	elif [ "$rc" -eq 0 ] && ! jq -e --arg l "$TB_IP_A:$port" \
	    'all(.flows[]; .local != $l)' "$TB_TMP/inside$n.json" \
	    >/dev/null; then
		diag "try $n: the daemon has read the download already"
		rc=1
	fi
	diag "try $n: ${line#done } bytes in ${SECONDS_SENT} s; then" \
	    "$(jq -c '{tick_now_ms, last_pass}' "$TB_TMP/inside$n.json" 2>&1)," \
	    "$(sleep_left "$TB_TMP/before$n.json") s of the sleep left at least"
	echo close >&"${READ[1]}"
	wait "$reader"
	[ "$rc" -eq 0 ] || return "$rc"
	if ! tb_wait $((60 * SCALE)) flow_closed "$port"; then
		diag "try $n: no closed flow from port $port"
		return 2
	fi
	cp "$TB_TMP/closed.json" "$TB_TMP/after$n.json"
	jq --arg l "$TB_IP_A:$port" '.flows[] | select(.local == $l)' \
	    "$TB_TMP/after$n.json" >"$TB_TMP/flow$n.json"
	diag "try $n: $(jq -c '{held_by, judged_at_close, rate_bps, rtt_ms, bytes}' \
	    "$TB_TMP/flow$n.json")"
	if ! flow_is "$TB_TMP/after$n.json" "$port" \
	    '.judged_at_close == true'; then
		diag "try $n: a pass read it before its close notice came"
		return 1
	fi
	return 0
}

n=0
got=1
while [ "$n" -lt "$TRIES" ]; do
	n=$((n + 1))
	try "$n"
	got=$?
	[ "$got" -eq 1 ] || break
done
report "$got" "a ${SECONDS_SENT} s download started and ended inside a sleep of the tick: no tick, no pass, not in the history while it ran (try $n of $TRIES)" \
    "$(tail -n 15 "$TB_TMP/tcptuned.log")"
[ "$got" -eq 0 ] || { tap_end; exit; }

flow_is "$TB_TMP/after$n.json" "$((PORT + n))" '.open == false and
    .judged_at_close == true and .held_by != "unclassified" and
    .held_by != null'
report $? "it is shown closed, judged at its close from its TCP info, with a verdict ($(jq -r .held_by "$TB_TMP/flow$n.json"))" \
    "$(cat "$TB_TMP/flow$n.json")"

# The counts: one close notice taken, one connection closed before any
# pass read it: this one (nothing else in A moves: no other notice).
jq -e --slurpfile b "$TB_TMP/before$n.json" \
    '.closes == $b[0].closes + 1 and
    .closed_before_sampled == $b[0].closed_before_sampled + 1' \
    "$TB_TMP/after$n.json" >/dev/null
report $? "the daemon counts one close notice and one connection closed before any pass" \
    "$(jq -c '{closes, closed_before_sampled}' "$TB_TMP/before$n.json" \
    "$TB_TMP/after$n.json" 2>&1)"

ctl diagnose >"$TB_TMP/diagnose.txt" 2>&1
diag_file "diagnose after the download" "$TB_TMP/diagnose.txt"
tap_end
