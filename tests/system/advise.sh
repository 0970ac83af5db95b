#!/bin/bash
# System test: tcptunectl advise, run as a user runs it.  The round trip
# is measured against listeners on 127.0.0.1 only (Python sockets); the
# failure cases are a closed port (a refusal is a round trip: exit 0), a
# listener whose accept queue is full (its SYNs are dropped: no answer,
# exit 5, as measure's: the host, not tcptuned, is unreachable) and a
# .invalid name (RFC 6761: it never resolves, exit 5).
# Nothing else is contacted, and nothing is written to the kernel: advise
# only reads, which the last checks confirm.  The listeners need python3
# and the JSON checks jq: without them those checks are skipped, the rest
# still run.  Speaks TAP, plan at the end.
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:=$here/../..}"
: "${top_srcdir:=$here/../..}"
ctl=$top_builddir/tcptunectl
T=$(mktemp -d "${TMPDIR:-/tmp}/advise.XXXXXX") || exit 99
pids=()

# shellcheck disable=SC2317 # run by the EXIT trap
# ${pids[@]+...}: bash before 4.4 (macOS has 3.2) calls an empty array
# unbound under set -u.
cleanup() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
# What a failure shows: the command's output and errors.
tap_context() {
	[ -s "$T/out" ] && sed 's/^/#   out: /' "$T/out" | head -40
	[ -s "$T/err" ] && sed 's/^/#   err: /' "$T/err" | head -10
	return 0
}

# run ARGS...: tcptunectl advise ARGS, stdout to $T/out, stderr to
# $T/err, exit status in $rc, seconds taken in $took.
run() {
	local start=$SECONDS
	"$ctl" advise "$@" >"$T/out" 2>"$T/err"
	rc=$?
	took=$((SECONDS - start))
}

jqe() {
	jq -e "$1" "$T/out" >/dev/null 2>&1
}

has_jq() {
	command -v jq >/dev/null 2>&1
}

# ---- listeners, on 127.0.0.1 only

cat >"$T/listen.py" <<'EOF'
import socket, sys, time
mode = sys.argv[1]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
if mode == "closed":            # a port nothing listens on
    s.close()
    print(port, flush=True)
    sys.exit(0)
s.listen(16 if mode == "accept" else 0)
held = []
if mode == "full":              # fill the queue: later SYNs are dropped
    for _ in range(3):
        c = socket.socket()
        c.setblocking(False)
        try:
            c.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        held.append(c)
    time.sleep(0.2)
print(port, flush=True)
s.settimeout(1)
# Stopped by the test's cleanup; this only bounds an orphan, and is
# long enough for a test stretched by a busy machine.
end = time.monotonic() + 900
while time.monotonic() < end:
    if mode != "accept":
        time.sleep(0.5)
        continue
    try:
        c, _ = s.accept()
        c.close()
    except socket.timeout:
        pass
EOF

# listen MODE VAR: start a listener and set VAR to its port.  Not called
# in $(...): a listener started in a subshell never reaches pids, and so
# is never stopped.
listen() {
	local f=$T/port.$1 i
	python3 "$T/listen.py" "$1" >"$f" &
	pids+=("$!")
	# The port, once it listens; on a busy machine python's start alone
	# may take seconds: the bound is only a safety net (TT_WAIT_LIMIT,
	# as tests/system/lib.sh).
	for i in $(seq $((${TT_WAIT_LIMIT:-120} * 10))); do
		[ -s "$f" ] && break
		sleep 0.1
		: "$i"
	done
	printf -v "$2" '%s' "$(cat "$f")"
}

if [ ! -x "$ctl" ]; then
	skip_all "$ctl is not built"
fi
has_python() {
	command -v python3 >/dev/null 2>&1
}
rmem0=$(cat /proc/sys/net/ipv4/tcp_rmem 2>/dev/null)
core0=$(cat /proc/sys/net/core/rmem_max 2>/dev/null)

# ---- a given round trip

"$ctl" --help >"$T/out" 2>&1
grep -q 'advise --rate RATE' "$T/out" &&
    grep -q 'tcptunectl advise --rate 1g --rtt 150ms$' "$T/out" &&
    "$ctl" --help -v >"$T/out" 2>&1 &&
    grep -q -- '--host HOST\[:PORT\]' "$T/out"
report $? "--help shows advise with an example, --help -v its options"

run --rate 1g --rtt 150ms
[ "$rc" -eq 0 ] && grep -q '18750000 bytes (17.9 MiB)' "$T/out" &&
    grep -q '^Verdict: ' "$T/out" && grep -q 'values read live' "$T/out"
report $? "1g at 150ms: the BDP, the live values and a verdict, exit 0" \
    "exit $rc"

if has_jq; then
	run --rate 1g --rtt 150ms --json
	[ "$rc" -eq 0 ] && jqe '.version == 1 and .bdp_bytes == 18750000 and
	    .path.rate_bps == 1000000000 and .path.rtt_s == 0.15 and
	    .path.rtt_source == "given" and .path.measurement == null and
	    (.keys | length) > 0 and
	    (.verdict | IN("ok", "tune", "capped")) and
	    (.now.receive.rate_bps | type) == "number" and
	    .recommended.receive.rate_bps <= 1000000000'
	report $? "--json: the documented shape, numbers as numbers" "exit $rc"
	run --rate 1g --rtt 150ms --json --set net.core.rmem_max=212992
	[ "$rc" -eq 0 ] && jqe '(.keys[] | select(.name == "net.core.rmem_max") |
	    .given and .current == "212992") and
	    ([.keys[] | select(.name != "net.core.rmem_max") | .given] |
	    all | not)'
	report $? "--set: that value is marked given, the others are not" \
	    "exit $rc"
else
	skip "--json: the documented shape" "jq is not installed"
	skip "--set: that value is marked given" "jq is not installed"
fi
run --rate 1g --rtt 150ms --set net.core.rmem_max=212992
[ "$rc" -eq 0 ] && grep -q '^net.core.rmem_max  *212992= ' "$T/out" &&
    grep -q 'except those given with' "$T/out"
report $? "--set in text: the value is marked '=' and the machine line says so" \
    "exit $rc"

# ---- --host

if has_python; then
	port='' closed='' full=''
	listen accept port
	listen closed closed
	listen full full
fi

if ! has_python; then
	skip "--host 127.0.0.1: a sane loopback rtt" "python3 is not installed"
elif has_jq; then
	run --rate 1g --host "127.0.0.1:$port" --json
	[ "$rc" -eq 0 ] && jqe ".path.rtt_source == \"measured\" and
	    .path.measurement.address == \"127.0.0.1\" and
	    .path.measurement.port == $port and
	    .path.measurement.samples == 5 and
	    .path.measurement.refused == 0 and
	    .path.rtt_s > 0 and .path.rtt_s < 5 and
	    .path.measurement.min_s <= .path.measurement.median_s"
	# "sane": measured, not seconds long; under 5 s, not a timing (a
	# busy machine may preempt advise between a connect and its clock).
	report $? "--host 127.0.0.1:$port: 5 connects, a sane loopback rtt" \
	    "exit $rc"
else
	run --rate 1g --host "127.0.0.1:$port" --json
	[ "$rc" -eq 0 ] && grep -q '"rtt_source": "measured"' "$T/out"
	report $? "--host 127.0.0.1:$port: measured" "exit $rc"
fi

if has_python; then
	run --rate 1g --host "localhost:$port" --count 3
	[ "$rc" -eq 0 ] && grep -q 'median of 3 TCP connects' "$T/out"
	report $? "--host localhost:$port --count 3: resolved and measured" \
	    "exit $rc"

	run --rate 1g --host "127.0.0.1:$closed" --count 2
	[ "$rc" -eq 0 ] && grep -q 'refused' "$T/out"
	report $? "a closed port: the resets are round trips, exit 0, said so" \
	    "exit $rc"

	run --rate 1g --host "127.0.0.1:$full" --timeout 300ms
	want="--host 127.0.0.1:$full: no answer from 127.0.0.1 port $full"
	# Gave up at its timeout, not the kernel's (SYN retries, over two
	# minutes): 30 s tells the two apart even on a busy machine.
	[ "$rc" -eq 5 ] && [ ! -s "$T/out" ] && [ "$took" -le 30 ] &&
	    grep -q -- "^tcptunectl: $want within 0.3 s$" "$T/err"
	report $? "no answer (SYNs dropped): exit 5, one line, in the timeout" \
	    "exit $rc after ${took}s"
else
	skip "--host localhost" "python3 is not installed"
	skip "a closed port" "python3 is not installed"
	skip "no answer" "python3 is not installed"
fi

run --rate 1g --host tcptune-test.invalid --timeout 1s
want="--host tcptune-test.invalid: cannot resolve tcptune-test.invalid"
[ "$rc" -eq 5 ] && [ ! -s "$T/out" ] && [ "$took" -le 30 ] &&
    grep -q -- "^tcptunectl: $want" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]
report $? "a .invalid name: exit 5 as measure's, one line, within the timeout" \
    "exit $rc after ${took}s"

# ---- --config

run --rate 1g --rtt 150ms --config
"$ctl" check "$T/out" >"$T/check" 2>&1
crc=$?
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] && grep -q 'configuration OK' "$T/check" &&
    grep -q '<string>at-least</string>' "$T/out"
report $? "--config: a plist tcptunectl check accepts" "exit $rc, check $crc" \
    "$(cat "$T/check")"

cfg=$T/tcptune.conf
(umask 077 && "$ctl" advise --rate 1g --rtt 150ms --config "$cfg" \
    >"$T/out" 2>"$T/err")
rc=$?
mode=$(stat -c %a "$cfg" 2>/dev/null || stat -f %Lp "$cfg")
[ "$rc" -eq 0 ] && [ "$mode" = 644 ] && grep -q "^Wrote $cfg" "$T/out" &&
    "$ctl" check "$cfg" >/dev/null 2>&1 && [ -z "$(ls "$T"/*.tmp.* 2>/dev/null)" ]
report $? "--config FILE: written, mode 0644 under umask 077, checks" \
    "exit $rc, mode $mode"

echo keep >"$cfg"
run --rate 1g --rtt 150ms --config "$cfg"
[ "$rc" -eq 1 ] && [ "$(cat "$cfg")" = keep ] &&
    grep -q 'exists: add --force to replace it' "$T/err"
report $? "--config FILE refuses an existing file (exit 1, untouched)" \
    "exit $rc"

run --rate 1g --rtt 150ms --config="$cfg" --force --json
[ "$rc" -eq 0 ] && "$ctl" check "$cfg" >/dev/null 2>&1 &&
    { ! has_jq || jqe ".config_file == \"$cfg\""; }
report $? "--config=FILE --force replaces it; --json names it" "exit $rc"

# ---- WSL: the sysctls are WSL's own Linux kernel's, said on stderr

WSL_DISTRO_NAME=Ubuntu "$ctl" advise --rate 1g --rtt 150ms >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "note: this is WSL: these sysctls change WSL's own Linux network stack, not Windows'" "$T/err" &&
    grep -q 'tcptune.msi' "$T/err"
report $? "WSL: advise says whose network stack it is" "exit $rc"
WSL_DISTRO_NAME=Ubuntu "$ctl" check "$top_srcdir/etc/tcptune.conf.linux" \
    >"$T/out" 2>"$T/err"
grep -q 'note: this is WSL' "$T/err" && grep -q 'configuration OK' "$T/out"
report $? "WSL: check says it too" "$(cat "$T/err")"
WSL_DISTRO_NAME='' "$ctl" advise --rate 1g --rtt 150ms >"$T/out" 2>"$T/err"
! grep -q 'WSL' "$T/err" || grep -qi microsoft /proc/sys/kernel/osrelease
report $? "not WSL: no note" "$(cat "$T/err")"
"$ctl" advise --platform windows --rate 1g --rtt 150ms >"$T/out" 2>"$T/err"
! grep -q 'WSL' "$T/err"
report $? "WSL note only for live Linux advice" "$(cat "$T/err")"

# ---- goldens: the whole advice, as a user reads it (advise_text/NAME.txt;
# TT_GOLDEN_UPDATE=1 rewrites them, review the diff).  Windows is never
# told experimental unless it is the level already; macOS explains every
# difference from the shipped config and calls a modelled Mac modelled.

GOLD=$top_srcdir/tests/system/advise_text
golden() {
	local name=$1 why
	shift
	"$ctl" advise "$@" >"$T/golden" 2>&1
	rc=$?
	[ -n "${TT_GOLDEN_UPDATE:-}" ] && cp "$T/golden" "$GOLD/$name.txt"
	why=$(diff -u "$GOLD/$name.txt" "$T/golden" 2>&1)
	[ -z "$why" ] && [ "$rc" -eq 0 ]
	report $? "golden $name: advise $*" "exit $rc" "$why"
}
golden windows --platform windows --rate 1g --rtt 150ms
golden windows-disabled --platform win11 --rate 1g --rtt "150 ms" \
    --set tcp.autotuninglevel=disabled
golden windows-experimental --platform windows --rate 1g --rtt 0.15s \
    --set tcp.autotuninglevel=experimental
golden windows-config --platform windows --rate 1g --rtt 150ms --config -
golden macos --platform mac --rate 1g --rtt 150ms
golden macos-config --platform macos --rate 1g --rtt 150ms --config -
grep -q 'experimental' "$GOLD/windows.txt" &&
    ! grep -Eq 'RECOMMENDED.*experimental|  experimental  |<string>experimental' \
    "$GOLD/windows.txt" "$GOLD/windows-disabled.txt" "$GOLD/windows-config.txt"
report $? "experimental is named only with netsh's warning, never advised"
! grep -q -- '- -set\|- -platform\|This Mac' "$GOLD"/macos*.txt \
    "$GOLD"/windows-config.txt
report $? "no \"- -set\" in a comment, no \"This Mac\" off a Mac"

# ---- another platform: an 8 GB Mac, simulated

run --rate 1g --rtt 150ms --platform darwin --set kern.ipc.nmbclusters=65536
[ "$rc" -eq 0 ] && grep -q 'A stock Mac (modelled) cannot give one socket more than 8 MiB' "$T/out" &&
    grep -q '447 Mbit/s' "$T/out" && grep -q '14.4 or later assumed' "$T/out"
report $? "an 8 GB Mac is told it cannot exceed 8 MiB, in Mbit/s" "exit $rc"

# macOS 14.3 and older: a buffer gets only 8/9 of maxsockbuf (xnu-10002)
run --rate 1g --rtt 150ms --platform darwin --set kern.ipc.nmbclusters=65536 \
    --set kernel.osrelease=23.3.0
[ "$rc" -eq 0 ] && grep -q 'A stock Mac (modelled) cannot give one socket more than 7.11' "$T/out" &&
    grep -q '398 Mbit/s' "$T/out" && ! grep -q 'assumed' "$T/out"
report $? "the same Mac on macOS 14.3: 7.11 MiB, 8/9 of it" "exit $rc"

if has_jq; then
	run --rate 1g --rtt 150ms --platform darwin --set hw.memsize=8G --json
	[ "$rc" -eq 0 ] && jqe '.verdict == "capped" and .streams == 3 and
	    .platform.live == false and
	    .platform.maxsockbuf_ceiling == 8388608 and
	    .recommended.receive.buffer_bytes == 8388608 and
	    ([.keys[] | select(.name == "kern.ipc.maxsockbuf")][0].needed ==
	    18750000)'
	report $? "the 8 GB Mac in JSON: capped, 3 streams" "exit $rc"
	run --rate 1g --rtt 150ms --platform darwin --set hw.memsize=8G \
	    --set kernel.osrelease=23.3.0 --json
	[ "$rc" -eq 0 ] && jqe '.platform.kernel == "macOS, Darwin 23.3.0" and
	    .recommended.receive.buffer_bytes == 7456540 and
	    ([.keys[] | select(.name == "kern.ipc.maxsockbuf")][0].needed ==
	    21093750)'
	report $? "the 8 GB Mac on macOS 14.3 in JSON: 8/9" "exit $rc"
else
	skip "the 8 GB Mac in JSON" "jq is not installed"
	skip "the 8 GB Mac on macOS 14.3 in JSON" "jq is not installed"
fi

run --rate 1g --rtt 150ms --platform freebsd --config
"$ctl" check --platform freebsd "$T/out" >/dev/null 2>&1
crc=$?
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] && grep -q '<integer>67108864</integer>' "$T/out"
report $? "FreeBSD: maxsockbuf 64 MiB for 32 MiB buffers, a good plist" \
    "exit $rc, check $crc"

# ---- bad values: exit 64, one line naming the option

bad() {
	local want=$1 desc=$2
	shift 2
	run "$@"
	[ "$rc" -eq 64 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q -- "$want" "$T/err"
	report $? "$desc: exit 64, one line" "exit $rc"
}

bad '--rate "0g" is zero' "--rate 0g" --rate 0g --rtt 150ms
bad '--rate "-1g" is negative' "--rate -1g" --rate -1g --rtt 150ms
bad '--rate "1x" has an unknown unit' "an absurd unit" --rate 1x --rtt 1
bad '--rate "1000" has no unit: say 1000M or 1g (bit/s), or 100MB/s (bytes)' \
    "a bare --rate number is refused, never read as bit/s" --rate 1000 --rtt 1
bad '--rate "100MB" is ambiguous' "bits or bytes" --rate 100MB --rtt 1
bad '--rate "1e400" is too large' "overflow" --rate 1e400 --rtt 1
bad '--rate "2t" is above 1 Tbit/s' "above 1 Tbit/s" --rate 2t --rtt 1
bad '--rtt "5us" is below 10 us' "below 10 us" --rate 1g --rtt 5us
bad '--rtt "150ms!" has an unknown unit' "trailing junk" --rate 1g --rtt '150ms!'
bad '--rtt "" is empty' "an empty --rtt" --rate 1g --rtt ''
bad 'advise needs --rtt' "no round trip" --rate 1g
bad 'exclude each other' "--rtt with --host" --rate 1g --rtt 1 --host x
bad '--set foo.bar: advise does not use it' "an unknown --set" \
    --rate 1g --rtt 1 --set foo.bar=1

# ---- Windows, modelled from any OS: stock values, then "what if"

run --rate 1g --rtt 150ms --platform windows
[ "$rc" -eq 0 ] && grep -q '^Machine     Windows (--platform)' "$T/out" &&
    grep -q '^tcp.autotuninglevel  normal\*  *normal  *capped$' \
    "$T/out" && grep -q 'held by tcp.autotuninglevel' "$T/out" &&
    grep -q 'normal 16 MiB, experimental 1 GiB' "$T/out" &&
    grep -q 'Use 2 or more parallel' "$T/out"
report $? "Windows: stock normal holds 16 MiB, 1g at 150ms: normal kept, 2 streams" \
    "exit $rc"
run --rate 100m --rtt 10ms --platform windows --set tcp.autotuninglevel=Disabled
[ "$rc" -eq 0 ] && grep -q '^tcp.autotuninglevel  disabled=  *normal ' \
    "$T/out" && grep -q 'receiving  now    52.4 Mbit/s, window 64 KiB' \
    "$T/out" && grep -q 'turned down (disabled)' "$T/out"
report $? "Windows: --set disabled gives 64 KiB, 52.4 Mbit/s at 10 ms" \
    "exit $rc"
run --rate 100m --rtt 10ms --platform windows --set offload.rss=disabled \
    --set offload.rsc=disabled
[ "$rc" -eq 0 ] && grep -q '^offload.rss  *disabled=  *enabled  *turn on$' \
    "$T/out" && grep -q 'Receive-Side Scaling is off' "$T/out" &&
    grep -q 'Receive Segment Coalescing is off' "$T/out"
report $? "Windows: RSS and RSC off are flagged, RSS turned on" "exit $rc"
if has_jq; then
	run --rate 1g --rtt 150ms --platform windows --set tcp.timestamps=allowed \
	    --json
	[ "$rc" -eq 0 ] && jqe '.platform.os == "windows" and
	    .platform.live == false and .platform.maxsockbuf_ceiling == null and
	    .platform.autotuning.level == "normal" and
	    .platform.autotuning.window_ceiling_bytes == 16776960 and
	    .platform.autotuning.least_level == "experimental" and
	    ([.platform.autotuning.levels[] | .window_ceiling_bytes] ==
	     [65535, 262140, 1048560, 16776960, 1073725440]) and
	    ([.platform.autotuning.levels[] | .scale] == [null, 2, 4, 8, 14]) and
	    .platform.autotuning.recommended_level == "normal" and
	    .verdict == "capped" and .now.receive.window_bytes == 16776960 and
	    (.keys[] | select(.name == "tcp.timestamps") | .given and
	     .current == "allowed" and .role == "info") and
	    (.note_ids | index("windows-autotuning-ceilings")) != null and
	    (.note_ids | index("windows-timestamps-off")) != null'
	report $? "Windows --json: the levels as numbers, note identifiers" \
	    "exit $rc"
else
	skip "Windows --json: the levels as numbers" "jq is not installed"
fi
run --rate 1g --rtt 150ms --platform windows --set offload.rss=disabled \
    --config
"$ctl" check --platform windows "$T/out" >"$T/check" 2>&1
crc=$?
[ "$rc" -eq 0 ] && [ "$crc" -eq 0 ] &&
    grep -q '<key>tcp.autotuninglevel</key>' "$T/out" &&
    grep -q '<string>normal</string>' "$T/out" &&
    ! grep -q '<string>experimental</string>' "$T/out" &&
    grep -q '<key>offload.rss</key>' "$T/out" &&
    ! grep -q 'at-least\|<key>offload.rsc</key>\|<key>tcp.timestamps</key>' \
    "$T/out" && grep -q 'ProgramData' "$T/out"
report $? "Windows --config: the two held keys, enforced; tcptunectl check accepts it" \
    "exit $rc, check $crc" "$(cat "$T/check")"
bad '"on" is not enabled or disabled' "Windows: a bad --set word" \
    --rate 1g --rtt 1 --platform windows --set offload.rss=on
bad 'advise does not use it on Windows' "Windows: a Linux key" \
    --rate 1g --rtt 1 --platform windows --set net.core.rmem_max=1
bad 'not linux, darwin (mac, macos, osx), freebsd or windows (win, win10, win11)' "an unknown --platform" \
    --rate 1g --rtt 1 --platform win32

# ---- read only, and no root needed

if [ -n "$rmem0" ]; then
	[ "$(cat /proc/sys/net/ipv4/tcp_rmem)" = "$rmem0" ] &&
	    [ "$(cat /proc/sys/net/core/rmem_max)" = "$core0" ]
	report $? "no sysctl was written"
else
	skip "no sysctl was written" "not Linux"
fi

if [ "$(id -u)" -ne 0 ]; then
	run --rate 1g --rtt 150ms
	[ "$rc" -eq 0 ] && grep -q 'values read live' "$T/out"
	report $? "works without root (uid $(id -u))" "exit $rc"
elif command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups "$ctl" --version \
    >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$ctl" advise --rate 1g --rtt 150ms >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q 'values read live' "$T/out"
	report $? "works without root (uid 65534)" "exit $rc"
else
	skip "works without root" "cannot run $ctl as another user here"
fi

# ---- the listeners end with the test, not 60 s later

if has_python; then
	alive=0
	for p in ${pids[@]+"${pids[@]}"}; do
		kill "$p" 2>/dev/null && alive=$((alive + 1))
		wait "$p" 2>/dev/null
	done
	[ "${#pids[@]}" -eq 3 ] && [ "$alive" -ge 2 ]
	report $? "the three listeners are this test's to stop" \
	    "${#pids[@]} known, $alive running"
	pids=()
else
	skip "the three listeners are this test's to stop" \
	    "python3 is not installed"
fi

tap_end
