#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the managed preferences file (tcptuned -m), as an MDM
# profile leaves it in "/Library/Managed Preferences": its directory made
# after the daemon started, its keys winning over the config's key by key,
# each key's source in status and status --json, a bad managed file keeping
# the running configuration, the owner check, and its removal giving the
# config's values back; tcptunectl check -m finding what tcptuned -n -m
# finds.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 4

MDIR="$T/Managed Preferences"
MANAGED="$MDIR/org.tcptune.tcptuned.plist"

source_is() {
	status_json && [ "$(key_field "$1" source)" = "$2" ]
}

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" | write_config "$CONF"

# ---- tcptuned -n checks both files, and tcptunectl check -m agrees

# check_agrees WHAT: tcptunectl check -m says what tcptuned -n -m said
# ($T/n.out, exit $rc): both read the layers through config_model.c.
check_agrees() {
	"$TCPTUNECTL" check -m "$MANAGED" "$CONF" >"$T/check.out" 2>&1
	crc=$?
	[ "$crc" -eq "$rc" ] && diff -u "$T/n.out" "$T/check.out" >"$T/diff"
	report $? "tcptunectl check -m agrees with tcptuned -n -m: $1 (exit $crc)" \
	    "$(cat "$T/diff" "$T/check.out")"
}

mkdir "$MDIR"
plist "$RMEM=${RV[1]}@sometimes" | write_config "$MANAGED"
"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$CONF" -m "$MANAGED" >"$T/n.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "$MANAGED:" "$T/n.out"
report $? "tcptuned -n -m: a bad managed file is an error, named file:line (exit $rc)" \
    "$(cat "$T/n.out")"
check_agrees "a bad managed file"
plist "$RMEM=${RV[1]}" "$CC=$CA" | write_config "$MANAGED"
"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$CONF" -m "$MANAGED" >"$T/n.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -qF "managed preferences: $MANAGED" "$T/n.out"
report $? "tcptuned -n -m: both good, the managed file is named (exit $rc)" \
    "$(cat "$T/n.out")"
check_agrees "both good, a key the config lacks added"
"$TCPTUNECTL" check "$CONF" >"$T/check.out" 2>&1
! grep -qF "$MANAGED" "$T/check.out"
report $? "tcptunectl check FILE without -m: FILE alone" "$(cat "$T/check.out")"
rm -rf "$MDIR"

# ---- the directory and the file come after the daemon

# The daemon runs the real helper through one that writes down its
# arguments, one run a line, and crashes on the managed file when
# $HDIR/mode says so.  The daemon gives it an empty environment.
HDIR=$T/helper
mkdir -m 0755 "$HDIR"
cat >"$HDIR/tcptune-parse" <<EOF2
#!/bin/sh
echo "\$#:\$*" >>"$HDIR/runs"
read -r mode <"$HDIR/mode"
[ "\$mode" = crash-managed ] && [ "\$1" = "$MANAGED" ] && kill -SEGV \$\$
exec "$PARSE_HELPER" "\$@"
EOF2
chmod 0755 "$HDIR/tcptune-parse"
echo real >"$HDIR/mode"
start_ready main -P "$HDIR/tcptune-parse" -f "$CONF" -m "$MANAGED" \
    -s "$SOCK" -S "$STATE"
wait_until 3 all_in_force && sysctl_is $RMEM "${RV[0]}" &&
    source_is $RMEM "$CONF"
report $? "no managed file: the config's values, source $CONF" \
    "rmem '$(sysctl_get $RMEM)', source '$(key_field $RMEM source)'"
check_eq "no managed file: daemon.managed_path is null" null \
    "$(json_get .daemon.managed_path)"

mkdir "$MDIR"
plist "$RMEM=${RV[1]}" "$CC=$CA" | replace_config "$MANAGED"
wait_until 6 sysctl_is $RMEM "${RV[1]}"
report $? "a managed file in a directory made after start is read without a signal" \
    "rmem '$(sysctl_get $RMEM)'"
wait_until 3 all_in_force
report $? "managed keys in force"
check_eq "managed key: its source is the managed file" "$MANAGED" \
    "$(key_field $RMEM source)"
check_eq "a managed key the config lacks is added, from the managed file" \
    "$MANAGED" "$(key_field $CC source)"
check_eq "a config key the managed file does not name keeps its source" \
    "$CONF" "$(key_field $WMEM source)"
sysctl_is $WMEM "${WV[0]}"
report $? "the config's other key stays in force" "wmem '$(sysctl_get $WMEM)'"
check_eq "daemon.managed_path names the managed file" "$MANAGED" \
    "$(json_get .daemon.managed_path)"
ctl status
grep -qF "from $MANAGED" "$T/ctl.out" && grep -qF "managed" "$T/ctl.out" &&
    [ "$(count_in "$T/ctl.out" "from $MANAGED")" -eq 2 ]
report $? "status (text): the managed file named, and 'from' it under its two keys"

# A helper parses one file: the config's, then the managed file's, each
# by a run of its own; tcptuned lays them over each other.
: >"$HDIR/runs"
ctl reload
[ "$CTL_RC" -eq 0 ] &&
    [ "$(cat "$HDIR/runs")" = "$(printf '1:%s\n1:%s' "$CONF" "$MANAGED")" ]
report $? "reload: a helper for the config, one for the managed file, one name each" \
    "$(cat "$HDIR/runs" "$T/ctl.out")"
echo crash-managed >"$HDIR/mode"
ctl reload
[ "$CTL_RC" -eq 1 ] &&
    output_has "$MANAGED: the parse helper $HDIR/tcptune-parse failed: it was killed by signal 11" &&
    output_has "keeping the running configuration" && sysctl_is $RMEM "${RV[1]}"
report $? "the managed file's helper crashes: the reload fails naming that file, the running config kept" \
    "$(cat "$T/ctl.out")"
echo real >"$HDIR/mode"

# Drift of a managed key is corrected to the managed value.
sysctl_put $RMEM "${RV[0]}"
wait_until 3 sysctl_is $RMEM "${RV[1]}"
report $? "drift of a managed key goes back to the managed value" \
    "rmem '$(sysctl_get $RMEM)'"

# ---- a bad managed file keeps the running configuration

n0=$(count_in "$T/d.main.log" "$MANAGED:")
plist "$RMEM=${RV[2]}@sometimes" | replace_config "$MANAGED"
bad_logged() { [ "$(count_in "$T/d.main.log" "$MANAGED:")" -gt "$n0" ]; }
wait_until 4 bad_logged
report $? "a bad managed file: its errors are logged as file:line"
status_json
[ "$(json_get .daemon.last_reload_ok)" = false ] && sysctl_is $RMEM "${RV[1]}" &&
    [ "$(key_field $RMEM source)" = "$MANAGED" ]
report $? "a bad managed file: the running configuration stays (last_reload_ok false)" \
    "$(jq -c .daemon "$T/status.json")"
ctl reload
check_eq "tcptunectl reload with a bad managed file: exit 1" 1 "$CTL_RC"
output_has "$MANAGED:"
report $? "tcptunectl reload: the managed file's errors shown"

# Group-writable: refused like a group-writable config.
plist "$RMEM=${RV[2]}" | replace_config "$MANAGED"
chmod 0664 "$MANAGED"
ctl reload
[ "$CTL_RC" -eq 1 ] && output_has "$MANAGED: must be owned by root" &&
    sysctl_is $RMEM "${RV[1]}"
report $? "a group-writable managed file is refused (exit $CTL_RC)"
chmod 0644 "$MANAGED"
ctl reload
[ "$CTL_RC" -eq 0 ] && sysctl_is $RMEM "${RV[2]}"
report $? "fixed: reload applies the managed value (exit $CTL_RC)" \
    "rmem '$(sysctl_get $RMEM)'"

# ---- a binary plist, as macOS writes managed preferences

binary_managed() {
	local tmp="$MDIR/.bin.$$"
	plist "$@" | python3 -c '
import plistlib, sys
plistlib.dump(plistlib.loads(sys.stdin.buffer.read()), open(sys.argv[1], "wb"),
              fmt=plistlib.FMT_BINARY)' "$tmp" || bail "cannot write a binary plist"
	chmod 0644 "$tmp" && mv -f "$tmp" "$MANAGED"
}
binary_managed "$RMEM=${RV[3]}"
head -c 8 "$MANAGED" | grep -q '^bplist00$'
report $? "the managed file is now a binary plist (bplist00)"
wait_until 4 sysctl_is $RMEM "${RV[3]}"
report $? "a binary managed file is read and applied" "rmem '$(sysctl_get $RMEM)'"
n0=$(count_in "$T/d.main.log" "$MANAGED:")
binary_managed "$RMEM=${RV[2]}@sometimes"
wait_until 4 bad_logged
report $? "a bad binary managed file: its errors are logged, file:line"
sysctl_is $RMEM "${RV[3]}"
report $? "a bad binary managed file keeps the running configuration"

# ---- the managed file's CheckInterval wins; the config's key is back
# when the managed file goes

plist -i 1 "$WMEM=${WV[3]}" | replace_config "$MANAGED"
wait_until 4 sysctl_is $WMEM "${WV[3]}" && sysctl_is $RMEM "${RV[0]}"
report $? "managed file changed: its new key wins, the dropped one is the config's again" \
    "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)'"
wait_until 3 source_is $RMEM "$CONF"
report $? "the key it no longer names comes from the config again"
wait_until 3 sysctl_is $CC "$C0"
report $? "the key only it named gets its original back" "cc '$(sysctl_get $CC)'"

rm -f "$MANAGED"
wait_until 4 sysctl_is $WMEM "${WV[0]}"
report $? "managed file removed: the config's value is back" \
    "wmem '$(sysctl_get $WMEM)'"
wait_until 3 source_is $WMEM "$CONF" &&
    [ "$(json_get .daemon.managed_path)" = null ]
report $? "managed file removed: sources are the config, managed_path null"

# The directory removed and made again at once (a profile replaced): the
# old watch sees nothing there, the next check watches the new one.
rm -rf "$MDIR"
mkdir "$MDIR"
plist "$WMEM=${WV[2]}" | write_config "$MANAGED"
wait_until 6 sysctl_is $WMEM "${WV[2]}"
report $? "the directory replaced at once: the new managed file is read" \
    "wmem '$(sysctl_get $WMEM)'"
# Removed, a check without it, then back.
rm -rf "$MDIR"
wait_until 4 sysctl_is $WMEM "${WV[0]}"
report $? "the directory removed: the config's value is back"
wait_checks 1
mkdir "$MDIR"
plist "$WMEM=${WV[3]}" | write_config "$MANAGED"
wait_until 6 sysctl_is $WMEM "${WV[3]}"
report $? "the directory made again: the managed file is read" \
    "wmem '$(sysctl_get $WMEM)'"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"
tap_end
