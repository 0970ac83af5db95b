#!/usr/bin/env bash
# Quick start, command one: installs the build dependencies, builds, and
# runs tcptuned with the shipped Linux config inside a private network
# namespace (unshare -n), where net.ipv4.* are real kernel sysctls that
# belong to the namespace alone: the host's own settings are not touched.
# Shows tcptunectl status, simulates drift, and shows the daemon undo it.
set -eu
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: needs root (for unshare -n and the sysctl writes): sudo $0" >&2
	exit 1
fi
if [ -z "${TT_DEMO_IN_NETNS:-}" ]; then
	bash scripts/deps.sh build
	bash scripts/build.sh >/dev/null
	host_netns=$(readlink /proc/self/ns/net)
	exec env TT_DEMO_IN_NETNS="$host_netns" unshare -n bash "$0" "$@"
fi

# From here on we are in the private namespace; make sure of it before
# any write: another namespace than the one we started in, only lo.
if [ "$(readlink /proc/self/ns/net)" = "$TT_DEMO_IN_NETNS" ] ||
    [ "$(awk 'NR > 2' /proc/self/net/dev | wc -l)" -ne 1 ]; then
	echo "demo.sh: not in a private network namespace: refusing" >&2
	exit 1
fi

work=$(mktemp -d /tmp/tcptune-demo.XXXXXX)
pid=
trap '[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$work"' EXIT
# The shipped config, checked every 3 s instead of its 60 so that the
# demo shows a correction without a minute's wait: said below too.
interval=3
sed "/<key>CheckInterval<\/key>/{n;s|<integer>60<|<integer>$interval<|;}" \
    etc/tcptune.conf.linux >"$work/tcptune.conf"
grep -q "<integer>$interval</integer>" "$work/tcptune.conf" || {
	echo "demo.sh: no CheckInterval 60 in etc/tcptune.conf.linux" >&2
	exit 1
}
chmod 0644 "$work/tcptune.conf"
sock="$work/run/tcptuned.sock"
rmem=/proc/sys/net/ipv4/tcp_rmem
ctl() { ./tcptunectl -s "$sock" "$@"; }
if [ -t 1 ]; then
	say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
else
	say() { printf '\n== %s\n' "$*"; }
fi
failed() {
	printf '\ndemo.sh: FAILED: %s\n' "$*" >&2
	[ ! -s "$work/tcptuned.log" ] || sed 's/^/  tcptuned: /' "$work/tcptuned.log" >&2
	exit 1
}
# until SECONDS COMMAND...: poll the daemon's own state, not the clock;
# SECONDS is only the safety net for a daemon that never gets there.
until_ok() {
	local limit=$(( $1 * 10 ))
	shift
	while ! "$@"; do
		[ "$limit" -gt 0 ] || return 1
		limit=$((limit - 1))
		sleep 0.1
	done
}
daemon_gone() { ! kill -0 "$pid" 2>/dev/null; }
# status answers (exit 0 all in force, 1 some not: net.core.* here)
answers() {
	local rc=0
	ctl status >/dev/null 2>&1 || rc=$?
	[ "$rc" -le 1 ]
}
started() { daemon_gone || { answers && ctl status 2>/dev/null | grep -q 'in force'; }; }
rmem_is() { [ "$(tr -s '\t ' '  ' <"$rmem")" = "$1" ]; }

say "kernel values before tcptuned (this namespace)"
for k in net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/core/rmem_max; do
	printf '%-28s %s\n' "$k" "$(tr '\t' ' ' </proc/sys/$k)"
done
original=$(tr -s '\t ' '  ' <"$rmem")
# The key's first string: its value, written alone or as the Value of a
# dict (Value comes before Mode in the shipped configs).
wanted=$(sed -n '/<key>net.ipv4.tcp_rmem<\/key>/,/<\/string>/s|.*<string>\(.*\)</string>.*|\1|p' \
    "$work/tcptune.conf")
[ -n "$wanted" ] || failed "no net.ipv4.tcp_rmem in etc/tcptune.conf.linux"

say "tcptuned -f tcptune.conf (log: $work/tcptuned.log)"
./tcptuned -d -f "$work/tcptune.conf" -s "$sock" -S "$work/state" \
    >"$work/tcptuned.log" 2>&1 &
pid=$!
until_ok 60 started || true
cat "$work/tcptuned.log"
daemon_gone && { pid=; failed "tcptuned did not start"; }
answers || failed "tcptuned started but status does not answer"

say "tcptunectl status"
ctl status || true
rmem_is "$wanted" || failed "net.ipv4.tcp_rmem is not $wanted"

say "something else lowers tcp_rmem (echo '4096 131072 6291456' > $rmem)"
echo "4096 131072 6291456" >"$rmem"
ctl status || true

say "the next check puts it back (this demo checks every $interval s; the shipped config, every 60)"
until_ok $((interval * 10 + 30)) rmem_is "$wanted" ||
    failed "the drifted net.ipv4.tcp_rmem was not put back"
ctl status || true

say "tcptunectl restore: the originals come back, enforcement pauses"
ctl restore || failed "tcptunectl restore failed"
ctl status || true
until_ok 30 rmem_is "$original" || failed "net.ipv4.tcp_rmem is not back to $original"

echo
echo "(net.core.* are global keys: inside a namespace the kernel refuses them,"
echo " and tcptuned reports that instead of failing; on the host they apply.)"
