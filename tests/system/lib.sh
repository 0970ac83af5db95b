# shellcheck shell=bash
#
# Helpers for the system tests: each test runs the real tcptuned inside a
# private network namespace (unshare -n), on a private config, socket and
# state directory, drives it with tcptunectl and polls with wait_until.
#
# The host's own sysctls are never written: every script re-executes itself
# inside `unshare -n` before doing anything, and every write (ours or the
# daemon's) is preceded by a check that we are not in the host's namespace.
#
# Output is TAP for build-aux/tap-driver.sh: "ok N - ...", "not ok N - ..."
# with "#" diagnostics (daemon log tail, tcptunectl output), plan at the end.

TT_NAME=${0##*/}

# ---- TAP: tests/tap.sh, with what a failure here should show

# shellcheck source=tests/tap.sh
. "${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/tap.sh"

# What a failure should show: the last tcptunectl run and the daemon logs.
tap_context() {
	local f
	[ -e "$T/ctl.out" ] && diag "last: $(cat "$T/ctl.cmd" 2>/dev/null) -> exit $CTL_RC" &&
	    diag_file "its output" "$T/ctl.out" 30
	for f in "$T"/d.*.log; do
		[ -e "$f" ] && diag_file "daemon log ${f##*/}" "$f" 20
	done
	return 0
}

# ---- time

now_ms() {
	date +%s%3N
}

# Waiting.  A test never fails because the machine is slow: every wait
# is a poll for a state the daemon (or a helper) is bound to reach, and
# the only bound is a safety net, so that a state that never comes fails
# the test instead of hanging it.  TT_WAIT_LIMIT (seconds, default 120)
# is that net for every wait, whatever figure the caller gives; on a
# machine where even that is short (valgrind, a dozen busy loops on two
# cores) raise it or TT_TIME_SCALE.  See docs/HACKING.md, "Tests on a busy
# machine".
: "${TT_WAIT_LIMIT:=120}"
export TT_WAIT_LIMIT

# tt_wait_seconds [SECONDS]: the bound of one wait: the larger of SECONDS
# and TT_WAIT_LIMIT, times TT_TIME_SCALE (default 1; valgrind.sh uses 4
# for a daemon run under valgrind).  For the helpers in other languages
# (python listeners and clients) too.
tt_wait_seconds() {
	awk -v s="${1:-0}" -v l="$TT_WAIT_LIMIT" -v k="${TT_TIME_SCALE:-1}" \
	    'BEGIN { if (l > s) s = l; printf "%d", s * k }'
}

# wait_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
# SECONDS is what the state takes on an idle machine, kept for the
# reader: it is a minimum of the bound, not a deadline (tt_wait_seconds).
# Returns CMD's last status.  Never use it to show that something does
# NOT happen: wait for an event of the daemon's instead (wait_checks).
wait_until() {
	local end
	end=$(( $(now_ms) + $(tt_wait_seconds "$1") * 1000 ))
	shift
	while :; do
		"$@" && return 0
		[ "$(now_ms)" -ge "$end" ] && break
		sleep 0.1
	done
	"$@"
}

# ---- the namespace

# tt_init: root check, re-exec inside a private network namespace, guard,
# temp dir and cleanup trap, binaries.  Call first, with "$@".
tt_init() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "1..0 # SKIP needs root for unshare -n"
		exit 0
	fi
	if [ "$(uname -s)" != Linux ]; then
		echo "1..0 # SKIP Linux only (runs the daemon in unshare -n)"
		exit 0
	fi
	if [ -z "${TT_IN_NETNS:-}" ]; then
		command -v unshare >/dev/null 2>&1 ||
		    bail "unshare(1) not found (util-linux)"
		unshare -n true 2>/dev/null ||
		    bail "unshare -n fails here: $(unshare -n true 2>&1)"
		TT_HOST_NETNS=$(readlink /proc/self/ns/net) ||
		    bail "cannot read /proc/self/ns/net"
		export TT_HOST_NETNS
		# shellcheck disable=SC2093 # exec only returns on failure
		exec env TT_IN_NETNS=1 unshare -n "$BASH" "$0" "$@"
		bail "exec unshare -n failed"
	fi
	assert_private_netns
	command -v jq >/dev/null 2>&1 || bail "jq not found (apt-get install -y jq)"

	: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
	TCPTUNED=$top_builddir/tcptuned
	TCPTUNECTL=$top_builddir/tcptunectl
	# The parse helper of this build: tcptuned -P (the default is the
	# installed one in libexecdir).
	PARSE_HELPER=$top_builddir/tcptune-parse
	[ -x "$TCPTUNED" ] || bail "$TCPTUNED not built"
	[ -x "$TCPTUNECTL" ] || bail "$TCPTUNECTL not built"
	unset NOTIFY_SOCKET
	# tcptunectl gives up after 10 s by default (CTL_TIMEOUT_SEC): on a
	# busy machine a slow answer is not the failure a test looks for.
	# Tests of the deadline itself set their own.
	TCPTUNECTL_TIMEOUT=${TCPTUNECTL_TIMEOUT:-$(tt_wait_seconds)}
	[ "$TCPTUNECTL_TIMEOUT" -le 3600 ] || TCPTUNECTL_TIMEOUT=3600
	export TCPTUNECTL_TIMEOUT

	umask 022
	T=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-${TT_NAME%.sh}.XXXXXX") ||
	    bail "mktemp failed"
	trap tt_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	CONF=$T/etc/tcptune.conf
	SOCK=$T/run/tcptuned.sock
	STATE=$T/state
	mkdir "$T/etc"
	# the other places that set a key (lib/other_sources.c): an empty
	# tree, so that no test depends on this machine's sysctl.d
	mkdir "$T/no-sources"
	TT_SOURCES_ROOT=$T/no-sources
	export TT_SOURCES_ROOT
	CTL_RC=
	diag "netns $(readlink /proc/self/ns/net) (host $TT_HOST_NETNS), temp $T"
}

# Abort unless we are in a network namespace other than the host's: ours
# must differ from the one recorded before `unshare -n` and from pid 1's
# (when readable: some sandboxes hide it), and hold no interface but lo,
# as a new namespace does.  Fails closed when a reference is missing.
assert_private_netns() {
	local me init ifs
	me=$(readlink /proc/self/ns/net)
	init=$(readlink /proc/1/ns/net 2>/dev/null)
	ifs=$(awk -F: 'NR > 2 { gsub(/ /, "", $1); printf "%s ", $1 }' \
	    /proc/self/net/dev 2>/dev/null)
	if [ -z "$me" ] || [ -z "${TT_HOST_NETNS:-}" ] ||
	    [ "$me" = "$TT_HOST_NETNS" ] || [ "$me" = "$init" ] ||
	    [ "$ifs" != "lo " ]; then
		echo "Bail out! $TT_NAME: not in a private network namespace" \
		    "(self '$me', pid 1 '${init:-unreadable}'," \
		    "before unshare '${TT_HOST_NETNS:-unknown}', interfaces '$ifs'):" \
		    "refusing to touch sysctls"
		exit 99
	fi
}

tt_cleanup() {
	local pid
	if [ -s "$T/pids" ]; then
		while read -r pid; do
			is_our_daemon "$pid" && kill -TERM "$pid" 2>/dev/null
		done <"$T/pids"
		# Each gets the time to exit (under valgrind its leak check,
		# under load the scheduler): KILL only after the safety net.
		wait_until 0 no_daemon_left
		while read -r pid; do
			is_our_daemon "$pid" && kill -KILL "$pid" 2>/dev/null
		done <"$T/pids"
	fi
	wait 2>/dev/null
	if [ -n "${TT_KEEP:-}" ]; then
		echo "# kept $T"
		return 0
	fi
	case $T in
	*/tcptune-*) rm -rf "$T" ;;
	esac
}

# no_daemon_left: none of the daemons in $T/pids is still running.
no_daemon_left() {
	local pid
	while read -r pid; do
		is_our_daemon "$pid" && return 1
	done <"$T/pids"
	return 0
}

# is_our_daemon PID: a live (not zombie) tcptuned we started.
is_our_daemon() {
	local st
	[ -r "/proc/$1/stat" ] || return 1
	st=$(sed 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f1)
	[ "$st" != Z ] || return 1
	tr '\0' ' ' <"/proc/$1/cmdline" | grep -q tcptuned
}

# ---- sysctls (in the namespace)

sysctl_path() {
	printf '/proc/sys/%s\n' "$(printf '%s' "$1" | tr . /)"
}

# sysctl_get NAME: the value, white space folded to single spaces.
sysctl_get() {
	tr -s ' \t\n' '   ' <"$(sysctl_path "$1")" | sed 's/ $//'
}

# sysctl_is NAME VALUE: true when the current value equals VALUE (folded).
sysctl_is() {
	[ "$(sysctl_get "$1")" = "$(fold_ws "$2")" ]
}

sysctl_is_not() {
	! sysctl_is "$@"
}

fold_ws() {
	printf '%s\n' "$1" | tr -s ' \t' '  ' | sed 's/^ //; s/ $//'
}

# sysctl_put NAME VALUE: an outside write, as another tool would do.
sysctl_put() {
	assert_private_netns
	case $1 in
	net.ipv4.*) ;;
	*) bail "sysctl_put $1: only net.ipv4.* keys are per namespace" ;;
	esac
	# No read-back: the daemon may already have reverted it.
	printf '%s\n' "$2" >"$(sysctl_path "$1")" ||
	    bail "outside write of '$2' to $1 failed"
}

# pick_cc: a congestion control this namespace may set, other than the
# current one (a child namespace may only set tcp_allowed_congestion_control).
pick_cc() {
	local cur c
	cur=$(sysctl_get net.ipv4.tcp_congestion_control)
	for c in reno cubic $(sysctl_get net.ipv4.tcp_allowed_congestion_control); do
		[ "$c" != "$cur" ] || continue
		grep -qw "$c" /proc/sys/net/ipv4/tcp_allowed_congestion_control ||
		    continue
		grep -qw "$c" /proc/sys/net/ipv4/tcp_available_congestion_control ||
		    continue
		echo "$c"
		return 0
	done
	return 1
}

# A global key must be read-only here before any config may name it: if it
# were writable, the daemon would change the host's value.
global_key_readonly() {
	local p mode
	p=$(sysctl_path "$1")
	[ -e "$p" ] || return 1
	mode=$(stat -c %a "$p")
	case $mode in
	444 | 440 | 400) ;;
	*) return 1 ;;
	esac
	[ ! -w "$p" ]
}

# config_global_refused KEY CONF: RMEM at RV[0] into CONF, and KEY, a
# global key, raised where it is read-only here, so that the daemon has
# one key refused (none where the kernel would let the host's value
# change: see global_key_readonly).
config_global_refused() {
	if global_key_readonly "$1"; then
		plist "$RMEM=${RV[0]}" "$1=$(($(sysctl_get "$1") + 4096))" |
		    write_config "$2"
	else
		plist "$RMEM=${RV[0]}" | write_config "$2"
	fi
}

# vec_pick NAME [N]: N (default 3) distinct "min default max" vectors, all
# different from NAME's current value, one a line.
vec_pick() {
	local cur a
	cur=$(sysctl_get "$1")
	for a in "4096 131072 7340032" "4096 262144 9437184" \
	    "8192 196608 11534336" "4096 65536 5242880"; do
		[ "$a" != "$cur" ] && printf '%s\n' "$a"
	done | head -n "${2:-3}"
}

# ---- configs

# write_config FILE < content: root-owned, mode 0644, written in place.
write_config() {
	cat >"$1.new" || bail "cannot write $1.new"
	{ chown 0:0 "$1.new" && chmod 0644 "$1.new"; } || bail "chown/chmod $1"
	cat "$1.new" >"$1" && rm -f "$1.new"
	chown 0:0 "$1" && chmod 0644 "$1"
}

# replace_config FILE < content: editor style, a temporary file renamed over.
replace_config() {
	local tmp
	tmp=$(dirname "$1")/.${1##*/}.swp.$$
	cat >"$tmp" || bail "cannot write $tmp"
	{ chown 0:0 "$tmp" && chmod 0644 "$tmp"; } || bail "chown/chmod $tmp"
	mv -f "$tmp" "$1" || bail "mv $tmp $1"
}

# bad_config FILE: a config with three errors, on the lines in BAD_LINES.
BAD_LINES="5 9 10"
bad_config() {
	write_config "$1" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>CheckInterval</key><integer>1</integer>
  <key>NoSuchSetting</key><true/>
  <key>Sysctls</key>
  <dict>
    <key>net.ipv4.tcp_rmem</key><string>4096 131072 7340032</string>
    <key>net.ipv4.tcp_wmem</key><dict><key>Value</key><string>4096 16384 4194304</string><key>Mode</key><string>sometimes</string></dict>
    <key>not a sysctl name!</key><string>1</string>
  </dict>
</dict>
</plist>
EOF
}

# has_all_errors FILE OUTPUT: OUTPUT lists "FILE:LINE: " for every line in
# BAD_LINES.  Prints the lines missing.
has_all_errors() {
	local line missing=
	for line in $BAD_LINES; do
		grep -qF "$1:$line: " "$2" || missing="$missing $line"
	done
	[ -z "$missing" ] && return 0
	echo "missing file:line errors for lines:$missing"
	return 1
}

# count_in FILE TEXT: how many lines of FILE contain TEXT.
count_in() {
	grep -cF -- "$2" "$1" 2>/dev/null || true
}

# plist [-i INTERVAL] [-r true|false] [KEYSPEC...]: a config on stdout.
# KEYSPEC is NAME=VALUE (plain string) or NAME=VALUE@MODE[@ONREJECT].
plist() {
	local interval=1 restore=false spec name rest value mode rej
	while [ $# -gt 0 ]; do
		case $1 in
		-i) interval=$2; shift 2 ;;
		-r) restore=$2; shift 2 ;;
		*) break ;;
		esac
	done
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
	    '<plist version="1.0">' '<dict>' \
	    "  <key>CheckInterval</key><integer>$interval</integer>" \
	    "  <key>RestoreOnExit</key><$restore/>" \
	    '  <key>Sysctls</key>' '  <dict>'
	for spec in "$@"; do
		name=${spec%%=*}
		rest=${spec#*=}
		value=${rest%%@*}
		if [ "$value" = "$rest" ]; then
			printf '    <key>%s</key><string>%s</string>\n' \
			    "$name" "$value"
			continue
		fi
		rest=${rest#*@}
		mode=${rest%%@*}
		rej=
		[ "$mode" != "$rest" ] && rej=${rest#*@}
		printf '    <key>%s</key>\n    <dict>\n' "$name"
		printf '      <key>Value</key><string>%s</string>\n' "$value"
		printf '      <key>Mode</key><string>%s</string>\n' "$mode"
		[ -n "$rej" ] &&
		    printf '      <key>OnReject</key><string>%s</string>\n' "$rej"
		printf '    </dict>\n'
	done
	printf '%s\n' '  </dict>' '</dict>' '</plist>'
}

# ---- the daemon

# daemon_start ID [tcptuned args...]: start tcptuned -d in the background,
# stderr into $T/d.ID.log, its exit status into $T/d.ID.exit when it ends.
# Sets DPID.  The default args are our config, socket and state dir.
# TT_DAEMON_WRAPPER from the environment, e.g. "valgrind --log-file=...",
# is put before the daemon (it must exec it in the same process).
daemon_start() {
	local id=$1
	shift
	[ $# -gt 0 ] || set -- -f "$CONF" -s "$SOCK" -S "$STATE"
	case " $* " in *" -P "*) ;; *) set -- -P "$PARSE_HELPER" "$@" ;; esac
	assert_private_netns
	rm -f "$T/d.$id.pid" "$T/d.$id.exit"
	echo "=== $(date +%T.%3N) start: tcptuned -d $*" >>"$T/d.$id.log"
	(
		sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && shift &&
		    exec ${TT_DAEMON_WRAPPER:-} "$@"' \
		    tt-start "$T/d.$id.pid" "$TCPTUNED" -d "$@" \
		    >>"$T/d.$id.log" 2>&1 </dev/null
		echo $? >"$T/d.$id.exit.tmp"
		mv "$T/d.$id.exit.tmp" "$T/d.$id.exit"
	) 2>>"$T/d.$id.log" &
	wait_until 3 test -s "$T/d.$id.pid" || bail "tcptuned did not start"
	DPID=$(cat "$T/d.$id.pid")
	echo "$DPID" >>"$T/pids"
	eval "DPID_$id=\$DPID"
}

# daemon_alive ID: still running (no exit status recorded).
daemon_alive() {
	[ ! -e "$T/d.$1.exit" ]
}

daemon_exit_status() {
	cat "$T/d.$1.exit" 2>/dev/null
}

daemon_exited() {
	[ -e "$T/d.$1.exit" ]
}

daemon_pid() {
	eval "echo \"\${DPID_$1:-}\""
}

# daemon_ready ID: wait until it answers on the socket; false at once if
# it exits first (a daemon that died never answers: no use waiting).
daemon_ready() {
	wait_until 5 daemon_answers_or_exited "$1"
	daemon_answers "$1"
}

daemon_answers_or_exited() {
	daemon_exited "$1" || daemon_answers "$1"
}

daemon_answers() {
	daemon_alive "$1" || return 1
	"$TCPTUNECTL" -s "$SOCK" status >/dev/null 2>&1
	[ $? -ne 2 ]
}

# daemon_stop ID [SIGNAL]: signal it and wait for the exit.
daemon_stop() {
	local pid
	pid=$(daemon_pid "$1")
	daemon_alive "$1" || return 0
	kill "-${2:-TERM}" "$pid" 2>/dev/null
	wait_until 3 daemon_exited "$1"
}

# start_ready ID [args]: start and wait for the socket; a failure is fatal.
start_ready() {
	daemon_start "$@"
	daemon_ready "$1" || bail "tcptuned ($1) did not come up (exit $(daemon_exit_status "$1"))"
}

# ---- tcptunectl

# ctl ARGS...: tcptunectl -s $SOCK ARGS; output in $T/ctl.out, exit in CTL_RC.
ctl() {
	echo "tcptunectl -s $SOCK $*" >"$T/ctl.cmd"
	"$TCPTUNECTL" -s "$SOCK" "$@" >"$T/ctl.out" 2>&1
	CTL_RC=$?
	return "$CTL_RC"
}

# ctl_as_nobody ARGS...: the same as uid/gid 65534, no groups.
ctl_as_nobody() {
	echo "(uid 65534) tcptunectl -s $SOCK $*" >"$T/ctl.cmd"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$TCPTUNECTL" -s "$SOCK" "$@" >"$T/ctl.out" 2>&1
	CTL_RC=$?
	return "$CTL_RC"
}

# status_json: `status --json` into $T/status.json; true if it parses.
status_json() {
	echo "tcptunectl -s $SOCK status --json" >"$T/ctl.cmd"
	"$TCPTUNECTL" -s "$SOCK" status --json >"$T/status.json" 2>"$T/status.err"
	CTL_RC=$?
	cp "$T/status.json" "$T/ctl.out"
	cat "$T/status.err" >>"$T/ctl.out"
	jq -e . "$T/status.json" >/dev/null 2>&1
}

# key_field NAME FIELD: a field of one key in the last status_json
# (strings raw, null as "null", a missing key as "").
key_field() {
	jq -r --arg n "$1" --arg f "$2" \
	    '.keys[] | select(.name == $n) | .[$f] | if type == "string" then . else tojson end' \
	    "$T/status.json" 2>/dev/null
}

# key_value_is NAME FIELD VALUE: compare with white space folded.
key_value_is() {
	[ "$(fold_ws "$(key_field "$1" "$2")")" = "$(fold_ws "$3")" ]
}

# key_state_is NAME STATE: a fresh status shows NAME in STATE.
key_state_is() {
	status_json && [ "$(key_field "$1" state)" = "$2" ]
}

# key_errno NAME: .error.errno of a key in the last status_json.
key_errno() {
	jq -r --arg n "$1" '.keys[] | select(.name == $n) | .error.errno // "none"' \
	    "$T/status.json" 2>/dev/null
}

json_get() {
	jq -r "$1" "$T/status.json" 2>/dev/null
}

# all_in_force: a fresh status says so (JSON and exit code 0).
all_in_force() {
	status_json && [ "$CTL_RC" -eq 0 ] &&
	    [ "$(json_get .all_in_force)" = true ]
}

# check_count: the daemon's number of check cycles, "" when not shown.
check_count() {
	status_json >/dev/null 2>&1 || return 0
	jq -r '.daemon.checks // empty' "$T/status.json" 2>/dev/null
}

# wait_checks N: wait until the daemon has run N more check cycles (about
# N seconds with CheckInterval 1); false otherwise.  This is how a test
# shows that something does NOT happen: the daemon's own count of its
# checks, not a sleep, however slow the machine.  Without a check counter
# in the status, just sleep N + 0.5 s.
wait_checks() {
	local start
	start=$(check_count)
	if [ -z "$start" ]; then
		sleep "$1.5"
		return 0
	fi
	wait_until "$(($1 + 2))" checks_past "$((start + $1))"
}

checks_past() {
	local n
	n=$(check_count)
	[ -n "$n" ] && [ "$n" -ge "$1" ]
}

# output_has TEXT: the last tcptunectl output contains TEXT (fixed string).
output_has() {
	grep -qF -- "$1" "$T/ctl.out" ||
	    output_joined | grep -qF -- "$1"
}

# output_joined: $T/ctl.out with each indented line joined onto the one
# before it by one space: tcptunectl wraps a message at 80 columns, its
# continuation lines indented, so a phrase may straddle two lines.
output_joined() {
	awk 'NR > 1 && /^[ \t]+/ { sub(/^[ \t]+/, " "); printf "%s", $0; next }
	    { if (NR > 1) print ""; printf "%s", $0 } END { if (NR) print "" }' \
	    "$T/ctl.out"
}

# log_has ID TEXT
log_has() {
	grep -qF -- "$2" "$T/d.$1.log"
}

# ---- the three namespace keys every scenario tunes

RMEM=net.ipv4.tcp_rmem
WMEM=net.ipv4.tcp_wmem
CC=net.ipv4.tcp_congestion_control

# use_keys N: the originals R0 W0 C0, N tuned vectors each in RV and WV, and
# a congestion control CA other than C0 that this namespace may set.
use_keys() {
	R0=$(sysctl_get $RMEM)
	W0=$(sysctl_get $WMEM)
	C0=$(sysctl_get $CC)
	mapfile -t RV < <(vec_pick $RMEM "$1")
	mapfile -t WV < <(vec_pick $WMEM "$1")
	CA=$(pick_cc) || bail "no congestion control other than $C0 may be set here"
	diag "originals: rmem '$R0' wmem '$W0' cc '$C0'; tuned cc '$CA'"
}

# tuned: the first tuned values are in place.
tuned() {
	sysctl_is $RMEM "${RV[0]}" && sysctl_is $WMEM "${WV[0]}" &&
	    sysctl_is $CC "$CA"
}

# originals: the values from before any daemon are in place.
originals() {
	sysctl_is $RMEM "$R0" && sysctl_is $WMEM "$W0" && sysctl_is $CC "$C0"
}

values() {
	echo "rmem '$(sysctl_get $RMEM)' wmem '$(sysctl_get $WMEM)' cc '$(sysctl_get $CC)'"
}

# ---- the reliability suite (abuse.sh, faults.sh, flip.sh)

# rel_begin: start a row of the reliability table.
rel_begin() {
	REL_NUM0=$TT_NUM
	REL_FAILED0=$TT_FAILED
}

# rel_row CLASS TRIED [FIGURE]: a "# report:" line for
# scripts/reliability-report.sh, its outcome from the TAP results since
# rel_begin; starts the next row.
rel_row() {
	local n=$((TT_NUM - ${REL_NUM0:-0})) f=$((TT_FAILED - ${REL_FAILED0:-0}))
	local verdict
	if [ "$f" -eq 0 ]; then
		verdict="pass ($n checks)"
	else
		verdict="FAIL ($f of $n checks)"
	fi
	echo "# report: $1|$2|$verdict${3:+; $3}"
	rel_begin
}

# py_cases FILE: "PASS name: detail" / "FAIL name: detail" lines as TAP.
py_cases() {
	local verdict rest
	while read -r verdict rest; do
		case $verdict in
		PASS) ok "$rest" ;;
		FAIL) not_ok "$rest"; tap_context ;;
		*) diag "$verdict $rest" ;;
		esac
	done <"$1"
}

# rawclient ARGS...: tests/system/rawclient.py, the raw protocol client.
rawclient() {
	python3 "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/system/rawclient.py" "$@"
}

# python_for_nobody: a python3 that uid 65534 may run (a root-only pyenv
# shim will not do), or false.
python_for_nobody() {
	local py
	for py in /usr/bin/python3 /usr/local/bin/python3 "$(command -v python3)"; do
		[ -x "$py" ] || continue
		setpriv --reuid=65534 --regid=65534 --clear-groups "$py" -c pass \
		    2>/dev/null || continue
		echo "$py"
		return 0
	done
	return 1
}

# tt_private_mounts "$@": re-execute in a private mount namespace (before
# tt_init), so a test may mount a small or read-only tmpfs for the state
# directory without the host seeing it.  Skips when not root.
tt_private_mounts() {
	[ "$(id -u)" -eq 0 ] || return 0
	[ -z "${TT_IN_MNTNS:-}" ] || return 0
	unshare -m --propagation private true 2>/dev/null || return 0
	# shellcheck disable=SC2093 # exec only returns on failure
	exec env TT_IN_MNTNS=1 unshare -m --propagation private "$BASH" "$0" "$@"
}

# originals_file_ok FILE R W C: the state file, if there, holds only the
# given values (any subset of the three keys) and a good checksum.
originals_file_ok() {
	python3 - "$@" <<'PYEOF'
import sys
path, want = sys.argv[1], dict(zip(
    ("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_congestion_control"),
    sys.argv[2:5]))
try:
    data = open(path, "rb").read()
except FileNotFoundError:
    sys.exit(0)
body, _, last = data.rstrip(b"\n").rpartition(b"\n")
body += b"\n"
h = 0xcbf29ce484222325
for b in body:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
if last != b"checksum %016x" % h:
    print("bad checksum line %r (want %016x)" % (last, h)); sys.exit(1)
for line in body.decode().splitlines()[2:]:
    if line.startswith("original "):
        _, name, value = line.split(" ", 2)
        if " ".join(value.split()) != " ".join(want.get(name, "?").split()):
            print("%s: original '%s', want '%s'" % (name, value, want.get(name)))
            sys.exit(1)
PYEOF
}
