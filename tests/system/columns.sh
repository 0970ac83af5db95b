#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: everything a person reads fits a terminal's 80 columns.
# Each command is run as a user meets it, into a pipe (no colour), and
# every line of what it prints, stdout and stderr, must be at most 80
# columns wide: usage errors, --help and --help -v, each command's help
# (help COMMAND) and help's usage error, tcptuned's help and
# its usage error, check's errors, status with a refused key, after a
# failed reload and during a measurement, reload, resume and restore,
# diagnose, advise and advise --apply with a read-only key left out, and
# measure's report, verdict and errors against a server on loopback.
# JSON and metrics are for programs and are not checked; nor is a
# one-line diagnostic, and only that (see counted).  The daemon runs
# inside `unshare -n`, where net.core.rmem_max is read only (a global
# key).  diagnose's sentences about real transfers are checked by
# diagnose.sh, which has them.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

WIDTH=80
GLOBAL=net.core.rmem_max
use_keys 1

# widest FILE: the widest line's columns (wc -L counts characters, not
# the bytes of a UTF-8 "µ", and a tab to the next stop of 8).
widest() {
	LC_ALL=C.UTF-8 wc -L <"$1"
}

# counted FILE: the lines of FILE that must fit, all but the one-line
# diagnostics.  A diagnostic is one record on one line whatever its
# width, "PROGRAM: message" (PROGRAM as run, getopt's "/path/tcptuned:"
# too) or "FILE:LINE: message", as the GNU Coding
# Standards format them
# (https://www.gnu.org/prep/standards/html_node/Errors.html) for grep and
# editors to read (docs/HACKING.md).  Only those lines are left out: the
# first line of a message wrapped under "tcptunectl: " (the next line
# indented) is running text and counts, and so does a line whose FILE
# has a ':' or a space ("http://host:80: ..." is no FILE:LINE).
counted() {
	awk '
	function diagnostic(l) {
		return l ~ /^([^ ]*\/)?(tcptunectl|tcptuned): / ||
		    l ~ /^[^ :]+:[0-9]+: /
	}
	NR > 1 && !(diagnostic(prev) && $0 !~ /^    /) { print prev }
	{ prev = $0 }
	END { if (NR > 0 && !diagnostic(prev)) print prev }' "$1"
}

# fits DESC CMD...: run CMD, stdout and stderr into one file; ok when no
# line but a one-line diagnostic (counted) is wider than WIDTH, else the
# lines that are.
fits() {
	local desc=$1 w
	shift
	"$@" >"$T/fits.all" 2>&1
	counted "$T/fits.all" >"$T/fits.out"
	w=$(widest "$T/fits.out")
	[ "$w" -le "$WIDTH" ] && [ -s "$T/fits.all" ]
	report $? "$desc: within $WIDTH columns (widest $w)" \
	    "command: $*" "$(LC_ALL=C.UTF-8 awk -v w="$WIDTH" \
	    'length($0) > w { print length($0) ": " $0 }' "$T/fits.out")" \
	    "$(head -c 2000 "$T/fits.all")"
}

ctl_text() {
	"$TCPTUNECTL" -s "$SOCK" "$@"
}

# ---- the exception itself, on made-up lines

LONG=$(printf '%090d' 0)
printf '%s\n' "tcptunectl: one line $LONG" "etc/x.conf:12: one line $LONG" \
    "/a/deep/build/tcptuned: invalid option -- 'Z' $LONG" "ok" >"$T/diag"
printf '%s\n' "tcptunectl: wrapped $LONG" "    the rest" \
    "http://h:80: not a file $LONG" "tcptuned:12 $LONG" "  x:1: $LONG" \
    >"$T/text"
[ "$(counted "$T/diag")" = ok ] && [ "$(counted "$T/text" | wc -l)" -eq 5 ]
report $? "only one-line diagnostics are left uncounted" \
    "$(counted "$T/diag")" "$(counted "$T/text")"

# ---- no daemon needed

fits "usage error, no command" "$TCPTUNECTL"
fits "usage error, unknown command" "$TCPTUNECTL" stat
fits "usage error, unknown option" "$TCPTUNECTL" status --frobnicate
fits "--help" "$TCPTUNECTL" --help
fits "--help -v" "$TCPTUNECTL" --help -v
# each command's help, help COMMAND (the same as COMMAND --help), for
# every command --help -v lists; and help with a word that is neither
# a command nor a page, which lists them
for c in $("$TCPTUNECTL" --help -v |
    sed -n '/^Commands:$/,/^$/s/^  \([a-z][a-z]*\).*/\1/p'); do
	fits "help $c" "$TCPTUNECTL" help "$c"
done
fits "help, an unknown word" "$TCPTUNECTL" help stauts
fits "tcptuned --help" "$TCPTUNED" --help
fits "tcptuned -d --help" "$TCPTUNED" -d --help
fits "tcptuned usage error" "$TCPTUNED" -Z
bad_config "$T/bad.conf"
fits "check, a config with errors" "$TCPTUNECTL" check "$T/bad.conf"
fits "tcptuned -n, a config with errors" "$TCPTUNED" -n -P "$PARSE_HELPER" \
    -f "$T/bad.conf"
fits "check -v, the shipped Linux config" "$TCPTUNECTL" check -v \
    "$top_srcdir/etc/tcptune.conf.linux"
fits "advise" "$TCPTUNECTL" advise --rate 1g --rtt 150ms
fits "advise --platform macos" "$TCPTUNECTL" advise --rate 1g --rtt 150ms \
    --platform macos
fits "advise --platform windows" "$TCPTUNECTL" advise --rate 1g --rtt 150ms \
    --platform windows
fits "status, no daemon" ctl_text status

# ---- the daemon: a refused key, a failed reload

config_global_refused $GLOBAL "$CONF"
start_ready main
wait_until 3 sysctl_is $RMEM "${RV[0]}"

fits "status, a key refused" ctl_text status
fits "status --short" ctl_text status --short
fits "reload" ctl_text reload
fits "restore" ctl_text restore
fits "resume" ctl_text resume
fits "diagnose" ctl_text diagnose
fits "diagnose --all" ctl_text diagnose --all
fits "advise --apply, a read-only key left out" ctl_text advise --rate 1g \
    --rtt 150ms --apply

printf '<plist><dict><key>Sysctls</key><dict><key>%s</key>\n' "$RMEM" |
    write_config "$CONF"
ctl_text reload >/dev/null 2>&1
fits "status after a failed reload" ctl_text status

# ---- measure, against a server on loopback

command -v python3 >/dev/null 2>&1 || bail "python3 not found (measure's server)"
server_listening() {
	grep -q listening "$T/server.out"
}
ip link set lo up
python3 "$top_srcdir/tests/system/measure_server.py" 127.0.0.1 8080 \
    >"$T/server.out" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null; tt_cleanup' EXIT
wait_until 3 server_listening || bail "measure_server.py did not start"
URL=http://127.0.0.1:8080
# the daemon's config as it was: measure takes a lease on a sound one
plist "$RMEM=${RV[0]}" | write_config "$CONF"
ctl_text reload >/dev/null 2>&1
fits "measure, tuned against original" ctl_text measure -n 1 -t 2 \
    "$URL/stream"
fits "measure --streams" ctl_text measure --streams 2 -t 2 "$URL/stream"
# status while a measurement holds the daemon's lease
leased() {
	"$TCPTUNECTL" -s "$SOCK" status --json 2>/dev/null |
	    jq -e '.daemon.lease != null' >/dev/null
}
ctl_text measure -n 1 -t 10 "$URL/stream" >/dev/null 2>&1 &
MEASURE_PID=$!
wait_until 5 leased
fits "status during a measurement" ctl_text status
wait "$MEASURE_PID"
fits "measure, HTTP 404" ctl_text measure -t 2 "$URL/status/404"
fits "measure, a redirect loop" ctl_text measure -t 2 "$URL/loop"
fits "measure, connection refused" ctl_text measure -t 2 \
    http://127.0.0.1:9/
daemon_stop main
fits "measure, no daemon" ctl_text measure -n 1 -t 2 "$URL/stream"
kill "$SERVER_PID"
tap_end
