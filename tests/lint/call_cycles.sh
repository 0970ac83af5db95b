#!/bin/bash
# No two files of a program call each other: in tcptuned, tcptunectl,
# tcptunectl-full and tcptune-parse as built (their objects and
# lib/libtcptune.a), when file A uses a symbol that file B defines, B
# uses nothing that A defines.  A pair that calls both ways is one
# concern split in two, or two concerns knotted together: the lower one
# returns a value (an errno, a result the caller words) instead of
# calling back, or takes a table of the caller's functions
# (control_ops).  Read off the symbol tables (nm), so a call added
# anywhere is seen.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
: "${NM:=nm}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-cycles.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# cycles FILE...: each pair of object files (or archive members) that
# use each other's symbols, "a <-> b: sym / sym", one a line.
cycles() {
	"$NM" -A "$@" 2>/dev/null | awk '
	NF < 2 { next }
	{
		# "file.o:ADDR T sym", "lib.a:member.o:ADDR T sym",
		# "file.o:         U sym"
		line = $0
		n = split(line, part, ":")
		file = part[1]
		if (n >= 3 && part[2] ~ /\.o$/)
			file = part[2]
		sym = $NF
		type = $(NF - 1)
		if (type ~ /^[TDBRC]$/)
			def[sym] = file
		else if (type == "U")
			use[file, sym] = 1
	}
	END {
		for (k in use) {
			split(k, f, SUBSEP)
			if (!(f[2] in def) || def[f[2]] == f[1])
				continue
			calls[f[1], def[f[2]]] = f[2]
		}
		for (k in calls) {
			split(k, f, SUBSEP)
			if (f[1] < f[2] && ((f[2], f[1]) in calls))
				printf "%s <-> %s: %s / %s\n", f[1], f[2],
				    calls[f[1], f[2]], calls[f[2], f[1]]
		}
	}' | sort
}

# The check itself, on two objects made to call each other.
cc=${CC:-cc}
printf 'int b(void);\nint a(void) { return b(); }\n' >"$T/a.c"
printf 'int a(void);\nint b(void) { return 1; }\nint c(void) { return a(); }\n' >"$T/b.c"
printf 'int b(void);\nint d(void) { return b(); }\n' >"$T/d.c"
if (cd "$T" && "$cc" -c a.c b.c d.c) 2>"$T/cc.err"; then
	got=$(cycles "$T/a.o" "$T/b.o" "$T/d.o")
	case $got in
	*"a.o <-> "*"b.o: b / a") ok "a pair calling both ways is found, a one-way call is not" ;;
	*) not_ok "a pair calling both ways is found, a one-way call is not" "got: $got" ;;
	esac
else
	not_ok "the test objects compile" "$(cat "$T/cc.err")"
fi

# program_objects PROG: the objects PROG is linked from, as the build's
# Makefile lists them (make list-objects), so an object left behind by a
# renamed file is not read.
program_objects() {
	local o found=""
	for o in $(make -s -C "$top_builddir" list-objects 2>/dev/null |
	    sed -n "s/^$1: //p"); do
		[ -f "$top_builddir/$o" ] && found="$found $top_builddir/$o"
	done
	echo "$found"
}

for name in tcptuned tcptunectl tcptunectl-full tcptune-parse; do
	# Windows builds neither the helper nor a second tcptunectl.
	if [ "$name" != tcptuned ] && [ "$name" != tcptunectl ] &&
	    ! make -s -C "$top_builddir" list-objects 2>/dev/null |
	    grep -q "^$name: [^ ]"; then
		skip "$name: no file pair calls each other" "not built here"
		continue
	fi
	objs=$(program_objects "$name")
	if [ -z "$objs" ] || [ ! -f "$top_builddir/lib/libtcptune.a" ]; then
		not_ok "$name: no file pair calls each other" \
		    "no objects of $name in $top_builddir (build first)"
		continue
	fi
	# shellcheck disable=SC2086 # a list of paths without blanks
	got=$(cycles $objs "$top_builddir/lib/libtcptune.a")
	if [ -z "$got" ]; then
		ok "$name: no file pair calls each other"
	else
		not_ok "$name: no file pair calls each other" \
		    "$got (return a value instead of calling back)"
	fi
done
tap_end
