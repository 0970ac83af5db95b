#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: no non-root user can make the daemon's log grow faster than
# a fixed rate (docs/SECURITY.md, "The log"; daemon/control.c).
#   flood    uid 65534 sends 2000 denied requests (reload, restore, resume,
#            lease), 200 malformed messages, 50 of another protocol
#            version, and 40 connections (8 over its limit): the log
#            grows by a bounded number of lines, not one per request;
#   others   another uid's line is not silenced by that flood, nor root's
#            (root's lines are never limited: 50 malformed messages give
#            50 lines);
#   counts   nothing is lost: once the uid may log again the daemon writes
#            how many lines it left out, and lines plus counts add up to
#            every refusal.
# The daemon runs with -d, so the malformed messages' debug lines count
# too.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"
PYN=$(python_for_nobody) || {
	echo "1..0 # SKIP no python3 that uid 65534 may run"
	exit 0
}
RAWDIR=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/system

chmod 0755 "$T" "$T/etc"
use_keys 1
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"

# The attacker: rawclient.py's wire format, driven as this test needs.
# flood.py SOCK DENIED GARBAGE VERSIONS HOLD: prints what it did.
cat >"$T/flood.py" <<'EOF'
import socket, struct, sys
sys.path.insert(0, sys.argv[1])
import rawclient as rc

path = sys.argv[2]
denied, garbage, versions, hold = map(int, sys.argv[3:7])
LEASE = 5
change = bytes(rc.CHANGE_SIZE)  # struct msg_change, no command said
requests = [(rc.RELOAD, change), (rc.RESTORE, change), (rc.RESUME, change),
            (LEASE, struct.pack("=II", 60, 0))]
s = rc.conn(path)
ok = 0
for i in range(denied):
    t, body = requests[i % len(requests)]
    s.sendall(rc.hdr(t, len(body), seq=i) + body)
    if rc.result_code(rc.read_reply(s)) == rc.RESULT_DENIED:
        ok += 1
s.close()
# each kind is one connection the daemon drops, with one line (debug)
bad = [rc.hdr(rc.STATUS, rc.MAX_PAYLOAD + 1), rc.hdr(999),
       rc.hdr(rc.STATUS, 4) + b"junk", rc.hdr(rc.STATUS, flags=1)]
dropped = 0
for i in range(garbage):
    g = rc.conn(path)
    g.sendall(bad[i % len(bad)])
    if rc.read_all(g) is not None:
        dropped += 1
    g.close()
answered = 0
for i in range(versions):
    g = rc.conn(path)
    g.sendall(rc.hdr(rc.STATUS, version=rc.VERSION + 1))
    if rc.read_all(g):
        answered += 1
    g.close()
held = [rc.conn(path) for _ in range(hold)]
for h in held:          # a status each: a refused one is closed at once
    try:
        h.sendall(rc.hdr(rc.STATUS))
    except OSError:
        pass
def served_one(h):
    try:
        return rc.read_reply(h) is not None
    except OSError:     # closed with the request unread: a reset
        return False
served = sum(1 for h in held if served_one(h))
for h in held:
    h.close()
print("denied=%d dropped=%d version_answered=%d held=%d served=%d"
      % (ok, dropped, answered, hold, served))
EOF

as_uid() {
	local uid=$1
	shift
	setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"
}

flood() {
	as_uid "$1" "$PYN" "$T/flood.py" "$RAWDIR" "$SOCK" "$2" "$3" "$4" "$5"
}

lines() {
	wc -l <"$T/d.main.log"
}

start_ready main
wait_until 3 all_in_force || bail "no daemon to flood"

# ---- flood

before=$(lines)
t0=$(now_ms)
flood 65534 2000 200 50 40 >"$T/flood.out" 2>&1
rc=$?
t1=$(now_ms)
after=$(lines)
diag "uid 65534: $(cat "$T/flood.out")"
grep -q "denied=2000 dropped=200 version_answered=50 held=40 served=32" "$T/flood.out"
report $? "uid 65534 sent 2000 denied requests, 200 malformed, 50 of another version, 40 connections (32 served)" \
    "exit $rc: $(cat "$T/flood.out")"
added=$((after - before))
ms=$((t1 - t0 > 0 ? t1 - t0 : 1))
# one line per 10 s for the uid, one more for the interval a count may
# close; the bound grows with the flood's own length, never a deadline
bound=$((2 + ms / 10000))
[ "$added" -le "$bound" ] && [ "$added" -ge 1 ]
report $? "the flood of 2290 messages added $added log lines in $ms ms (at most $bound: one per uid per 10 s)" \
    "$(sed -n "$((before + 1)),\$p" "$T/d.main.log" | head -n 20)"
diag "log lines per second under the flood: $(awk -v n="$added" -v ms="$ms" 'BEGIN { printf "%.1f", n * 1000 / ms }') ($added lines in $ms ms)"
log_has main "uid 65534 asked for reload: denied"
report $? "the first denial is logged, with the uid"

# ---- others: another uid, and root

before=$(lines)
flood 65533 1 0 0 0 >/dev/null 2>&1
log_has main "uid 65533 asked for reload: denied"
report $? "another uid's denial is logged at once: one user's flood does not silence another"
ctl restore
rc=$CTL_RC
ctl resume
wait_until 3 all_in_force
flood 0 0 50 0 0 >"$T/root.out" 2>&1
rootlines=$(count_in "$T/d.main.log" "control: uid 0: ")
[ "$rc" -eq 0 ] && [ "$rootlines" -eq 50 ] && log_has main "originals restored"
report $? "root is not limited: its restore is logged, and 50 malformed messages give $rootlines lines" \
    "restore exit $rc; $(sed -n "$((before + 1)),\$p" "$T/d.main.log" | head -n 8)"

# ---- counts: nothing lost

# once uid 65534 may log again (10 s after its line) the idle sweep writes
# its count; the bound only stops a daemon that never does
wait_until 60 log_has main "more from uid 65534"
report $? "once the interval is over the daemon logs how many lines uid 65534 caused and were left out" \
    "$(grep -F "uid 65534" "$T/d.main.log" | tail -n 3)"
# every line about uid 65534, plus every count, is one refusal each:
# 2000 denials, 200 malformed messages, 8 connections over its limit
total=$(grep -F "uid 65534" "$T/d.main.log" | awk '
	/ more from uid 65534/ {
		n = $0
		sub(/ more from uid 65534.*/, "", n)
		sub(/.*[^0-9]/, "", n)
		sum += n
		if ($0 ~ /^control: [0-9]+ more from/)
			next
	}
	{ sum++ }
	END { print sum + 0 }')
check_eq "lines and counts about uid 65534 add up to its 2208 refusals" 2208 "$total"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

tap_end
