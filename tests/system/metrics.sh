#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test, issue 40 item 8: with MetricsTextfileDirectory, tcptuned
# writes node_exporter's textfile itself, no timer needed: at start and
# on every change of state (here restore and resume), whole (no partial
# or temporary file left), in the format promtool accepts, with
# tcptune_textfile_timestamp_seconds so that a stale file shows; a
# directory that others may write is refused by the trust rule of
# tcptunectl status --textfile, said in the log, and nothing is written.
# Runs in `unshare -n` at CheckInterval 60: every wait is on the file or
# the log the daemon writes, never on a check's time.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
MD=$T/metrics
PROM=$MD/tcptune.prom
mkdir -m 0755 "$MD"

# config_with_metrics: our two keys, CheckInterval 60, the directory.
config_with_metrics() {
	plist -i 60 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" |
	    sed "s|^  <key>Sysctls</key>|  <key>MetricsTextfileDirectory</key><string>$MD</string>\n&|"
}
config_with_metrics | write_config "$CONF"

"$TCPTUNECTL" check -v --platform linux "$CONF" >"$T/check.out" 2>&1 &&
    grep -qxF "metrics: tcptuned writes $PROM" "$T/check.out"
report $? "check -v accepts the key and says where the file goes" \
    "$(cat "$T/check.out")"
sed "s|<string>$MD</string>|<string>metrics</string>|" "$CONF" >"$T/relative.conf"
! "$TCPTUNECTL" check --platform linux "$T/relative.conf" >"$T/check.out" 2>&1 &&
    grep -qE "^$T/relative.conf:[0-9]+: MetricsTextfileDirectory must be an absolute path" \
    "$T/check.out"
report $? "a relative directory: refused at its file:line" \
    "$(cat "$T/check.out")"

started=$(date +%s)
start_ready a
wait_until 3 test -s "$PROM"
report $? "tcptuned writes $PROM itself, without tcptunectl" \
    "$(ls -la "$MD")"
# has FILE LINE: FILE has LINE, whole.
has() {
	grep -qxF -- "$2" "$1"
}
wait_until 3 has "$PROM" \
    "tcptune_key_state{key=\"$RMEM\",state=\"in_force\"} 1"
report $? "the file shows the keys in force" "$(grep key_state "$PROM")"
stamp=$(sed -n 's/^tcptune_textfile_timestamp_seconds \([0-9]*\)$/\1/p' "$PROM")
[ -n "$stamp" ] && [ "$stamp" -ge "$started" ] &&
    grep -qx '# TYPE tcptune_textfile_timestamp_seconds gauge' "$PROM"
report $? "tcptune_textfile_timestamp_seconds: when the daemon wrote it" \
    "stamp '$stamp', test started $started"

if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$PROM" >"$T/promtool.out" 2>&1
	report $? "promtool check metrics accepts the file" \
	    "$(cat "$T/promtool.out")"
else
	# The text format's shape: comments or "name{labels} value".
	! grep -vE '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{.*\})? -?[0-9]+)$' \
	    "$PROM" >"$T/bad.lines"
	report $? "every line is a HELP, TYPE or sample line (no promtool)" \
	    "$(head -n 5 "$T/bad.lines")"
fi

ctl restore
wait_until 3 has "$PROM" "tcptune_paused 1"
report $? "restore: the file says paused, without a timer" \
    "$(grep paused "$PROM")"
ctl resume
wait_until 3 has "$PROM" "tcptune_paused 0"
report $? "resume: the file says so" "$(grep paused "$PROM")"
[ "$(ls -A "$MD")" = tcptune.prom ] && [ "$(stat -c %a "$PROM")" = 644 ]
report $? "only tcptune.prom, mode 0644: replaced whole, nothing left over" \
    "$(ls -la "$MD")"
daemon_stop a

# ---- the trust rule: a directory anyone may write is refused
rm -f "$PROM"
chmod 0777 "$MD"
start_ready b
wait_until 3 log_has b "cannot write the metrics file $PROM"
report $? "a world-writable directory: refused, and the log says so" \
    "$(grep -i metrics "$T/d.b.log")"
[ ! -e "$PROM" ] && [ -z "$(ls -A "$MD")" ]
report $? "... and nothing is written there" "$(ls -la "$MD")"
daemon_stop b

tap_end
