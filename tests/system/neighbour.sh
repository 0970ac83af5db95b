#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the shipped Linux config beside tuning a machine already
# has.  An administrator's sysctl.d file set tcp_rmem's ceiling to
# 128 MiB and tcp_wmem's default higher than stock before tcptune came:
# the shipped config (Mode at-least) keeps both, raising only what is
# below.  A config of Mode enforce that does lower a value says so, in
# the log and in status, with the value it replaced, and status names
# the sysctl.d file the admin's value came from (lib/other_sources.c,
# read under TT_SOURCES_ROOT, a tree laid out here as /etc is).  Runs
# inside `unshare -n`, the daemon at the shipped CheckInterval (60).

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
tt_init "$@"

ADMIN_RMEM="4096 131072 134217728"
ADMIN_WMEM="4096 65536 4194304"
printf '%s\n' "$ADMIN_RMEM" >"$(sysctl_path "$RMEM")" ||
    bail "cannot set $RMEM in this namespace"
printf '%s\n' "$ADMIN_WMEM" >"$(sysctl_path "$WMEM")" ||
    bail "cannot set $WMEM in this namespace"
# The admin's file, as systemd-sysctl would apply it at boot.
mkdir -p "$T/root/etc/sysctl.d" || bail "cannot lay out $T/root"
printf '# the admin, before tcptune\n%s = %s\n' "$RMEM" "$ADMIN_RMEM" \
    >"$T/root/etc/sysctl.d/90-big.conf"
TT_SOURCES_ROOT=$T/root
export TT_SOURCES_ROOT
SAID_BY="also set by /etc/sysctl.d/90-big.conf:2 to $ADMIN_RMEM, applied at boot by systemd-sysctl"
want_wmem=$(python3 -c 'import plistlib, sys
v = plistlib.load(open(sys.argv[1], "rb"))["Sysctls"][sys.argv[2]]
print(v["Value"] if isinstance(v, dict) else v)' \
    "$top_srcdir/etc/tcptune.conf.linux" "$WMEM") ||
    bail "cannot read $WMEM from the shipped config"
# at-least raises number by number: the admin's default, the config's max
wmem_expect="4096 65536 ${want_wmem##* }"

write_config "$CONF" <"$top_srcdir/etc/tcptune.conf.linux"
start_ready a
wait_until 3 key_state_is "$WMEM" "in force"
report $? "the shipped config brings tcp_wmem in force" "$(cat "$T/ctl.out")"
sysctl_is "$RMEM" "$ADMIN_RMEM"
report $? "the admin's 128 MiB tcp_rmem ceiling is kept, not lowered" \
    "$(sysctl_get "$RMEM")"
sysctl_is "$WMEM" "$wmem_expect"
report $? "tcp_wmem: the admin's higher default kept, the ceiling raised" \
    "$(sysctl_get "$WMEM")"
status_json && [ "$(key_field "$RMEM" state)" = "in force" ]
report $? "status: tcp_rmem in force (at least the config's value)" \
    "$(cat "$T/ctl.out")"
! log_has a "lowered from"
report $? "nothing is said to be lowered" "$(grep lowered "$T/d.a.log")"
log_has a "$RMEM: $SAID_BY"
report $? "the log at start names the sysctl.d file that also sets it" \
    "$(grep 'also set' "$T/d.a.log")"
status_json && [ "$(key_field "$RMEM" also_set_by)" = "$SAID_BY" ]
report $? "status: a higher value kept names the sysctl.d file it is from" \
    "$(key_field "$RMEM" also_set_by)"
status_json && [ -z "$(key_field "$WMEM" also_set_by)" ]
report $? "status: a key no other place sets names none" \
    "$(key_field "$WMEM" also_set_by)"

# Mode enforce, the config's own choice, over the admin's value.
sed 's|<string>at-least</string>|<string>enforce</string>|' \
    "$top_srcdir/etc/tcptune.conf.linux" | write_config "$CONF"
ctl reload
sysctl_is "$RMEM" "4096 131072 67108864"
report $? "Mode enforce lowers the ceiling to the config's value" \
    "exit $CTL_RC, $(sysctl_get "$RMEM")"
log_has a "$RMEM: lowered from $ADMIN_RMEM to 4096 131072 67108864"
report $? "the log says what it replaced" "$(tail -n 20 "$T/d.a.log")"
status_json &&
    key_field "$RMEM" note | grep -qF "lowered from $ADMIN_RMEM by Mode enforce"
report $? "status says so beside the key" "$(key_field "$RMEM" note)"
status_json && [ "$(key_field "$RMEM" also_set_by)" = "$SAID_BY" ]
report $? "status names the sysctl.d file of the value it lowered" \
    "$(key_field "$RMEM" also_set_by)"
ctl status
tr -s ' \n' '  ' <"$T/ctl.out" | tr -s ' ' | grep -qF "$SAID_BY"
report $? "status's text shows it under the key" "$(cat "$T/ctl.out")"
daemon_stop a

tap_end
