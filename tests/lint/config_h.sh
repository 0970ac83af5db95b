#!/bin/bash
# Every C file of the tree includes "config.h" before anything else, as
# autoconf's manual asks ("Configuration Headers": "so that any
# definitions in config.h override those in other header files"), so no
# file sees a header before configure's answers.  A file that is also
# compiled without configure (tests/lint/bsd_compile.sh, the Windows test
# tools of scripts/test-windows.sh) guards it with #ifdef HAVE_CONFIG_H;
# those builds fail without the guard, so they test it.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-config-h.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# config_h_first FILE: silent and 0 when the first #include is "config.h",
# bare or right inside #ifdef HAVE_CONFIG_H; else why, and 1.
config_h_first() {
	awk '
	/^[ \t]*#[ \t]*include[ \t]/ {
		if ($0 !~ /^#include "config\.h"[ \t]*$/) {
			printf "line %d: the first #include is not \"config.h\": %s\n", NR, $0
			bad = 1
		} else if (prev ~ /^[ \t]*#[ \t]*if/ &&
		    prev !~ /^#ifdef HAVE_CONFIG_H([ \t]|$)/) {
			printf "line %d: \"config.h\" inside a condition other than #ifdef HAVE_CONFIG_H: %s\n", NR, prev
			bad = 1
		}
		found = 1
		exit
	}
	/[^ \t]/ { prev = $0 }
	END {
		if (!found) {
			print "no #include at all"
			exit 1
		}
		exit bad
	}' "$1"
}

# The check itself, on files made to pass and to fail.
printf '/* c */\n#ifdef HAVE_CONFIG_H\t/* why */\n#include "config.h"\n#endif\n\n#include <stdio.h>\n' >"$T/guarded.c"
printf '#define _POSIX_C_SOURCE 200809L\n#include "config.h"\n#include <stdio.h>\n' >"$T/bare.c"
printf '#include <stdio.h>\n#include "config.h"\n' >"$T/late.c"
printf '#ifdef __linux__\n#include "config.h"\n#endif\n' >"$T/cond.c"
if config_h_first "$T/guarded.c" >/dev/null &&
    config_h_first "$T/bare.c" >/dev/null &&
    ! config_h_first "$T/late.c" >/dev/null &&
    ! config_h_first "$T/cond.c" >/dev/null; then
	ok "the check takes config.h first, bare or guarded, and refuses it late or under another condition"
else
	not_ok "the check takes config.h first, bare or guarded, and refuses it late or under another condition"
fi

# Every .c file in the source directories; a generated one (man2c.sh's
# tools/manual_pages.c in an in-tree build) is checked as well.
n=0
while IFS= read -r f; do
	n=$((n + 1))
	rel=${f#"$top_srcdir"/}
	if why=$(config_h_first "$f"); then
		ok "$rel includes config.h first"
	else
		not_ok "$rel includes config.h first" "$why"
	fi
done < <(find "$top_srcdir/lib" "$top_srcdir/daemon" "$top_srcdir/tools" \
    "$top_srcdir/tests" "$top_srcdir/fuzz" "$top_srcdir/bench" \
    -name '*.c' -type f | LC_ALL=C sort)
[ "$n" -gt 0 ] || not_ok "C files found under $top_srcdir" "none"
tap_end
