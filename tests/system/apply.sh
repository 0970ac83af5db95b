#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: tcptuned applies its config, shows it in force, reverts
# outside writes, reports a global key refused inside the namespace, and
# honours the modes once and at-least.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

GLOBAL=net.core.rmem_max
use_keys 3

# After a test that may have let a daemon write, start again from the
# namespace's originals.
reset_values() {
	sysctl_put $RMEM "$R0"
	sysctl_put $WMEM "$W0"
	sysctl_put $CC "$C0"
}

# ---- tcptuned -n

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
"$TCPTUNED" -n -f "$CONF" >"$T/n.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "configuration OK" "$T/n.out"
report $? "tcptuned -n: a good config gives 'configuration OK', exit 0" \
    "exit $rc" "$(sed 's/^/  /' "$T/n.out")"

BAD=$T/etc/bad.conf
bad_config "$BAD"
"$TCPTUNED" -n -f "$BAD" >"$T/n.out" 2>&1
rc=$?
check_eq "tcptuned -n: a bad config exits 1" 1 "$rc" ||
    diag_file "tcptuned -n output" "$T/n.out"
why=$(has_all_errors "$BAD" "$T/n.out") && ! grep -q "configuration OK" "$T/n.out"
report $? "tcptuned -n: every error listed as file:line: message (lines $BAD_LINES)" \
    "$why" "$(sed 's/^/  /' "$T/n.out")"

# ---- unsafe config files are refused at start, nothing written

cp "$CONF" "$T/etc/ww.conf"
chmod 0666 "$T/etc/ww.conf"
daemon_start ww -f "$T/etc/ww.conf" -s "$SOCK" -S "$T/state-ww"
wait_until 3 daemon_exited ww
rc=$(daemon_exit_status ww)
[ -n "$rc" ] && [ "$rc" -ne 0 ] && grep -qi "writable" "$T/d.ww.log" &&
    sysctl_is $RMEM "$R0"
report $? "a world-writable config is refused at start with a message saying so" \
    "exit '${rc:-still running}', rmem now '$(sysctl_get $RMEM)'"
daemon_stop ww KILL
reset_values

cp "$CONF" "$T/etc/nobody.conf"
chown 65534:65534 "$T/etc/nobody.conf"
daemon_start nr -f "$T/etc/nobody.conf" -s "$SOCK" -S "$T/state-nr"
wait_until 3 daemon_exited nr
rc=$(daemon_exit_status nr)
[ -n "$rc" ] && [ "$rc" -ne 0 ] && grep -qiE "own|root" "$T/d.nr.log" &&
    sysctl_is $RMEM "$R0"
report $? "a config not owned by root is refused at start with a message saying so" \
    "exit '${rc:-still running}', rmem now '$(sysctl_get $RMEM)'"
daemon_stop nr KILL
reset_values

daemon_start bad -f "$BAD" -s "$SOCK" -S "$T/state-bad"
wait_until 3 daemon_exited bad
rc=$(daemon_exit_status bad)
why=$(has_all_errors "$BAD" "$T/d.bad.log") && [ -n "$rc" ] && [ "$rc" -ne 0 ] &&
    sysctl_is $RMEM "$R0"
report $? "a bad config: tcptuned exits non-zero at start, listing every error" \
    "exit '${rc:-still running}', rmem now '$(sysctl_get $RMEM)'" "$why"
daemon_stop bad KILL
reset_values

# ---- apply and show in force

start_ready main
wait_until 3 sysctl_is $RMEM "${RV[0]}" && sysctl_is $WMEM "${WV[0]}" &&
    sysctl_is $CC "$CA"
report $? "the configured values are applied" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)' cc '$(sysctl_get $CC)'"

wait_until 3 all_in_force
report $? "status --json: all_in_force true, exit 0"

ctl status
rc=$CTL_RC
[ "$rc" -eq 0 ] && output_has $RMEM && output_has $WMEM && output_has $CC &&
    output_has "in force"
report $? "status (text): exit 0, every key shown in force"

status_json
for k in "$RMEM|${RV[0]}|$R0" "$WMEM|${WV[0]}|$W0" "$CC|$CA|$C0"; do
	IFS='|' read -r name want orig <<<"$k"
	[ "$(key_field "$name" state)" = "in force" ] &&
	    key_value_is "$name" wanted "$want" &&
	    key_value_is "$name" current "$want" &&
	    key_value_is "$name" original "$orig" &&
	    [ "$(key_field "$name" error)" = null ]
	report $? "status --json: $name in force, wanted = current = '$want', original '$orig'" \
	    "$(jq -c --arg n "$name" '.keys[] | select(.name == $n)' "$T/status.json")"
done

# ---- drift is reverted within the interval and counted

sysctl_put $RMEM "$R0"
wait_until 3 sysctl_is $RMEM "${RV[0]}"
report $? "an outside write to $RMEM is reverted within 3 s (CheckInterval 1)" \
    "rmem '$(sysctl_get $RMEM)'"
status_json
n=$(key_field $RMEM corrections)
[ "${n:-0}" -ge 1 ] 2>/dev/null
report $? "the correction is counted (corrections = ${n:-missing})"

sysctl_put $CC "$C0"
wait_until 3 sysctl_is $CC "$CA"
report $? "an outside write to $CC is reverted within 3 s" "cc '$(sysctl_get $CC)'"
wait_until 3 all_in_force
report $? "after the corrections all keys are in force again"

# ---- a key changed back again and again is contested, with back-off

# revert_or_contest VALUE: rmem is VALUE again, or a status says contested.
revert_or_contest() {
	sysctl_is "$RMEM" "$1" || key_state_is "$RMEM" contested
}

# An outside writer that keeps at it: each write waits for the revert,
# until the daemon stops reverting at once and says contested.
writes=0
contested=false
while [ "$writes" -lt 8 ]; do
	sysctl_put $RMEM "$R0"
	writes=$((writes + 1))
	t0=$(now_ms)
	wait_until 4 revert_or_contest "${RV[0]}" || break
	if key_state_is $RMEM contested; then
		contested=true
		break
	fi
done
$contested
report $? "a key changed back again and again becomes contested ($writes outside writes)" \
    "$(jq -c --arg n $RMEM '.keys[] | select(.name == $n)' "$T/status.json")"
sysctl_is $RMEM "$R0" && [ "$(key_field $RMEM next_attempt)" != null ] &&
    key_field $RMEM note | grep -qi contested
report $? "contested: not reverted at once, next_attempt and a note shown" \
    "rmem '$(sysctl_get $RMEM)'" \
    "$(jq -c --arg n $RMEM '.keys[] | select(.name == $n)' "$T/status.json")"
status_json
check_eq "status: exit 1 while a key is contested" 1 "$CTL_RC"
wait_until 8 sysctl_is $RMEM "${RV[0]}"
rc=$?
t1=$(now_ms)
first=$((t1 - t0))
[ "$rc" -eq 0 ] && [ "$first" -ge 1000 ]
report $rc "contested: reverted after a back-off ($first ms after the write)"
sysctl_put $RMEM "$R0"
t0=$(now_ms)
wait_until 12 sysctl_is $RMEM "${RV[0]}"
rc=$?
t1=$(now_ms)
second=$((t1 - t0))
[ "$rc" -eq 0 ] && [ "$second" -ge $((first + 500)) ]
report $? "contested: the next back-off is longer ($second ms vs $first ms)"
grep -qi contested "$T/d.main.log"
report $? "contested: the daemon log says so"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

# ---- a global key refused inside the namespace is reported, not fatal

if ! global_key_readonly $GLOBAL; then
	for i in 1 2 3 4 5; do
		tap_skip "global key refused ($i)" "$GLOBAL is writable here: never configured"
	done
else
	G0=$(sysctl_get $GLOBAL)
	GW=$((G0 + 4096))
	plist "$RMEM=${RV[1]}" "$GLOBAL=$GW" "$WMEM=${WV[1]}" | write_config "$CONF"
	start_ready glob -f "$CONF" -s "$SOCK" -S "$T/state-glob"
	wait_until 3 sysctl_is $RMEM "${RV[1]}" && sysctl_is $WMEM "${WV[1]}"
	report $? "with $GLOBAL in the config the other keys are still applied" \
	    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"
	wait_until 3 key_state_is $GLOBAL refused
	report $? "status: $GLOBAL is refused" \
	    "$(jq -c --arg n $GLOBAL '.keys[] | select(.name == $n)' "$T/status.json")"
	e=$(key_errno $GLOBAL)
	case $e in
	EACCES | EPERM) true ;;
	*) false ;;
	esac
	report $? "status: the refusal carries errno EACCES or EPERM (got $e)"
	status_json
	rc=$CTL_RC
	[ "$rc" -eq 1 ] && [ "$(json_get .all_in_force)" = false ] &&
	    [ "$(key_field $RMEM state)" = "in force" ] &&
	    [ "$(key_field $WMEM state)" = "in force" ]
	report $? "status: exit 1, all_in_force false, the other keys in force (exit $rc)"
	wait_checks 2
	daemon_alive glob && daemon_answers glob && sysctl_is $GLOBAL "$G0"
	report $? "the daemon keeps running after the refusal ($GLOBAL still $G0)"
	daemon_stop glob
fi

# ---- modes: once and at-least

WAL="8192 131072 6291456"
WHI="16384 262144 12582912"
WLO="4096 65536 4194304"
sysctl_put $WMEM "$WLO"
sysctl_put $CC "$C0"
plist "$RMEM=${RV[2]}@once" "$WMEM=$WAL@at-least" "$CC=$CA@enforce" |
    write_config "$CONF"
start_ready modes -f "$CONF" -s "$SOCK" -S "$T/state-modes"
wait_until 3 sysctl_is $RMEM "${RV[2]}" && sysctl_is $WMEM "$WAL" &&
    sysctl_is $CC "$CA"
report $? "modes: once and at-least keys are applied at start" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)' cc '$(sysctl_get $CC)'"

# Drift on the once key and the enforce key together: the enforce key's
# revert proves a check ran; the once key must still be left alone.
sysctl_put $RMEM "$R0"
sysctl_put $CC "$C0"
wait_until 3 sysctl_is $CC "$CA"
report $? "modes: enforce key reverted (a check ran)"
wait_checks 1
sysctl_is $RMEM "$R0"
report $? "modes: an outside write to a once key is not reverted" \
    "rmem '$(sysctl_get $RMEM)'"
wait_until 2 key_state_is $RMEM drifted
report $? "modes: the once key is shown drifted" \
    "$(jq -c --arg n $RMEM '.keys[] | select(.name == $n)' "$T/status.json")"

sysctl_put $WMEM "$WHI"
sysctl_put $CC "$C0"
wait_until 3 sysctl_is $CC "$CA"
wait_checks 1
sysctl_is $WMEM "$WHI"
report $? "modes: at-least keeps a higher outside value" "wmem '$(sysctl_get $WMEM)'"
key_state_is $WMEM "in force"
report $? "modes: at-least with a higher value is in force"

sysctl_put $WMEM "$WLO"
wait_until 3 sysctl_is $WMEM "$WAL"
report $? "modes: at-least raises a lower outside value within 3 s" \
    "wmem '$(sysctl_get $WMEM)'"
daemon_stop modes
check_eq "modes: SIGTERM exit 0" 0 "$(daemon_exit_status modes)"

done_testing
