#!/usr/bin/env bash
# The real tcptuned on a real Mac (TAP).  For a disposable machine such as
# a CI runner, as root:
#
#   sudo bash tests/macos/live.sh BUILDDIR
#
# BUILDDIR holds the built tcptuned and tcptunectl (default:
# $top_builddir, else the current directory).  It writes two kernel
# sysctls, kern.ipc.maxsockbuf and net.inet.tcp.autorcvbufmax: their
# values are read first and written back at the end whatever happens.
#  1. tcptuned starts on a temporary config, socket and state directory
#     that raises both (maxsockbuf to the ceiling xnu allows,
#     nmbclusters << 7, bsd/kern/uipc_socket2.c sysctl_sb_max;
#     autorcvbufmax, which xnu takes unchecked, to twice its value);
#  2. `tcptunectl status` shows both keys in force;
#  3. a `sysctl -w` behind its back is reverted within the check interval;
#  4. `tcptunectl restore` puts the originals back and pauses;
#  5. SIGTERM ends it with status 0.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${1:-${top_builddir:-$PWD}}
# shellcheck source-path=SCRIPTDIR source=../packaging/standins.sh
. "$top_srcdir/tests/packaging/standins.sh"

if [ "$(uname -s)" != Darwin ] || [ "$(id -u)" -ne 0 ]; then
	skip_all "needs macOS and root (it writes kernel sysctls)"
fi

MSB=kern.ipc.maxsockbuf
ARB=net.inet.tcp.autorcvbufmax
T=$(mktemp -d /tmp/tt-live.XXXXXX)	# short: sun_path holds 104 bytes
DPID=
ORIG_MSB=$(sysctl -n "$MSB")
ORIG_ARB=$(sysctl -n "$ARB")
CEIL=$(( $(sysctl -n kern.ipc.nmbclusters) << 7 ))
WANT_ARB=$((ORIG_ARB * 2))
diag "originals: $MSB=$ORIG_MSB $ARB=$ORIG_ARB; maxsockbuf ceiling $CEIL"

# put_back: the originals, whatever state the test left; maxsockbuf first
# is safe here since autorcvbufmax is not bounded by it when written.
put_back() {
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID"
		sleep 1
	fi
	[ "$(sysctl -n "$MSB")" = "$ORIG_MSB" ] || sysctl -w "$MSB=$ORIG_MSB" >/dev/null
	[ "$(sysctl -n "$ARB")" = "$ORIG_ARB" ] || sysctl -w "$ARB=$ORIG_ARB" >/dev/null
	rm -rf "$T"
}
trap put_back EXIT

cat >"$T/tcptune.conf" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>CheckInterval</key>
	<integer>2</integer>
	<key>Sysctls</key>
	<dict>
		<key>$MSB</key>
		<integer>$CEIL</integer>
		<key>$ARB</key>
		<integer>$WANT_ARB</integer>
	</dict>
</dict>
</plist>
EOF
chmod 0644 "$T/tcptune.conf"
mkdir -m 0700 "$T/state"

ctl() {
	"$B/tcptunectl" -s "$T/sock" "$@" >"$T/ctl.out" 2>&1
}

# What a check_until (tests/tap.sh) that times out shows.
wait_diag() {
	diag_file "tcptunectl output" "$T/ctl.out"
	diag_file "tcptuned log" "$T/log"
}

is() {
	[ "$(sysctl -n "$1")" = "$2" ]
}

both_listed() {
	grep -q "$MSB" "$T/ctl.out" && grep -q "$ARB" "$T/ctl.out"
}

both_original() {
	is "$MSB" "$ORIG_MSB" && is "$ARB" "$ORIG_ARB"
}

check "tcptuned -n accepts the test config" "$B/tcptuned" -n -f "$T/tcptune.conf"
"$B/tcptuned" -d -f "$T/tcptune.conf" -S "$T/state" -s "$T/sock" >"$T/log" 2>&1 &
DPID=$!
check_until "tcptuned answers on its socket" 10 ctl status
check_until "$MSB raised to the ceiling $CEIL" 10 is "$MSB" "$CEIL"
check_until "$ARB raised to $WANT_ARB" 10 is "$ARB" "$WANT_ARB"
ctl status
same "tcptunectl status: exit 0, every key in force" 0 "$?"
check "tcptunectl status: lists both keys" both_listed
grep "$ARB" "$T/ctl.out" | sed 's/^/# /'

sysctl -w "$ARB=$ORIG_ARB" >/dev/null
check_until "drift of $ARB (sysctl -w) reverted" 20 is "$ARB" "$WANT_ARB"
sysctl -w "$MSB=$((CEIL / 2))" >/dev/null
check_until "drift of $MSB (sysctl -w) reverted" 20 is "$MSB" "$CEIL"

ctl restore
same "tcptunectl restore: exit 0" 0 "$?"
check "restore: $MSB is back to $ORIG_MSB" is "$MSB" "$ORIG_MSB"
check "restore: $ARB is back to $ORIG_ARB" is "$ARB" "$ORIG_ARB"
ctl status
same "status after restore: exit 1 (enforcement paused)" 1 "$?"
sleep 3
check "restore: paused, the originals stay through a check interval" \
    both_original

kill -TERM "$DPID"
wait "$DPID"
same "SIGTERM: tcptuned exits 0" 0 "$?"
DPID=
tap_end
