#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: reloads by SIGHUP, by `tcptunectl reload` and by an
# editor-style rename of the config file; a bad config keeps the running one
# (still enforced) and reports every error as file:line; keys dropped from
# the config get their originals back; a failed read clears once the file
# holds the running config again, and a write in two steps (truncate,
# then the content) ends on the final content.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 4

# enforced VALUE: rmem is VALUE and an outside write to it is reverted.
enforced() {
	sysctl_is $RMEM "$1" || return 1
	sysctl_put $RMEM "$R0"
	wait_until 3 sysctl_is $RMEM "$1"
}

# json_get_fresh FILTER: FILTER applied to a fresh status.
json_get_fresh() {
	status_json && json_get "$1"
}

# last_reload: the daemon's last reload time from a fresh status.
last_reload() {
	status_json && json_get '.daemon.last_reload // empty'
}

reload_time_after() {
	local t
	t=$(last_reload)
	[ -n "$t" ] && [ "$t" != null ] && [ "$t" != "$1" ]
}

# errors_logged_since N: the log has more than N errors for line 5 of $CONF.
errors_logged_since() {
	[ "$(count_in "$T/d.main.log" "$CONF:5: ")" -gt "$1" ]
}

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
start_ready main
wait_until 3 sysctl_is $RMEM "${RV[0]}" && sysctl_is $WMEM "${WV[0]}" &&
    sysctl_is $CC "$CA"
report $? "the first config is applied" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)' cc '$(sysctl_get $CC)'"
PID=$(daemon_pid main)

# ---- SIGHUP

# An unchanged file gives no file event, so only the signal can reload.
t0=$(last_reload)
sleep 1.1
kill -HUP "$PID"
wait_until 3 reload_time_after "$t0"
report $? "SIGHUP with an unchanged file reloads (daemon.last_reload changes)" \
    "last_reload before '$t0', now '$(json_get .daemon.last_reload)'"

plist "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$CC=$CA" | write_config "$CONF"
kill -HUP "$PID"
wait_until 3 sysctl_is $RMEM "${RV[1]}" && sysctl_is $WMEM "${WV[1]}"
report $? "SIGHUP: a good new config is applied" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"
wait_until 3 all_in_force
report $? "SIGHUP: status shows the new config in force"

n0=$(count_in "$T/d.main.log" "$CONF:5: ")
bad_config "$CONF"
kill -HUP "$PID"
wait_until 3 errors_logged_since "$n0" &&
    has_all_errors "$CONF" "$T/d.main.log" >/dev/null
report $? "SIGHUP: a bad config's errors are logged as file:line: message" \
    "$(has_all_errors "$CONF" "$T/d.main.log")"
daemon_alive main && enforced "${RV[1]}" && sysctl_is $WMEM "${WV[1]}"
report $? "SIGHUP: after a bad config the old values are still enforced" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"
status_json
ok=$(json_get '.daemon.last_reload_ok')
case $ok in
false | 0) true ;;
*) false ;;
esac
report $? "SIGHUP: status reports the failed reload (daemon.last_reload_ok '$ok')" \
    "$(jq -c .daemon "$T/status.json")"

# ---- tcptunectl reload

plist "$RMEM=${RV[2]}" "$WMEM=${WV[2]}" "$CC=$CA" | write_config "$CONF"
ctl reload
rc=$CTL_RC
# The reply comes when the reload is done: no waiting.
[ "$rc" -eq 0 ] && sysctl_is $RMEM "${RV[2]}" && sysctl_is $WMEM "${WV[2]}"
report $? "tcptunectl reload: exit 0 and the new values are in place on return" \
    "exit $rc, rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"

bad_config "$CONF"
ctl reload
rc=$CTL_RC
check_eq "tcptunectl reload of a bad config: exit 1" 1 "$rc"
why=$(has_all_errors "$CONF" "$T/ctl.out")
report $? "tcptunectl reload: every error shown as file:line: message" "$why"
# ... on stderr, so that `reload >/dev/null` in a script still says why
# (issue 45): nothing on stdout
"$TCPTUNECTL" -s "$SOCK" reload >"$T/reload.stdout" 2>"$T/reload.stderr"
rc=$?
why=$(has_all_errors "$CONF" "$T/reload.stderr")
[ "$rc" -eq 1 ] && [ -z "$why" ] && [ ! -s "$T/reload.stdout" ]
report $? "tcptunectl reload: the errors on stderr, nothing on stdout" \
    "exit $rc" "$why" "$(cat "$T/reload.stdout")"
daemon_alive main && enforced "${RV[2]}" && sysctl_is $WMEM "${WV[2]}"
report $? "tcptunectl reload: after a bad config the old values are still enforced" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"
ctl status
check_eq "tcptunectl reload: status still exit 0 (old config in force)" 0 "$CTL_RC"

# ---- editor-style replace (write a temporary file, rename it over)

plist "$RMEM=${RV[3]}" "$WMEM=${WV[3]}" "$CC=$CA" | replace_config "$CONF"
wait_until 4 sysctl_is $RMEM "${RV[3]}" && sysctl_is $WMEM "${WV[3]}"
report $? "rename over the config: the new values are applied without a signal" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"

n0=$(count_in "$T/d.main.log" "$CONF:5: ")
bad_config "$T/etc/bad.tmp"
replace_config "$CONF" <"$T/etc/bad.tmp"
wait_until 4 errors_logged_since "$n0"
report $? "rename of a bad config over it: the errors are logged as file:line" \
    "$(has_all_errors "$CONF" "$T/d.main.log")"
daemon_alive main && enforced "${RV[3]}" && sysctl_is $WMEM "${WV[3]}"
report $? "rename of a bad config: the old values are kept and enforced" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"

# Another bad version: line 5's error is the same, line 9 is fixed, line 10
# has a different error.  Its errors must be reported too.
sed -e 's/<string>sometimes</<string>once</' \
    -e 's/not a sysctl name!/another bad name!/' "$T/etc/bad.tmp" |
    replace_config "$CONF"
new_error_logged() {
	grep "$CONF:10: " "$T/d.main.log" | grep -qF "another bad name!"
}
wait_until 4 new_error_logged
report $? "rename of another bad version (same first error): its errors are reported too" \
    "log lines for $CONF:10:" "$(grep -F "$CONF:10: " "$T/d.main.log")"

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | replace_config "$CONF"
wait_until 4 sysctl_is $RMEM "${RV[0]}" && sysctl_is $WMEM "${WV[0]}"
report $? "rename after a bad one: the watch still works, new values applied" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"

# ---- keys dropped from the config get their originals back

plist "$RMEM=${RV[0]}" | write_config "$CONF"
ctl reload
rc=$CTL_RC
[ "$rc" -eq 0 ] && sysctl_is $WMEM "$W0" && sysctl_is $CC "$C0" &&
    sysctl_is $RMEM "${RV[0]}"
report $? "dropped keys get their originals back on reload" \
    "exit $rc, wmem '$(sysctl_get $WMEM)' (original '$W0'), cc '$(sysctl_get $CC)' (original '$C0')"
status_json
[ "$CTL_RC" -eq 0 ] && [ "$(json_get '.keys | length')" = 1 ] &&
    [ "$(json_get '.keys[0].name')" = $RMEM ]
report $? "status lists only the key still configured, in force" \
    "$(jq -c '.keys[] | {name, state}' "$T/status.json")"
sysctl_put $WMEM "${WV[1]}"
wait_checks 2
sysctl_is $WMEM "${WV[1]}" && sysctl_is $RMEM "${RV[0]}"
report $? "a dropped key is no longer enforced" "wmem '$(sysctl_get $WMEM)'"

# ---- CheckInterval follows the config; no wake-ups between checks but
# diagnose's once a second

wakeups() {
	awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$PID/status"
}

# CheckInterval 3600, not 60: no check may come during the window below
# even when a busy machine stretches it.  Writing the file also started
# the daemon's debounce timer (300 ms): its expiry, logged, is waited
# for, so that the window counts only what the daemon does on its own.
settled() {
	[ "$(count_in "$T/d.main.log" "settled or changed")" -gt "$1" ]
}
s0=$(count_in "$T/d.main.log" "settled or changed")
plist -i 3600 "$RMEM=${RV[1]}" | write_config "$CONF"
ctl reload
rc=$CTL_RC
[ "$rc" -eq 0 ] && sysctl_is $RMEM "${RV[1]}" &&
    [ "$(json_get_fresh .daemon.check_interval)" = 3600 ]
report $? "reload to CheckInterval 3600: applied (exit $rc)" "rmem '$(sysctl_get $RMEM)'"
wait_until 1 settled "$s0"
sleep 0.5
sysctl_put $RMEM "${RV[2]}"
w0=$(wakeups)
sleep 2
w1=$(wakeups)
sysctl_is $RMEM "${RV[2]}"
report $? "CheckInterval 3600: an outside write is not reverted within 2 s" \
    "rmem '$(sysctl_get $RMEM)'"
# diagnose's tick (daemon/flows/diagnose.c, FLOW_TICK_MS, 1 s) wakes the daemon
# once a second to read /proc/net/snmp, whatever the CheckInterval: two
# in the window, and one more where a tick falls on its edge; a check or
# a busy loop would be more
[ -n "$w0" ] && [ $((w1 - w0)) -le 3 ]
report $? "CheckInterval 3600: no wake-ups between checks but diagnose's tick ($((w1 - w0)) wake-ups in 2 s)"
plist -i 1 "$RMEM=${RV[1]}" | write_config "$CONF"
ctl reload
sysctl_put $RMEM "${RV[2]}"
wait_until 3 sysctl_is $RMEM "${RV[1]}"
report $? "reload back to CheckInterval 1: drift is reverted again" \
    "rmem '$(sysctl_get $RMEM)'"

# ---- a failed read is over once the file holds the running config again
# A typo, then the file put back as it was: the content is the running
# config's, and status, JSON and the metric say the reload is fine.

reload_ok_is() {
	status_json && [ "$(json_get .daemon.last_reload_ok)" = "$1" ]
}
prom_success() {
	"$TCPTUNECTL" -s "$SOCK" status --prometheus >"$T/m.prom" 2>&1
	awk '$1 == "tcptune_last_reload_success" { print $2 }' "$T/m.prom"
}
# status's "last reload" line with its continuation lines (it is wrapped
# at 80 columns), joined
last_reload_line() {
	"$TCPTUNECTL" -s "$SOCK" status 2>&1 | awk '
	    /^last reload/ { l = $0; on = 1; next }
	    on && /^  / { l = l " " $0; next }
	    { on = 0 }
	    END { gsub(/ +/, " ", l); print l }'
}
cp "$CONF" "$T/etc/good.copy"
sed 's/<key>CheckInterval</<key>CheckIntreval</' "$T/etc/good.copy" |
    replace_config "$CONF"
wait_until 4 reload_ok_is false
report $? "a typo: the reload fails" "$(jq -c .daemon "$T/status.json")"
replace_config "$CONF" <"$T/etc/good.copy"
wait_until 4 reload_ok_is true
report $? "the file put back as it was: last_reload_ok true again" \
    "$(jq -c .daemon "$T/status.json")"
line=$(last_reload_line)
case $line in
*FAILED* | *error*) false ;;
*"ok: reloaded (unchanged)"*) true ;;
*) false ;;
esac
report $? "status: the last reload is ok, unchanged" "$line"
check_eq "--prometheus: tcptune_last_reload_success" 1 "$(prom_success)"

# ---- a write in two steps under the watch ends on the final content
# The file is truncated, the daemon reads it empty (a failed reload: that
# state is waited for, no sleep), then the content comes: once the same
# as the running config, once new.

last_msg_has() {
	status_json && json_get .daemon.last_reload_message | grep -q "$1"
}
for final in same new; do
	: >"$CONF"
	wait_until 4 last_msg_has "error"
	report $? "two steps ($final): the empty file is read, a failed reload" \
	    "$(jq -c .daemon "$T/status.json")"
	if [ "$final" = same ]; then
		cat "$T/etc/good.copy" >"$CONF"
		want=${RV[1]}
	else
		plist -i 1 "$RMEM=${RV[2]}" >"$CONF"
		want=${RV[2]}
	fi
	wait_until 4 reload_ok_is true && sysctl_is $RMEM "$want" &&
	    ! last_msg_has error
	report $? "two steps ($final): status ends on the final content" \
	    "$(jq -c .daemon "$T/status.json")" "rmem '$(sysctl_get $RMEM)'"
done

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

tap_end
