#!/bin/bash
# The README's migration from a LaunchDaemon that runs sysctl -w
# (issue 31): one && chain, so that a failed import (something not
# carried over) or a failed check stops it before the old job is booted
# out and its plist removed.  Checked: the ```sh block after "Replacing a
# LaunchDaemon" has import, then check, then launchctl bootout and rm;
# every line but the last ends with "&&", none holds a ';', a lone '&',
# a '|' or a '||'; and sh parses it.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
readme=$top_srcdir/README.md

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# The block's lines, leading blanks taken off.
block=$(awk '
	/Replacing a LaunchDaemon/ { seen = 1 }
	seen && /^[ \t]*```sh[ \t]*$/ { inside = 1; next }
	inside && /^[ \t]*```[ \t]*$/ { exit }
	inside { sub(/^[ \t]+/, ""); print }' "$readme")

if [ -z "$block" ]; then
	not_ok "README.md: a sh block after \"Replacing a LaunchDaemon\""
	tap_end
	exit
fi
ok "README.md: a sh block after \"Replacing a LaunchDaemon\""

# line_of PATTERN: the number of the first line of the block matching
# the extended regex PATTERN, or 0.
line_of() {
	printf '%s\n' "$block" | grep -nE -m1 "$1" | cut -d: -f1 | grep . ||
	    echo 0
}
import=$(line_of '(^|[ /])tcptunectl import ')
check=$(line_of '(^|[ /])tcptunectl check ')
bootout=$(line_of 'launchctl (bootout|unload) ')
remove=$(line_of '(^|[ ])rm .*LaunchDaemons/')
for step in import check bootout remove; do
	if [ "${!step}" -gt 0 ]; then
		ok "the chain has its $step step"
	else
		not_ok "the chain has its $step step" "$block"
	fi
done
if [ "$import" -gt 0 ] && [ "$import" -lt "$check" ] &&
    [ "$check" -lt "$bootout" ] && [ "$bootout" -lt "$remove" ]; then
	ok "import, then check, then bootout, then rm"
else
	not_ok "import, then check, then bootout, then rm" "$block"
fi

# Every line but the last ends the chain's link with &&; the last has
# none; no other list operator anywhere.
bad=$(printf '%s\n' "$block" | awk '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (i < NR && l !~ /&&[ \t]*$/)
				print i ": does not end with &&: " l
			if (i == NR && l ~ /&&[ \t]*$/)
				print i ": the last line ends with &&: " l
			t = l
			gsub(/&&/, "", t)
			if (t ~ /[;|&]/)
				print i ": a ; | & or || breaks the chain: " l
		}
	}')
if [ -z "$bad" ]; then
	ok "one && chain: each step runs only when the one before succeeded"
else
	not_ok "one && chain: each step runs only when the one before succeeded" \
	    "$bad"
fi
if printf '%s\n' "$block" | sh -n 2>"${TMPDIR:-/tmp}/tt-readme.$$"; then
	ok "sh parses the chain"
else
	not_ok "sh parses the chain" "$(cat "${TMPDIR:-/tmp}/tt-readme.$$")"
fi
rm -f "${TMPDIR:-/tmp}/tt-readme.$$"

tap_end
