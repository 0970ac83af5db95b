#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: SIGTERM exits 0 leaving the values in force;
# kill -9 then restart keeps the true originals (and replaces the stale
# socket); a second instance on the same socket is refused while the first
# keeps running.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2

originals_shown() {
	status_json && key_value_is $RMEM original "$R0" &&
	    key_value_is $WMEM original "$W0" && key_value_is $CC original "$C0"
}

# stop_timed ID: SIGTERM, then check it exits 0.  How long that took is
# shown, not asserted: on a busy machine it is the scheduler's figure.
stop_timed() {
	local t0 t1
	t0=$(now_ms)
	kill -TERM "$(daemon_pid "$1")"
	wait_until 1 daemon_exited "$1"
	t1=$(now_ms)
	check_eq "SIGTERM ($1): exit 0 (took $((t1 - t0)) ms)" 0 \
	    "$(daemon_exit_status "$1")"
	daemon_stop "$1" KILL
}

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"

ctl status
check_eq "tcptunectl status without a daemon: exit 2" 2 "$CTL_RC"

# ---- first start, crash right after the first apply

start_ready a
wait_until 3 tuned
report $? "first start: applied" "$(values)"
kill -KILL "$(daemon_pid a)"
wait_until 2 daemon_exited a
report $? "kill -9: the daemon is gone"
[ -S "$SOCK" ]
report $? "kill -9 leaves a stale socket file behind (precondition)" \
    "$(ls -la "$(dirname "$SOCK")" 2>&1)"
tuned
report $? "kill -9 leaves the tuned values in place" "$(values)"

# ---- restart over the stale socket, with the values already tuned

daemon_start b
daemon_ready b
report $? "restart after kill -9: the stale socket is replaced, status answers" \
    "exit status '$(daemon_exit_status b)'"
originals_shown
report $? "after kill -9 and restart the originals are the true pre-daemon values" \
    "$(jq -c '.keys[] | {name, original}' "$T/status.json")"
wait_until 3 all_in_force
report $? "after the restart all keys are in force"

# ---- a second instance on the same socket

daemon_start second -f "$CONF" -s "$SOCK" -S "$T/state-second"
wait_until 3 daemon_exited second
rc=$(daemon_exit_status second)
[ -n "$rc" ] && [ "$rc" -ne 0 ] && [ -s "$T/d.second.log" ]
report $? "a second instance on the same socket is refused (exit '${rc:-still running}')" \
    "$(tail -n 5 "$T/d.second.log")"
grep -iqE "running|another|already|in use" "$T/d.second.log"
report $? "the refusal says another instance is running" \
    "$(tail -n 5 "$T/d.second.log")"
daemon_stop second KILL

daemon_start third -f "$CONF" -s "$T/run2/tcptuned.sock" -S "$STATE"
wait_until 3 daemon_exited third
rc=$(daemon_exit_status third)
[ -n "$rc" ] && [ "$rc" -ne 0 ]
report $? "a second instance on another socket but the same state directory is refused (exit '${rc:-still running}')" \
    "$(tail -n 5 "$T/d.third.log")"
daemon_stop third KILL
daemon_alive b && daemon_answers b && all_in_force
report $? "the first instance keeps running and answering, all in force"

# ---- SIGTERM leaves the values in force

stop_timed b
tuned
report $? "after SIGTERM the values stay in force (RestoreOnExit false)" "$(values)"

# ---- a clean restart, then a crash with the tuned values, then restart

start_ready c
originals_shown
report $? "after a clean restart the originals are still the true ones" \
    "$(jq -c '.keys[] | {name, original}' "$T/status.json")"
plist "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$CC=$CA" | write_config "$CONF"
ctl reload
wait_until 2 sysctl_is $RMEM "${RV[1]}"
report $? "reload to new values (exit $CTL_RC)" "$(values)"
kill -KILL "$(daemon_pid c)"
wait_until 2 daemon_exited c
start_ready d
originals_shown
report $? "kill -9 after a reload, restart: the originals are still the true ones" \
    "$(jq -c '.keys[] | {name, original}' "$T/status.json")"
ctl restore
rc=$CTL_RC
[ "$rc" -eq 0 ] && originals
report $? "restore puts the true pre-daemon values back" "exit $rc, $(values)"
ctl resume
rc=$CTL_RC
[ "$rc" -eq 0 ] && sysctl_is $RMEM "${RV[1]}"
report $? "resume applies the config again" "exit $rc, $(values)"
stop_timed d

# ---- systemd readiness: READY=1 only after the first apply

if command -v python3 >/dev/null 2>&1; then
	NS=$T/notify.sock
	# The listener says it is bound by creating NS.ready (after bind, so
	# a daemon started once it is there cannot miss it); the waits on
	# both sides are only the safety net (tt_wait_seconds).
	python3 - "$NS" "$(sysctl_path $RMEM)" "$(tt_wait_seconds)" \
	    >"$T/notify.out" 2>&1 <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[1] + ".ready", "w").close()
s.settimeout(float(sys.argv[3]))
try:
    msg = s.recv(4096).decode()
except socket.timeout:
    print("TIMEOUT")
    sys.exit(1)
# What the sysctl holds the moment READY arrives.
print("RMEM", " ".join(open(sys.argv[2]).read().split()))
print("MSG", msg.replace("\n", "|"))
EOF
	pypid=$!
	wait_until 3 test -e "$NS.ready" || bail "notify listener did not start"
	plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
	export NOTIFY_SOCKET=$NS
	daemon_start e -f "$CONF" -s "$SOCK" -S "$T/state-notify"
	unset NOTIFY_SOCKET
	wait "$pypid"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q '^MSG.*READY=1' "$T/notify.out"
	report $? "with NOTIFY_SOCKET set, READY=1 is sent" "$(cat "$T/notify.out")"
	grep -qxF "RMEM ${RV[0]}" "$T/notify.out"
	report $? "READY=1 comes after the first apply" "$(cat "$T/notify.out")"
	daemon_ready e
	stop_timed e
else
	skip "READY=1 is sent" "python3 not found"
	skip "READY=1 after the first apply" "python3 not found"
fi

# ---- systemd's Status: line follows the state, and a reload says so

# told TEXT: the daemon has sent a datagram holding TEXT (fixed string).
told() {
	grep -qF -- "$1" "$T/notify.all"
}

# last_status: the last STATUS= the daemon sent.
last_status() {
	grep -o 'STATUS=.*' "$T/notify.all" | tail -n 1
}

# last_status_is TEXT: the last STATUS= is exactly TEXT.
last_status_is() {
	[ "$(last_status)" = "STATUS=$1" ]
}

if command -v python3 >/dev/null 2>&1; then
	NS=$T/notify-all.sock
	: >"$T/notify.all"
	# Every datagram, one a line (newlines as |), until killed.
	python3 - "$NS" >>"$T/notify.all" 2>&1 <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[1] + ".ready", "w").close()
while True:
    print(s.recv(4096).decode().replace("\n", "|"), flush=True)
EOF
	pypid=$!
	wait_until 3 test -e "$NS.ready" || bail "notify listener did not start"
	plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
	export NOTIFY_SOCKET=$NS
	daemon_start f -f "$CONF" -s "$SOCK" -S "$T/state-status"
	unset NOTIFY_SOCKET
	daemon_ready f
	wait_until 3 last_status_is "3 keys: all in force"
	report $? "STATUS: all keys in force after the start" \
	    "$(cat "$T/notify.all")"
	ctl restore
	wait_until 3 told "STATUS=paused since "
	report $? "STATUS: paused after restore, not 'in force'" \
	    "$(cat "$T/notify.all")"
	last_status | grep -q "by uid 0 (pid [0-9-]*, tcptunectl [^)]*restore): the originals stay"
	report $? "STATUS: the pause says who asked" "$(last_status)"
	ctl resume
	wait_until 3 last_status_is "3 keys: all in force"
	report $? "STATUS: in force again after resume" "$(last_status)"
	printf '<plist><dict><key>CheckInterval</key><string>x</string>' |
	    write_config "$CONF"
	ctl reload
	check_eq "a reload of a broken config fails" 1 "$CTL_RC"
	wait_until 3 sh -c "grep -o 'STATUS=.*' '$T/notify.all' | tail -n 1 |
	    grep -q 'the last reload failed'"
	report $? "STATUS: the failed reload is told" "$(last_status)"
	sed -n '/RELOADING=1/,$p' "$T/notify.all" | grep -q '^READY=1'
	report $? "RELOADING=1, then READY=1 when the read ended" \
	    "$(cat "$T/notify.all")"
	plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
	ctl reload
	wait_until 3 last_status_is "3 keys: all in force"
	report $? "STATUS: a good reload clears the failure" "$(last_status)"
	stop_timed f
	kill "$pypid" 2>/dev/null
	wait "$pypid" 2>/dev/null
else
	for t in "all in force" "paused" "who" "resume" "failed" "RELOADING" \
	    "cleared"; do
		skip "STATUS: $t" "python3 not found"
	done
fi

tap_end

