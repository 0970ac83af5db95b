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
# the backend: the text names the live tree, JSON gives the word
# tcptunectl(8) promises (issue 45: it gave "sysctl-dir (/proc/sys)")
grep -q 'backend sysctl-dir (/proc/sys)$' "$T/status" &&
    jq -e '.daemon.backend == "sysctl-dir"' "$T/status.json" >/dev/null
report $? "status: backend sysctl-dir (/proc/sys) in text, the word in JSON" \
    "$(head -n 1 "$T/status")" "$(jq -c .daemon.backend "$T/status.json")"
if global_key_readonly $GLOBAL; then
	grep -q 'not in force' "$T/status" &&
	    ! grep -q 'see tcptunectl status' "$T/status" "$T/status.json"
	report $? "status, a key not in force: never 'see tcptunectl status'" \
	    "$(cat "$T/status")" "$(jq .daemon "$T/status.json")"
	"$TCPTUNECTL" -s "$SOCK" reload >"$T/reload" 2>&1
	tr '\n' ' ' <"$T/reload" | grep -q '(see tcptunectl status)'
	report $? "reload's reply: not in force (see tcptunectl status)" \
	    "$(cat "$T/reload")"
	# check gives the refused key the daemon's own reason (the backend's
	# explain), as a warning: the daemon takes the file all the same
	note=$(jq -r --arg k $GLOBAL '.keys[] | select(.name == $k) | .note' \
	    "$T/status.json")
	"$TCPTUNECTL" check "$CONF" >"$T/check" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && [ -n "$note" ] && grep -qF \
	    ": warning: $GLOBAL: tcptuned will leave it unset: $note" "$T/check"
	report $? "check: a global key refused here, in the daemon's words" \
	    "exit $rc, status note: $note" "$(cat "$T/check")"
	# tcptunectl(8)'s EXAMPLES show this refusal as status prints it
	# (issue 45: an older note was shown), the note's lines joined
	example=$(awk '/^\.Sh EXAMPLES/,/^\.Sh SEE ALSO/' \
	    "$top_srcdir/man/tcptunectl.8" |
	    sed -n "/^$GLOBAL  refused: /,/^\\\\&\\.\\.\\./p" |
	    sed -e '1,/^    original /d' -e '$d' -e 's/^ *//' | paste -sd ' ')
	[ -n "$note" ] && [ "$example" = "$note" ]
	report $? "tcptunectl(8)'s status example: the refusal's words" \
	    "example: $example" "status:  $note"
else
	skip "status never says 'see tcptunectl status'" \
	    "$GLOBAL is writable here: no key is refused"
	skip "reload's reply: see tcptunectl status" "$GLOBAL is writable here"
	skip "check: a refused global key" "$GLOBAL is writable here"
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

# the same on a sysctl tree (-r) of a namespace of Linux 6.12, whatever
# this kernel is: the global key 0444, its reason the backend's
TREE=$T/tree
mkdir -p "$TREE/kernel" "$TREE/net/core"
echo 6.12.1 >"$TREE/kernel/osrelease"
echo 212992 >"$TREE/net/core/rmem_max"
chmod 0444 "$TREE/net/core/rmem_max"
plist "net.core.rmem_max=4194304" >"$T/global.conf"
"$TCPTUNECTL" check -r "$TREE" "$T/global.conf" >"$T/check" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -qF "warning: net.core.rmem_max: tcptuned will \
leave it unset: a global key, read only in a child network namespace from \
Linux 6.11: set it on the host" "$T/check"
report $? "check -r, a read-only global key: the daemon's reason" \
    "exit $rc" "$(cat "$T/check")"

# check of the default config: the daemon's owner and mode rule, as
# root-run tcptuned applies it whoever runs check, its refusal in the
# daemon's words with the fix.  A directory mounted over the default
# config's (a mount namespace of its own) holds the file.
# (a long configured path is wrapped after a '/' or before it: joined)
DEFAULT_CONF=$("$TCPTUNECTL" --help -v |
    sed -e :a -e '/\/$/{N;s/\n *//;ba' -e '}' |
    sed -n -e '/FILE defaults to$/{N;s/\n */ /;}' \
    -e 's/.*FILE defaults to \([^ ]*\).*/\1/p' | head -n 1)
DEFAULT_DIR=$(dirname "${DEFAULT_CONF:-/etc/tcptune.conf}")
# default_config_cases: the cases below, run over a mount of $ETC on
# DEFAULT_DIR, which must exist: a build configured with a prefix not
# installed yet (make distcheck's _inst/etc) has none to mount over.
default_config_cases() {
	ETC=$T/etc-default
	mkdir -p "$ETC" && chmod 0755 "$ETC"
	[ -e /etc/ld.so.cache ] && cp /etc/ld.so.cache "$ETC/"
	plist "$RMEM=${RV[0]}" >"$ETC/${DEFAULT_CONF##*/}"
	# check_default [setpriv ARGS --]: tcptunectl check, no FILE, into $T/dc
	check_default() {
		unshare -m --propagation private sh -c 'mount --bind "$1" "$2" &&
		    shift 2 && exec "$@"' sh "$ETC" "$DEFAULT_DIR" "$@" \
		    "$TCPTUNECTL" check >"$T/dc" 2>&1
	}
	refused_default() {
		[ "$1" -eq 1 ] && grep -qF "$DEFAULT_CONF: must be owned by root and \
not writable by group or others ($2): refusing to use it" "$T/dc" &&
		    grep -qF "chown root:root $DEFAULT_CONF; chmod 644 $DEFAULT_CONF" \
		    "$T/dc" && ! grep -q 'configuration OK' "$T/dc"
	}
	chmod 0666 "$ETC/${DEFAULT_CONF##*/}"
	check_default
	rc=$?
	refused_default $rc "mode 0666, owner 0"
	report $? "check, the default config mode 0666: refused with the fix" \
	    "exit $rc" "$(cat "$T/dc")"
	# the daemon's own words for the same file (its reply wrapped: flattened)
	chmod 0666 "$CONF"
	"$TCPTUNECTL" -s "$SOCK" reload >"$T/reload" 2>&1
	said=$(head -n 1 "$T/dc")
	tr '\n' ' ' <"$T/reload" | tr -s ' ' |
	    grep -qF "$CONF${said#"$DEFAULT_CONF"}"
	report $? "check says what tcptuned says of a mode 0666 config" \
	    "tcptuned: $(cat "$T/reload")" "$(cat "$T/dc")"
	chmod 0644 "$CONF"
	chmod 0644 "$ETC/${DEFAULT_CONF##*/}"
	chown 65534:65534 "$ETC/${DEFAULT_CONF##*/}"
	check_default setpriv --reuid=65534 --regid=65534 --clear-groups --
	rc=$?
	refused_default $rc "mode 0644, owner 65534"
	report $? "check by uid 65534 of its own default config: root's rule" \
	    "exit $rc" "$(cat "$T/dc")"
	# elsewhere the file is a draft, whoever owns it: not judged
	"$TCPTUNECTL" check "$ETC/${DEFAULT_CONF##*/}" >"$T/dc" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && grep -q 'configuration OK' "$T/dc"
	report $? "check of another path: no owner rule" "exit $rc" "$(cat "$T/dc")"
	chown 0:0 "$ETC/${DEFAULT_CONF##*/}"
	check_default
	rc=$?
	[ "$rc" -eq 0 ] && grep -q 'configuration OK' "$T/dc"
	report $? "check, the default config root's and 0644: OK" "exit $rc" \
	    "$(cat "$T/dc")"

}
if [ -d "$DEFAULT_DIR" ]; then
	default_config_cases
else
	for d in "check, the default config mode 0666: refused with the fix" \
	    "check says what tcptuned says of a mode 0666 config" \
	    "check by uid 65534 of its own default config: root's rule" \
	    "check of another path: no owner rule" \
	    "check, the default config root's and 0644: OK"; do
		skip "$d" "no $DEFAULT_DIR (configured, not installed)"
	done
fi

daemon_stop main
tap_end
