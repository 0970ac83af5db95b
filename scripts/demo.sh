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
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
# The shipped config, checked every 3 s instead of 60 for the demo.
sed '/<key>CheckInterval<\/key>/{n;s|<integer>60<|<integer>3<|;}' \
    etc/tcptune.conf.linux >"$work/tcptune.conf"
grep -q '<integer>3</integer>' "$work/tcptune.conf"
chmod 0644 "$work/tcptune.conf"
sock="$work/run/tcptuned.sock"
ctl() { ./tcptunectl -s "$sock" "$@"; }
if [ -t 1 ]; then
	say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
else
	say() { printf '\n== %s\n' "$*"; }
fi

say "kernel values before tcptuned (this namespace)"
for k in net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/core/rmem_max; do
	printf '%-28s %s\n' "$k" "$(tr '\t' ' ' </proc/sys/$k)"
done

say "tcptuned -f tcptune.conf (log: $work/tcptuned.log)"
./tcptuned -d -f "$work/tcptune.conf" -s "$sock" -S "$work/state" \
    >"$work/tcptuned.log" 2>&1 &
pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
cat "$work/tcptuned.log"

say "tcptunectl status"
ctl status || true

say "something else lowers tcp_rmem (echo '4096 131072 6291456' > /proc/sys/net/ipv4/tcp_rmem)"
echo "4096 131072 6291456" >/proc/sys/net/ipv4/tcp_rmem
ctl status || true

say "the next check (at most 3 s later) puts it back"
sleep 3.5
ctl status || true

say "tcptunectl restore: the originals come back, enforcement pauses"
ctl restore || true
ctl status || true

echo
echo "(net.core.* are global keys: inside a namespace the kernel refuses them,"
echo " and tcptuned reports that instead of failing; on the host they apply.)"
