#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the quick tcptunectl (tools/ctl_exec.c, docs/DESIGN.md §4).
# `status` (and reload, restore, resume) run without libcurl and libxml2
# in the process: a server that accepts and never answers holds the
# client while its /proc/PID/maps is read, and the full program held the
# same way has them (so the check can fail).  The commands that need them
# (check, advise, help PAGE) run in tcptunectl-full with the same
# arguments, output and exit status.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"
FULL=$top_builddir/tcptunectl-full
[ -x "$FULL" ] || skip_all "no tcptunectl-full: not a Linux build"

# A root-owned socket that accepts and says nothing (the client checks
# the server's uid; root here).
MUTE=$T/mute.sock
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(8)
conns = []
open(sys.argv[2], "w").close()
while True:
    c, _ = s.accept(); conns.append(c)
    open(sys.argv[2], "a").write("accepted\n")
' "$MUTE" "$T/mute.log" &
MPID=$!
echo "$MPID" >>"$T/pids"
wait_until 5 test -e "$T/mute.log" || bail "the mute server did not start"

# held PROGRAM ARGS...: run it against the mute server, wait until it is
# connected, copy its maps to $T/maps, stop it.  The client's own deadline
# is an hour, so however slow the machine it is still waiting when its
# maps are copied; SIGKILL, since a SIGTERM that the test's parent has
# set to be ignored would be ignored by the client too.
held() {
	local n pid
	n=$(count_in "$T/mute.log" accepted)
	: >"$T/maps"
	TCPTUNECTL_TIMEOUT=3600 "$@" >/dev/null 2>&1 &
	pid=$!
	wait_until 5 test "$(count_in "$T/mute.log" accepted)" -gt "$n"
	cp "/proc/$pid/maps" "$T/maps" 2>/dev/null
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	grep -q 'libc[.-]' "$T/maps"
}

for cmd in status reload restore resume; do
	held "$TCPTUNECTL" -s "$MUTE" $cmd
	report $? "tcptunectl $cmd: its maps were read while it waited"
	! grep -qE 'libxml2|libcurl' "$T/maps"
	report $? "tcptunectl $cmd: no libxml2, no libcurl in its maps" \
	    "$(grep -E 'libxml2|libcurl' "$T/maps")"
done
held "$FULL" -s "$MUTE" status
grep -q libxml2 "$T/maps" && grep -q libcurl "$T/maps"
report $? "tcptunectl-full status, held the same way, has both (the check can fail)"

# ---- the others run in the full program, with the same results
for args in "check $top_srcdir/etc/tcptune.conf.linux" "help tcptune.conf" \
    "advise --rate 1g --rtt 10ms --json" "check /nonexistent"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$TCPTUNECTL" $args >"$T/q.out" 2>"$T/q.err"
	qrc=$?
	# shellcheck disable=SC2086
	"$FULL" $args >"$T/f.out" 2>"$T/f.err"
	frc=$?
	[ "$qrc" -eq "$frc" ] && cmp -s "$T/q.out" "$T/f.out" &&
	    cmp -s "$T/q.err" "$T/f.err"
	report $? "tcptunectl $args: as tcptunectl-full (exit $qrc and $frc)" \
	    "$(diff "$T/q.out" "$T/f.out" | head -n 5; diff "$T/q.err" "$T/f.err" | head -n 5)"
done
"$TCPTUNECTL" -s "$MUTE" frobnicate >/dev/null 2>&1
check_eq "an unknown command is a usage error in the quick one" 64 "$?"

kill "$MPID" 2>/dev/null
tap_end
