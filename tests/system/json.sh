#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: golden files for every --json document of tcptunectl, a
# documented interface (tcptunectl(8), tools/output.c): status (in force
# and paused), reload (accepted and rejected), restore, resume, a denied
# request, version, and advise for the modelled platforms.  The daemon is
# the real one, inside `unshare -n`, on a sysctl root directory (-r) whose
# files hold known values, so the documents do not depend on this kernel.
#
# Volatile fields are normalised before the comparison: times become
# "TIME" (null stays null), pid "PID", uptime and checks "N", the version
# "VERSION", and the temp directory "@T@".  The expected documents are
# tests/system/json/NAME.json; TT_GOLDEN_UPDATE=1 rewrites them from the
# current output (review the diff before committing it).

. "$(dirname "$0")/lib.sh"
tt_init "$@"

GOLD=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/system/json
ROOT=$T/sys
chmod 0755 "$T" "$T/etc"

# The fake kernel: three keys with the stock values of a small machine.
mkdir -p "$ROOT/net/ipv4" "$ROOT/net/core"
printf '4096\t131072\t6291456\n' >"$ROOT/net/ipv4/tcp_rmem"
printf '212992\n' >"$ROOT/net/core/rmem_max"
printf 'cubic\n' >"$ROOT/net/ipv4/tcp_congestion_control"

good_config() {
	plist -i 60 "net.core.rmem_max=16777216@at-least@clamp" \
	    "net.ipv4.tcp_rmem=4096 131072 16777216" \
	    "net.ipv4.tcp_congestion_control=reno@once"
}
good_config | write_config "$CONF"

normalise() {
	jq --arg t "$T" '
	    def time: if . == null then null else "TIME" end;
	    def path: if type == "string" then gsub($t; "@T@") else . end;
	    if has("daemon") then
	        .daemon.pid = "PID" | .daemon.version = "VERSION" |
	        .daemon.started = "TIME" | .daemon.now = "TIME" |
	        .daemon.uptime = "N" | .daemon.checks = "N" |
	        .daemon.last_reload |= time |
	        .daemon.last_check |= time |
	        .daemon.paused_by |= (if . == null then null else
	            .since |= time | .pid = "PID" | .command |= path end) |
	        .daemon.config_path |= path |
	        .daemon.last_reload_message |= path |
	        .keys[] |= (.last_change |= time | .next_attempt |= time |
	            .source |= path)
	    elif has("protocol") then .version = "VERSION"
	    elif has("result") then .message |= path | .errors[] |= path
	    else . end' "$1"
}

# golden NAME WANT_EXIT ARGS...: tcptunectl ARGS (or, when ARGS start
# with setpriv, that command line), its exit and its normalised document
# against json/NAME.json.
golden() {
	local name=$1 want=$2 why
	shift 2
	[ "$1" = setpriv ] || set -- "$TCPTUNECTL" "$@"
	"$@" >"$T/doc.json" 2>"$T/doc.err"
	CTL_RC=$?
	if ! normalise "$T/doc.json" >"$T/doc.norm" 2>"$T/doc.jq"; then
		report 1 "$name: prints JSON" "$* -> exit $CTL_RC" \
		    "$(cat "$T/doc.json" "$T/doc.err" "$T/doc.jq")"
		return
	fi
	if [ -n "${TT_GOLDEN_UPDATE:-}" ]; then
		cp "$T/doc.norm" "$GOLD/$name.json"
	fi
	why=$(diff -u "$GOLD/$name.json" "$T/doc.norm" 2>&1)
	[ -z "$why" ] && [ "$CTL_RC" -eq "$want" ]
	report $? "$name: exit $CTL_RC (want $want), the document matches json/$name.json" \
	    "$why" "$(cat "$T/doc.err")"
}

status_in_force() {
	"$TCPTUNECTL" -s "$SOCK" status >/dev/null 2>&1
}

start_ready main -f "$CONF" -s "$SOCK" -S "$STATE" -r "$ROOT"
wait_until 5 status_in_force
report $? "the config is in force on the fake root" \
    "$("$TCPTUNECTL" -s "$SOCK" status 2>&1)"

golden status 0 -s "$SOCK" status --json
golden reload 0 -s "$SOCK" --json reload
# The files are replaced whole (rename), as an editor does: a write in
# place can be read half done by the watch.  The good file is the running
# config again, which the watch's read finds: a successful reload,
# "unchanged", waited for before the paused status is taken.
bad_config "$T/etc/bad.conf"
replace_config "$CONF" <"$T/etc/bad.conf"
golden reload-rejected 1 -s "$SOCK" reload -j
good_config | replace_config "$CONF"
reload_ok_again() {
	"$TCPTUNECTL" -s "$SOCK" --json status 2>/dev/null |
	    jq -e '.daemon.last_reload_ok' >/dev/null
}
wait_until 5 reload_ok_again
report $? "the good file again: the watch's read is a successful reload"
golden denied 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$TCPTUNECTL" -s "$SOCK" --json restore
grep -q "restore needs root" "$T/doc.err"
report $? "denied: the reason on stderr" "$(cat "$T/doc.err")"
golden restore 0 -s "$SOCK" --json restore
golden status-paused 1 -s "$SOCK" --json status
golden resume 0 -s "$SOCK" --json resume
wait_until 5 status_in_force
report $? "in force again after resume"
golden version 0 --json version
for os in darwin freebsd; do
	golden "advise-$os" 0 advise --json --platform "$os" --rate 1g \
	    --rtt 150ms
	golden "advise-$os-set" 0 advise --json --platform "$os" \
	    --rate 10g --rtt 80ms --set kern.ipc.maxsockbuf=8M
done
golden advise-windows 0 advise --json --platform windows --rate 1g --rtt 150ms
golden advise-windows-set 0 advise --json --platform windows --rate 100m \
    --rtt 10ms --set tcp.autotuninglevel=restricted --set offload.rss=disabled

daemon_stop main
tap_end
