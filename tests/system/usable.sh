#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: tcptunectl as a person meets it.  --help fits a screen and
# has examples; help COMMAND and COMMAND --help give that command's
# help; a mistyped command gets "did you mean"; status does not
# send its reader to status, a reload's reply does; status --short is
# one line a key; on a terminal (script(1) gives one) states are coloured,
# not with NO_COLOR nor into a pipe; help PAGE goes through $PAGER on a
# terminal only.  The daemon runs inside `unshare -n`, where
# net.core.rmem_max is refused (a global key), so a refused state shows.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

GLOBAL=net.core.rmem_max
use_keys 1

"$TCPTUNECTL" --help >"$T/help" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/help")" -le 30 ] &&
    grep -q '^Examples:' "$T/help" && grep -q -- '--help -v' "$T/help"
report $? "--help: at most 30 lines, with examples and the way to the rest" \
    "exit $rc, $(wc -l <"$T/help") lines"

# each command's help (issue 45): help COMMAND and COMMAND --help print
# the same on stdout, exit 0, nothing on stderr: the synopsis first,
# then the options; for every command --help -v lists
n=0 bad=
for c in $("$TCPTUNECTL" --help -v |
    sed -n '/^Commands:$/,/^$/s/^  \([a-z][a-z]*\).*/\1/p'); do
	n=$((n + 1))
	"$TCPTUNECTL" help "$c" >"$T/h1" 2>"$T/e1"
	r1=$?
	"$TCPTUNECTL" "$c" --help >"$T/h2" 2>"$T/e2"
	r2=$?
	if [ "$r1" -ne 0 ] || [ "$r2" -ne 0 ] || [ -s "$T/e1" ] ||
	    [ -s "$T/e2" ] || ! cmp -s "$T/h1" "$T/h2" ||
	    ! head -n 1 "$T/h1" | grep -q "^usage: tcptunectl $c " ||
	    ! grep -q '^Options:$' "$T/h1"; then
		bad="$bad $c"
	fi
done
[ "$n" -gt 10 ] && [ -z "$bad" ]
report $? "help COMMAND, COMMAND --help: that command's help, exit 0" \
    "$n commands, wrong:$bad" "$(cat "$T/e1" "$T/h1")"
"$TCPTUNECTL" help frobnicate >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 64 ] && [ ! -s "$T/out" ] &&
    grep -q '^tcptunectl: no command or manual page "frobnicate"$' "$T/err" &&
    grep -q '^commands: status, ' "$T/err" &&
    grep -q '^manual pages: .*tcptune\.conf' "$T/err"
report $? "help WORD, neither a command nor a page: what exists (exit 64)" \
    "exit $rc" "$(cat "$T/err")"

"$TCPTUNECTL" stauts >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 64 ] && grep -q '^tcptunectl: unknown command "stauts": did you mean status?$' "$T/err"
report $? "a mistyped command: did you mean status? (exit 64)" "exit $rc" \
    "$(cat "$T/err")"
"$TCPTUNECTL" stat >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 64 ] && grep -q '^tcptunectl: unknown command "stat": did you mean status?$' "$T/err"
report $? "the start of a command: did you mean status? (exit 64)" \
    "exit $rc" "$(cat "$T/err")"
# everything a usage error prints fits a terminal's 80 columns
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' \
    "$T/err")" -le 80 ]
report $? "a usage error: every line within 80 columns" "$(cat "$T/err")"
"$TCPTUNECTL" check --platform Linux "$top_srcdir/etc/tcptune.conf.linux" \
    >"$T/out" 2>&1 &&
    "$TCPTUNECTL" check --platform MacOS "$top_srcdir/etc/tcptune.conf.darwin" \
    >>"$T/out" 2>&1
report $? "--platform Linux, MacOS: names in any case" "$(cat "$T/out")"
"$TCPTUNED" -d --help >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '^usage: tcptuned' "$T/out" &&
    [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' \
    "$T/out")" -le 80 ]
report $? "tcptuned -d --help: the help, within 80 columns" "exit $rc" \
    "$(cat "$T/out")"
"$TCPTUNECTL" frobnicate >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 64 ] && grep -q 'unknown command "frobnicate"$' "$T/err"
report $? "an unrelated word: no guess" "exit $rc" "$(cat "$T/err")"

config_global_refused $GLOBAL "$CONF"
start_ready main
wait_until 3 sysctl_is $RMEM "${RV[0]}"

# status is where the keys are: its own last reload line does not send
# the reader to it; a reload's reply, read alone, does
"$TCPTUNECTL" -s "$SOCK" status >"$T/status" 2>&1
"$TCPTUNECTL" -s "$SOCK" status --json >"$T/status.json" 2>&1
if global_key_readonly $GLOBAL; then
	grep -q 'not in force' "$T/status" &&
	    ! grep -q 'see tcptunectl status' "$T/status" "$T/status.json"
	report $? "status, a key not in force: never 'see tcptunectl status'" \
	    "$(cat "$T/status")" "$(jq .daemon "$T/status.json")"
	"$TCPTUNECTL" -s "$SOCK" reload >"$T/reload" 2>&1
	tr '\n' ' ' <"$T/reload" | grep -q '(see tcptunectl status)'
	report $? "reload's reply: not in force (see tcptunectl status)" \
	    "$(cat "$T/reload")"
else
	skip "status never says 'see tcptunectl status'" \
	    "$GLOBAL is writable here: no key is refused"
	skip "reload's reply: see tcptunectl status" "$GLOBAL is writable here"
fi

"$TCPTUNECTL" -s "$SOCK" status --short >"$T/short" 2>&1
nkeys=$(grep -c . "$T/short")
# the value, then its human size ("(4 KiB, 128 KiB, 7 MiB)")
grep -qE "^$RMEM +in force +${RV[0]}( \(.*\))?$" "$T/short" &&
    [ "$nkeys" -le 2 ] &&
    ! grep -q 'tcptuned\|config' "$T/short"
report $? "status --short: one line a key" "$(cat "$T/short")"
"$TCPTUNECTL" -s "$SOCK" STATUS --short >"$T/upper" 2>&1
cmp -s "$T/short" "$T/upper"
report $? "STATUS: command names in any case" "$(cat "$T/upper")"
"$TCPTUNECTL" -s "$SOCK" status --short --json >/dev/null 2>"$T/err"
[ $? -eq 64 ] && grep -q -- '--short is text' "$T/err"
report $? "status --short --json: a usage error" "$(cat "$T/err")"

# on a terminal: script(1) runs the command on a pseudo-terminal
if command -v script >/dev/null 2>&1; then
	TERM=xterm script -qec "$TCPTUNECTL -s $SOCK status" /dev/null \
	    >"$T/tty" 2>&1
	esc=$(printf '\033')
	grep -q "${esc}\[32min force${esc}\[0m" "$T/tty" &&
	    { ! global_key_readonly $GLOBAL ||
	      grep -q "${esc}\[31mrefused" "$T/tty"; }
	report $? "status on a terminal: in force green, refused red" \
	    "$(cat -v "$T/tty" | tail -5)"
	NO_COLOR=1 TERM=xterm script -qec "$TCPTUNECTL -s $SOCK status" \
	    /dev/null >"$T/tty" 2>&1
	! grep -q "$esc\[" "$T/tty" && grep -q 'in force' "$T/tty"
	report $? "NO_COLOR: no colour" "$(cat -v "$T/tty" | tail -3)"
	PAGER="cat >$T/paged" TERM=xterm script -qec \
	    "$TCPTUNECTL help tcptuned" /dev/null >/dev/null 2>&1
	grep -q 'tcptuned' "$T/paged" 2>/dev/null
	report $? "help PAGE on a terminal: through \$PAGER"
	# no pager installed (a minimal container): the page on the terminal
	mkdir -p "$T/nopager"
	PAGER= PATH="$T/nopager" TERM=xterm "$(command -v script)" -qec \
	    "$TCPTUNECTL help tcptuned" /dev/null >"$T/tty" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && grep -q 'SYNOPSIS' "$T/tty" &&
	    ! grep -q 'not found' "$T/tty"
	report $? "help PAGE with no pager installed: printed" "exit $rc" \
	    "$(head -5 "$T/tty")"
else
	skip "status on a terminal" "script(1) not installed"
	skip "NO_COLOR" "script(1) not installed"
	skip "help PAGE through \$PAGER" "script(1) not installed"
	skip "help PAGE with no pager" "script(1) not installed"
fi
TERM=xterm "$TCPTUNECTL" -s "$SOCK" status >"$T/pipe" 2>&1
! grep -q "$(printf '\033')" "$T/pipe"
report $? "status into a pipe: no colour"
rm -f "$T/paged"
PAGER="cat >$T/paged" "$TCPTUNECTL" help tcptuned >"$T/page" 2>&1
[ ! -e "$T/paged" ] && grep -q 'tcptuned' "$T/page"
report $? "help PAGE into a pipe: no pager"

# a failed reload's long message, and a refused key's note: status's
# running text is wrapped within 80 columns (into a pipe: 80 columns)
printf '<plist><dict><key>Sysctls</key><dict><key>%s</key>\n' "$RMEM" |
    write_config "$CONF"
"$TCPTUNECTL" -s "$SOCK" reload >/dev/null 2>&1
"$TCPTUNECTL" -s "$SOCK" status >"$T/status" 2>&1
grep -q 'FAILED' "$T/status" &&
    [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' \
    "$T/status")" -le 80 ]
report $? "status after a failed reload: within 80 columns" \
    "$(cat "$T/status")"

daemon_stop main
tap_end
