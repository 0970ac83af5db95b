#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: a running tcptuned is handed every hostile config of the
# corpus (tests/config/bad/*.conf and the cases tests/config/hostile.sh
# generates: too big, device, FIFO, NUL, foreign owner, loose modes, loose
# directory, ...) by `tcptunectl reload`, and a few by the file watch and
# by SIGHUP.  Each reload must exit 1 and print exactly the errors
# `tcptunectl check` / `tcptuned -n` print (tests/config/golden.sh), and the
# daemon must stay up with its running config: the same keys and values in
# status, all in force, the sysctls unchanged.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
CFG=$top_srcdir/tests/config
# shellcheck source=/dev/null # tests/config/hostile.sh
. "$CFG/hostile.sh"

use_keys 1

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
cp "$CONF" "$T/good.conf"
start_ready main
wait_until 3 tuned
report $? "the good config is applied" "$(values)"

# What must not change: each key's name, mode, wanted and applied values.
keys_now() {
	status_json && jq -c '[.keys[] | {name, mode, on_reject, wanted, applied}]' \
	    "$T/status.json"
}
KEYS=$(keys_now)
[ "$(jq length <<<"$KEYS")" = 3 ]
report $? "status shows the three keys" "$KEYS"

# kept: the daemon is up and its running config unchanged and in force.
kept() {
	daemon_alive main || { echo "the daemon died"; return 1; }
	tuned || { echo "sysctls changed: $(values)"; return 1; }
	[ "$(keys_now)" = "$KEYS" ] || { echo "keys now $(keys_now)"; return 1; }
	[ "$(json_get .all_in_force)" = true ] ||
	    { echo "not all in force: $(jq -c . "$T/status.json")"; return 1; }
	[ "$(json_get .daemon.last_reload_ok)" = false ] ||
	    { echo "last_reload_ok is not false"; return 1; }
}

# reload_rejects NAME EXPECTED: `tcptunectl reload` exits 1 and prints the
# lines of EXPECTED, then the daemon's summary: one message, which
# tcptunectl wraps at 80 columns (continuation lines indented), joined
# back onto one line here.
reload_rejects() {
	local n summary
	ctl reload
	n=$(wc -l <"$2")
	summary="$CONF has $n error$([ "$n" -eq 1 ] || echo s): keeping the running configuration"
	{ cat "$2"; echo "$summary"; } >"$T/want"
	awk 'NR > 1 && /^ +/ { sub(/^ +/, " "); printf "%s", $0; next }
	    { if (NR > 1) print ""; printf "%s", $0 } END { if (NR) print "" }' \
	    "$T/ctl.out" >"$T/ctl.joined"
	diff -u "$T/want" "$T/ctl.joined" >"$T/diff" && [ "$CTL_RC" -eq 1 ]
}

# one NAME EXPECTED: reload, then check everything is kept.
one() {
	local why
	if ! reload_rejects "$1" "$2"; then
		not_ok "$1: reload exits 1 with its errors (exit $CTL_RC)"
		diag_file "diff" "$T/diff" 40
		return 0
	fi
	if why=$(kept); then
		ok "$1: rejected with its file:line errors, running config kept"
	else
		not_ok "$1: rejected, but the running config was not kept"
		diag "$why"
	fi
}

# bad_expected NAME: what the daemon says of bad/NAME.conf: check's
# words (bad/NAME.err), or bad/NAME.reload where they differ: check also
# lists its warnings, and the catalogue's errors beside the file's own,
# which the daemon (its parse helper) gives only for a file that parses.
bad_expected() {
	local want=$CFG/bad/$1.err
	[ -f "$CFG/bad/$1.reload" ] && want=$CFG/bad/$1.reload
	sed "s|^$1\\.conf:|$CONF:|" "$want"
}

t0=$(now_ms)
for f in "$CFG"/bad/*.conf; do
	b=$(basename "$f" .conf)
	write_config "$CONF" <"$f"
	bad_expected "$b" >"$T/expected"
	one "bad/$b" "$T/expected"
done
# shellcheck disable=SC2086 # the lists split into words
for c in $HOSTILE_CASES $HOSTILE_ROOT_CASES; do
	hostile_make "$c" "$CONF" || bail "cannot make case $c"
	hostile_expected "$c" "$CONF" >"$T/expected"
	one "generated/$c" "$T/expected"
	hostile_undo "$c" "$CONF"
done
diag "$(( $(now_ms) - t0 )) ms for every case by tcptunectl reload"

# ---- the file watch and SIGHUP: the errors are logged, nothing changes

# logged_more N LINE: the daemon log holds LINE more than N times.
logged_more() {
	[ "$(count_in "$T/d.main.log" "$2")" -gt "$1" ]
}

# mark: how often the case's first expected error is in the log now.
# Taken before the change that makes the daemon read the case: taken
# after, a daemon quicker than this script (the test on a busy machine)
# has already logged it, and the line waited for never comes.
mark() {
	N0=$(count_in "$T/d.main.log" "$(head -n 1 "$T/expected")")
}

# by_event HOW NAME: after HOW (watch or hup) made the daemon read the
# case already in $CONF, its first expected error is logged once more
# than at the last mark, and everything is kept.
by_event() {
	local first why
	first=$(head -n 1 "$T/expected")
	[ "$1" = hup ] && kill -HUP "$(daemon_pid main)"
	if ! wait_until 5 logged_more "$N0" "$first"; then
		not_ok "$2 by $1: the error is logged" \
		    "expected a new log line: $first"
		return 0
	fi
	if why=$(kept); then
		ok "$2 by $1: the error is logged, running config kept"
	else
		not_ok "$2 by $1: logged, but the running config was not kept"
		diag "$why"
	fi
}

# Cases in a row differ, so that none is taken for the one before it.
for b in entity-passwd names-traversal dtd-url; do
	bad_expected "$b" >"$T/expected"
	mark
	replace_config "$CONF" <"$CFG/bad/$b.conf"
	by_event watch "bad/$b"
done
for c in nul-in-name symlink-dev-zero big-10mib; do
	# Made beside it, then renamed over it, as an editor would.
	hostile_make "$c" "$T/etc/new.conf"
	hostile_expected "$c" "$CONF" >"$T/expected"
	mark
	mv -f "$T/etc/new.conf" "$CONF"
	by_event watch "generated/$c"
done
sed "s|^xinclude\\.conf:|$CONF:|" "$CFG/bad/xinclude.err" >"$T/expected"
# The watch reads the new file too: wait for that first, so the line
# counted next is the one the HUP brings.
mark
write_config "$CONF" <"$CFG/bad/xinclude.conf"
wait_until 5 logged_more "$N0" "$(head -n 1 "$T/expected")"
mark
by_event hup "bad/xinclude"

# ---- and the good config is still taken afterwards

write_config "$CONF" <"$T/good.conf"
ctl reload
[ "$CTL_RC" -eq 0 ] && tuned && [ "$(keys_now)" = "$KEYS" ] &&
    [ "$(json_get .daemon.last_reload_ok)" = true ]
report $? "the good config again: reload exits 0 ($CTL_RC), same keys in force" \
    "$(values)"
sysctl_put "$RMEM" "$R0"
wait_until 3 sysctl_is "$RMEM" "${RV[0]}"
report $? "still enforcing: an outside write is reverted" "$(values)"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

tap_end
