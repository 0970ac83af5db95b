# shellcheck shell=bash
#
# Two network namespaces joined by an emulated link, for the throughput
# benchmark (run.sh) and its smoke test (smoke.sh).
#
#   A (10.77.0.1, dev tta) <== link ==> B (10.77.0.2, dev ttb)
#
# The link is `tc netem` on veth where the kernel has sch_netem, else
# bench/throughput/delayline (user space, TUN devices).  Every sysctl this
# file writes is written inside a bench namespace, after tb_assert_ns has
# checked that it is not the host's.
#
# Needs: TB_DELAYLINE (path to the delayline binary).  Sets: TB_NS_A,
# TB_NS_B, TB_EMU ("netem" or "delayline"), TB_DL_PID, TB_DL_LOG.

# tb_require TOOL...: what a bench on this path needs before it starts:
# root, each TOOL on PATH, and tcptuned, tcptunectl and the delay line
# built under top_builddir (sets TCPTUNED, TB_TCPTUNECTL, TB_DELAYLINE).
# The caller's fail() says what is missing.  run.sh checks its own (it
# may build the delay line, and --report-only needs no root).
tb_require() {
	local t b
	[ "$(id -u)" -eq 0 ] || fail "needs root (network namespaces)"
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || fail "$t not found"
	done
	TCPTUNED=$top_builddir/tcptuned
	TB_TCPTUNECTL=$top_builddir/tcptunectl
	TB_DELAYLINE=$top_builddir/bench/throughput/delayline
	for b in "$TCPTUNED" "$TB_TCPTUNECTL" "$TB_DELAYLINE"; do
		[ -x "$b" ] || fail "$b not built"
	done
}

TB_IP_A=10.77.0.1
TB_IP_B=10.77.0.2
TB_NS_A=
TB_NS_B=
TB_DL_PID=
TB_DL_LOG=
TB_EMU=
TB_HOST_NETNS=$(readlink /proc/self/ns/net)

tb_log() {
	printf '%s\n' "$*" >&2
}

# tb_assert_ns NS: abort unless NS is one of ours and is not the host's
# network namespace (nor pid 1's), so a write there cannot touch the host.
tb_assert_ns() {
	local ns=$1 inner init
	case $ns in
	tt-bench-*) ;;
	*) tb_log "refusing: '$ns' is not a bench namespace"; exit 99 ;;
	esac
	inner=$(ip netns exec "$ns" readlink /proc/self/ns/net) || exit 99
	init=$(readlink /proc/1/ns/net 2>/dev/null)
	if [ -z "$inner" ] || [ -z "$TB_HOST_NETNS" ] ||
	    [ "$inner" = "$TB_HOST_NETNS" ] || [ "$inner" = "$init" ]; then
		tb_log "refusing: namespace $ns is the host's ($inner)"
		exit 99
	fi
}

# tb_sysctl NS KEY VALUE: write a per-namespace sysctl inside NS only.
tb_sysctl() {
	tb_assert_ns "$1"
	ip netns exec "$1" sysctl -q -w "$2=$3"
}

# tb_bufs NS_OR_BOTH RMEM WMEM: both namespaces get the same ceilings.
tb_bufs() {
	local ns
	for ns in "$TB_NS_A" "$TB_NS_B"; do
		tb_sysctl "$ns" net.ipv4.tcp_rmem "$1" || return 1
		tb_sysctl "$ns" net.ipv4.tcp_wmem "$2" || return 1
	done
}

tb_have_netem() {
	[ -z "${TB_FORCE_DELAYLINE:-}" ] || return 1
	modprobe -q sch_netem 2>/dev/null
	grep -qw '^sch_netem' /proc/modules 2>/dev/null ||
	    [ -d /sys/module/sch_netem ]
}

# tb_wait SECONDS CMD...: poll CMD every 0.05 s, bounded.  SECONDS is
# what it takes on an idle machine; the bound is a safety net of at least
# TT_WAIT_LIMIT seconds (120, as tests/system/lib.sh): a busy machine
# is slow, not broken (docs/HACKING.md, "Tests on a busy machine").
tb_wait() {
	local n
	n=$(awk -v s="$1" -v l="${TT_WAIT_LIMIT:-120}" \
	    'BEGIN { if (l > s) s = l; printf "%d", s * 20 }')
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		n=$((n - 1))
		sleep 0.05
	done
	"$@" >/dev/null 2>&1
}

tb_link_exists() {
	ip -n "$1" link show dev "$2"
}

# tb_up RATE_BIT_S RTT_MS QUEUE_BYTES MTU: namespaces and link, up.
tb_up() {
	local rate=$1 rtt=$2 queue=$3 mtu=$4 ns
	TB_NS_A=tt-bench-a-$$
	TB_NS_B=tt-bench-b-$$
	ip netns add "$TB_NS_A" || return 1
	ip netns add "$TB_NS_B" || return 1
	for ns in "$TB_NS_A" "$TB_NS_B"; do
		tb_assert_ns "$ns"
		ip -n "$ns" link set lo up || return 1
	done
	if tb_have_netem; then
		tb_up_netem "$rate" "$rtt" "$queue" "$mtu" || return 1
	else
		tb_up_delayline "$rate" "$rtt" "$queue" "$mtu" || return 1
	fi
	ip -n "$TB_NS_A" addr add "$TB_IP_A" peer "$TB_IP_B" dev tta &&
	    ip -n "$TB_NS_B" addr add "$TB_IP_B" peer "$TB_IP_A" dev ttb &&
	    ip -n "$TB_NS_A" link set tta mtu "$mtu" txqueuelen 10000 up &&
	    ip -n "$TB_NS_B" link set ttb mtu "$mtu" txqueuelen 10000 up
}

tb_up_delayline() {
	local rate=$1 rtt=$2 queue=$3
	TB_EMU=delayline
	TB_DL_LOG=${TB_TMP:?}/delayline.log
	[ -x "${TB_DELAYLINE:-}" ] ||
	    { tb_log "delayline not built: ${TB_DELAYLINE:-unset}"; return 1; }
	"$TB_DELAYLINE" -a "/run/netns/$TB_NS_A" -A tta \
	    -b "/run/netns/$TB_NS_B" -B ttb -r "$rate" \
	    -d "$((rtt * 1000 / 2))" -q "$queue" 2>"$TB_DL_LOG" &
	TB_DL_PID=$!
	if ! tb_wait 5 tb_link_exists "$TB_NS_A" tta ||
	    ! tb_wait 5 tb_link_exists "$TB_NS_B" ttb; then
		tb_log "delayline did not start: $(cat "$TB_DL_LOG")"
		return 1
	fi
}

# netem: a veth pair, each end shaped one way (delay RTT/2, rate, limit in
# packets of the MTU); the names match the TUN case.
tb_up_netem() {
	local rate=$1 rtt=$2 queue=$3 mtu=$4 limit
	TB_EMU=netem
	limit=$(( queue / mtu + 1 ))
	ip link add tta netns "$TB_NS_A" type veth peer ttb netns "$TB_NS_B" ||
	    return 1
	ip netns exec "$TB_NS_A" tc qdisc add dev tta root netem \
	    delay "$((rtt * 500))us" rate "${rate}bit" limit "$limit" &&
	    ip netns exec "$TB_NS_B" tc qdisc add dev ttb root netem \
	    delay "$((rtt * 500))us" rate "${rate}bit" limit "$limit"
}

# tb_counters: the emulator's counters, one line per direction, and for
# the delay line the CPU time it used over its life.
tb_counters() {
	local tck
	if [ "$TB_EMU" = delayline ] && [ -n "$TB_DL_PID" ]; then
		kill -USR1 "$TB_DL_PID" 2>/dev/null
		sleep 0.2
		grep '^delayline [ab]>' "$TB_DL_LOG" | tail -n 2
		tck=$(getconf CLK_TCK)
		# /proc/PID/stat: utime, stime are fields 14, 15 (after the
		# command, which has no space here); starttime is field 22
		awk -v t="$tck" -v up="$(cut -d' ' -f1 /proc/uptime)" \
		    '{ cpu = ($14 + $15) / t; life = up - $22 / t
		    printf "delayline cpu: %.1f s user+system over %.0f s (%.0f %% of one core)\n",
			cpu, life, (life > 0 ? cpu * 100 / life : 0) }' \
		    "/proc/$TB_DL_PID/stat"
		# drops before the delay line reads a packet (TUN queue full
		# while it was not scheduled) are the kernel's, not counted above
		printf 'tun tx_dropped: tta %s, ttb %s\n' \
		    "$(ip netns exec "$TB_NS_A" cat /sys/class/net/tta/statistics/tx_dropped)" \
		    "$(ip netns exec "$TB_NS_B" cat /sys/class/net/ttb/statistics/tx_dropped)"
	elif [ "$TB_EMU" = netem ]; then
		ip netns exec "$TB_NS_A" tc -s qdisc show dev tta | tr '\n' ' '
		echo
		ip netns exec "$TB_NS_B" tc -s qdisc show dev ttb | tr '\n' ' '
		echo
	fi
}

# tb_down: stop the emulator and delete the namespaces (idempotent).
tb_down() {
	local ns pid
	if [ -n "$TB_DL_PID" ]; then
		kill -TERM "$TB_DL_PID" 2>/dev/null
		wait "$TB_DL_PID" 2>/dev/null
		TB_DL_PID=
	fi
	for ns in "$TB_NS_A" "$TB_NS_B"; do
		[ -n "$ns" ] || continue
		# anything still running in it (iperf3, tcptuned) goes first
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill -TERM "$pid" 2>/dev/null
		done
		ip netns del "$ns" 2>/dev/null
	done
	TB_NS_A=
	TB_NS_B=
}

# tb_rtt_ms COUNT: the round trip A -> B in ms (median of COUNT TCP
# connects to a closed port of B, answered by B's stack with a reset; no
# ping(8) needed), from `tcptunectl advise --host` (TB_TCPTUNECTL).
tb_rtt_ms() {
	ip netns exec "$TB_NS_A" "${TB_TCPTUNECTL:?}" advise --rate 1g \
	    --host "$TB_IP_B:9" --count "$1" --timeout 3 --json |
	    jq -r '.path.measurement.median_s * 1e5 | round / 100'
}

# tb_iperf_server / tb_iperf RESULT_JSON IPERF_ARGS...: a server in B, a
# client in A; the client's -J output into RESULT_JSON.
tb_iperf_server() {
	tb_assert_ns "$TB_NS_B"
	ip netns exec "$TB_NS_B" iperf3 -s -B "$TB_IP_B" \
	    >"$TB_TMP/iperf3-server.log" 2>&1 &
	tb_wait 5 tb_listening
}

tb_listening() {
	ip netns exec "$TB_NS_B" ss -Hltn | grep -q "$TB_IP_B:5201"
}

tb_iperf() {
	local out=$1
	shift
	tb_assert_ns "$TB_NS_A"
	ip netns exec "$TB_NS_A" iperf3 -c "$TB_IP_B" -J "$@" >"$out"
}

# tb_mbps JSON: the received rate in Mbit/s, one decimal.
tb_mbps() {
	jq -r '.end.sum_received.bits_per_second / 1e6 * 10 | round / 10' "$1"
}
