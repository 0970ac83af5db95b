#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: a restart after tcptuned was killed with SIGKILL always
# comes up (docs/RELIABILITY.md, "Restart after a crash").  Rounds cycle
# through three moments of a reload (SIGHUP) to kill it at:
#   - its parse helper's child stopped between fork and exec (strace
#     makes the child's execve fail with a SIGSTOP: the child stays, as a
#     child the scheduler has not run yet would): it must hold nothing of
#     the daemon's, and die with it;
#   - the helper stopped after exec (it stops itself): it dies with the
#     daemon;
#   - right after the SIGHUP, wherever the reload is.
# Every restart must come up on the same socket, state and namespace.
# TT_RESTART_ROUNDS rounds (6 here; docs/RELIABILITY.md gives the command
# for the larger figure).  Then:
#   - a socket that accepts but never answers the hello is stale: it is
#     replaced, and the log says so;
#   - the one-daemon lock (daemon/kernel_lock_posix.c), the daemon started
#     with umask 022 as by hand: a 0600 file in a directory only root may
#     enter, which uid 65534 can neither open nor lock; a lock another
#     process holds is named as not a tcptuned's.
# Shipped defaults: CheckInterval 60.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

command -v strace >/dev/null 2>&1 || bail "strace not found (apt-get install -y strace)"
command -v setpriv >/dev/null 2>&1 || bail "setpriv not found (util-linux)"

ROUNDS=${TT_RESTART_ROUNDS:-6}
use_keys 2
plist -i 60 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" | write_config "$CONF"

# The parse helper, stopping itself first while $HDIR/stop exists.  The
# daemon gives it an empty environment: builtins and full paths only.
HDIR=$T/helper
mkdir -m 0755 "$HDIR"
HELPER=$HDIR/tcptune-parse
cat >"$HELPER" <<EOF2
#!/bin/sh
[ -e "$HDIR/stop" ] && kill -STOP \$\$
exec "$PARSE_HELPER" "\$@"
EOF2
chmod 0755 "$HELPER"

# state PID: its state letter (R S T t Z ...), nothing when gone.
state() {
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1
}

gone() {
	local s
	s=$(state "$1")
	[ -z "$s" ] || [ "$s" = Z ]
}

# stopped_child PID EXE: a child of PID, stopped, running EXE; in CHILD.
stopped_child() {
	local c s
	for c in $(pgrep -P "$1"); do
		s=$(state "$c")
		[ "$s" = T ] || [ "$s" = t ] || continue
		[ "$(readlink "/proc/$c/exe")" = "$2" ] || continue
		CHILD=$c
		return 0
	done
	return 1
}

traced_by() {
	grep -q "^TracerPid:[[:space:]]*$2\$" "/proc/$1/status"
}

# up ID: start a daemon and wait until it answers; false when refused.
up() {
	daemon_start "$1" -P "$HELPER" -f "$CONF" -s "$SOCK" -S "$STATE"
	daemon_ready "$1"
}

# kill_prexec PID: kill -9 PID while its helper's child, between fork and
# exec, is stopped by strace.  Sets CHILD and STRACE (still attached).
kill_prexec() {
	strace -f -qq -o "$T/strace.log" -p "$1" -e trace=execve \
	    -e inject=execve:error=EINTR:signal=SIGSTOP 2>>"$T/strace.log" &
	STRACE=$!
	wait_until 10 traced_by "$1" "$STRACE" || return 1
	kill -HUP "$1"
	wait_until 10 stopped_child "$1" "$TCPTUNED" || return 1
	kill -KILL "$1"
}

# kill_helper_stopped PID: kill -9 PID while its helper stops itself.
kill_helper_stopped() {
	: >"$HDIR/stop"
	kill -HUP "$1"
	wait_until 10 stopped_child "$1" "$(readlink -f /bin/sh)" || return 1
	kill -KILL "$1"
}

REFUSED=0
FAILED_ROUNDS=
up r0 || bail "tcptuned did not come up (exit $(daemon_exit_status r0))"
rel_begin
for i in $(seq 1 "$ROUNDS"); do
	prev=r$((i - 1))
	pid=$(daemon_pid "$prev")
	CHILD= STRACE=
	case $((i % 3)) in
	1) how="child stopped between fork and exec"; kill_prexec "$pid" ;;
	2) how="helper stopped after exec"; kill_helper_stopped "$pid" ;;
	0) how="right after SIGHUP"; kill -HUP "$pid"; kill -KILL "$pid" ;;
	esac || bail "round $i ($how): the moment was not reached"
	wait_until 10 daemon_exited "$prev" || bail "kill -9 did not end $prev"
	rm -f "$HDIR/stop"
	came=0
	up "r$i" || came=$?
	if [ -n "$CHILD" ]; then
		wait_until 10 gone "$CHILD"
		report $? "round $i ($how): the child $CHILD died with the daemon" \
		    "state '$(state "$CHILD")'"
		kill -KILL "$CHILD" 2>/dev/null
	fi
	[ -n "$STRACE" ] && { kill "$STRACE"; wait "$STRACE"; } 2>/dev/null
	if [ "$came" -ne 0 ]; then
		REFUSED=$((REFUSED + 1))
		FAILED_ROUNDS="$FAILED_ROUNDS $i"
		not_ok "round $i ($how): the restart came up" \
		    "$(tail -n 3 "$T/d.r$i.log")"
		# the next round needs a daemon, now the leftover is gone
		up "r$i" || bail "no daemon after round $i"
	elif [ "$i" -le 3 ]; then
		ok "round $i ($how): the restart came up"
	fi
done
[ "$REFUSED" -eq 0 ]
report $? "kill -9 during reloads: $ROUNDS restarts tried, $REFUSED refused" \
    "refused in rounds:$FAILED_ROUNDS"
rel_row "restart after kill -9 during reloads" "$ROUNDS" \
    "$REFUSED refused"
LAST=r$ROUNDS

# ---- a socket that accepts and never answers is stale

daemon_stop "$LAST" KILL
rm -f "$SOCK"
python3 -c '
import signal, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(8)
signal.pause()' "$SOCK" &
MUTE=$!
wait_until 10 test -S "$SOCK" || bail "the mute listener did not bind"
up mute
report $? "a socket that accepts but never answers: replaced, the daemon up" \
    "$(tail -n 3 "$T/d.mute.log")"
log_has mute "accepts connections but is no running tcptuned (no answer within 2 s): a stale socket, replacing it"
report $? "the log says the stale socket was replaced" \
    "$(tail -n 3 "$T/d.mute.log")"
kill "$MUTE"
wait "$MUTE" 2>/dev/null

# ---- the one-daemon lock, started by hand (umask 022)

daemon_stop mute KILL
rm -f "$SOCK"
up first || bail "tcptuned did not come up (exit $(daemon_exit_status first))"
daemon_start second -P "$HELPER" -f "$CONF" -s "$T/run2/second.sock" \
    -S "$T/state2"
wait_until 10 daemon_exited second
LOCK=$(sed -n 's/.*(it holds \(.*\.lock\)).*/\1/p' "$T/d.second.log" | tail -n 1)
[ -n "$LOCK" ] && [ -f "$LOCK" ]
report $? "a second daemon is refused, naming the lock file ($LOCK)" \
    "$(tail -n 2 "$T/d.second.log")"
check_eq "the lock file is 0600 under umask $(umask)" 600 \
    "$(stat -c %a "$LOCK" 2>&1)"
check_eq "its directory is root's alone" "0 700" \
    "$(stat -c '%u %a' "$(dirname "$LOCK")" 2>&1)"
setpriv --reuid=65534 --regid=65534 --clear-groups \
    flock -n -x "$LOCK" true >"$T/nobody.out" 2>&1
rc=$?
[ "$rc" -ne 0 ] && grep -q "Permission denied" "$T/nobody.out"
report $? "uid 65534 can neither open nor lock it (exit $rc)" \
    "$(cat "$T/nobody.out")"

# A process that is not a tcptuned holds it (root: nobody else can).
daemon_stop first KILL
python3 -c '
import fcntl, os, signal, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX)
signal.signal(signal.SIGUSR1, lambda *a: None)
os.kill(os.getpid(), signal.SIGSTOP)
signal.pause()' "$LOCK" &
HOLDER=$!
holder_locked() {
	[ "$(state "$HOLDER")" = T ]
}
wait_until 10 holder_locked || bail "the lock holder did not lock"
daemon_start stranger -P "$HELPER" -f "$CONF" -s "$SOCK" -S "$STATE"
wait_until 10 daemon_exited stranger
log_has stranger "pid $HOLDER, which is not a tcptuned managing the sysctls of"
report $? "a lock held by another process is named as not a tcptuned's" \
    "$(tail -n 2 "$T/d.stranger.log")"
kill -KILL "$HOLDER"
wait "$HOLDER" 2>/dev/null
up after
report $? "once it lets go, the daemon starts" "$(tail -n 2 "$T/d.after.log")"

tap_end
