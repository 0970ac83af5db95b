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
"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$CONF" >"$T/n.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "configuration OK" "$T/n.out"
report $? "tcptuned -n: a good config gives 'configuration OK', exit 0" \
    "exit $rc" "$(sed 's/^/  /' "$T/n.out")"

BAD=$T/etc/bad.conf
bad_config "$BAD"
"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$BAD" >"$T/n.out" 2>&1
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

# The back-off lasts CheckInterval x 2^level seconds (2 s, then 4 s, ...),
# shorter than a few status calls take on a loaded machine.  So nothing
# here is timed: each claim is read from one status snapshot, the daemon's
# own account of the key (state, current, next_attempt, and the note
# "... (N corrections so far); next correction in D s"), and every wait is
# a bounded poll for a state the daemon reaches.

# contested_now: a fresh status shows RMEM contested; the snapshot is kept
# in $T/contested.json and its exit status in CONTESTED_RC.
contested_now() {
	key_state_is "$RMEM" contested || return 1
	cp "$T/status.json" "$T/contested.json"
	CONTESTED_RC=$CTL_RC
}

# revert_or_contest: rmem is reverted, or a status says contested.
revert_or_contest() {
	contested_now || sysctl_is "$RMEM" "${RV[0]}"
}

# write_until_contested MAX: an outside writer that keeps at it, each write
# waiting for the revert, until a status shows the key held back
# (contested) or MAX writes were made.  A back-off missed by a slow status
# call is followed by one twice as long, so the writer catches one.
write_until_contested() {
	writes=0
	rm -f "$T/contested.json"
	while [ "$writes" -lt "$1" ]; do
		sysctl_put $RMEM "$R0"
		writes=$((writes + 1))
		wait_until 30 revert_or_contest || return 1
		[ -f "$T/contested.json" ] && return 0
	done
	return 1
}

# snap_field FILE FIELD: a field of RMEM in a saved status snapshot.
snap_field() {
	jq -r --arg n "$RMEM" --arg f "$2" \
	    '.keys[] | select(.name == $n) | .[$f] | if type == "string" then . else tojson end' \
	    "$1" 2>/dev/null
}

# snap_value_is FILE FIELD VALUE: compare with white space folded.
snap_value_is() {
	[ "$(fold_ws "$(snap_field "$1" "$2")")" = "$(fold_ws "$3")" ]
}

# note_delay / note_corrections TEXT: the numbers in a contested note.
note_delay() {
	sed -n 's/.*next correction in \([0-9][0-9]*\) s.*/\1/p' <<<"$1"
}
note_corrections() {
	sed -n 's/.*(\([0-9][0-9]*\) corrections so far).*/\1/p' <<<"$1"
}

# epoch TIME: an ISO-8601 UTC time from the JSON as seconds.
epoch() {
	jq -rn --arg t "$1" '$t | fromdateiso8601' 2>/dev/null
}

snap_key() {
	jq -c --arg n $RMEM '.keys[] | select(.name == $n)' "$1" 2>/dev/null
}

write_until_contested 8
report $? "a key changed back again and again becomes contested ($writes outside writes)" \
    "$(snap_key "$T/status.json")"
S1=$T/contested.1.json
cp "$T/contested.json" "$S1" 2>/dev/null || : >"$S1"
note1=$(snap_field "$S1" note)
d1=$(note_delay "$note1")
n1=$(snap_field "$S1" corrections)
na1=$(snap_field "$S1" next_attempt)
snap_value_is "$S1" current "$R0" && [ "$na1" != null ] && [ -n "$na1" ] &&
    grep -qi contested <<<"$note1" && [ -n "$d1" ] &&
    [ "$(note_corrections "$note1")" = "$n1" ]
report $? "contested: seen holding the outside value, with next_attempt and a note (next correction in ${d1:-?} s)" \
    "$(snap_key "$S1")"
check_eq "status: exit 1 while a key is contested" 1 "${CONTESTED_RC:-none}"

# The back-off ends and the daemon reverts: one more correction, not
# before next_attempt (both clocks count whole seconds, hence the 1 s).
wait_until $((${d1:-2} + 10)) sysctl_is $RMEM "${RV[0]}"
rc=$?
status_json
cp "$T/status.json" "$T/reverted.json"
n2=$(key_field $RMEM corrections)
lc=$(epoch "$(key_field $RMEM last_change)")
na=$(epoch "$na1")
[ "$rc" -eq 0 ] && [ "$n2" = $((n1 + 1)) ] && [ -n "$lc" ] && [ -n "$na" ] &&
    [ "$lc" -ge $((na - 1)) ]
report $? "contested: reverted after the back-off (correction $n1 -> ${n2:-?}, at ${lc:-?} vs next_attempt ${na:-?})" \
    "rmem '$(sysctl_get $RMEM)'" "$(snap_key "$T/reverted.json")"

# That correction starts a back-off twice as long, and the daemon holds
# the next outside write for it.
d2=$(note_delay "$(key_field $RMEM note)")
write_until_contested 3
rc=$?
d3=$(note_delay "$(snap_field "$T/contested.json" note)")
[ -n "$d1" ] && [ -n "$d2" ] && [ "$d2" -eq $((d1 * 2)) ] && [ "$rc" -eq 0 ] &&
    [ -n "$d3" ] && [ "$d3" -ge "$d2" ]
report $? "contested: the next back-off is longer (${d2:-?} s after ${d1:-?} s) and holds the next write" \
    "$(snap_key "$T/reverted.json")" "$(snap_key "$T/contested.json")"
grep -qi contested "$T/d.main.log"
report $? "contested: the daemon log says so"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

# ---- a global key refused inside the namespace is reported, not fatal

if ! global_key_readonly $GLOBAL; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "global key refused ($i)" "$GLOBAL is writable here: never configured"
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
	# read only, so a kernel of 6.11 or later (commit 19249c0724f2)
	n=$(key_field $GLOBAL note)
	case $n in
	*"read only in a child network namespace from Linux 6.11"*) true ;;
	*) false ;;
	esac
	report $? "status: the note says why: a global key, read only in a child namespace" \
	    "note '$n', kernel $(uname -r)"
	status_json
	rc=$CTL_RC
	[ "$rc" -eq 1 ] && [ "$(json_get .all_in_force)" = false ] &&
	    [ "$(key_field $RMEM state)" = "in force" ] &&
	    [ "$(key_field $WMEM state)" = "in force" ]
	report $? "status: exit 1, all_in_force false, the other keys in force (exit $rc)"
	wait_checks 2
	daemon_alive glob && daemon_answers glob && sysctl_is $GLOBAL "$G0"
	report $? "the daemon keeps running after the refusal ($GLOBAL still $G0)"
	# resume worked though a key stays refused: exit 0; status says it
	ctl restore
	ctl resume
	rc=$CTL_RC
	[ "$rc" -eq 0 ] && grep -q 'resumed' "$T/ctl.out" &&
	    wait_until 3 sysctl_is $RMEM "${RV[1]}"
	report $? "resume with $GLOBAL refused: exit 0 (it resumed), the others applied" \
	    "exit $rc" "$(cat "$T/ctl.out")"
	status_json
	[ "$CTL_RC" -eq 1 ] && [ "$(key_field $GLOBAL state)" = refused ]
	report $? "status after that resume: exit 1, $GLOBAL refused"
	daemon_stop glob
fi

# ---- a congestion control this kernel has not: status names those it has

sysctl_put $CC "$C0"
plist "$RMEM=${RV[1]}" "$CC=tcptune_nosuch" | write_config "$CONF"
start_ready nocc -f "$CONF" -s "$SOCK" -S "$T/state-nocc"
wait_until 3 key_state_is $CC refused
report $? "status: a congestion control the kernel has not is refused" \
    "$(jq -c --arg n $CC '.keys[] | select(.name == $n)' "$T/status.json")"
# The list is the kernel's own: it holds at least the one in force.
n=$(key_field $CC note)
case $n in
"not available here (available: "*" $C0 "*")" | \
    "not available here (available: $C0 "*")" | \
    "not available here (available: "*" $C0)" | \
    "not available here (available: $C0)") true ;;
*) false ;;
esac
report $? "status: the note names the ones this kernel has, not 'no such sysctl'" \
    "note '$n'" "available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
sysctl_is $CC "$C0"
report $? "the refused congestion control leaves $CC as it was ($C0)"
daemon_stop nocc

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

tap_end
