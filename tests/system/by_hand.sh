#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: tcptuned started by hand (no -d, no supervisor) says each
# start-up failure on stderr as well as in the system log: a missing
# config, a socket directory others may write, a second instance on the
# same socket.  Under a supervisor (NOTIFY_SOCKET, INVOCATION_ID) stderr
# stays quiet: the journal already has the log.  --help and --version
# answer and exit 0; a WSL kernel release (WSL_DISTRO_NAME here) is
# logged at start.  Runs inside `unshare -n` against a sysctl root.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 1
plist "$RMEM=${RV[0]}" | write_config "$CONF"
mkdir -p "$T/run" "$STATE"

# by_hand NAME ARGS...: tcptuned ARGS, no -d, stdin closed, stderr to
# $T/NAME.err; its exit status in $rc.
by_hand() {
	local name=$1
	shift
	"$TCPTUNED" "$@" </dev/null >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
}

by_hand help --help
[ "$rc" -eq 0 ] && grep -q '^usage: tcptuned' "$T/help.out" &&
    grep -q -- '-h, --help' "$T/help.out" && [ ! -s "$T/help.err" ]
report $? "--help: usage on stdout, exit 0" "exit $rc" "$(cat "$T/help.err")"
by_hand version --version
[ "$rc" -eq 0 ] && grep -q '^tcptuned ' "$T/version.out"
report $? "--version: exit 0" "exit $rc"
by_hand bad --frobnicate
[ "$rc" -eq 64 ] && grep -q '^usage: tcptuned' "$T/bad.err"
report $? "an unknown option: usage on stderr, exit 64" "exit $rc"

by_hand noconf -P "$PARSE_HELPER" -f "$T/etc/missing.conf" -s "$SOCK" -S "$STATE"
[ "$rc" -eq 1 ] &&
    grep -q "^tcptuned: $T/etc/missing.conf: No such file or directory" \
    "$T/noconf.err" && grep -q 'not starting' "$T/noconf.err"
report $? "a missing config: the reason on stderr, exit 1" "exit $rc" \
    "$(cat "$T/noconf.err")"

NOTIFY_SOCKET=$T/nobody.sock by_hand quiet -P "$PARSE_HELPER" -f "$T/etc/missing.conf" \
    -s "$SOCK" -S "$STATE"
[ "$rc" -eq 1 ] && [ ! -s "$T/quiet.err" ]
report $? "under systemd (NOTIFY_SOCKET): stderr left to the log" \
    "exit $rc" "$(cat "$T/quiet.err")"
INVOCATION_ID=0123456789abcdef by_hand quiet2 -P "$PARSE_HELPER" -f "$T/etc/missing.conf" \
    -s "$SOCK" -S "$STATE"
[ "$rc" -eq 1 ] && [ ! -s "$T/quiet2.err" ]
report $? "in a systemd unit (INVOCATION_ID): stderr left to the log" \
    "exit $rc" "$(cat "$T/quiet2.err")"

mkdir -m 1777 "$T/open"
chmod 1777 "$T/open"
by_hand opendir -P "$PARSE_HELPER" -f "$CONF" -s "$T/open/tcptuned.sock" -S "$STATE"
[ "$rc" -eq 1 ] && grep -q "^tcptuned: socket directory: $T/open is writable by group or others" \
    "$T/opendir.err"
report $? "an unsafe socket directory: the reason on stderr, exit 1" \
    "exit $rc" "$(cat "$T/opendir.err")"

WSL_DISTRO_NAME=Ubuntu start_ready main -f "$CONF" -s "$SOCK" -S "$STATE"
grep -q "this is WSL: these sysctls change WSL's own Linux network stack" \
    "$T/d.main.log"
report $? "inside WSL: logged at start" "$(tail -5 "$T/d.main.log")"
by_hand second -P "$PARSE_HELPER" -f "$CONF" -s "$SOCK" -S "$STATE"
[ "$rc" -eq 1 ] && grep -q '^tcptuned: .*running' "$T/second.err" &&
    daemon_alive main
report $? "a second instance: the reason on stderr, exit 1, the first runs on" \
    "exit $rc" "$(cat "$T/second.err")"
WSL_DISTRO_NAME=Ubuntu "$TCPTUNECTL" -s "$SOCK" status >/dev/null \
    2>"$T/status.err"
grep -q 'note: this is WSL' "$T/status.err"
report $? "inside WSL: status says whose stack it is" "$(cat "$T/status.err")"
daemon_stop main

tap_end
