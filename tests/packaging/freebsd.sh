#!/usr/bin/env bash
# etc/rc.d/tcptuned.in, tested on Linux (TAP):
#  - the script made from the template passes `sh -n` and
#    `shellcheck -s sh`;
#  - it runs under tests/packaging/rc.subr (the part of FreeBSD's rc.subr
#    it uses) with a stand-in for daemon(8) that supervises as daemon.c
#    does (-P supervisor pid, -p child pid, -R restart after a delay, SIGTERM forwarded
#    to the child, SIGHUP not handled: it ends the supervisor).  The child
#    is the real tcptuned, on a sysctl root directory (-r) and a private
#    state directory and socket, so no sysctl of this machine is touched.
#    Checked: the daemon(8) command line, start, status, reload reaching
#    tcptuned (not the supervisor), a bad config refused by start and
#    reload, stop.
# Paths the script hard-codes (/etc/rc.subr, /usr/sbin/daemon, /var/run)
# are moved into a temporary directory with sed; nothing else is changed.
# shellcheck disable=SC2016
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
# shellcheck source-path=SCRIPTDIR source=standins.sh
. "$top_srcdir/tests/packaging/standins.sh"

IN=$top_srcdir/etc/rc.d/tcptuned.in
TCPTUNED=$top_builddir/tcptuned

if [ "$(id -u)" -ne 0 ]; then
	skip_all "tcptuned refuses a config that root does not own"
fi
if [ ! -r /proc/self/cmdline ] || ! command -v setsid >/dev/null; then
	skip_all "the rc.subr and daemon(8) stand-ins need /proc and setsid"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/tt-freebsd.XXXXXX")
cleanup() {
	local f p
	for f in "$T/var/run/tcptuned.pid" "$T/var/run/tcptuned.child.pid"; do
		p=$(cat "$f" 2>/dev/null) && [ -n "$p" ] && kill -TERM "$p" 2>/dev/null
	done
	sleep 0.2
	rm -rf "$T"
}
trap cleanup EXIT
CALLS=$T/calls
: >"$CALLS"
mkdir -p "$T/etc/rc.d" "$T/usr/sbin" "$T/var/run" "$T/sys/kern/ipc" "$T/state"
RC=$T/etc/rc.d/tcptuned

# The daemon(8) stand-in.  Like daemon(8) it detaches (the first process
# returns at once) and, as supervisor, writes -P and -p, restarts with -r
# (after 1 s) or -R N (after N s),
# forwards SIGTERM and then exits, and sends the child's output to "syslog"
# ($T/syslog) with -S.
cat >"$T/usr/sbin/daemon" <<'EOF'
#!/bin/sh
CALLS=@CALLS@
SYSLOG=@SYSLOG@
if [ "${1:-}" != --supervise ]; then
	echo "daemon $*" >>"$CALLS"
	setsid "$0" --supervise "$@" </dev/null >/dev/null 2>&1 &
	exit 0
fi
shift
P=; C=; restart=no; delay=1; out=/dev/null
while getopts P:p:rR:ST:f opt; do
	case $opt in
	P) P=$OPTARG ;; p) C=$OPTARG ;; r) restart=yes ;; S) out=$SYSLOG ;;
	R) restart=yes; delay=$OPTARG ;;
	T|f) ;; *) exit 1 ;;
	esac
done
shift $((OPTIND - 1))
echo $$ >"$P"
term=no; child=
trap 'term=yes; [ -n "$child" ] && kill -TERM "$child"' TERM
while :; do
	"$@" >>"$out" 2>&1 &
	child=$!
	echo "$child" >"$C"
	while kill -0 "$child" 2>/dev/null; do wait "$child"; done
	[ "$term" = no ] && [ "$restart" = yes ] || break
	sleep "$delay"
done
rm -f "$P" "$C"
EOF
sed -i -e "s|@CALLS@|$CALLS|" -e "s|@SYSLOG@|$T/syslog|" "$T/usr/sbin/daemon"
chmod 0755 "$T/usr/sbin/daemon"

sed -e "s|@sbindir@|$top_builddir|g" -e "s|@bindir@|$top_builddir|g" \
    -e "s|@sysconfdir@|$T/etc|g" -e "s|/etc/rc.subr|$top_srcdir/tests/packaging/rc.subr|" \
    -e "s|/usr/sbin/daemon|$T/usr/sbin/daemon|g" -e "s|/var/run/|$T/var/run/|g" \
    "$IN" >"$RC"
chmod 0555 "$RC"

write_conf() {
	cat >"$T/etc/tcptune.conf" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>CheckInterval</key>
	<integer>60</integer>
	<key>Sysctls</key>
	<dict>
		<key>kern.ipc.maxsockbuf</key>
		<integer>$1</integer>
	</dict>
</dict>
</plist>
EOF
	chmod 0644 "$T/etc/tcptune.conf"
}

cat >"$T/rc.conf" <<EOF
tcptuned_enable="YES"
# -P: this build's parse helper (the compiled-in one is not installed)
tcptuned_flags="-d -P $top_builddir/tcptune-parse -r $T/sys -S $T/state -s $T/tcptuned.sock"
EOF

# rc ARG: the rc.d script as service(8) would run it; output in $T/rc.out.
rc() {
	RC_RC=0
	env -i PATH="$PATH" RC_CONF="$T/rc.conf" /bin/sh "$RC" "$1" >"$T/rc.out" 2>&1 || RC_RC=$?
}

pidof_file() {
	cat "$T/var/run/$1" 2>/dev/null
}

alive() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# What a check_until (tests/tap.sh) that times out shows.
wait_diag() {
	diag_file "rc output" "$T/rc.out"
	diag_file "syslog (tcptuned)" "$T/syslog"
}

value_is() {
	[ "$(cat "$T/sys/kern/ipc/maxsockbuf")" = "$1" ]
}

hups() {
	grep -c 'SIGHUP: reloading' "$T/syslog" 2>/dev/null
}

expect_rc() {
	if [ "$RC_RC" -eq "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit status $RC_RC, expected $2"
		diag_file "rc output" "$T/rc.out"
	fi
}

static_checks() {
	local gen=$T/tcptuned.rc
	sed -e 's|@sbindir@|/usr/local/sbin|g' -e 's|@bindir@|/usr/local/bin|g' \
	    -e 's|@sysconfdir@|/usr/local/etc|g' "$IN" >"$gen"
	check "rc.d script: sh -n" sh -n "$gen"
	check "rc.d script: shellcheck -s sh" shellcheck -s sh "$gen"
	check "rc.d script: no placeholder left" bash -c '! grep -q "@[a-z]*@" "$1"' _ "$gen"
	check "rc.subr stand-in, this test: shellcheck" shellcheck -x \
	    "$top_srcdir/tests/packaging/rc.subr" "$top_srcdir/tests/packaging/freebsd.sh"
}

test_start_bad_config() {
	echo '<plist><dict><key>Bogus</key><true/></dict></plist>' >"$T/etc/tcptune.conf"
	chmod 0644 "$T/etc/tcptune.conf"
	rc start
	expect_rc "start with a bad config: refused" 1
	check "start with a bad config: the error is shown, daemon(8) not run" \
	    eval 'grep -q "unknown key \"Bogus\"" "$T/rc.out" && ! grep -q "^daemon " "$CALLS"'
}

test_start() {
	echo 2097152 >"$T/sys/kern/ipc/maxsockbuf"
	write_conf 16777216
	rc start
	expect_rc "start: succeeds" 0
	same "start: daemon -P pidfile -p child-pidfile -R 10 -S -T tcptuned tcptuned -f config, then tcptuned_flags" \
	    "daemon -P $T/var/run/tcptuned.pid -p $T/var/run/tcptuned.child.pid -R 10 -S -T tcptuned $TCPTUNED -f $T/etc/tcptune.conf -d -P $top_builddir/tcptune-parse -r $T/sys -S $T/state -s $T/tcptuned.sock" \
	    "$(cat "$CALLS")"
	check_until "start: tcptuned applies the config (maxsockbuf 16777216)" 10 \
	    value_is 16777216
	SUP=$(pidof_file tcptuned.pid)
	CHILD=$(pidof_file tcptuned.child.pid)
	check "start: supervisor and tcptuned run, with different pids" \
	    eval 'alive "$SUP" && alive "$CHILD" && [ "$SUP" != "$CHILD" ]'
	rc start
	expect_rc "start again: refused, already running" 1
	rc status
	same "status: reports the supervisor's pid" "tcptuned is running as pid $SUP." \
	    "$(cat "$T/rc.out")"
}

test_reload() {
	rc reload
	expect_rc "reload: succeeds" 0
	check_until "reload: SIGHUP reached tcptuned (it logs the reload)" 10 \
	    eval '[ "$(hups)" = 1 ]'
	check "reload: the supervisor survived, same pid" alive "$SUP"
	same "reload: tcptuned was not restarted (same pid)" "$CHILD" \
	    "$(pidof_file tcptuned.child.pid)"
	check "reload: tcptuned still runs" alive "$CHILD"
}

test_reload_bad_config() {
	echo '<plist><dict><key>Bogus</key><true/></dict></plist>' >"$T/etc/tcptune.conf"
	chmod 0644 "$T/etc/tcptune.conf"
	rc reload
	expect_rc "reload with a bad config: refused" 1
	check "reload with a bad config: the errors are listed" \
	    grep -q 'unknown key "Bogus"' "$T/rc.out"
	sleep 0.5
	same "reload with a bad config: no SIGHUP sent" 1 "$(hups)"
	check "reload with a bad config: the running value stays" value_is 16777216
	write_conf 16777216
}

test_configtest() {
	rc configtest
	expect_rc "configtest: a good config passes" 0
	check "configtest: says so" grep -q 'configuration OK' "$T/rc.out"
}

test_stop() {
	rc stop
	expect_rc "stop: succeeds" 0
	check "stop: supervisor and tcptuned are gone" \
	    eval '! alive "$SUP" && ! alive "$CHILD"'
	check "stop: both pid files removed" \
	    test ! -e "$T/var/run/tcptuned.pid" -a ! -e "$T/var/run/tcptuned.child.pid"
	check "stop: tcptuned exited on SIGTERM (not killed, not restarted)" \
	    grep -q 'exiting on signal' "$T/syslog"
	rc reload
	expect_rc "reload when stopped: refused" 1
	check "reload when stopped: says it is not running" grep -q 'not running' "$T/rc.out"
	rc stop
	expect_rc "stop when stopped: refused" 1
}

static_checks
test_start_bad_config
test_start
test_reload
test_reload_bad_config
test_configtest
test_stop
tap_end
