#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test, issue 40 items 4 and 7: the log names who changed what
# through the socket (set, unset, reload, restore, resume: uid, pid and
# the command line tcptunectl ran), and a pause never hides: who paused
# and when is kept in the state directory beside the originals, told by
# status (text and JSON) and by the log of the next start; a pause whose
# record is gone (make uninstall and the .deb's postrm remove it) is not
# believed: the next start enforces and says why.  Runs in `unshare -n`
# at CheckInterval 60: nothing here waits on a check.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
plist -i 60 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" | write_config "$CONF"
start_ready a
wait_until 3 all_in_force
report $? "the config is in force" "$(values)"

# asked_by ID COMMAND...: the log of ID names uid 0, a pid and the
# command line (tcptunectl's, with this test's -s SOCK first).
asked_by() {
	local id=$1
	shift
	grep -E "asked by uid 0, pid [0-9]+, command 'tcptunectl -s $SOCK $*'" \
	    "$T/d.$id.log" >/dev/null
}

ctl set "$RMEM=${RV[1]}"
asked_by a "set $RMEM=${RV[1]}"
report $? "set: the reload it asks names uid, pid and 'set $RMEM=...'" \
    "exit $CTL_RC; $(grep 'asked by' "$T/d.a.log" | tail -n 2)"
ctl unset "$WMEM"
asked_by a "unset $WMEM"
report $? "unset: logged with uid, pid and its command" \
    "exit $CTL_RC; $(grep 'asked by' "$T/d.a.log" | tail -n 2)"
ctl reload
asked_by a "reload"
report $? "reload: logged with uid, pid and its command" \
    "exit $CTL_RC; $(grep 'asked by' "$T/d.a.log" | tail -n 2)"
ctl restore
asked_by a "restore" && log_has a "originals restored; enforcement paused"
report $? "restore: logged with uid, pid and its command" \
    "exit $CTL_RC; $(grep 'asked by' "$T/d.a.log" | tail -n 2)"

# ---- the pause in status: who and when
ctl status
output_joined | grep -E "^enforcement +PAUSED since [0-9-]+ [0-9:]+ by uid 0 \(pid [0-9]+, tcptunectl -s $SOCK restore\)" >/dev/null
report $? "status's first lines: PAUSED since when, by uid, pid, command" \
    "$(head -n 8 "$T/ctl.out")"
status_json
pause_pid=$(json_get .daemon.paused_by.pid)
[ "$(json_get .daemon.paused_by.uid)" = 0 ] &&
    [ "$(json_get .daemon.paused_by.command)" = "tcptunectl -s $SOCK restore" ] &&
    [ "$(json_get '.daemon.paused_by.since | test("^[0-9-]+T[0-9:]+Z$")')" = true ] &&
    [ "$pause_pid" -gt 0 ] 2>/dev/null
report $? "status --json: paused_by with since, uid, pid and command" \
    "$(jq -c .daemon.paused_by "$T/status.json")"

# ---- the pause over a restart: said at start, with who and when
daemon_stop a
[ -s "$STATE/pause" ]
report $? "the pause's record is in the state directory" \
    "$(ls -l "$STATE")"
start_ready b
log_has b "enforcement is paused since " &&
    grep -E "enforcement is paused since [0-9-]+ [0-9:]+ UTC by uid 0 \(pid $pause_pid, tcptunectl -s $SOCK restore\), as an earlier run left it" \
    "$T/d.b.log" >/dev/null
report $? "the next start logs the pause with when and who" \
    "$(grep -i pause "$T/d.b.log")"
status_json
[ "$(json_get .daemon.paused)" = true ] &&
    [ "$(json_get .daemon.paused_by.pid)" = "$pause_pid" ]
report $? "status after the restart: still paused, by the same pid" \
    "$(jq -c '.daemon | {paused, paused_by}' "$T/status.json")"
ctl resume
asked_by b "resume"
report $? "resume: logged with uid, pid and its command" \
    "exit $CTL_RC; $(grep 'asked by' "$T/d.b.log" | tail -n 2)"
wait_until 3 all_in_force
report $? "resumed: in force again" "$(values)"

# ---- an uninstall removes the record: the pause is not believed
ctl restore
daemon_stop b
rm -f "$STATE/pause"	# what make uninstall and postrm remove do
start_ready c
log_has c "but the pause's record ($STATE/pause) is gone"
report $? "a pause without its record: the start says why it enforces" \
    "$(grep -i pause "$T/d.c.log")"
wait_until 3 all_in_force
report $? "... and enforces" "$(values); paused $(json_get .daemon.paused)"
daemon_stop c

tap_end
