#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: a hostile local user (uid 65534) against the real daemon,
# one test per class of docs/SECURITY.md:
#   paths      a state directory, lock, originals file or socket directory
#              that someone other than root could change is refused, and
#              no sysctl is touched before the refusal;
#   identity   an impostor on the socket name, two daemons started at once;
#   root       700 connections held by a user while root restores; a
#              change whose sender had gone is not carried out;
#   memory     500 connections pipelining requests they never read.
# Runs inside `unshare -n`: every sysctl written is in its namespace.

. "$(dirname "$0")/lib.sh"
tt_init "$@"
PYN=$(python_for_nobody) || {
	echo "1..0 # SKIP no python3 that uid 65534 may run"
	exit 0
}
RAWCLIENT=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/system/rawclient.py

# uid 65534 must be able to reach the sockets and files we give it.
chmod 0755 "$T" "$T/etc"
use_keys 1
KA=net.ipv4.tcp_keepalive_time
KA0=$(sysctl_get $KA)
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

raw_nobody() {
	as_nobody "$PYN" "$RAWCLIENT" "$@"
}

# untouched: every key still has the value it had before any daemon ran.
untouched() {
	sysctl_is "$RMEM" "$R0" && sysctl_is "$WMEM" "$W0" &&
	    sysctl_is "$CC" "$C0" && sysctl_is "$KA" "$KA0"
}

values() {
	echo "rmem '$(sysctl_get "$RMEM")' wmem '$(sysctl_get "$WMEM")' cc '$(sysctl_get "$CC")' keepalive '$(sysctl_get "$KA")'"
}

# forged_originals FILE: a well-formed originals file, checksum and all,
# naming values root never had: rmem and a key the config does not name
# (so a daemon believing it would "restore" it at start).
forged_originals() {
	python3 - "$1" "$RMEM" "$KA" <<'EOF'
import sys
path, rmem, ka = sys.argv[1:4]
body = ("# tcptuned state: original values. Do not edit.\nversion 1\npaused 0\n"
        "original %s 4096 4096 4096\noriginal %s 7777\n" % (rmem, ka))
h = 0xcbf29ce484222325
for b in body.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(path, "w").write(body + "checksum %016x\n" % h)
EOF
}

# refused ID DIRDESC WANT [ARGS]: the daemon exits non-zero naming WANT in
# its log, and no sysctl changed.
refused() {
	local id=$1 desc=$2 want=$3
	shift 3
	daemon_start "$id" "$@"
	wait_until 5 daemon_exited "$id"
	[ "$(daemon_exit_status "$id")" != 0 ] && daemon_exited "$id" &&
	    log_has "$id" "$want" && untouched
	report $? "$desc: refused ('$want'), no sysctl touched" \
	    "exit '$(daemon_exit_status "$id")'; $(values)"
	daemon_stop "$id"	# one that started anyway must not linger
}

# reset_values: the values from before any daemon ran, back.
reset_values() {
	sysctl_put "$RMEM" "$R0"
	sysctl_put "$WMEM" "$W0"
	sysctl_put "$CC" "$C0"
}

# ---- paths

S=$T/s-foreign
mkdir "$S" && forged_originals "$S/originals" && chown -R 65534:65534 "$S"
chmod 0700 "$S"
refused foreign "a state directory owned by uid 65534 holding forged originals" \
    "owned by another user" -f "$CONF" -s "$SOCK" -S "$S"

S=$T/s-open
mkdir "$S" && forged_originals "$S/originals" && chmod 0777 "$S"
refused open "a root state directory writable by others" \
    "writable by group or others" -f "$CONF" -s "$SOCK" -S "$S"

S=$T/s-sticky
mkdir "$S" && chmod 1777 "$S"
refused sticky "a sticky, world-writable state directory (as /tmp)" \
    "writable by group or others" -f "$CONF" -s "$SOCK" -S "$S"

mkdir -p "$T/nobody-home/s" && chown -R 65534:65534 "$T/nobody-home"
refused parent "a state directory inside a directory uid 65534 owns" \
    "owned by another user" -f "$CONF" -s "$SOCK" -S "$T/nobody-home/s"

mkdir -m 0700 "$T/s-real" && forged_originals "$T/s-real/originals"
ln -s "$T/s-real" "$T/s-link" && chown -h 65534:65534 "$T/s-link"
refused link "a state directory reached through uid 65534's symlink" \
    "symbolic link owned by uid 65534" -f "$CONF" -s "$SOCK" -S "$T/s-link"

S=$T/s-lock
mkdir -m 0700 "$S" && : >"$T/elsewhere.lock" && ln -s "$T/elsewhere.lock" "$S/lock"
refused lock "the state directory's lock swapped for a symlink" \
    "lock: a symbolic link" -f "$CONF" -s "$SOCK" -S "$S"

S=$T/s-lockowner
mkdir -m 0700 "$S" && : >"$S/lock" && chown 65534:65534 "$S/lock"
refused lockowner "a lock file owned by uid 65534" \
    "owner 65534)" -f "$CONF" -s "$SOCK" -S "$S"

# A root directory with an originals file root did not write alone: not
# believed (set aside), so the true values are taken as the originals.
S=$T/s-file
mkdir -m 0700 "$S" && forged_originals "$S/originals" && chown 65534:65534 "$S/originals"
start_ready file -f "$CONF" -s "$SOCK" -S "$S"
wait_until 3 all_in_force
ctl restore
untouched && compgen -G "$S/originals.corrupt.*" >/dev/null && log_has file "owner 65534)"
report $? "an originals file owned by uid 65534 is set aside, never believed: restore brings back the true values" \
    "$(values)"
ctl resume
daemon_stop file
reset_values

mkdir -p "$T/run-nobody" && chown 65534:65534 "$T/run-nobody"
refused sockdir "a socket directory owned by uid 65534" \
    "socket directory: $T/run-nobody is owned by another user" \
    -f "$CONF" -s "$T/run-nobody/tcptuned.sock" -S "$STATE"

mkdir -p "$T/run-sticky" && chmod 1777 "$T/run-sticky"
refused sockstick "a sticky world-writable socket directory (where anyone could bind the name first)" \
    "writable by group or others" -f "$CONF" -s "$T/run-sticky/tcptuned.sock" -S "$STATE"

mkdir -p "$T/run-real" && ln -s "$T/run-real" "$T/run-link" &&
    chown -h 65534:65534 "$T/run-link"
refused socklink "a socket directory through uid 65534's symlink" \
    "symbolic link owned by uid 65534" -f "$CONF" -s "$T/run-link/tcptuned.sock" -S "$STATE"

# At exit only the daemon's own socket is unlinked.
start_ready own
mv "$SOCK" "$SOCK.moved" && echo keep >"$SOCK"
daemon_stop own
[ "$(cat "$SOCK" 2>/dev/null)" = keep ] && [ -S "$SOCK.moved" ]
report $? "at exit the daemon unlinks the socket only while the name is still its own"
rm -f "$SOCK" "$SOCK.moved"
reset_values

# ---- identity: an impostor on the name, two daemons at once

# uid 65534 binds the name while the directory lets it, then root makes
# the directory root's alone: only the probe's uid check is left to see it.
mkdir -m 0777 "$T/run-imp"
raw_nobody listen "$T/run-imp/tcptuned.sock" "$T/run-imp/ready" "$T/imp.release" &
imp=$!
wait_until 5 test -s "$T/run-imp/ready" || bail "the impostor did not listen"
chmod 0755 "$T/run-imp"
refused impostor "uid 65534 listening on the socket name first" \
    "uid 65534 answers on $T/run-imp/tcptuned.sock" \
    -f "$CONF" -s "$T/run-imp/tcptuned.sock" -S "$STATE"
touch "$T/imp.release"
wait "$imp"

# Two daemons at the same moment on one socket.  The first is slow to
# apply: its sysctls are files under a root directory (tcptuned -r) and
# the first it reads is a FIFO, so it waits there.  The name must already
# be its own by then: the second one must refuse to start, not bind the
# name beside it and leave two daemons running.
ROOT=$T/sysroot
mkdir -p "$ROOT/net/ipv4"
mkfifo "$ROOT/net/ipv4/tcp_congestion_control"
printf '%s\n' "$R0" >"$ROOT/net/ipv4/tcp_rmem"
printf '%s\n' "$W0" >"$ROOT/net/ipv4/tcp_wmem"
daemon_start twin1 -f "$CONF" -s "$SOCK" -S "$T/s-twin1" -r "$ROOT"
blocked() {
	grep -q wait_for_partner "/proc/$(daemon_pid twin1)/wchan" 2>/dev/null
}
wait_until 5 blocked || bail "the first daemon did not reach its FIFO"
daemon_start twin2 -f "$CONF" -s "$SOCK" -S "$T/s-twin2"
wait_until 5 daemon_exited twin2
alive=0
daemon_alive twin1 && alive=$((alive + 1))
daemon_alive twin2 && alive=$((alive + 1))
[ "$alive" = 1 ] && daemon_exited twin2 && log_has twin2 "holds $SOCK.lock"
report $? "two daemons started at once on one socket: the second refuses ($alive running)" \
    "$(tail -n 2 "$T/d.twin2.log")"
daemon_stop twin1 KILL
daemon_stop twin2
reset_values

# ---- root always gets through

# Where uid 65534's tools write their ready files and reports.
NB=$T/nobody-rw
mkdir -m 0755 "$NB" && chown 65534:65534 "$NB"

start_ready main
wait_until 3 all_in_force || bail "no daemon to attack"
raw_nobody crowd "$SOCK" 700 0 "$NB/crowd.ready" "$T/crowd.release" >"$T/crowd.out" 2>&1 &
crowd=$!
wait_until 30 test -s "$NB/crowd.ready" || bail "uid 65534 could not open its connections"
check_eq "uid 65534 holds 700 connections (precondition)" 700 "$(cat "$NB/crowd.ready")"
t0=$(now_ms)
ctl restore
rc=$CTL_RC
t1=$(now_ms)
[ "$rc" -eq 0 ] && sysctl_is "$RMEM" "$R0" && sysctl_is "$CC" "$C0"
report $? "700 connections from uid 65534: root's restore is served (exit $rc, $((t1 - t0)) ms)" \
    "$(values)"
log_has main "most connections one user may"
report $? "the connections over the per-user limit are refused, and that is logged"
ctl resume
wait_until 3 all_in_force
touch "$T/crowd.release"
wait "$crowd"
diag "$(cat "$T/crowd.out")"
opened=$(sed -n 's/.*opened=\([0-9]*\).*/\1/p' "$T/crowd.out")
closed=$(sed -n 's/.*closed_by_daemon=\([0-9]*\).*/\1/p' "$T/crowd.out")
[ "$opened" = 700 ] && [ $((opened - closed)) -le 32 ]
report $? "uid 65534 kept at most 32 connections ($opened opened, $closed closed by the daemon)"

# A restore sent while the daemon was stopped, its sender gone by the
# time the daemon reads it: not carried out.
kill -STOP "$DPID"
rawclient send-and-leave "$SOCK" restore >/dev/null 2>&1
kill -CONT "$DPID"
wait_until 5 log_has main "came after it had gone"
rc=$?
all_in_force && [ "$(json_get .daemon.paused)" = false ]
report $((rc + $?)) "a restore whose sender had left before the daemon read it is not carried out" \
    "$(values)"

# ---- memory: 500 connections pipelining requests they never read

rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"
}
rss0=$(rss_kb)
raw_nobody crowd "$SOCK" 500 1000 "$NB/flood.ready" "$T/flood.release" >"$T/flood.out" 2>&1 &
flood=$!
wait_until 30 test -s "$NB/flood.ready" || bail "uid 65534 could not open its connections"
# root floods too, through its reserved slots: its replies are not budgeted
rawclient crowd "$SOCK" 8 1000 "$T/flood2.ready" "$T/flood.release" >"$T/flood2.out" 2>&1 &
flood2=$!
wait_until 30 test -s "$T/flood2.ready" || bail "root's flood did not start"
ctl status
rc=$CTL_RC
rss1=$(rss_kb)
grow=$(( (rss1 - rss0) / 1024 ))
[ "$rc" -eq 0 ] && [ "$grow" -lt 16 ]
report $? "500 pipelining clients that never read (and 8 of root's): RSS $((rss0 / 1024)) -> $((rss1 / 1024)) MiB (growth ${grow} MiB < 16), status still answers" \
    "$(cat "$T/flood.out")"
touch "$T/flood.release"
wait "$flood" "$flood2"
healthy() { daemon_alive main && all_in_force; }
wait_until 5 healthy
report $? "afterwards the daemon is alive and every key in force"
daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

# ---- a burst of status requests costs the kernel one read of each key

# 20 requests that arrive together (sent while the daemon is stopped, so
# one wake-up of its loop finds them all) are answered from one refresh:
# strace counts the daemon's opens of one key's /proc/sys file.  A check
# cycle would read it too: CheckInterval is an hour here.
reset_values
plist -i 3600 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
start_ready burst
wait_until 3 all_in_force
if command -v strace >/dev/null 2>&1; then
	rawclient together "$SOCK" 20 "$T/tg.ready" "$T/tg.go" "$T/tg.sent" \
	    >"$T/tg.out" 2>&1 &
	tg=$!
	wait_until 10 test -s "$T/tg.ready" || bail "the burst clients did not connect"
	strace -qq -f -e trace=openat -o "$T/burst.strace" -p "$DPID" 2>/dev/null &
	st=$!
	wait_until 5 grep -q TracerPid:.[1-9] "/proc/$DPID/status"
	kill -STOP "$DPID"
	touch "$T/tg.go"
	wait_until 10 test -e "$T/tg.sent"
	kill -CONT "$DPID"
	wait "$tg"
	rc=$?
	kill "$st" 2>/dev/null
	wait "$st" 2>/dev/null
	reads=$(grep -c "ipv4/tcp_rmem" "$T/burst.strace")
	[ "$rc" -eq 0 ] && [ "$reads" -ge 1 ] && [ "$reads" -le 2 ]
	report $? "20 status requests arriving together: all answered, $reads read(s) of each key (at most 2)" \
	    "$(cat "$T/tg.out")"
else
	skip "a burst costs one read" "strace not installed"
fi
daemon_stop burst

tap_end
