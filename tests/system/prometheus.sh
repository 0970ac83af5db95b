#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: tcptunectl status --prometheus and --textfile DIR against a
# real daemon: the output passes `promtool check metrics`, shows each key's
# state (in force, drifted, refused), corrections, the last check and
# tcptune_up; the backend's word and its tree as two labels; label values with quotes, backslashes, a newline and bytes
# that are not UTF-8 are escaped; the text file is replaced whole; with no
# daemon, tcptune_up 0 is still printed and written; the two exit 0
# whenever the metrics were written, whatever the keys' state (status
# itself exits 1 when a key is not in force), 1 when the file cannot be
# written, 2 with no daemon (issue 45).  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
GONE=net.ipv4.tcp_tcptune_no_such_key

# promtool_ok FILE: promtool accepts FILE's metrics (lint included).
promtool_ok() {
	promtool check metrics <"$1" >"$T/promtool.out" 2>&1
}

HAVE_PROMTOOL=
if command -v promtool >/dev/null 2>&1; then
	HAVE_PROMTOOL=1
fi

# valid FILE DESC: promtool's verdict, or a skip saying why there is none.
valid() {
	if [ -z "$HAVE_PROMTOOL" ]; then
		skip "$2" "promtool not installed (Debian package prometheus, scripts/deps.sh test)"
		return 0
	fi
	promtool_ok "$1"
	report $? "$2" "$(cat "$T/promtool.out")" "$(head -40 "$1")"
}

# prom: status --prometheus into $T/m.prom, exit in CTL_RC.
prom() {
	"$TCPTUNECTL" -s "$SOCK" status --prometheus >"$T/m.prom" 2>"$T/m.err"
	CTL_RC=$?
	cp "$T/m.prom" "$T/ctl.out"
}

# has LINE: the last metrics hold exactly this line.
has() {
	grep -qxF -- "$1" "$T/m.prom"
}

# sample NAME{LABELS}: its value in the last metrics, "" when absent.
sample() {
	awk -v m="$1" 'index($0, m " ") == 1 { print $NF }' "$T/m.prom"
}

state_is() {
	prom && has "tcptune_key_state{key=\"$1\",state=\"$2\"} 1"
}

corrections_at_least() {
	prom
	local n
	n=$(sample "tcptune_key_corrections_total{key=\"$1\"}")
	[ -n "$n" ] && [ "$n" -ge "$2" ]
}

# An awkward directory name: a quote, a backslash, a newline, a byte
# that is not UTF-8.  The config path becomes a label value.
ODD="$T/q\"b\\s"$'\n'"n"$'\xff'
mkdir "$ODD"
ODDCONF="$ODD/tcptune.conf"
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$GONE=1" | write_config "$ODDCONF"

start_ready main -f "$ODDCONF" -s "$SOCK" -S "$STATE"
wait_until 3 state_is $RMEM in_force
report $? "--prometheus: $RMEM in_force" "$(cat "$T/m.prom")"
check_eq "--prometheus with a key refused: exit 0, the metrics carry it" 0 "$CTL_RC"
valid "$T/m.prom" "promtool check metrics accepts the output"
has "tcptune_up 1"
report $? "tcptune_up 1 with the daemon running"
wait_until 3 state_is $GONE refused
report $? "a sysctl that does not exist: state refused 1"
has "tcptune_key_state{key=\"$GONE\",state=\"in_force\"} 0"
report $? "... and in_force 0"
n=$(grep -c '^tcptune_key_state{' "$T/m.prom")
check_eq "one tcptune_key_state sample per key and state (3 keys x 7)" 21 "$n"

# The label holds the path escaped: \" and \\ and \n, U+FFFD for \xff.
want_label=$(printf '%s' "$T/q\\\"b\\\\s\\nn"$'\xef\xbf\xbd'"/tcptune.conf")
grep -qF "config=\"$want_label\"" "$T/m.prom"
report $? "label values escaped: quote, backslash, newline, invalid UTF-8" \
    "want config=\"$want_label\"" "$(grep '^tcptune_info' "$T/m.prom")"
grep -qF "tcptune_key_source{key=\"$RMEM\",file=\"$want_label\"} 1" "$T/m.prom"
report $? "tcptune_key_source names the file, escaped the same way"

# The backend: a label value is matched on, so its word, as status
# --json's, and the live tree it works on in a label of its own, not
# status's "sysctl-dir (/proc/sys)" (tcptunectl(8)).
grep -q '^tcptune_info{version="[^"]*",backend="sysctl-dir",sysctl_root="/proc/sys",config=' "$T/m.prom"
report $? "tcptune_info: backend=\"sysctl-dir\", sysctl_root=\"/proc/sys\"" \
    "$(grep '^tcptune_info' "$T/m.prom")"

checked() {
	prom
	c=$(sample tcptune_checks_total)
	[ -n "$c" ] && [ "$c" -ge 1 ]
}
wait_until 4 checked
l=$(sample tcptune_last_check_timestamp_seconds)
now=$(date +%s)
[ -n "$c" ] && [ "$c" -ge 1 ] && [ -n "$l" ] && [ "$l" -le "$now" ] &&
    [ "$l" -ge $((now - 30)) ]
report $? "checks_total ($c) and last_check_timestamp_seconds ($l, now $now)"

# ---- corrections and drift

sysctl_put $RMEM "$R0"
wait_until 4 corrections_at_least $RMEM 1
report $? "a reverted drift counts in tcptune_key_corrections_total" \
    "$(grep corrections "$T/m.prom")"
valid "$T/m.prom" "promtool accepts the output after a correction"

# With CheckInterval 60 a drift stays until the next check: drifted.
plist -i 60 "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" | write_config "$ODDCONF"
ctl reload
check_eq "reload to CheckInterval 60: exit 0" 0 "$CTL_RC"
sysctl_put $WMEM "$W0"
wait_until 3 state_is $WMEM drifted
report $? "an outside change not yet corrected: state drifted 1" \
    "$(grep "key=\"$WMEM\"" "$T/m.prom")"
has "tcptune_check_interval_seconds 60"
report $? "tcptune_check_interval_seconds follows the config"

# ---- --textfile DIR

TF=$T/textfile
mkdir "$TF"
"$TCPTUNECTL" -s "$SOCK" status --textfile "$TF" >"$T/tf.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ -f "$TF/tcptune.prom" ] && [ ! -s "$T/tf.out" ]
report $? "--textfile, a key drifted: DIR/tcptune.prom written, nothing on stdout, exit 0 (exit $rc)" \
    "$(cat "$T/tf.out")"
check_eq "--textfile: mode 0644 (node_exporter is not root)" 644 \
    "$(stat -c %a "$TF/tcptune.prom")"
check_eq "--textfile: no temporary file left" tcptune.prom "$(ls -A "$TF")"
valid "$TF/tcptune.prom" "promtool accepts the text file"
cp "$TF/tcptune.prom" "$T/m.prom"
has "tcptune_up 1"
report $? "the text file has tcptune_up 1"
ino=$(stat -c %i "$TF/tcptune.prom")
"$TCPTUNECTL" -s "$SOCK" status --textfile "$TF" >/dev/null 2>&1
[ "$(stat -c %i "$TF/tcptune.prom")" != "$ino" ]
report $? "--textfile again: replaced by a rename (a new inode), not rewritten in place"

"$TCPTUNECTL" -s "$SOCK" status --textfile "$T/no-such-dir" >"$T/tf.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "$T/no-such-dir" "$T/tf.out" && [ ! -e "$T/no-such-dir" ]
report $? "--textfile into a missing directory: exit 1 with the reason" \
    "exit $rc: $(cat "$T/tf.out")"

"$TCPTUNECTL" -s "$SOCK" status --json --prometheus >"$T/tf.out" 2>&1
check_eq "--json with --prometheus: usage error (64)" 64 "$?"

# ---- the exit, state by state: status tells the keys' state by it;
# --prometheus and --textfile exit 0 once the metrics are written (they
# carry the state), so a timer running the job does not fail every minute
# wherever a key is refused, as in a container (issue 45)

# exits STATUS METRICS STATE: status exits STATUS, --prometheus and
# --textfile DIR exit METRICS.
exits() {
	local text prom tf
	"$TCPTUNECTL" -s "$SOCK" status >/dev/null 2>&1
	text=$?
	"$TCPTUNECTL" -s "$SOCK" status --prometheus >/dev/null 2>&1
	prom=$?
	"$TCPTUNECTL" -s "$SOCK" status --textfile "$TF" >/dev/null 2>&1
	tf=$?
	[ "$text" -eq "$1" ] && [ "$prom" -eq "$2" ] && [ "$tf" -eq "$2" ]
	report $? "$3: status exits $1, --prometheus and --textfile $2" \
	    "status $text, --prometheus $prom, --textfile $tf"
}
exits 1 0 "a key drifted"
plist -i 60 "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$GONE=1" | write_config "$ODDCONF"
ctl reload
wait_until 3 state_is $GONE refused
exits 1 0 "a key refused"
"$TCPTUNECTL" -s "$SOCK" status --textfile "$T/no-such-dir" >"$T/tf.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "$T/no-such-dir" "$T/tf.out"
report $? "a key refused, --textfile into a missing directory: exit 1, the write failed" \
    "exit $rc: $(cat "$T/tf.out")"
plist -i 60 "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" | write_config "$ODDCONF"
ctl reload
wait_until 3 all_in_force
exits 0 0 "every key in force"
"$TCPTUNECTL" -s "$SOCK" status --textfile "$T/no-such-dir" >"$T/tf.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "$T/no-such-dir" "$T/tf.out"
report $? "every key in force, --textfile into a missing directory: exit 1" \
    "exit $rc: $(cat "$T/tf.out")"
ctl restore
exits 1 0 "enforcement paused"

# ---- no daemon

daemon_stop main
exits 2 2 "no daemon"
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"
prom
[ "$CTL_RC" -eq 2 ] && has "tcptune_up 0" && [ "$(grep -vc '^#' "$T/m.prom")" -eq 1 ]
report $? "no daemon: --prometheus prints only tcptune_up 0, exit 2 (got $CTL_RC)" \
    "$(cat "$T/m.prom" "$T/m.err")"
valid "$T/m.prom" "promtool accepts tcptune_up 0 alone"
"$TCPTUNECTL" -s "$SOCK" status --textfile "$TF" >/dev/null 2>&1
rc=$?
grep -qxF "tcptune_up 0" "$TF/tcptune.prom" && [ "$rc" -eq 2 ] &&
    ! grep -q tcptune_key "$TF/tcptune.prom"
report $? "no daemon: --textfile replaces the file with tcptune_up 0 (exit $rc)"

tap_end
