#!/bin/bash
# Few product .c files under SMALL_LINES lines, per-OS files behind an
# interface excepted.  A file that small is most often part of a concern
# split off from the file that owns it (issue 33: 21 such files before
# their folding); the anchors, OpenBSD bgpd/bgpctl, OpenNTPD portable and
# chrony, keep small files only where an interface has one file per OS.
# Those are known by their names, NAME_OS.c (_posix, _linux, _darwin,
# _freebsd, _bsd, _win) or NAME_none.c, _null.c, _unwatched.c for an OS
# without the feature.  Every other product file under SMALL_LINES is
# counted, and the count may not pass SMALL_CEILING: fold a small file
# into the file that owns its concern, and lower the ceiling when the
# count falls.  The product files are Makefile.am's, as
# tests/lint/design_files.sh reads them.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-small-files.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../product_files.sh
. "$top_srcdir/tests/product_files.sh"

SMALL_LINES=60
# The count after measure_curlopt.c was folded into measure_net.c,
# tools/diagnose/diagnose.c into tcptunectl.c (run_diagnose, beside
# run_status) and lib/errlist.c into log.c: lib/backend.c (the one choice
# of a backend per OS), daemon/event_common.c (what every event backend
# shares), tools/manual.c (tcptunectl-full's alone: the lean tcptunectl
# must not link the pages).
SMALL_CEILING=3

# small_files DIR: "LINES FILE" for each product file of DIR/Makefile.am
# under SMALL_LINES lines that is not a per-OS file, one a line.  A file
# not in DIR (generated, as tools/manual_pages.c in a checkout not yet
# built) is not counted.
small_files() {
	local f n
	product_files "$1/Makefile.am" | while IFS= read -r f; do
		case ${f##*/} in
		*_posix.c | *_linux.c | *_darwin.c | *_freebsd.c | *_bsd.c | \
		    *_win.c | *_none.c | *_null.c | *_unwatched.c) continue ;;
		esac
		[ -f "$1/$f" ] || continue
		n=$(wc -l <"$1/$f")
		[ "$n" -lt "$SMALL_LINES" ] && echo "$n $f"
	done
}

# The check itself, on a made-up tree in $T.
mkdir -p "$T/lib" "$T/daemon"
cat >"$T/Makefile.am" <<'EOF'
lib_libtcptune_a_SOURCES = lib/short.c lib/long.c \
	lib/short_posix.c
tcptuned_SOURCES = daemon/short_unwatched.c daemon/generated.c
EOF
printf 'int a;\n' >"$T/lib/short.c"
printf 'int b;\n' >"$T/lib/short_posix.c"
printf 'int c;\n' >"$T/daemon/short_unwatched.c"
seq "$SMALL_LINES" | sed 's/^/int v/; s/$/;/' >"$T/lib/long.c"
got=$(small_files "$T" | tr '\n' ' ')
if [ "$got" = "1 lib/short.c " ]; then
	ok "the check counts a short file, not a per-OS one nor a long one"
else
	not_ok "the check counts a short file, not a per-OS one nor a long one" \
	    "got: $got"
fi

# The tree.
small_files "$top_srcdir" | sort -n >"$T/small"
count=$(wc -l <"$T/small")
if [ "$count" -le "$SMALL_CEILING" ]; then
	ok "$count product files under $SMALL_LINES lines, at most $SMALL_CEILING"
else
	not_ok "$count product files under $SMALL_LINES lines, at most $SMALL_CEILING" \
	    "$(cat "$T/small")" \
	    "fold a small file into the file that owns its concern, or, for" \
	    "a per-OS file behind an interface, name it NAME_OS.c"
fi
if [ "$count" -lt "$SMALL_CEILING" ]; then
	diag "fewer than the ceiling: lower SMALL_CEILING to $count"
fi
tap_end
