#!/bin/bash
#
# bench/flows/idle.sh [WINDOW [TRANSFER]]: what diagnose's tick costs
# (issue 42.4): two daemons side by side, CheckInterval 60 and 1, in a
# private network namespace (tests/system/lib.sh's tt_init: unshare -n),
# whose only TCP traffic is the transfer below.  Prints a markdown table,
# one row per daemon and state, for docs/BENCHMARKS.md:
#
#   idle      once the tick has stretched to its longest (diagnose --json
#             says tick_now_ms 60000: waited on, not slept), over WINDOW
#             (60) seconds: the voluntary context switches (each a sleep in
#             epoll_wait, so one per wake-up) and the CPU time; then, over
#             a second window as long, the returns from epoll_wait counted
#             by strace (whose ptrace stops would add switches, hence two
#             windows);
#   transfer  with a paced loopback iperf3 (20 Mbit/s) running and the tick
#             back to a second (waited on), over TRANSFER (30) seconds.
#
# CPU time is the daemon's se.sum_exec_runtime (/proc/PID/sched, in ns
# steps), or utime + stime (10 ms steps) where the kernel has no such
# file.  Needs root, iperf3, jq; strace for the second count.  Writes no
# sysctl: the daemons tune a sysctl root of their own (tcptuned -r).
set -u
export LC_ALL=C
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export top_srcdir top_builddir
# shellcheck source=bench/daemon/lib.sh
. "$top_srcdir/bench/daemon/lib.sh"
tt_init "$@"
WIN=${1:-60}
TWIN=${2:-30}
command -v iperf3 >/dev/null 2>&1 || bail "iperf3 not found"
ip link set lo up || bail "cannot bring lo up"

# cpu_ms PID: its CPU time so far, in ms.
cpu_ms() {
	if [ -r "/proc/$1/sched" ]; then
		awk '$1 == "se.sum_exec_runtime" { printf "%.3f\n", $3 }' \
		    "/proc/$1/sched"
	else
		echo $(( $(cpu_ticks "$1") * 1000 / $(getconf CLK_TCK) ))
	fi
}

tick_now() {
	"$TCPTUNECTL" -s "$T/$1.sock" diagnose --json 2>/dev/null |
	    jq -r '.tick_now_ms // empty'
}

both_ticks_are() {
	[ "$(tick_now w60)" = "$1" ] && [ "$(tick_now w1)" = "$1" ]
}

# wait_slow SECONDS CMD...: wait_until asking once a second (a request
# wakes the daemons: ten a second would be most of what is measured
# before the window).
wait_slow() {
	local end
	end=$(( $(now_ms) + $(tt_wait_seconds "$1") * 1000 ))
	shift
	while ! "$@"; do
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 1
	done
}

# window STATE SECONDS: the switches and CPU of both daemons over it,
# printed as "ID STATE SECONDS SWITCHES CPU_MS".
window() {
	local id pid
	declare -A w0 c0
	for id in w60 w1; do
		pid=$(daemon_pid "$id")
		w0[$id]=$(wakeups "$pid") c0[$id]=$(cpu_ms "$pid")
	done
	sleep "$2"
	for id in w60 w1; do
		pid=$(daemon_pid "$id")
		echo "$id $1 $2 $(( $(wakeups "$pid") - w0[$id] ))" \
		    "$(awk -v a="${c0[$id]}" -v b="$(cpu_ms "$pid")" \
		    'BEGIN { printf "%.3f", b - a }')"
	done
}

# epoll_returns ID SECONDS: the returns with events of its epoll_wait.
epoll_returns() {
	timeout "$2" strace -q -e trace=epoll_wait -o "$T/strace.$1" \
	    -p "$(daemon_pid "$1")" 2>/dev/null
	grep -c 'epoll_wait(.*) = [1-9]' "$T/strace.$1"
}

make_root "$T/rootw60" 4 >"$T/keys"
make_root "$T/rootw1" 4 >/dev/null
mapfile -t KEYS <"$T/keys"
# Each config alone in its directory: a file written beside it would wake
# the daemon (it watches the directory).
mkdir -p "$T/cfg60" "$T/cfg1"
conf_keys "$T/cfg60/w60.conf" 60 "${KEYS[@]}"
conf_keys "$T/cfg1/w1.conf" 1 "${KEYS[@]}"
bd_start w60 "$T/cfg60/w60.conf" -- -- -r "$T/rootw60"
bd_start w1 "$T/cfg1/w1.conf" -- -- -r "$T/rootw1"

wait_slow 90 both_ticks_are 60000 ||
    bail "the ticks did not stretch: $(tick_now w60) $(tick_now w1)"
window idle "$WIN" >"$T/rows"
if command -v strace >/dev/null 2>&1; then
	epoll_returns w60 "$WIN" >"$T/epoll.w60" &
	STRACE=$!
	epoll_returns w1 "$WIN" >"$T/epoll.w1"
	wait "$STRACE"
fi

iperf3 -s -1 -p 5299 >"$T/iperf-s.log" 2>&1 &
echo $! >>"$T/pids"
wait_until 5 sh -c "ss -ltn | grep -q ':5299 '" || bail "iperf3 -s did not listen"
iperf3 -c 127.0.0.1 -p 5299 -b 20M -t $((TWIN + 120)) >"$T/iperf-c.log" 2>&1 &
IPERF=$!
echo "$IPERF" >>"$T/pids"
wait_slow 90 both_ticks_are 1000 ||
    bail "the ticks did not come back: $(tick_now w60) $(tick_now w1)"
window transfer "$TWIN" >>"$T/rows"
kill "$IPERF" 2>/dev/null
wait "$IPERF" 2>/dev/null
bd_stop w60
bd_stop w1

echo "| CheckInterval | TCP traffic | window | wake-ups (epoll_wait returns) | voluntary context switches | per minute | CPU per minute |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
while read -r id state secs sw cpu; do
	ci=${id#w}
	ret=-
	[ "$state" = idle ] && [ -s "$T/epoll.$id" ] && ret=$(cat "$T/epoll.$id")
	what="none"
	[ "$state" = transfer ] && what="iperf3 on lo, 20 Mbit/s"
	awk -v ci="$ci" -v w="$what" -v s="$secs" -v sw="$sw" -v c="$cpu" \
	    -v r="$ret" 'BEGIN { printf "| %d s | %s | %d s | %s | %d | %.1f | %.2f ms |\n",
	    ci, w, s, r, sw, sw * 60 / s, c * 60 / s }'
done <"$T/rows"
echo
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs, Linux" \
    "$(uname -r).  Command: \`bench/flows/idle.sh $WIN $TWIN\` (as root," \
    "from a build tree)."
