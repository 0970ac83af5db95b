#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: `tcptunectl set` and `unset` against the running daemon, in
# `unshare -n`: the daemon's config edited, written root-owned 0644,
# reloaded and the new status printed; a refused value (a typo, a wrong
# arity, another OS's key) changes nothing, neither file nor kernel;
# sizes with units; two concurrent sets leave a whole file, one of the
# two (the last writer wins, never a torn file); a file the daemon would
# refuse (a user's, or reached through a user's directory) is refused in
# the daemon's words and left as it was, owner and bytes.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 3

plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" | write_config "$CONF"
start_ready main
wait_until 3 sysctl_is $RMEM "${RV[0]}" && sysctl_is $WMEM "${WV[0]}"
report $? "the first config is applied" "$(values)"

# ---- set: file, reload, status

ctl set "$RMEM=${RV[1]}"
[ "$CTL_RC" -eq 0 ] && sysctl_is $RMEM "${RV[1]}" &&
    output_has "$RMEM" && output_has "in force" &&
    "$TCPTUNECTL" check --platform linux "$CONF" >/dev/null 2>&1
report $? "set: written, reloaded, in force, the status printed (exit $CTL_RC)"

# shellcheck disable=SC2012 # the owner and mode, as ls shows them
perm=$(stat -c '%U %a' "$CONF")
check_eq "set: the config stays root's, mode 0644" "root 644" "$perm"

ctl set "$CC=$CA" "$WMEM=${WV[2]}"
[ "$CTL_RC" -eq 0 ] && sysctl_is $CC "$CA" && sysctl_is $WMEM "${WV[2]}"
report $? "set: two keys in one step (exit $CTL_RC)" "$(values)"

# ---- refused: nothing changes

cp "$CONF" "$T/before"
for bad in "net.ipv4.tcp_rmme=4096 131072 6291456" "$RMEM=4096" \
    "kern.ipc.maxsockbuf=16M" "$RMEM=4K 128K 4G"; do
	ctl set "$bad"
	[ "$CTL_RC" -eq 1 ] && cmp -s "$CONF" "$T/before" &&
	    sysctl_is $RMEM "${RV[1]}" && output_has "not changed"
	report $? "set $bad: refused (exit $CTL_RC), file and kernel unchanged" \
	    "$(cat "$T/ctl.out")"
done
ctl set "$RMEM=${RV[2]}" "net.ipv4.tcp_rmme=1 2 3"
[ "$CTL_RC" -eq 1 ] && cmp -s "$CONF" "$T/before" && sysctl_is $RMEM "${RV[1]}"
report $? "set: one refused value refuses the whole edit" "$(cat "$T/ctl.out")"
output_has "did you mean net.ipv4.tcp_rmem"
report $? "set: the refusal says did you mean"

# ---- sizes with units, unset

ctl set -f "$T/other.conf" "$RMEM=4K 128K 6M" 2>/dev/null
check_eq "set -f: a missing FILE is an error" 1 "$CTL_RC"
cp "$CONF" "$T/other.conf"
ctl set -f "$T/other.conf" "$RMEM=4K 128K 6M"
[ "$CTL_RC" -eq 0 ] && grep -q '<string>4096 131072 6291456</string>' \
    "$T/other.conf" && sysctl_is $RMEM "${RV[1]}"
report $? "set -f FILE: sizes with units written as bytes, no reload" \
    "$(cat "$T/ctl.out")"
# a sysctl.conf line pasted whole, and sysctl.d's '/' separators, taken
# as import takes them (issue 45: both were refused)
ctl set -f "$T/other.conf" "$RMEM = 4096 65536 6291456"
[ "$CTL_RC" -eq 0 ] && grep -q '<string>4096 65536 6291456</string>' \
    "$T/other.conf"
report $? "set -f FILE 'KEY = VALUE': blanks around = taken" \
    "$(cat "$T/ctl.out")"
ctl set -f "$T/other.conf" "${RMEM//./\/}=4096 32768 6291456"
[ "$CTL_RC" -eq 0 ] && grep -q '<string>4096 32768 6291456</string>' \
    "$T/other.conf" && ! grep -q '/ipv4/' "$T/other.conf"
report $? "set -f FILE net/ipv4/KEY=VALUE: '/' separators taken" \
    "$(cat "$T/ctl.out")"

ctl unset "$CC"
[ "$CTL_RC" -eq 0 ] && ! grep -q "$CC" "$CONF" && wait_until 3 sysctl_is $CC "$C0"
report $? "unset: the key leaves the config and gets its original back" \
    "$(values)"
ctl unset "$CC"
[ "$CTL_RC" -eq 1 ] && output_has "is not in"
report $? "unset of a key not in the config: exit 1" "$(cat "$T/ctl.out")"

# ---- concurrent edits: whole files only, the last writer wins

# (waited for by pid: a bare wait would wait for the daemon too)
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$TCPTUNECTL" -s "$SOCK" set -f "$T/other.conf" \
	    "$WMEM=4096 16384 $((4194304 + i))" >/dev/null 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
last=$(sed -n 's|.*<string>4096 16384 \([0-9]*\)</string>.*|\1|p' "$T/other.conf")
"$TCPTUNECTL" check --platform linux "$T/other.conf" >"$T/check" 2>&1 &&
    [ "${last:-0}" -ge 4194305 ] && [ "$last" -le 4194312 ] &&
    [ -z "$(ls "$T"/other.conf.tmp.* 2>/dev/null)" ]
report $? "eight concurrent sets: a whole file, one of them, no temporary left" \
    "$(cat "$T/check")"

# ---- a config the daemon refuses: refused in its words, left as it was

# refused_as_daemon FILE WHAT [-f]: set (of FILE with -f, else of the
# daemon's config, FILE) is refused with the line `tcptuned -n -f FILE`
# refuses FILE with; its bytes, its owner and the kernel unchanged.
# Written back root's, a user's keys would be applied as root.
refused_as_daemon() {
	local file=$1 what=$2 words sum owner
	shift 2
	sum=$(sha256sum <"$file")
	owner=$(stat -L -c %u "$file")
	"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$file" >"$T/n.out" 2>&1
	words=$(grep -F "$file: " "$T/n.out" | grep -m1 -F "refusing to use it")
	ctl set "$@" ${1:+"$file"} "$RMEM=${RV[2]}"
	[ "$CTL_RC" -eq 1 ] && [ -n "$words" ] && output_has "$words" &&
	    output_has "not changed" && [ "$(sha256sum <"$file")" = "$sum" ] &&
	    [ "$(stat -L -c %u "$file")" = "$owner" ] &&
	    sysctl_is $RMEM "${RV[1]}"
	report $? "set: $what: refused in the daemon's words, unchanged" \
	    "$(cat "$T/n.out" "$T/ctl.out")"
}

chown 65534 "$CONF"
refused_as_daemon "$CONF" "the daemon's config owned by uid 65534"
chown 0 "$CONF"
cp "$CONF" "$T/users.conf"
chown 65534 "$T/users.conf"
refused_as_daemon "$T/users.conf" "-f a file owned by uid 65534" -f
mkdir -m 0755 "$T/home" "$T/home/sub"
chown 65534 "$T/home"
cp "$CONF" "$T/home/tcptune.conf"
ln -s "$T/home/tcptune.conf" "$T/link.conf"
refused_as_daemon "$T/link.conf" "-f root's link into uid 65534's directory" -f
cp "$CONF" "$T/home/sub/tcptune.conf"
refused_as_daemon "$T/home/sub/tcptune.conf" \
    "-f a file below uid 65534's directory" -f

daemon_stop main
tap_end
