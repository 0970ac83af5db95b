#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until and trap
# System test: tcptunectl against servers that are not tcptuned
# (tests/system/fakeserver.py).  It never hangs: a full listen queue, a
# server that never answers and one that stalls mid-reply all end in exit 2
# within the deadline (TCPTUNECTL_TIMEOUT=1 here; the message is asserted,
# not the time).  It never lies: a server that is not root is refused
# before a word of it is believed.  And what a server sends is shown
# escaped, in text and in JSON.  Runs inside `unshare -n` as the others.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

FAKE=$top_srcdir/tests/system/fakeserver.py
[ -n "${top_srcdir:-}" ] || FAKE=$(cd "$(dirname "$0")" && pwd)/fakeserver.py
PYN=$(python_for_nobody) || bail "no python3 that uid 65534 may run"

kill_fakes() {
	local pid
	[ -s "$T/fakes" ] || return 0
	while read -r pid; do
		kill "$pid" 2>/dev/null
	done <"$T/fakes"
	: >"$T/fakes"
}
trap 'kill_fakes; tt_cleanup' EXIT

# fake SOCK MODE [nobody]: a fake server on SOCK, as root or uid 65534.
fake() {
	local ready=${1%/*}/ready
	rm -f "$1" "$ready"
	if [ "${3:-}" = nobody ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		    "$PYN" "$FAKE" "$1" "$2" "$ready" 2>>"$T/fake.log" &
	else
		python3 "$FAKE" "$1" "$2" "$ready" 2>>"$T/fake.log" &
	fi
	echo $! >>"$T/fakes"
	wait_until 5 test -s "$ready" || bail "fakeserver $2 did not start"
}

# run SOCK ARGS...: tcptunectl, stdout in $T/out, stderr in $T/err.  A
# hang is a failure (exit 124 from timeout), not a stalled suite; the
# bound is twice the wait limit, so tcptunectl's own deadline (the same
# limit in tests, lib.sh) always comes first.
run() {
	local sock=$1
	shift
	echo "tcptunectl -s $sock $*" >"$T/ctl.cmd"
	timeout "$(( $(tt_wait_seconds) * 2 ))" "$TCPTUNECTL" -s "$sock" "$@" >"$T/out" 2>"$T/err"
	CTL_RC=$?
	cat "$T/out" "$T/err" >"$T/ctl.out"
}

err_has() {
	grep -qF -- "$1" "$T/err"
}

# Every byte printable ASCII, tab or newline: no terminal control at all.
plain_ascii() {
	! LC_ALL=C grep -qP '[^\x09\x0a\x20-\x7e]' "$@"
}

mkdir -m 0755 "$T/fake" "$T/squat"
chmod 0755 "$T"
chown 65534:65534 "$T/squat"
S=$T/fake/tcptuned.sock

# ---- an impostor

fake "$T/squat/tcptuned.sock" restored nobody
run "$T/squat/tcptuned.sock" restore
[ "$CTL_RC" -eq 2 ] && err_has "refusing the server on $T/squat/tcptuned.sock: it runs as uid 65534, not as tcptuned (uid 0)" &&
    ! grep -q "originals restored" "$T/out" "$T/err"
report $? "restore against a uid-65534 impostor: refused, exit 2, its \"originals restored\" never shown" \
    "exit $CTL_RC"
run "$T/squat/tcptuned.sock" --json status
[ "$CTL_RC" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ]
report $? "status --json against the impostor: exit 2, one line on stderr, nothing on stdout" \
    "exit $CTL_RC"
kill_fakes

# The same lie from root is believed: the refusal above is the uid's.
fake "$S" restored
run "$S" restore
[ "$CTL_RC" -eq 0 ] && grep -qx "originals restored" "$T/out"
report $? "the same server as root: believed, exit 0" "exit $CTL_RC"
run "$S" --json resume
[ "$CTL_RC" -eq 0 ] && jq -e '.result == "ok" and .message == "originals restored" and .errors == []' "$T/out" >/dev/null
report $? "resume --json from it: the result document" "exit $CTL_RC"
kill_fakes

# ---- never hangs

export TCPTUNECTL_TIMEOUT=1
fake "$S" backlog
run "$S" status
[ "$CTL_RC" -eq 2 ] && err_has "$S: the listen queue stayed full for 1 s"
report $? "a listen queue that stays full: exit 2, said so ($(tr -d '\n' <"${S%/*}/ready" 2>/dev/null) connections fill it)" \
    "exit $CTL_RC"
kill_fakes

fake "$S" silent
run "$S" restore
[ "$CTL_RC" -eq 2 ] && err_has "no complete reply from tcptuned on $S within 1 s"
report $? "a server that accepts and never answers: exit 2, said so" "exit $CTL_RC"
kill_fakes

fake "$S" stall
run "$S" status
[ "$CTL_RC" -eq 2 ] && err_has "no complete reply from tcptuned on $S within 1 s" &&
    [ ! -s "$T/out" ]
report $? "a server that stalls mid-reply: exit 2, nothing printed" "exit $CTL_RC"
kill_fakes

for v in 0 abc 3601 -1 1.5; do
	TCPTUNECTL_TIMEOUT=$v run "$S" status
	[ "$CTL_RC" -eq 64 ] && err_has "TCPTUNECTL_TIMEOUT=\"$v\" is not a number of seconds from 1 to 3600"
	report $? "TCPTUNECTL_TIMEOUT=$v: a usage error, exit 64" "exit $CTL_RC"
done
unset TCPTUNECTL_TIMEOUT

run "$T/fake/none.sock" status
[ "$CTL_RC" -eq 2 ] && tr '\n' ' ' <"$T/err" | tr -s ' ' |
    grep -qF "no socket at $T/fake/none.sock: tcptuned is not running; "
report $? "no socket: exit 2, said so" "exit $CTL_RC"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/fake/stale.sock"
run "$T/fake/stale.sock" status
[ "$CTL_RC" -eq 2 ] && err_has "connection to $T/fake/stale.sock refused"
report $? "a stale socket nobody listens on: exit 2, refused" "exit $CTL_RC"
fake "$S" restored
chmod 0600 "$S"
echo "(uid 65534) tcptunectl -s $S status" >"$T/ctl.cmd"
setpriv --reuid=65534 --regid=65534 --clear-groups \
    timeout "$(( $(tt_wait_seconds) * 2 ))" "$TCPTUNECTL" -s "$S" status >"$T/out" 2>"$T/err"
CTL_RC=$?
[ "$CTL_RC" -eq 2 ] && err_has "$S: permission denied: this user may not use tcptuned's socket"
report $? "a socket this user may not write: exit 2, permission denied" "exit $CTL_RC"
kill_fakes
fake "$S" dgram
run "$S" status
[ "$CTL_RC" -eq 2 ] && err_has "cannot connect to tcptuned on $S: "
report $? "a datagram socket in its place: exit 2, the connect's error" "exit $CTL_RC"
kill_fakes
long=$T/fake/$(printf '%0120d' 0).sock
run "$long" status
[ "$CTL_RC" -eq 2 ] && err_has "socket path too long"
report $? "a socket path longer than sun_path: exit 2" "exit $CTL_RC"

# ---- what a server says is shown, not obeyed

fake "$S" hostile
run "$S" status
[ "$CTL_RC" -eq 0 ] && plain_ascii "$T/out" &&
    grep -qF 'net.evil\x1b[31m\x1b]0;owned\x07\u{009b}2J\u{202e}\x9b\xff' "$T/out" &&
    grep -qF 'backend sysctl-dir\x1b[31m' "$T/out" &&
    grep -qF 'note\x1b[31m' "$T/out"
report $? "status text: C0, C1 (UTF-8 and raw), bidi and invalid bytes from the server escaped" \
    "exit $CTL_RC" "$(od -c "$T/out" | head -20)"
run "$S" --json status
[ "$CTL_RC" -eq 0 ] && plain_ascii "$T/out" &&
    jq -e '.keys[0].name | startswith("net.evil\u001b[31m")' "$T/out" >/dev/null &&
    grep -qF '\u001b]0;owned\u0007\u009b2J\u202e\ufffd\ufffd' "$T/out"
report $? "status --json: valid JSON, every control \\u-escaped, invalid bytes U+FFFD" \
    "exit $CTL_RC" "$(head -c 600 "$T/out")"
kill_fakes

fake "$S" hostile-bad
run "$S" status
[ "$CTL_RC" -eq 4 ] && [ ! -s "$T/out" ] && plain_ascii "$T/err" &&
    err_has 'bad reply from tcptuned: key net.evil\x1b[31m\x1b]0;owned\x07\u{009b}2J\u{202e}\x9b\xff in unknown state 77'
report $? "a bad reply naming a hostile key: exit 4, the name escaped on stderr" \
    "exit $CTL_RC" "$(od -c "$T/err" | head)"
kill_fakes

# ---- sizes: the human size beside the bytes, in text only

fake "$S" sizes
run "$S" status
sed -n '/^KEY/,$p' "$T/out" >"$T/table"
cat >"$T/want" <<'EOF'
KEY                          STATE                            CHANGED
net.ipv4.tcp_rmem            in force                         -
    wanted    4096 131072 67108864 (4 KiB,  128 KiB, 64 MiB)
    current   4096  87380  6291456 (4 KiB, 85.3 KiB,  6 MiB)
    original  4096 131072  6291456 (4 KiB,  128 KiB,  6 MiB)
net.core.rmem_max            in force                         -
    wanted    67108864  (64 MiB)
    current   67108864  (64 MiB)
    original    212992 (208 KiB)
net.core.wmem_max            clamped to 2147483647 (2.0 GiB)  -
    wanted    4294967296   (4 GiB)
    current   2147483647 (2.0 GiB)
    original      212992 (208 KiB)
net.ipv4.tcp_mem             in force                         -
    wanted    188319 251092 376638
    current   188319 251092 376638
    original  -
net.ipv4.tcp_window_scaling  in force                         -
    wanted    1
    current   1
    original  1
net.example.rmem             pending                          -
    wanted    4096
    current   4096
    original  -
EOF
diff -u "$T/want" "$T/table" >"$T/diff"
report $? "status text: sizes (one vector, one clamped) with their human size; counts, switches, unknown keys bare" \
    "exit $CTL_RC" "$(cat "$T/diff")"
run "$S" status --short
cat >"$T/want" <<'EOF'
net.ipv4.tcp_rmem            in force  4096 87380 6291456 (4 KiB, 85.3 KiB, 6 MiB)
net.core.rmem_max            in force  67108864 (64 MiB)
net.core.wmem_max            clamped to 2147483647 (2.0 GiB)  2147483647 (2.0 GiB)
net.ipv4.tcp_mem             in force  188319 251092 376638
net.ipv4.tcp_window_scaling  in force  1
net.example.rmem             pending   4096
EOF
diff -u "$T/want" "$T/out" >"$T/diff"
report $? "status --short: the current value's human size when it is a size, aligned (the clamped state too wide to pad)" \
    "exit $CTL_RC" "$(cat "$T/diff")"
run "$S" --json status
[ "$CTL_RC" -eq 1 ] && ! grep -q 'KiB\|MiB\|GiB' "$T/out" &&
    jq -e '.keys[0].wanted == "4096 131072 67108864" and
	.keys[1].original == "212992"' "$T/out" >/dev/null
report $? "status --json: bare bytes, no human size" "exit $CTL_RC" \
    "$(head -c 600 "$T/out")"
kill_fakes

fake "$S" bad-request
run "$S" --json restore
[ "$CTL_RC" -eq 4 ] && [ ! -s "$T/out" ] &&
    err_has "tcptuned did not accept the restore request: what is this"
report $? "result \"bad request\": exit 4, nothing on stdout with --json" "exit $CTL_RC"
kill_fakes

tap_end
