#!/bin/bash
# No files of a program call each other: in tcptuned, tcptunectl,
# tcptunectl-full and tcptune-parse as built (their objects and
# lib/libtcptune.a), when file A uses a symbol that file B defines, B
# uses nothing that A defines, neither directly nor through other files
# (A -> C -> B -> A is a ring as much as A <-> B is).  Files that call
# each other are one concern split in two, or two concerns knotted
# together: the first are joined into one file; of the second, the
# lower one returns a value (an errno, a result the caller words)
# instead of calling back, or takes a table of the caller's functions
# (control_ops).  Moving a function out into a file of its own is no
# fix: the ring is still there and is found.  Read off the symbol tables
# (nm), so a call added anywhere is seen.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
: "${NM:=nm}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-cycles.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# calls FILE...: "user definer symbol", one a line, for each symbol an
# object file (or archive member) uses that another one defines.
calls() {
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
			if ((f[2] in def) && def[f[2]] != f[1])
				print f[1], def[f[2]], f[2]
		}
	}' | sort
}

# pairs CALLS: each pair of files that use each other's symbols,
# "a <-> b: sym / sym", one a line.
pairs() {
	awk '
	{ calls[$1, $2] = $3 }
	END {
		for (k in calls) {
			split(k, f, SUBSEP)
			if (f[1] < f[2] && ((f[2], f[1]) in calls))
				printf "%s <-> %s: %s / %s\n", f[1], f[2],
				    calls[f[1], f[2]], calls[f[2], f[1]]
		}
	}' "$1" | sort
}

# rings CALLS: the files of a ring of calls, "a b c", one ring a line,
# or nothing.  tsort(1) (POSIX) orders a graph without a ring and names
# the members of each ring it meets on its standard error, after a line
# "tsort: -: input contains a loop:" (GNU) or "tsort: cycle in data"
# (BSD).
rings() {
	cut -d' ' -f1,2 "$1" | tsort 2>&1 >/dev/null | awk '
	/: input contains a loop:$|: cycle in data$/ {
		if (ring != "")
			print ring
		ring = ""
		next
	}
	{ sub(/^tsort: /, ""); ring = ring (ring == "" ? "" : " ") $0 }
	END { if (ring != "") print ring }'
}

# The check itself, on objects made to call each other: a and b both
# ways, d one way into b; e, f and g in a ring.
cc=${CC:-cc}
printf 'int b(void);\nint a(void) { return b(); }\n' >"$T/a.c"
printf 'int a(void);\nint b(void) { return 1; }\nint c(void) { return a(); }\n' >"$T/b.c"
printf 'int b(void);\nint d(void) { return b(); }\n' >"$T/d.c"
printf 'int f(void);\nint e(void) { return f(); }\n' >"$T/e.c"
printf 'int g(void);\nint f(void) { return g(); }\n' >"$T/f.c"
printf 'int e(void);\nint g(void) { return e(); }\n' >"$T/g.c"
if (cd "$T" && "$cc" -c a.c b.c d.c e.c f.c g.c) 2>"$T/cc.err"; then
	calls "$T/a.o" "$T/b.o" "$T/d.o" >"$T/abd"
	got=$(pairs "$T/abd")
	case $got in
	*"a.o <-> "*"b.o: b / a") ok "a pair calling both ways is found, a one-way call is not" ;;
	*) not_ok "a pair calling both ways is found, a one-way call is not" "got: $got" ;;
	esac
	calls "$T/d.o" "$T/e.o" "$T/f.o" "$T/g.o" >"$T/defg"
	got=$(rings "$T/defg")
	case $got in
	*e.o*) case $got in *f.o*g.o*|*g.o*f.o*) ring=yes ;; *) ring=no ;; esac ;;
	*) ring=no ;;
	esac
	if [ "$ring" = yes ] && [ -z "$(pairs "$T/defg")" ] &&
	    ! rings "$T/abd" | grep -qF /d.o; then
		ok "a ring of three files is found, though no pair calls both ways"
	else
		not_ok "a ring of three files is found, though no pair calls both ways" \
		    "got: $got"
	fi
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
		skip "$name: no ring of files calls round" "not built here"
		continue
	fi
	objs=$(program_objects "$name")
	if [ -z "$objs" ] || [ ! -f "$top_builddir/lib/libtcptune.a" ]; then
		not_ok "$name: no file pair calls each other" \
		    "no objects of $name in $top_builddir (build first)"
		continue
	fi
	# shellcheck disable=SC2086 # a list of paths without blanks
	calls $objs "$top_builddir/lib/libtcptune.a" >"$T/calls"
	got=$(pairs "$T/calls")
	if [ -z "$got" ]; then
		ok "$name: no file pair calls each other"
	else
		not_ok "$name: no file pair calls each other" \
		    "$got (return a value instead of calling back, or join the two)"
	fi
	got=$(rings "$T/calls")
	if [ -z "$got" ]; then
		ok "$name: no ring of files calls round"
	else
		not_ok "$name: no ring of files calls round" \
		    "ring: $got (a file split off does not break it)"
	fi
done
tap_end
