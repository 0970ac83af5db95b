#!/bin/bash
# The format has one owner each way (issue 33, docs/DESIGN.md §2):
#   - XML is read only by lib/config.c (libxml2 included nowhere else in
#     the product: tcptunectl check, import and the parse helper all read
#     through its hardened reader);
#   - a plist document is begun only by lib/config_write.c, the one writer
#     of the files users get (set, import, advise --config and --apply),
#     and by the two that transcode for the one reader and never write a
#     file: lib/config_policy.c (the registry policy, each value a line, so
#     that config.c's file:line words can be said of the value) and
#     lib/bplist.c (a binary plist as XML text).  tools/manual_pages.c
#     holds the manual's examples.
# A product file is a .c or .h under lib/, daemon/ or tools/.  Each
# breach is named with its file and line.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
cd "$top_srcdir" || bail "no source tree"

# breaches PATTERN ALLOWED...: the product lines matching PATTERN outside
# the files ALLOWED, as FILE:LINE: TEXT.
breaches() {
	local pattern=$1 f
	shift
	grep -rnE --include='*.c' --include='*.h' "$pattern" lib daemon tools |
	    while IFS= read -r line; do
		f=${line%%:*}
		case " $* " in *" $f "*) continue ;; esac
		printf '%s\n' "$line"
	done
}

out=$(breaches '#[[:space:]]*include[[:space:]]*<libxml/' lib/config.c)
[ -z "$out" ]
report $? "libxml2 is included by lib/config.c alone" "$out"

out=$(breaches '<plist version' lib/config_write.c lib/config_policy.c \
    lib/bplist.c tools/manual_pages.c)
[ -z "$out" ]
report $? "a plist is begun by lib/config_write.c alone (and the transcoders)" "$out"
tap_end
