#!/bin/bash
#
# bench/daemon/lean.sh [--quick]: the figures of issue 25, each printed
# beside what it is compared with, from one run on one machine:
#
#   1. resident size (VmRSS) of tcptuned at idle on the shipped Linux
#      config and after 20 reloads, per mapping, against a libc-only loop
#      doing the same reads (bench/daemon/libcloop) and, with
#      TT_BASE_BUILDDIR (a build of an earlier commit), against that
#      build's tcptuned;
#   2. the wall time of the `tcptunectl status` command against
#      `sysctl -n` of the same keys (and the base build's tcptunectl);
#   3. CPU per check cycle at the real 1 s interval (sum_exec_runtime of
#      /proc/PID/schedstat, nanoseconds), and with the timescale shim
#      speeding the timer 1000x, labelled so: hot caches flatter it;
#   4. drift correction against a shell loop `while sleep 1; do ...
#      write each key ...; done`: latency (driftbench) and CPU, same keys,
#      same window.
#
# Everything runs in a private network namespace against a sysctl root
# directory (tcptuned -r): no sysctl of this machine is written.  tuned is
# measured by bench/daemon/tuned.sh, in its sandbox, where it is installed.
# Needs root, python3 and jq.

set -u
QUICK=
[ "${1:-}" = --quick ] && { QUICK=1; shift; }
# tt_init runs the script again under unshare -n: the flag goes by the
# environment.
QUICK=${QUICK:-${TT_LEAN_QUICK:-}}
export TT_LEAN_QUICK=$QUICK
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=lib.sh
. "$top_srcdir/bench/daemon/lib.sh"
bd_init "$@"
command -v python3 >/dev/null 2>&1 || bail "python3 not found"
LIBCLOOP=$BD/libcloop
[ -x "$LIBCLOOP" ] || bail "$LIBCLOOP not built (make check_PROGRAMS)"
BASE=${TT_BASE_BUILDDIR:-}
WIN=${QUICK:+8}; WIN=${WIN:-30}	# seconds of each CPU window
RUNS=${QUICK:+50}; RUNS=${RUNS:-300}	# command runs each

say() { printf '%s\n' "$*"; }

# ---- the shipped Linux config, its keys as files under a root
ROOT=$T/root
CONF=$T/lean.conf
# CheckInterval 1, as run.sh's profile_conf: the real timer, a check a
# second, so that the figures of section 3 come from the same daemon.
awk '/<key>CheckInterval<\/key>/ { print; want = 1; next }
    want && /<integer>/ { sub(/<integer>[0-9]+</, "<integer>1<"); want = 0 }
    { print }' "$top_srcdir/etc/tcptune.conf.linux" | write_config "$CONF"
grep -q '<integer>1</integer>' "$CONF" || bail "cannot set CheckInterval in $CONF"
KEYS=$(sed -n 's/.*<key>\(net\.[a-z0-9_.]*\)<\/key>.*/\1/p' "$CONF")
for k in $KEYS; do
	f=$ROOT/$(echo "$k" | tr . /)
	mkdir -p "${f%/*}"
	cat "/proc/sys/$(echo "$k" | tr . /)" >"$f" 2>/dev/null || echo 0 >"$f"
done

# rss PID: "VmRSS anon file" in KiB.
rss() {
	echo "$(proc_field "$1" VmRSS) $(proc_field "$1" RssAnon) $(proc_field "$1" RssFile)"
}

# mappings PID: KiB resident per mapped file (anonymous ones by kind).
mappings() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { n = $6; if (n == "") n = "[anonymous]" }
	    /^Rss:/ { r[n] += $2 }
	    END { for (n in r) if (r[n] > 0) printf "%8d KiB  %s\n", r[n], n }' \
	    "/proc/$1/smaps" | sort -rn
}

# runtime_ns PID: CPU time so far, nanoseconds.
runtime_ns() {
	cut -d' ' -f1 "/proc/$1/schedstat"
}

# The base build on a copy of the root: one daemon per sysctl tree.
start_base() {
	mkdir -p "$T/base.state"
	cp -a "$ROOT" "$T/broot"
	"$BASE/tcptuned" -d -r "$T/broot" -f "$CONF" -s "$T/base.sock" \
	    -S "$T/base.state" >"$T/d.base.log" 2>&1 </dev/null &
	echo $! >>"$T/pids"
	BPID=$!
	wait_until 30 test -S "$T/base.sock" ||
	    bail "the base tcptuned did not start: $(tail -n 3 "$T/d.base.log")"
}

# ---- 1. resident size
say "== 1. resident size, shipped Linux config ($(echo "$KEYS" | wc -w) keys), KiB"
bd_start lean "$CONF" -- -- -r "$ROOT"
wait_until 10 checks_at_least lean 3
read -r r a f <<<"$(rss "$DPID")"
say "tcptuned (this build), idle:            VmRSS $r (anon $a, file $f)"
for _ in $(seq 20); do "$TCPTUNECTL" -s "$T/lean.sock" reload >/dev/null 2>&1; done
wait_until 10 checks_at_least lean 5
read -r r2 a2 f2 <<<"$(rss "$DPID")"
say "tcptuned (this build), after 20 reloads: VmRSS $r2 (anon $a2, file $f2)"
if grep -q libxml2 "/proc/$DPID/maps"; then say "  libxml2 IS mapped"
else say "  libxml2 not mapped"; fi
say "  per mapping:"
mappings "$DPID" | sed 's/^/  /'
LEANPID=$DPID
args=()
for k in $KEYS; do args+=("$ROOT/$(echo "$k" | tr . /)=$(cat "$ROOT/$(echo "$k" | tr . /)")"); done
"$LIBCLOOP" 1 "${args[@]}" &
LPID=$!
echo "$LPID" >>"$T/pids"
wait_until 5 test -r "/proc/$LPID/smaps"
sleep 2
read -r lr la lf <<<"$(rss "$LPID")"
say "libc-only loop (libcloop), same keys:   VmRSS $lr (anon $la, file $lf)"
if [ -n "$BASE" ]; then
	start_base
	sleep 3
	read -r br ba bf <<<"$(rss "$BPID")"
	say "tcptuned ($BASE), idle:   VmRSS $br (anon $ba, file $bf)"
	for _ in $(seq 20); do "$BASE/tcptunectl" -s "$T/base.sock" reload >/dev/null 2>&1; done
	read -r br2 _ _ <<<"$(rss "$BPID")"
	say "tcptuned ($BASE), after 20 reloads: VmRSS $br2"
	say "  per mapping:"
	mappings "$BPID" | sed 's/^/  /'
fi

# ---- 2. the status command against sysctl -n
say ""
say "== 2. command wall time, median of $RUNS runs each, ms"
# shellcheck disable=SC2086 # the keys are words
medians=$(python3 - "$RUNS" "$TCPTUNECTL" "$T/lean.sock" "${BASE:+$BASE/tcptunectl}" \
    "${BASE:+$T/base.sock}" $KEYS <<'PY'
import statistics, subprocess, sys, time
runs = int(sys.argv[1]); ctl, sock, bctl, bsock = sys.argv[2:6]; keys = sys.argv[6:]
def med(cmd):
    t = []
    for _ in range(runs):
        a = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append((time.perf_counter() - a) * 1000)
    return statistics.median(t)
s = med(["sysctl", "-n", "-e"] + keys)
c = med([ctl, "-s", sock, "status"])
print("sysctl -n %s: %.2f" % (" ".join(keys), s))
print("tcptunectl status (this build): %.2f  = %.2fx sysctl -n" % (c, c / s))
if bctl:
    b = med([bctl, "-s", bsock, "status"])
    print("tcptunectl status (%s): %.2f  = %.2fx sysctl -n" % (bctl, b, b / s))
PY
)
say "$medians"

# ---- 3. CPU per check
say ""
say "== 3. CPU per check cycle, CheckInterval 1, ${WIN} s window, microseconds"
c0=$(bd_checks lean); n0=$(runtime_ns "$LEANPID")
sleep "$WIN"
c1=$(bd_checks lean); n1=$(runtime_ns "$LEANPID")
say "real 1 s timer:            $(( (n1 - n0) / 1000 / (c1 - c0) )) us per check ($((c1 - c0)) checks, status requests included)"
bd_stop lean
bd_start shim "$CONF" LD_PRELOAD="$TIMESCALE" TT_TIMESCALE=1000 -- -- -r "$ROOT"
wait_until 10 checks_at_least shim 100
c0=$(bd_checks shim); n0=$(runtime_ns "$DPID")
sleep "$WIN"
c1=$(bd_checks shim); n1=$(runtime_ns "$DPID")
say "SHIM, timer 1000x faster:  $(( (n1 - n0) / 1000 / (c1 - c0) )) us per check ($((c1 - c0)) checks; hot caches: not what a user runs)"
bd_stop shim
n0=$(runtime_ns "$LPID"); sleep "$WIN"; n1=$(runtime_ns "$LPID")
say "libc-only loop, real 1 s:  $(( (n1 - n0) / 1000 / WIN )) us per pass"
kill "$LPID" 2>/dev/null

# ---- 4. drift correction against a shell loop
say ""
say "== 4. drift correction of 30 keys, 1 s interval: tcptuned against a shell loop"
DR=$T/droot
mapfile -t specs < <(make_root "$DR" 30)
conf_keys "$T/drift.conf" 1 "${specs[@]}"
: >"$T/drift.keys"
for s in "${specs[@]}"; do
	k=${s%%=*}
	printf '%s\t%s\t%s\n' "$DR/$(echo "$k" | tr . /)" "${s#*=}" 1 >>"$T/drift.keys"
done
SAMPLES=${QUICK:+10}; SAMPLES=${SAMPLES:-30}
bd_start drift "$T/drift.conf" -- -- -r "$DR"
n0=$(runtime_ns "$DPID")
dl=$("$DRIFTBENCH" -n "$SAMPLES" -t 5000 "$T/drift.keys")
n1=$(runtime_ns "$DPID")
dsec=$(awk -v a="$n0" -v b="$n1" 'BEGIN { print (b - a) / 1e6 }')
say "tcptuned:   $dl; CPU during it $dsec ms"
bd_stop drift
# The loop `sysctl -w` would be, on files: one write per key per second.
loop='while sleep 1; do'
for s in "${specs[@]}"; do
	loop="$loop printf '%s\\n' '${s#*=}' >'$DR/$(echo "${s%%=*}" | tr . /)';"
done
loop="$loop done"
/usr/bin/time -f '%U %S' -o "$T/loop.time" bash -c "$loop" &
SPID=$!
echo "$SPID" >>"$T/pids"
sl=$("$DRIFTBENCH" -n "$SAMPLES" -t 5000 "$T/drift.keys")
pkill -P "$SPID" bash 2>/dev/null
kill "$(pgrep -P "$SPID")" 2>/dev/null
wait "$SPID" 2>/dev/null
say "shell loop: $sl; CPU $(tail -n 1 "$T/loop.time" | awk '{ printf "%.0f", ($1 + $2) * 1000 }') ms (10 ms ticks)"
