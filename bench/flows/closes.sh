#!/bin/bash
#
# bench/flows/closes.sh [SECONDS]: tcptuned's CPU while a user (uid
# 65534) closes TCP sockets as fast as it can, for SECONDS (10) each of
# three loads, in a private network namespace (tests/system/lib.sh's
# tt_init: unshare -n); prints one line per load, the daemon's CPU as a
# share of one core (its utime + stime from /proc over the wall time) and
# the close notices it took (diagnose's count):
#
#   unconnected  socket(); close() in a loop: no network needed
#   loopback     connect to a listener on 127.0.0.1, a few bytes, close
#   local        the same between two addresses of the namespace, 128
#                KiB each: past the kernel's notice filter
#                (daemon/flows/flows_linux.c), so the CPU budget is what bounds
#                the daemon (FLOW_CPU_SHARE, daemon/flows/flows.h)
#
# Needs root (unshare -n, setpriv); writes no sysctl of the host.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export top_srcdir top_builddir
# shellcheck source=bench/daemon/lib.sh
. "$top_srcdir/bench/daemon/lib.sh"
tt_init "$@"
SECS=${1:-10}
command -v setpriv >/dev/null 2>&1 || bail "setpriv not found"
command -v python3 >/dev/null 2>&1 || bail "python3 not found"

ip link set lo up && ip addr add 10.77.9.1/32 dev lo &&
    ip addr add 10.77.9.2/32 dev lo || bail "addresses on lo"
plist -i 60 "net.ipv4.tcp_rmem=4096 131072 6291456" | write_config "$CONF"
start_ready bench

cat >"$T/closer.py" <<'PY'
import socket, sys, threading, time
kind, secs = sys.argv[1], float(sys.argv[2])
end = time.monotonic() + secs
n = 0
if kind == "unconnected":
    while time.monotonic() < end:
        for i in range(1000):
            socket.socket().close()
        n += 1000
else:
    src, dst, size = {"loopback": ("127.0.0.1", "127.0.0.1", 100),
                      "local": ("10.77.9.1", "10.77.9.2", 128 << 10)}[kind]
    srv = socket.socket()
    srv.bind((dst, 0))
    srv.listen(128)
    port = srv.getsockname()[1]
    def sink():
        while True:
            c, _ = srv.accept()
            while c.recv(1 << 16):
                pass
            c.close()
    threading.Thread(target=sink, daemon=True).start()
    data = b"x" * size
    while time.monotonic() < end:
        s = socket.socket()
        s.bind((src, 0))
        s.connect((dst, port))
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        s.recv(1)
        s.close()
        n += 1
print(n)
PY

closes() {
	"$TCPTUNECTL" -s "$SOCK" diagnose --json 2>/dev/null | jq -r '.closes // 0'
}
hz=$(getconf CLK_TCK)
for load in unconnected loopback local; do
	c0=$(closes)
	t0=$(cpu_ticks "$DPID")
	w0=$(now_ms)
	n=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    /usr/bin/python3 - "$load" "$SECS" <"$T/closer.py")
	w1=$(now_ms)
	t1=$(cpu_ticks "$DPID")
	c1=$(closes)
	awk -v l="$load" -v n="$n" -v t="$((t1 - t0))" -v hz="$hz" \
	    -v w="$((w1 - w0))" -v c="$((c1 - c0))" 'BEGIN {
		printf "closes %-11s %8d sockets in %.1f s: tcptuned %.2f %% of a core, %d close notices taken\n",
		    l, n, w / 1000, 100 * t / hz / (w / 1000), c }'
done
daemon_stop bench
