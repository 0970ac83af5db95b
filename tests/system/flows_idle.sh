#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_slow
# System test: diagnose's sampling tick sleeps while nothing moves and
# wakes when something does (issue 42.4; daemon/flows/diagnose.c,
# flows_tick_next in daemon/flows/flows_quiet.c), at CheckInterval 60 as
# shipped, in a private network namespace whose only traffic is ours:
#   stretch   with no TCP segment moving, the tick's period
#             (diagnose --json's tick_now_ms) grows past a second;
#   transfer  a loopback transfer started during such a sleep brings it
#             back to a second (the segment count jumped at the next tick);
#   sleep     once the transfer is over it grows again up to a minute;
#   stays     and a whole minute asleep, ended by a tick that found nothing
#             (the last pass a minute later), leaves it there: with the
#             check timer, two wake-ups a minute.
# Every wait is on the daemon's own state (its answer to diagnose), never
# a sleep; the daemon's voluntary context switches over the last minute
# are printed, not asserted (bench/flows/idle.sh measures them).

. "$(dirname "$0")/lib.sh"
tt_init "$@"
command -v iperf3 >/dev/null 2>&1 || {
	echo "1..0 # SKIP iperf3 not found (apt-get install -y iperf3)"
	exit 0
}
ip link set lo up || bail "cannot bring lo up"

use_keys 1
plist -i 60 "$RMEM=${RV[0]}" | write_config "$CONF"
start_ready main

# diag_field FIELD: the field of diagnose --json, empty when unknown.
diag_field() {
	"$TCPTUNECTL" -s "$SOCK" diagnose --json 2>/dev/null |
	    jq -r ".$1 // empty"
}

tick_now_is() {
	[ "$(diag_field tick_now_ms)" = "$1" ]
}

tick_now_over() {
	local t
	t=$(diag_field tick_now_ms)
	[ -n "$t" ] && [ "$t" -gt "$1" ]
}

# last_pass_past SECONDS: the last pass is at least that much later than
# the one noted in L0 (its wall-clock second may be off by one).
last_pass_past() {
	local t
	t=$(diag_field last_pass) || return 1
	[ -n "$t" ] && [ "$(date -d "$t" +%s)" -ge $((L0 + $1)) ]
}

# wait_slow SECONDS CMD...: wait_until, but asking once a second: a long
# wait on the daemon's tick need not ask it ten times a second.
wait_slow() {
	local end
	end=$(( $(now_ms) + $(tt_wait_seconds "$1") * 1000 ))
	shift
	while ! "$@"; do
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 1
	done
}

# 1+2+4 s of quiet ticks: the period is 8 s
if wait_slow 10 tick_now_over 4000; then
	ok "stretch: the tick sleeps past a second while nothing moves ($(diag_field tick_now_ms) ms)"
else
	not_ok "stretch: the tick sleeps past a second while nothing moves" \
	    "tick_now_ms '$(diag_field tick_now_ms)'"
fi

# A paced loopback transfer (10 Mbit/s: some 900 segments a second, each
# counted in and out), until the daemon has seen it.
iperf3 -s -1 -p 5299 >"$T/iperf-s.log" 2>&1 &
echo $! >>"$T/pids"
wait_until 5 sh -c "ss -ltn | grep -q ':5299 '" || bail "iperf3 -s did not listen"
iperf3 -c 127.0.0.1 -p 5299 -b 10M -t 600 >"$T/iperf-c.log" 2>&1 &
IPERF=$!
echo "$IPERF" >>"$T/pids"
if wait_slow 60 tick_now_is 1000; then
	ok "transfer: a transfer during a sleep brings the tick back to a second"
else
	not_ok "transfer: a transfer during a sleep brings the tick back to a second" \
	    "tick_now_ms '$(diag_field tick_now_ms)'"
fi
kill "$IPERF" 2>/dev/null
wait "$IPERF" 2>/dev/null

# 1+2+4+8+16+32 s of quiet ticks, then a minute
if wait_slow 70 tick_now_is 60000; then
	ok "sleep: with the transfer over the tick sleeps up to a minute"
else
	not_ok "sleep: with the transfer over the tick sleeps up to a minute" \
	    "tick_now_ms '$(diag_field tick_now_ms)'"
fi

L0=$(date -d "$(diag_field last_pass)" +%s) || bail "no last pass"
W0=$(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$DPID/status")
if wait_slow 70 last_pass_past 30 && tick_now_is 60000; then
	ok "stays: a minute asleep finds nothing and the tick stays at a minute"
else
	not_ok "stays: a minute asleep finds nothing and the tick stays at a minute" \
	    "tick_now_ms '$(diag_field tick_now_ms)', last pass $(diag_field last_pass), before $L0"
fi
W1=$(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$DPID/status")
diag "voluntary context switches over that minute: $((W1 - W0)), our own diagnose requests once a second included"
daemon_stop main
tap_end
