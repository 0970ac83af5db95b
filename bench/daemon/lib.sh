# shellcheck shell=bash
#
# Helpers for the daemon-cost benchmarks (run.sh, smoke.sh, tuned.sh), on
# top of tests/system/lib.sh: that file re-executes the script inside a
# private network namespace (unshare -n) and refuses to touch a sysctl
# outside it; its temp dir, cleanup trap and config helpers are used as is.

# shellcheck source=../../tests/system/lib.sh
. "${top_srcdir:?}/tests/system/lib.sh"

bd_init() {
	tt_init "$@"
	BD=$top_builddir/bench/daemon
	STATUSBENCH=$BD/statusbench
	DRIFTBENCH=$BD/driftbench
	TIMESCALE=$BD/timescale.so
	local p
	for p in "$STATUSBENCH" "$DRIFTBENCH" "$TIMESCALE"; do
		[ -x "$p" ] || [ -f "$p" ] ||
		    bail "$p not built (make -C $top_builddir check_PROGRAMS)"
	done
}

# bd_start ID CONF [ENV=VALUE ...] [-- WRAPPER ...] [-- tcptuned args]:
# tcptuned -d on CONF with its own socket $T/ID.sock and state dir
# $T/ID.state, in the background, with the given environment and an
# optional wrapper (valgrind).  Sets DPID and waits until it answers.
bd_start() {
	local id=$1 conf=$2 envs=() wrap=() args=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do wrap+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	args=("$@")
	assert_private_netns
	mkdir -p "$T/$id.state"
	env ${envs[@]+"${envs[@]}"} ${wrap[@]+"${wrap[@]}"} "$TCPTUNED" -d \
	    -P "$top_builddir/tcptune-parse" -f "$conf" -s "$T/$id.sock" -S "$T/$id.state" \
	    ${args[@]+"${args[@]}"} >"$T/d.$id.log" 2>&1 </dev/null &
	DPID=$!
	echo "$DPID" >>"$T/pids"
	eval "DPID_$id=\$DPID"
	wait_until 60 bd_answers "$id" ||
	    bail "tcptuned ($id) did not come up: $(tail -n 5 "$T/d.$id.log")"
}

bd_answers() {
	kill -0 "$(daemon_pid "$1")" 2>/dev/null || return 1
	"$TCPTUNECTL" -s "$T/$1.sock" status >/dev/null 2>&1
	[ $? -ne 2 ]
}

# bd_stop ID: SIGTERM and wait for the exit (valgrind writes its file then).
bd_stop() {
	local pid
	pid=$(daemon_pid "$1")
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# bd_checks ID: the daemon's count of check cycles.
bd_checks() {
	"$TCPTUNECTL" -s "$T/$1.sock" status --json 2>/dev/null |
	    jq -r '.daemon.checks // empty'
}

checks_at_least() {
	local n
	n=$(bd_checks "$1")
	[ -n "$n" ] && [ "$n" -ge "$2" ]
}

# proc_field PID FIELD: a kB or count field of /proc/PID/status.
proc_field() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

# cpu_ticks PID: user + system time in clock ticks.
cpu_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# wakeups PID: voluntary context switches so far: the process gave up the
# CPU, i.e. went to sleep in epoll_wait, once per wake-up.  (Involuntary
# ones are preemptions while it runs, not wake-ups.)
wakeups() {
	proc_field "$1" voluntary_ctxt_switches
}

# kv LINE KEY: the value of KEY=VALUE in a line of figures.
kv() {
	printf '%s\n' "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'
}

# conf_keys FILE INTERVAL NAME=VALUE...: a config with string values.
conf_keys() {
	local file=$1 interval=$2
	shift 2
	plist -i "$interval" "$@" | write_config "$file"
}

# make_root DIR N: a sysctl root (tcptuned -r) with N keys of Linux
# layout, net/ipv4/bench_kNNN, and prints their NAME=VALUE specs.
make_root() {
	local dir=$1 n=$2 i name
	mkdir -p "$dir/net/ipv4"
	for i in $(seq -f '%03g' 1 "$n"); do
		name=net.ipv4.bench_k$i
		if [ $((10#$i % 2)) -eq 0 ]; then
			echo "4096 131072 67108864" >"$dir/net/ipv4/bench_k$i"
			echo "$name=4096 131072 67108864"
		else
			echo "$((10#$i * 1024))" >"$dir/net/ipv4/bench_k$i"
			echo "$name=$((10#$i * 1024))"
		fi
	done
}
