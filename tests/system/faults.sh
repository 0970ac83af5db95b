#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: kill -9 at random points (0-50 ms) during start (and its
# first apply), reload and restore, in a loop.  After every kill the
# originals file holds only the values from before the first start (or
# nothing yet), never tuned ones, with a good checksum; every restart
# converges to the config on disk (or, when the restore had finished, to
# the originals, paused) and shows the true originals.  Then two faults
# made certain: a leftover temporary file of an interrupted save, and a
# kill in the middle of a restore (held there by a FIFO under tcptuned -r).
# Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"

ITER=${TT_KILL_ITER:-45}
use_keys 2

# config_x A|B: write that config.
config_x() {
	if [ "$1" = A ]; then
		plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA"
	else
		plist "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$CC=$CA"
	fi | write_config "$CONF"
	CUR=$1
}

# converged: the values and the status match config $CUR, all in force,
# the originals shown are the true ones, no state problem.
converged() {
	local i=0
	[ "$CUR" = B ] && i=1
	all_in_force && sysctl_is "$RMEM" "${RV[$i]}" && sysctl_is "$WMEM" "${WV[$i]}" &&
	    sysctl_is "$CC" "$CA" && key_value_is "$RMEM" original "$R0" &&
	    key_value_is "$WMEM" original "$W0" && key_value_is "$CC" original "$C0" &&
	    [ "$(json_get .daemon.state_problem)" = null ]
}

# sleep_ms N
sleep_ms() {
	sleep "$(awk -v n="$1" 'BEGIN { printf "%.3f", n / 1000 }')"
}

kill9() {
	kill -KILL "$1" 2>/dev/null
	wait_until 3 daemon_exited "$2"
}

config_x A
start_ready first
wait_until 5 converged
report $? "first start converges to config A" "$(values)" ||
    bail "no converged daemon to start the loop from"

rel_begin
bad_file=0 bad_conv=0 bad_paused=0 paused_seen=0 id=first
declare -A phases=([start]=0 [reload]=0 [restore]=0)
t0=$(now_ms)
for i in $(seq 1 "$ITER"); do
	delay=$((RANDOM % 51))
	case $((RANDOM % 3)) in
	0) phase=start
		kill9 "$(daemon_pid "$id")" "$id"
		if [ $((RANDOM % 2)) -eq 0 ]; then config_x A; else config_x B; fi
		daemon_start "k$i"
		sleep_ms "$delay"
		kill9 "$DPID" "k$i"
		;;
	1) phase=reload
		if [ "$CUR" = A ]; then config_x B; else config_x A; fi
		kill -HUP "$(daemon_pid "$id")"
		sleep_ms "$delay"
		kill9 "$(daemon_pid "$id")" "$id"
		;;
	2) phase=restore
		"$TCPTUNECTL" -s "$SOCK" restore >/dev/null 2>&1 &
		sleep_ms "$delay"
		kill9 "$(daemon_pid "$id")" "$id"
		wait $!
		;;
	esac
	phases[$phase]=$((phases[$phase] + 1))
	if ! why=$(originals_file_ok "$STATE/originals" "$R0" "$W0" "$C0"); then
		bad_file=$((bad_file + 1))
		diag "iteration $i ($phase, ${delay} ms): $why"
	fi
	id=r$i
	start_ready "$id"
	status_json
	if [ "$(json_get .daemon.paused)" = true ]; then
		# The restore had finished: the originals, every one of them.
		paused_seen=$((paused_seen + 1))
		if ! originals; then
			bad_paused=$((bad_paused + 1))
			diag "iteration $i ($phase, ${delay} ms): paused over $(values)"
		fi
		ctl resume
	fi
	if ! wait_until 5 converged; then
		bad_conv=$((bad_conv + 1))
		diag "iteration $i ($phase, ${delay} ms): not converged to $CUR: $(values)," \
		    "status: $(jq -c '[.daemon.state_problem, (.keys[] | [.name, .state, .original])]' "$T/status.json")"
	fi
done
t1=$(now_ms)
diag "phases: start ${phases[start]}, reload ${phases[reload]}, restore ${phases[restore]}; $(( (t1 - t0) / 1000 )) s"

check_eq "kill -9 x $ITER: the originals file never held a tuned value or a bad checksum" 0 "$bad_file"
check_eq "kill -9 x $ITER: every restart converged to the config, with the true originals shown" 0 "$bad_conv"
check_eq "kill -9 during restore: a restart found paused ($paused_seen times) had every original back" 0 "$bad_paused"
[ "${phases[start]}" -gt 0 ] && [ "${phases[reload]}" -gt 0 ] && [ "${phases[restore]}" -gt 0 ]
report $? "each fault point was hit (start ${phases[start]}, reload ${phases[reload]}, restore ${phases[restore]})"
left=$(find "$STATE" -name 'originals.tmp.*' | wc -l)
check_eq "no temporary file of an interrupted save is left after a restart" 0 "$left"
rel_row "process: kill -9 loop" \
    "$ITER x kill -9 at 0-50 ms into start (first apply), reload (SIGHUP) or restore, then restart" \
    "start ${phases[start]}, reload ${phases[reload]}, restore ${phases[restore]}; originals never replaced, every restart converged"

# ---- a save interrupted by a crash leaves a temporary file: swept

kill9 "$(daemon_pid "$id")" "$id"
echo junk >"$STATE/originals.tmp.99999"
start_ready sweep
[ ! -e "$STATE/originals.tmp.99999" ] && log_has sweep "left by an interrupted save"
report $? "a leftover originals.tmp.PID is removed at start (logged)"
wait_until 5 converged
report $? "and the daemon converges" "$(values)"
rel_row "process: interrupted save" "a leftover originals.tmp.PID from a crash" "swept at start"

daemon_stop sweep
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status sweep)"

# ---- kill -9 in the middle of a restore, made certain
#
# The random kills above rarely land inside a restore (it takes well under
# a millisecond).  Here the sysctls are files under a root directory
# (tcptuned -r) and the key restored last (the first in plan order) is a
# FIFO, so the restore blocks there with the other keys already back; the
# kill lands in the middle for sure.  The restart must not be paused over
# that mix of values: either every original is back, or the config is.

ROOT=$T/sysroot
mkdir -p "$ROOT/net/ipv4"
O_R="4096 87380 6291456" O_W="4096 16384 4194304" O_C=cubic
printf '%s\n' "$O_R" >"$ROOT/net/ipv4/tcp_rmem"
printf '%s\n' "$O_W" >"$ROOT/net/ipv4/tcp_wmem"
printf '%s\n' "$O_C" >"$ROOT/net/ipv4/tcp_congestion_control"
# CheckInterval 3600: no check may read the FIFO before the restore does.
plist -i 3600 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=reno" | write_config "$CONF"
# show_root: the files' values; never opens a FIFO, which would block.
show_root() {
	local f
	for f in "$ROOT"/net/ipv4/*; do
		if [ -f "$f" ]; then
			echo "${f##*/} '$(cat "$f")'"
		else
			echo "${f##*/} (not a file)"
		fi
	done
}
root_is() {
	[ "$(fold_ws "$(cat "$ROOT/net/ipv4/tcp_rmem")")" = "$(fold_ws "$1")" ] &&
	    [ "$(fold_ws "$(cat "$ROOT/net/ipv4/tcp_wmem")")" = "$(fold_ws "$2")" ] &&
	    [ "$(fold_ws "$(cat "$ROOT/net/ipv4/tcp_congestion_control")")" = "$3" ]
}
file_is() {
	[ "$(fold_ws "$(cat "$1" 2>/dev/null)")" = "$(fold_ws "$2")" ]
}
RS=$T/state-root
start_ready mid -f "$CONF" -s "$SOCK" -S "$RS" -r "$ROOT"
wait_until 3 root_is "${RV[0]}" "${WV[0]}" reno
report $? "tcptuned -r: the config is applied to the files" "$(show_root)"
first=$("$TCPTUNECTL" check -v "$CONF" | sed -n 's/^ *1\. \([^ ]*\) .*/\1/p')
diag "first in plan order, restored last: $first"
f=$ROOT/$(printf '%s' "$first" | tr . /)
tuned_first=$(cat "$f")
rm -f "$f"
mkfifo "$f"
"$TCPTUNECTL" -s "$SOCK" restore >/dev/null 2>&1 &
restorer=$!
others_back() {
	local k
	for k in "$RMEM:$O_R" "$WMEM:$O_W" "$CC:$O_C"; do
		[ "${k%%:*}" = "$first" ] && continue
		file_is "$ROOT/$(printf '%s' "${k%%:*}" | tr . /)" "${k#*:}" || return 1
	done
}
wait_until 5 others_back
report $? "the restore is under way: the other keys are back, $first blocks" \
    "$(show_root)"
kill9 "$(daemon_pid mid)" mid
wait "$restorer"
rm -f "$f"
printf '%s\n' "$tuned_first" >"$f"
why=$(originals_file_ok "$RS/originals" "$O_R" "$O_W" "$O_C")
report $? "the originals file holds the true originals after the kill" "$why"
start_ready mid2 -f "$CONF" -s "$SOCK" -S "$RS" -r "$ROOT"
status_json
paused=$(json_get .daemon.paused)
if [ "$paused" = true ]; then
	outcome="paused, with the originals"
	root_is "$O_R" "$O_W" "$O_C"
else
	outcome="not paused, with the config"
	wait_until 3 root_is "${RV[0]}" "${WV[0]}" reno && all_in_force
fi
report $? "restart after a kill mid-restore (paused: $paused): every original back, or the config in force, never a mix" \
    "$(show_root)"
daemon_stop mid2
rel_row "process: kill -9 mid-restore" \
    "restore blocked half-way (a FIFO as the last key, tcptuned -r), kill -9, restart" \
    "restart $outcome"

tap_end
