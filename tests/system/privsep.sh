#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the config is parsed by the helper tcptune-parse, never by
# the resident daemon (docs/SECURITY.md, "Privilege separation"): no
# libxml2 in tcptuned's maps after start and after reloads; file:line
# errors come through the helper; a helper that crashes, hangs, exits
# without an answer or answers garbage is a failed reload that keeps the
# running configuration and says what happened; the helper runs as a uid
# of its own, which a process of nobody's cannot signal; -P refuses a
# helper others could replace.  The daemon runs with exactly the systemd
# unit's capabilities, and ends a helper that does not answer (asleep,
# stopped) at its deadline, answering status throughout; a helper ends
# with a daemon killed with -9.  The helper's user and confinement are
# tests/unit/test_confine.c's.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

# The unit's CapabilityBoundingSet=, read from the unit itself so that the
# two cannot drift, as setpriv's bounding set: root's permitted and
# effective sets after the exec are the bounding set, as under systemd.
UNIT=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/etc/tcptuned.service.in
UNIT_CAPS=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr ' ' '\n' |
    sed -n 's/^CAP_\([A-Z_]*\)$/+\L\1/p' | paste -sd, -)
[ -n "$UNIT_CAPS" ] || bail "no CapabilityBoundingSet= in $UNIT"
command -v setpriv >/dev/null 2>&1 || bail "setpriv not found (util-linux)"
UNIT_MASK=$(setpriv --bounding-set="-all,$UNIT_CAPS" \
    sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
WRAPPER=${TT_DAEMON_WRAPPER:-}
export TT_DAEMON_WRAPPER="setpriv --bounding-set=-all,$UNIT_CAPS $WRAPPER"

use_keys 2

# A helper that does what $HDIR/mode says, else runs the real one.  The
# daemon gives it an empty environment: builtins and full paths only.
HDIR=$T/helper
mkdir -m 0755 "$HDIR"
FAKE=$HDIR/tcptune-parse
cat >"$FAKE" <<EOF2
#!/bin/sh
read -r mode <"$HDIR/mode"
case \$mode in
crash) kill -SEGV \$\$ ;;
sigkill) kill -KILL \$\$ ;;
fifo) exec 4<"$HDIR/fifo" ;;
hang) exec /bin/sleep 999.25 ;;
forge) exec "$PARSE_HELPER" "\$@" 4<"$HDIR/forged.conf" ;;
garbage) printf 'garbage' >&3; exit 0 ;;
silent) exit 3 ;;
esac
exec "$PARSE_HELPER" "\$@"
EOF2
chmod 0755 "$FAKE"
mode() { echo "$1" >"$HDIR/mode"; }
settled_past() {
	[ "$(count_in "$T/d.main.log" "settled or changed")" -gt "$1" ]
}
mode real

no_libxml2() {
	! grep -q libxml2 "/proc/$DPID/maps"
}

plist -i 1 "$RMEM=${RV[0]}" | write_config "$CONF"
start_ready main -P "$FAKE" -f "$CONF" -s "$SOCK" -S "$STATE"
wait_until 3 all_in_force
report $? "started through the helper: all in force"
cap_is() {
	[ "$(sed -n "s/^$1:[[:space:]]*//p" "/proc/$DPID/status")" = "$UNIT_MASK" ]
}
cap_is CapEff && cap_is CapBnd
report $? "the daemon has the unit's capabilities only ($UNIT_CAPS)" \
    "$(grep ^Cap "/proc/$DPID/status")"
grep -q 'libc[.-]' "/proc/$DPID/maps"
report $? "the daemon's maps are readable (libc is there)"
no_libxml2
report $? "no libxml2 in the resident daemon after start" \
    "$(grep libxml2 "/proc/$DPID/maps")"

# ---- reloads, good and bad

plist -i 1 "$RMEM=${RV[1]}" | replace_config "$CONF"
ctl reload && wait_until 3 sysctl_is $RMEM "${RV[1]}"
report $? "a reload through the helper applies the new value" "$(cat "$T/ctl.out")"
kill -HUP "$DPID"
wait_until 3 log_has main "SIGHUP: reloading"
bad_config "$CONF"
ctl reload
[ "$CTL_RC" -ne 0 ] && has_all_errors "$CONF" "$T/ctl.out"
report $? "file:line errors come through the helper (lines $BAD_LINES)" \
    "$(cat "$T/ctl.out")"
no_libxml2
report $? "no libxml2 in the resident daemon after reloads and SIGHUP"
# The file watch reads the change too: that reading is over before the
# helper is made to fail below.
settled=$(count_in "$T/d.main.log" "settled or changed")
plist -i 1 "$RMEM=${RV[1]}" | replace_config "$CONF"
wait_until 5 settled_past "$settled"
report $? "the watch read the good file again"
ctl reload
report $? "good again: reloaded" "$(cat "$T/ctl.out")"

# ---- a helper that fails: a failed reload, the running config kept

helper_fails() {
	local m=$1 words=$2
	mode "$m"
	ctl reload
	[ "$CTL_RC" -ne 0 ] && output_has "$words" &&
	    output_has "keeping the running configuration"
	report $? "helper $m: a failed reload that says \"$words\"" \
	    "$(cat "$T/ctl.out")"
	log_has main "$words"
	report $? "helper $m: the log says it too"
	all_in_force && sysctl_is $RMEM "${RV[1]}" &&
	    [ "$(json_get .daemon.last_reload_ok)" = false ]
	report $? "helper $m: the running configuration stays in force" \
	    "$(cat "$T/ctl.out")"
	daemon_alive main
	report $? "helper $m: the daemon lives on"
	mode real
}
helper_fails crash "killed by signal 11"
helper_fails sigkill "killed by signal 9"
helper_fails garbage "a short answer"
helper_fails silent "exited with status 3"
helper_fails hang "did not answer within"
pgrep -fx "/bin/sleep 999.25" >/dev/null
report $((!$?)) "the hung helper was killed, not left behind"
ctl reload
report $? "the real helper again: reloaded" "$(cat "$T/ctl.out")"
no_libxml2
report $? "no libxml2 in the resident daemon after the failures"

# ---- the helper's uid is its own: nobody's processes cannot signal it
# The real helper reads the config from a FIFO the test holds, so it
# waits, dropped and confined, until the test writes.

helper_pid() {
	pgrep -P "$DPID" -x tcptune-parse
}
helper_dropped() {
	local pid
	pid=$(helper_pid) && [ -n "$pid" ] &&
	    [ "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")" != 0 ]
}
# as_nobody_signal SIG PID: uid 65534's kill, its stderr in $T/kill.err
as_nobody_signal() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    /bin/kill -s "$1" "$2" >"$T/kill.err" 2>&1
}
mkfifo -m 0600 "$HDIR/fifo"
exec 7<>"$HDIR/fifo"	# read-write: no open blocks, ours or the helper's
mode fifo
"$TCPTUNECTL" -s "$SOCK" reload >"$T/fifo.out" 2>&1 7>&- &
RELOAD=$!
wait_until 5 helper_dropped
report $? "the helper runs, dropped, waiting for the config" \
    "$(pgrep -a -P "$DPID")"
HPID=$(helper_pid)
HUID=$(awk '/^Uid:/ { print $2 }' "/proc/$HPID/status")
[ -n "$HUID" ] && [ "$HUID" != 0 ] && [ "$HUID" != 65534 ]
report $? "the helper's uid is its own ($HUID), not nobody's" \
    "$(grep -E '^(Uid|Gid):' "/proc/$HPID/status")"
for sig in STOP KILL; do
	! as_nobody_signal "$sig" "$HPID" &&
	    grep -q "not permitted" "$T/kill.err"
	report $? "uid 65534 cannot send SIG$sig to the helper (EPERM)" \
	    "$(cat "$T/kill.err")"
done
grep -q '^State:.*S (sleeping)' "/proc/$HPID/status"
report $? "the helper is still waiting, neither stopped nor killed" \
    "$(grep '^State:' "/proc/$HPID/status")"

# helper_state PID C: the process's state in /proc/PID/stat is C.
helper_state() {
	[ "$(sed 's/^.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" = "$2" ]
}
# The reload is read on the daemon's loop: status answers while the
# helper is stopped (root may stop it; waited for, as stopping is not
# at once), and a second reload that comes meanwhile is read after it,
# not lost.
kill -STOP "$HPID"
wait_until 5 helper_state "$HPID" T
stopped=$?
ctl status
rc=$CTL_RC
[ "$rc" -eq 0 ] && [ "$stopped" -eq 0 ]
report $? "status answers (exit $rc) while the helper is stopped" \
    "$(cat "$T/ctl.out")" "$(grep '^State:' "/proc/$HPID/status")"
follows() {
	[ "$(count_in "$T/d.main.log" "another read follows")" -gt "$1" ]
}
reloaded=$(count_in "$T/d.main.log" "reloaded $CONF")
f0=$(count_in "$T/d.main.log" "another read follows")
"$TCPTUNECTL" -s "$SOCK" reload >"$T/second.out" 2>&1 7>&- &
SECOND=$!
wait_until 5 follows "$f0"
report $? "a second reload meanwhile waits for the read after this one"
mode real
kill -CONT "$HPID"
plist -i 1 "$RMEM=${RV[1]}" >&7
exec 7>&-
wait "$RELOAD"
report $? "the first reload then succeeds" "$(cat "$T/fifo.out")"
wait "$SECOND"
report $? "the second one too" "$(cat "$T/second.out")"
[ "$(count_in "$T/d.main.log" "reloaded $CONF")" -eq $((reloaded + 2)) ]
report $? "two reads, two reloads" "$(grep "reloaded $CONF" "$T/d.main.log")"

# ---- a helper that never answers, a uid of its own: the daemon, with
# the unit's capabilities, kills it at its deadline and reaps it without
# waiting on it; status answers throughout.  Before, the kill failed
# (EPERM: no CAP_KILL), the daemon waited for the helper's exit, and
# status, restore and resume stopped answering for good.

gone() {
	[ ! -e "/proc/$1" ]
}
# dead PID: reaped, or a zombie (one the daemon could not reap within its
# second is reaped at the next read)
dead() {
	gone "$1" || helper_state "$1" Z
}
# never_answers HOW: a reload whose dropped helper waits on the FIFO, no
# answer ever written; HOW is sleeping or stopped.  tcptunectl has its
# default deadline: the helper's reason must reach it, not "busy or hung".
never_answers() {
	local how=$1 pid rc
	exec 7<>"$HDIR/fifo"
	mode fifo
	env -u TCPTUNECTL_TIMEOUT "$TCPTUNECTL" -s "$SOCK" reload \
	    >"$T/$how.out" 2>&1 7>&- &
	RELOAD=$!
	wait_until 5 helper_dropped
	pid=$(helper_pid)
	mode real
	if [ "$how" = stopped ]; then
		kill -STOP "$pid"
		wait_until 5 helper_state "$pid" T
		report $? "$how helper: it is stopped" \
		    "$(grep '^State:' "/proc/$pid/status")"
	fi
	ctl status
	report $? "$how helper: status answers while it waits" \
	    "$(cat "$T/ctl.out")"
	wait "$RELOAD"
	rc=$?
	[ "$rc" -eq 1 ] &&
	    grep -q "did not answer within 10000 ms and was killed" \
	    "$T/$how.out" && ! grep -q "busy or hung" "$T/$how.out"
	report $? "$how helper: reload, at tcptunectl's default deadline, gets the helper's failure (exit $rc)" \
	    "$(cat "$T/$how.out")"
	ctl status
	report $? "$how helper: status answers after its deadline" \
	    "$(cat "$T/ctl.out")"
	wait_until 5 dead "$pid"
	report $? "$how helper: killed" "$(pgrep -a -P "$DPID")"
	KILLED+=("$pid")
	exec 7>&-
}
KILLED=()
never_answers sleeping
never_answers stopped
all_gone() {
	local pid
	for pid in "$@"; do
		gone "$pid" || return 1
	done
}
# reaped by now, or at the latest by the next read
ctl reload && all_gone "${KILLED[@]}"
report $? "the real helper again: reloaded, the killed helpers reaped" \
    "$(cat "$T/ctl.out")" "$(pgrep -a -P "$DPID")"

# A daemon killed with -9 takes its helper with it: the parent-death
# signal, which the kernel sends with the dying daemon's credentials
# (kernel/exit.c, forget_original_parent), needs CAP_KILL too.
exec 7<>"$HDIR/fifo"
mode fifo
"$TCPTUNECTL" -s "$SOCK" reload >"$T/orphan.out" 2>&1 7>&- &
RELOAD=$!
wait_until 5 helper_dropped
HPID=$(helper_pid)
mode real
kill -KILL "$DPID"
wait_until 3 daemon_exited main
wait "$RELOAD"
wait_until 5 dead "$HPID"
report $? "the helper ends with the daemon killed with -9" \
    "$(grep -E '^(State|Uid):' "/proc/$HPID/status" 2>/dev/null)"
kill -KILL "$HPID" 2>/dev/null
exec 7>&-

# ---- AllowAnySysctl is not taken on the helper's word: a helper that
# answers for another file (the real one, handed a file that allows any)
# is a failed reload unless the daemon's own file says it.  On a sysctl
# tree (-r), so that the forged key could only ever reach a file.
ROOT=$T/sys
mkdir -p "$ROOT/net/core" "$ROOT/kernel"
printf '212992\n' >"$ROOT/net/core/rmem_max"
printf 'core\n' >"$ROOT/kernel/core_pattern"
# forge_conf ALLOW RMEM [MORE]: a config of rmem_max, MORE's keys, and
# ALLOW for AllowAnySysctl ("" for none: only a comment names it)
forge_conf() {
	cat <<EOF2
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<!-- <key>AllowAnySysctl</key><true/>: a comment says nothing -->
	${1:+<key>AllowAnySysctl</key>$1}
	<key>Sysctls</key>
	<dict>
		<key>net.core.rmem_max</key>
		<integer>$2</integer>
		$3
	</dict>
</dict>
</plist>
EOF2
}
forge_conf '<true/>' 4194304 \
    '<key>kernel.core_pattern</key><string>forged</string>' |
    write_config "$HDIR/forged.conf"
FCONF=$T/etc/forge.conf
forge_conf '' 1048576 | write_config "$FCONF"
SOCK=$T/run/forge.sock
mode real
# This daemon has the unit's set without CAP_KILL, for the case below.
NOKILL_CAPS=$(printf '%s\n' "$UNIT_CAPS" | tr , '\n' | grep -vx '+kill' |
    paste -sd, -)
TT_DAEMON_WRAPPER="setpriv --bounding-set=-all,$NOKILL_CAPS $WRAPPER" \
    start_ready forge -P "$FAKE" -f "$FCONF" -s "$SOCK" \
    -S "$T/forge-state" -r "$ROOT"
tree_is() {
	[ "$(cat "$ROOT/$1")" = "$2" ]
}
wait_until 3 tree_is net/core/rmem_max 1048576
report $? "-r: the file's own value in force" "$(cat "$ROOT/net/core/rmem_max")"
mode forge
ctl reload
[ "$CTL_RC" -eq 1 ] && output_has "allows any sysctl, and the file does not say"
report $? "a helper's answer that allows any sysctl for a file that does not: a failed reload" \
    "$(cat "$T/ctl.out")"
tree_is kernel/core_pattern core && tree_is net/core/rmem_max 1048576
report $? "... nothing of the forged answer written" \
    "$(cat "$ROOT/kernel/core_pattern" "$ROOT/net/core/rmem_max")"
mode real
s0=$(count_in "$T/d.forge.log" "settled or changed")
forge_conf '<true/>' 2097152 \
    '<key>kernel.core_pattern</key><string>allowed</string>' |
    replace_config "$FCONF"
ctl reload && tree_is kernel/core_pattern allowed &&
    tree_is net/core/rmem_max 2097152
report $? "a file that says AllowAnySysctl itself: reloaded, written" \
    "$(cat "$T/ctl.out")"

# A unit without CAP_KILL (an old or edited one): the kill at the
# deadline fails, and the daemon says so and still never waits on the
# helper; it is reaped at a later read, once it has ended.  The file
# replaced above is read again by the daemon's own watch once it settles:
# that read is waited for, so the helper below is the reload's (under
# load the watch's read came during the reload and answered in its place).
forge_settled() {
	[ "$(count_in "$T/d.forge.log" "settled or changed")" -gt "$s0" ] &&
	    ! helper_pid >/dev/null
}
wait_until 5 forge_settled
exec 7<>"$HDIR/fifo"
mode fifo
env -u TCPTUNECTL_TIMEOUT "$TCPTUNECTL" -s "$SOCK" reload \
    >"$T/nokill.out" 2>&1 7>&- &
RELOAD=$!
wait_until 5 helper_dropped
HPID=$(helper_pid)
mode real
ctl status
report $? "no CAP_KILL: status answers while the helper waits" \
    "$(cat "$T/ctl.out")"
wait "$RELOAD"
rc=$?
[ "$rc" -eq 1 ] && grep -q "could not be killed: Operation not permitted" \
    "$T/nokill.out"
report $? "no CAP_KILL: the reload fails at the deadline, saying the kill failed (exit $rc)" \
    "$(cat "$T/nokill.out")"
ctl status
report $? "no CAP_KILL: status answers after the deadline" "$(cat "$T/ctl.out")"
kill -KILL "$HPID"
wait_until 5 dead "$HPID"
exec 7>&-
ctl reload && gone "$HPID"
report $? "no CAP_KILL: the helper, ended by root, reaped at the next read" \
    "$(cat "$T/ctl.out")" "$(pgrep -a -P "$DPID")"
daemon_stop forge

# ---- -P: only a helper nobody but root can replace

mkdir -m 0775 "$T/gw"
cp "$PARSE_HELPER" "$T/gw/tcptune-parse"
"$TCPTUNED" -P "$T/gw/tcptune-parse" -n -f "$CONF" >"$T/n.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "cannot use the parse helper" "$T/n.out"
report $? "-P: a helper in a group-writable directory is refused (exit $rc)" \
    "$(cat "$T/n.out")"
chmod 0755 "$T/gw"
chmod 0757 "$T/gw/tcptune-parse"
"$TCPTUNED" -P "$T/gw/tcptune-parse" -n -f "$CONF" >"$T/n.out" 2>&1
[ $? -eq 1 ] && grep -qF "writable by nobody else" "$T/n.out"
report $? "-P: a world-writable helper is refused" "$(cat "$T/n.out")"
"$TCPTUNED" -P tcptune-parse -n -f "$CONF" >"$T/n.out" 2>&1
[ $? -eq 1 ] && grep -qF "not an absolute path" "$T/n.out"
report $? "-P: a relative path is refused" "$(cat "$T/n.out")"

tap_end
