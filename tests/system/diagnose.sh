#!/bin/bash
#
# tcptunectl diagnose end to end (TAP), in two private network namespaces
# joined by the delay line of bench/throughput (lib.sh there): near (A)
# runs tcptuned (CheckInterval 60 as shipped: every transfer below starts
# and ends between two checks, so diagnose sees them only through its own
# sampling while the machine is busy and the kernel's close notices, not
# the check cycle) and iperf3 clients, far (B) an iperf3 server.  A 100 ms path (150 ms made each
# transfer longer, not the verdicts different):
#
#   - a download into A with its original 2 MiB receive ceiling (the
#     daemon paused by restore) is receive-buffer, net.ipv4.tcp_rmem
#     named at 2 MiB, the possible rate (at the configured 62 MiB) above
#     the measured one;
#   - a trickle opened at the 2 MiB ceiling and kept open across resume is
#     named as capped by its window scale (JSON, sentence, status's
#     count); one opened after resume is not (issue 42);
#   - after resume (64 MiB in force) a new download is not receive-buffer:
#     it fills the link, its round trip grows, and it is the network with
#     the path full (issue 42);
#   - (a download no pass read, judged from its close notice:
#     diagnose_sleep.sh, inside a sleep of the daemon's tick);
#   - an upload from A with a 1 MiB tcp_wmem (the original, paused) is
#     send-buffer;
#   - an upload to a far end whose receive buffer stops at 512 KiB is
#     peer-window;
#   - an upload paced at 20 Mbit/s by iperf3 is application, and so is
#     a download the far end paces at 20 Mbit/s;
#   - a non-root user sees none of root's connections, only their count;
#   - uid 65534's loopback transfer (a queue on lo: 20 ms) is no evidence;
#     neither it nor unconnected or tiny connections reach the daemon (the
#     kernel's filter on the close notices), a real transfer's close does;
#   - nor is a transfer between two of 200 addresses of A's own;
#   - measure --streams 4 (tests/system/measure_server.py in B): at a
#     512 KiB ceiling one stream gets under 60 % of four ("a per-stream
#     limit"); tuned, one stream's share is larger (printed, and only its
#     direction asserted: the delay line and the Python server are user
#     space, and load moves them).
#
# Every wait is on the daemon's state (diagnose's own answer), never a
# sleep.  Writes sysctls only inside its own namespaces (tb_assert_ns).
# The reports are printed as diagnostics:
#   make check TESTS=tests/system/diagnose.sh; see tests/system/diagnose.log

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

# shellcheck source=tests/system/two_ns.sh
. "$top_srcdir/tests/system/two_ns.sh"
two_ns_init diagnose jq iperf3 setpriv
SOCK=$TB_TMP/tcptuned.sock
RTT=100
RATE=1000000000
ORIG_RMEM="4096 131072 2097152"
ORIG_WMEM="4096 16384 1048576"
TUNED_RMEM="4096 131072 67108864"
STREAMS_RMEM="4096 131072 524288"

in_a() { ip netns exec "$TB_NS_A" "$@"; }
# verdict STATUS DESC [DIAG...]: report, but for a verdict that needs the
# daemon's sampling passes.  Under valgrind (the valgrind stage's
# TT_DAEMON_WRAPPER) tcptuned runs some 30 times slower, and its one CPU
# budget (1 % of a core, passes and close notices alike: issue 41) puts
# its passes off for tens of seconds, past these transfers: a verdict it
# could not reach is a skip there, said so, while memcheck still reads
# every path the run took.  Anywhere else a verdict is asserted.
verdict() {
	local rc=$1
	shift
	case ${TT_DAEMON_WRAPPER:-} in
	*valgrind*)
		if [ "$rc" -ne 0 ]; then
			skip "$1" "under valgrind the daemon's passes are put off by its CPU budget"
			return
		fi ;;
	esac
	report "$rc" "$@"
}
in_b() { ip netns exec "$TB_NS_B" "$@"; }
ctl() { in_a "$TCPTUNECTL" -s "$SOCK" "$@"; }
rmem_is() {
	[ "$(in_a cat /proc/sys/net/ipv4/tcp_rmem | tr -s '\t ' ' ')" = "$1" ]
}
paused_is() {
	ctl status --json 2>/dev/null | jq -e ".daemon.paused == $1" >/dev/null
}

# The daemon's view: the flow of iperf3's data connection from local port
# PORT, once it has closed (its verdict is final).
flow_of() {
	ctl diagnose --json --all 2>/dev/null |
	    jq -e --arg l "$TB_IP_A:$1" \
	    '.flows[] | select(.local == $l and .open == false)'
}
# shellcheck disable=SC2317 # called through tb_wait
flow_closed() { flow_of "$1" >/dev/null; }

# transfer NAME ARGS...: one iperf3 run from A (its data connection's
# local port fixed, so the flow can be found), then wait for the daemon to
# see it closed; the flow's JSON in $TB_TMP/NAME.json.
PORT=50000
transfer() {
	local name=$1
	shift
	PORT=$((PORT + 1))
	in_a iperf3 -c "$TB_IP_B" --cport "$PORT" -P 1 -t 6 -J "$@" \
	    >"$TB_TMP/$name.iperf" 2>&1 ||
	    { diag_file "iperf3 $name" "$TB_TMP/$name.iperf"; return 1; }
	tb_wait $((60 * SCALE)) flow_closed "$PORT" ||
	    { diag "no closed flow from port $PORT"; return 1; }
	flow_of "$PORT" >"$TB_TMP/$name.json"
	diag "$name: $(jq -c '{held_by, rate_bps, rtt_ms, path_rtt_ms, path_full, ceiling, possible_bps}' "$TB_TMP/$name.json")"
}
held_is() { jq -e --arg h "$2" '.held_by == $h' "$TB_TMP/$1.json" >/dev/null; }

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
		<key>net.ipv4.tcp_wmem</key>
		<string>4096 16384 67108864</string>
	</dict>
</dict>
</plist>
EOF
chmod 0644 "$TB_TMP/tcptune.conf"

tb_up "$RATE" "$RTT" "$((RATE * RTT / 8000 + 150000))" 1500 \
    2>"$TB_TMP/up.err" || { diag_file up "$TB_TMP/up.err"; bail "path"; }
# shellcheck disable=SC2015 # any failure of the chain bails
tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "$ORIG_RMEM" &&
    tb_sysctl "$TB_NS_A" net.ipv4.tcp_wmem "$ORIG_WMEM" &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_wmem "4096 16384 67108864" &&
    tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "4096 131072 67108864" ||
    bail "namespace sysctls"
in_b iperf3 -s -B "$TB_IP_B" >"$TB_TMP/iperf3-server.log" 2>&1 &
PIDS="$PIDS $!"
in_b python3 "$top_srcdir/tests/system/measure_server.py" "$TB_IP_B" 8080 \
    >"$TB_TMP/http.out" 2>&1 &
PIDS="$PIDS $!"
URL=http://$TB_IP_B:8080/stream
# streams NAME: measure --streams 4 into NAME.json, its table as diagnostics
streams() {
	ctl measure --streams 4 -t 5 --json "$URL" >"$TB_TMP/$1.json" \
	    2>"$TB_TMP/$1.err" ||
	    { diag_file "measure --streams" "$TB_TMP/$1.err"; return 1; }
	ctl measure --streams 4 -t 5 "$URL" >"$TB_TMP/$1.txt" 2>&1
	diag_file "measure --streams 4 ($1)" "$TB_TMP/$1.txt"
}
share() { jq -r .share "$TB_TMP/$1.json"; }
tb_assert_ns "$TB_NS_A"
# shellcheck disable=SC2086 # the wrapper is a command line
in_a ${TT_DAEMON_WRAPPER:-} "$TCPTUNED" -d -P "$top_builddir/tcptune-parse" -f "$TB_TMP/tcptune.conf" \
    -s "$SOCK" -S "$TB_TMP/state" 2>>"$TB_TMP/tcptuned.log" &
PIDS="$PIDS $!"
tb_wait $((20 * SCALE)) rmem_is "$TUNED_RMEM" &&
    tb_wait 10 in_b sh -c "ss -ltn | grep -q ':5201'" &&
    tb_wait 10 grep -q listening "$TB_TMP/http.out"
report $? "$RTT ms path up ($TB_EMU), tcptuned enforcing in $TB_NS_A" ||
    { diag_file "daemon log" "$TB_TMP/tcptuned.log"; bail "no daemon"; }

# ---- receive-buffer: the original 2 MiB ceiling
# 2 MiB, not Linux's 4 or 6: it allows 84 Mbit/s at 100 ms, so that the
# download after tuning is faster by a margin even where load leaves the
# user-space delay line 200 Mbit/s (two make -j4 check and twelve busy
# loops: 4 MiB's 177 Mbit/s against the tuned 196, held by the path).
ctl restore >/dev/null 2>&1 && tb_wait 10 rmem_is "$ORIG_RMEM"
report $? "restore puts the 2 MiB receive ceiling back"
transfer before -R
held_is before receive-buffer &&
    jq -e '.ceiling.key == "net.ipv4.tcp_rmem" and .ceiling.bytes == 2097152
    and .direction == "receive" and .possible_bps > .rate_bps' \
    "$TB_TMP/before.json" >/dev/null
verdict $? "a download at the 2 MiB ceiling is receive-buffer, tcp_rmem named, possible above measured" \
    "$(cat "$TB_TMP/before.json" 2>/dev/null)"
ctl diagnose --json >"$TB_TMP/summary.json" 2>&1
jq -e '.close_notices == true and .closes > 0 and .tick_ms == 1000 and
    (.may_have_missed | index("no-close-notices") | not)' \
    "$TB_TMP/summary.json" >/dev/null
report $? "the daemon watches the kernel's close notices, and says so" \
    "$(jq -c '{close_notices, close_notices_problem, closes, may_have_missed}' "$TB_TMP/summary.json" 2>&1)"
# "nothing" is null, never "" (issue 45: cannot_tell and problem were "")
jq -e '([.. | strings | select(. == "")] | length == 0) and
    .problem == null and .cannot_tell == null' \
    "$TB_TMP/summary.json" >/dev/null
report $? "diagnose --json: nothing is null, no empty string" \
    "$(jq -c 'del(.flows)' "$TB_TMP/summary.json" 2>&1)"
# joined: the sentence is running text, wrapped at 80 columns
joined() { tr '\n' ' ' <"$1" | tr -s ' '; }
ctl diagnose >"$TB_TMP/before.txt" 2>&1
joined "$TB_TMP/before.txt" |
    grep -q "receive buffer stops at 2 MiB (net.ipv4.tcp_rmem)"
verdict $? "the text report says so in a sentence"
diag_file "diagnose before tuning" "$TB_TMP/before.txt"
ctl status >"$TB_TMP/status.txt" 2>&1
joined "$TB_TMP/status.txt" | grep -q "held by the 2 MiB receive ceiling (net.ipv4.tcp_rmem); see tcptunectl diagnose"
verdict $? "status has the line about the held transfers" \
    "$(tail -3 "$TB_TMP/status.txt")"
[ "$(LC_ALL=C.UTF-8 wc -L <"$TB_TMP/before.txt")" -le 80 ] &&
    [ "$(LC_ALL=C.UTF-8 wc -L <"$TB_TMP/status.txt")" -le 80 ]
report $? "diagnose's sentences and status's line within 80 columns" \
    "$(cat "$TB_TMP/before.txt" "$TB_TMP/status.txt")"

# measure --streams at a 512 KiB ceiling (the daemon is paused): four
# streams then need about 160 Mbit/s, which the delay line carries even on
# a loaded machine; at 4 MiB they needed 800, and under two make -j4 check
# the user-space emulator carried 250, so four were no faster than one.
tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "$STREAMS_RMEM" || bail "A rmem"
streams streams_before &&
    jq -e '.streams[0].streams == 1 and .streams[1].streams == 4 and
    .share < 0.6 and (.verdict | test("per-stream limit"))' \
    "$TB_TMP/streams_before.json" >/dev/null
report $? "measure --streams 4 at a 512 KiB ceiling: one stream under 60 % of four" \
    "$(cat "$TB_TMP/streams_before.json" 2>/dev/null)"
tb_sysctl "$TB_NS_A" net.ipv4.tcp_rmem "$ORIG_RMEM" || bail "A rmem"

# ---- send-buffer: the original 1 MiB send ceiling, still paused
transfer upload_small
held_is upload_small send-buffer &&
    jq -e '.ceiling.key == "net.ipv4.tcp_wmem"' "$TB_TMP/upload_small.json" >/dev/null
verdict $? "an upload with a 1 MiB tcp_wmem is send-buffer"

# ---- connections the new ceiling cannot reach (issue 42)
# A trickle (B writes 32 KiB every 50 ms, about 5 Mbit/s, for as long as
# the connection lasts) opened at the 2 MiB ceiling: its SYN fixed a
# window scale from max(tcp_rmem[2], rmem_max), at most 8 MiB here, so
# once 64 MiB is in force diagnose names it, unjudged as it is, and status
# counts it; one opened after resume (scale 11) is not named.
in_b python3 -c '
import socket, sys, threading, time
def feed(c):
    try:
        while True:
            c.sendall(b"x" * 32768)
            time.sleep(0.05)
    except OSError:
        pass
s = socket.create_server((sys.argv[1], 5301))
print("listening", flush=True)
while True:
    threading.Thread(target=feed, args=(s.accept()[0],), daemon=True).start()
' "$TB_IP_B" >"$TB_TMP/trickle.out" 2>&1 &
PIDS="$PIDS $!"
# trickle PORT: a connection from A's PORT reading the trickle; its pid
trickle() {
	# exec: $! is the reader itself (ip netns exec execs), killed below
	(exec ip netns exec "$TB_NS_A" python3 -c '
import socket, sys
s = socket.create_connection((sys.argv[1], 5301),
    source_address=("", int(sys.argv[2])))
while s.recv(65536):
    pass
' "$TB_IP_B" "$1") >>"$TB_TMP/trickle.out" 2>&1 &
	TRICKLE=$!
	PIDS="$PIDS $TRICKLE"
}
# open_flow PORT: the daemon's view of the open connection from PORT
open_flow() {
	ctl diagnose --json --all 2>/dev/null |
	    jq -e --arg l "$TB_IP_A:$1" \
	    '.flows[] | select(.local == $l and .open == true)'
}
# shellcheck disable=SC2317 # called through tb_wait
is_open() { open_flow "$1" >/dev/null; }
# shellcheck disable=SC2317 # called through tb_wait
is_capped() { open_flow "$1" | jq -e '.window_cap > 0' >/dev/null; }
tb_wait 10 grep -q listening "$TB_TMP/trickle.out" || bail "trickle server"
trickle 51001
OLD_TRICKLE=$TRICKLE
tb_wait $((30 * SCALE)) is_open 51001
verdict $? "a connection opened at the 2 MiB ceiling is read while open"

# ---- after tuning
ctl resume >/dev/null 2>&1 && tb_wait 10 rmem_is "$TUNED_RMEM"
report $? "resume puts the 64 MiB ceiling in force"
tb_wait $((30 * SCALE)) is_capped 51001
verdict $? "the connection opened before the ceiling rose is named as capped by its window scale" \
    "$(open_flow 51001 2>&1)"
ctl diagnose >"$TB_TMP/capped.txt" 2>&1
joined "$TB_TMP/capped.txt" | grep -q "cannot use the receive ceiling now: its window scale, fixed when it opened (before the ceiling rose), caps its window at [0-9.]* [KM]iB; reconnecting picks up the new value"
verdict $? "diagnose says it cannot use the new ceiling until it reconnects" \
    "$(cat "$TB_TMP/capped.txt")"
ctl status >"$TB_TMP/status_capped.txt" 2>&1
joined "$TB_TMP/status_capped.txt" |
    grep -q "1 open connection cannot use the receive ceiling now"
verdict $? "status counts it" "$(tail -3 "$TB_TMP/status_capped.txt")"
trickle 51002
tb_wait $((30 * SCALE)) is_open 51002 &&
    open_flow 51002 | jq -e '.window_cap == 0' >/dev/null &&
    ! open_flow 51001 | jq -e '.window_cap == 0' >/dev/null
verdict $? "a connection opened after the ceiling rose is not named" \
    "$(open_flow 51002 2>&1)"
kill "$OLD_TRICKLE" "$TRICKLE" 2>/dev/null
wait "$OLD_TRICKLE" "$TRICKLE" 2>/dev/null

transfer after -R
# Held by the path (under load the user-space delay line carries a few
# hundred Mbit/s), or, where the delay line carries more than the 64 MiB
# window allows (a quiet machine: 1.74 Gbit/s seen), by the tuned ceiling:
# never by the stock 2 MiB one, and faster than the download before.
{ ! held_is after receive-buffer ||
    jq -e '.ceiling.bytes == 67108864' "$TB_TMP/after.json" >/dev/null; } &&
    jq -e --slurpfile b "$TB_TMP/before.json" \
    '.rate_bps > 1.5 * $b[0].rate_bps' "$TB_TMP/after.json" >/dev/null
verdict $? "after tuning a new download is not held by the 2 MiB ceiling, and faster" \
    "$(cat "$TB_TMP/after.json" 2>/dev/null)"
# Issue 42: the tuned window passes the path's BDP, so a download that
# fills the link is the network, never a buffer.  Whether a queue builds
# ("the path was full": its receive round trip, tcpi_rcv_rtt, which the
# JSON does not show, grew past 150 %) depends on what the user-space
# delay line carries on this machine at this moment, so path_full is
# only asked to be said; the 150 % rule is test_path_full in
# tests/unit/test_flows.c.
held_is after network &&
    jq -e '.path_full | type == "boolean"' "$TB_TMP/after.json" >/dev/null
verdict $? "a tuned download that fills the link is the network" \
    "$(cat "$TB_TMP/after.json" 2>/dev/null)"
ctl diagnose >"$TB_TMP/after.txt" 2>&1
diag_file "diagnose after tuning" "$TB_TMP/after.txt"
streams streams_after &&
    awk -v a="$(share streams_after)" -v b="$(share streams_before)" \
    'BEGIN { exit !(a > b) }'
report $? "tuned, one stream's share of four is larger ($(share streams_before) -> $(share streams_after))"

# ---- peer-window: the far end's receive buffer stops at 512 KiB
tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "4096 131072 524288" || bail "B rmem"
transfer peer
held_is peer peer-window
verdict $? "an upload to a far end with a small receive buffer is peer-window" \
    "$(grep "flow.*closed" "$TB_TMP/tcptuned.log" | tail -1)"
tb_sysctl "$TB_NS_B" net.ipv4.tcp_rmem "4096 131072 67108864" || bail "B rmem"

# ---- application, downloading: the far end's iperf3 paces itself at
# 20 Mbit/s; nothing arrived out of order and the round trip did not
# grow, so neither this machine nor the path held it (issue 42)
transfer paced_down -R -b 20M
held_is paced_down application &&
    jq -e '.rate_bps < 40000000' "$TB_TMP/paced_down.json" >/dev/null
verdict $? "a download the far end paced is application, not the network" \
    "$(cat "$TB_TMP/paced_down.json" 2>/dev/null)"

# ---- application: iperf3 paces itself at 20 Mbit/s
transfer paced -b 20M
held_is paced application
verdict $? "a rate-limited sender is application" \
    "$(grep "flow.*closed" "$TB_TMP/tcptuned.log" | tail -1)"

# ---- privacy: nobody sees root's connections only as a count
out=$(in_a setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$TCPTUNECTL" -s "$SOCK" diagnose --json 2>&1)
printf '%s' "$out" | jq -e '(.flows | length) == 0 and .hidden >= 4' >/dev/null
report $? "a non-root user sees root's connections as a count only" "$out"

# ---- Prometheus: a counter per held_by
ctl status --prometheus >"$TB_TMP/prom.txt" 2>&1
grep -q '^tcptune_flows_held_total{held_by="receive-buffer"} [1-9]' "$TB_TMP/prom.txt"
verdict $? "Prometheus counts the flows held by each" \
    "$(grep flows_held "$TB_TMP/prom.txt")"

# ---- forged evidence and a flood of closes: uid 65534's loopback
# transfer, 20 ms or so of round trip through a queue on A's lo (tbf:
# this kernel has no netem), would read as a held transfer; both ends are
# this machine's, so it is in no report and moves no counter.  Neither it,
# nor sockets closed unconnected, nor a connection to B that moved a few
# bytes reaches the daemon at all: the kernel's filter on the close
# notices drops them (daemon/flows/flows_linux.c), so the daemon's count of
# notices moves by exactly one, the close of a real transfer to B that
# comes after them.  The wait is on that count, never a sleep.
cat >"$TB_TMP/loopback.py" <<'PY'
import socket, subprocess, sys, threading, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]
done = threading.Event()
def sink():
    c, _ = srv.accept()
    while c.recv(65536):
        pass
    c.close()
    done.set()
def probe():
    time.sleep(1)
    out = subprocess.run(["ss", "-tin", "dst", "127.0.0.1:%d" % port],
                         capture_output=True, text=True).stdout
    print(" ".join(w for w in out.split() if w.startswith("rtt:")))
threading.Thread(target=sink, daemon=True).start()
s = socket.create_connection(("127.0.0.1", port))
threading.Thread(target=probe, daemon=True).start()
s.sendall(b"x" * (12 * 1024 * 1024))
s.shutdown(socket.SHUT_WR)
done.wait()
s.close()
srv.close()
for i in range(200):
    socket.socket().close()
t = socket.create_connection((sys.argv[1], 8080))
t.sendall(b"x")
t.close()
PY
held_sum() {
	ctl status --prometheus 2>/dev/null |
	    awk '/^tcptune_flows_held_total/ { n += $2 } END { print n + 0 }'
}
closes() { ctl diagnose --json 2>/dev/null | jq -r '.closes // 0'; }
# shellcheck disable=SC2317 # called through tb_wait
closes_past() { [ "$(closes)" -ge "$1" ]; }
in_a ip link set lo mtu 1500 &&
    in_a tc qdisc add dev lo root tbf rate 40mbit burst 16kb latency 200ms ||
    bail "a queue on lo"
sum0=$(held_sum)
closes0=$(closes)
# Debian's python3: a user's shims (pyenv) are not for uid 65534
in_a setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 - \
    "$TB_IP_B" <"$TB_TMP/loopback.py" >"$TB_TMP/loopback.out" 2>&1
report $? "uid 65534's loopback transfer, 200 unconnected closes and a tiny connection ran" \
    "$(cat "$TB_TMP/loopback.out")"
diag "loopback transfer: $(cat "$TB_TMP/loopback.out")"
PORT=$((PORT + 1))
in_a iperf3 -c "$TB_IP_B" --cport "$PORT" -n 1M >"$TB_TMP/real.iperf" 2>&1 &&
    tb_wait $((30 * SCALE)) closes_past $((closes0 + 1)) &&
    tb_wait $((30 * SCALE)) flow_closed "$PORT"
report $? "a real transfer's close after them reaches the daemon" \
    "$(cat "$TB_TMP/real.iperf")"
[ "$(closes)" -eq $((closes0 + 1)) ]
report $? "the kernel's filter dropped every other notice: one taken, not more" \
    "closes $closes0 -> $(closes)"
ctl diagnose --json --all >"$TB_TMP/loopback.json" 2>&1
jq -e '[.flows[] | select(.remote | test("^127[.]|^\\[::1\\]"))] |
    length == 0' "$TB_TMP/loopback.json" >/dev/null &&
    [ "$(held_sum)" = "$sum0" ]
report $? "a loopback connection is in no report and moves no counter" \
    "$(jq -c '[.flows[] | select(.remote | test("^127[.]"))]' "$TB_TMP/loopback.json" 2>&1) sum $sum0 -> $(held_sum)"

# ---- more addresses than a fixed table held (128 of them): a transfer
# between the 199th and the 200th of A's own, through the same queue on
# lo, is no evidence either.  Both ends' notices pass the kernel's filter
# (neither loopback nor one address): the wait is on them.
seq 1 200 | sed 's|.*|addr add 10.201.0.&/32 dev lo|' | in_a ip -batch - ||
    bail "200 addresses on lo"
cat >"$TB_TMP/addrs.py" <<'PY'
import socket, threading
srv = socket.socket()
srv.bind(("10.201.0.200", 0))
srv.listen(1)
done = threading.Event()
def sink():
    c, _ = srv.accept()
    while c.recv(65536):
        pass
    c.close()
    done.set()
threading.Thread(target=sink, daemon=True).start()
s = socket.socket()
s.bind(("10.201.0.199", 0))
s.connect(srv.getsockname())
s.sendall(b"x" * (12 * 1024 * 1024))
s.shutdown(socket.SHUT_WR)
done.wait()
s.close()
PY
sum0=$(held_sum)
closes0=$(closes)
in_a setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 - \
    <"$TB_TMP/addrs.py" >"$TB_TMP/addrs.out" 2>&1 &&
    tb_wait $((30 * SCALE)) closes_past $((closes0 + 2))
report $? "uid 65534's transfer between two of 200 local addresses ran and closed" \
    "$(cat "$TB_TMP/addrs.out")"
ctl diagnose --json --all >"$TB_TMP/addrs.json" 2>&1
jq -e '[.flows[] | select(.remote | test("^10[.]201[.]"))] | length == 0' \
    "$TB_TMP/addrs.json" >/dev/null && [ "$(held_sum)" = "$sum0" ]
report $? "past the 128th address a local pair is in no report and moves no counter" \
    "$(jq -c '[.flows[] | select(.remote | test("^10[.]201[.]"))]' "$TB_TMP/addrs.json" 2>&1) sum $sum0 -> $(held_sum)"

tap_end
