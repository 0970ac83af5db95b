#!/bin/bash
# Every product file, .c and .h, is named in docs/DESIGN.md §2, the map
# of what each file owns, and §2 names no file that is not there, so the
# map cannot drift from the tree: a file added, split, renamed or
# removed without its row fails here.  The product files are the sources
# Makefile.am builds into libtcptune.a, tcptuned, tcptune-parse,
# tcptunectl and tcptunectl-full, on every platform (the Windows and BSD
# files too, whatever this configure chose).  A file is named when it is
# the first cell of a row of one of §2's tables, the path alone, from the
# top of the tree:
#     | lib/value.c | sysctl values as text ... | do I/O |
# A named file exists when it is in the source tree or Makefile.am lists
# it among the product sources (a generated one: tools/manual_pages.c).
# Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-design-files.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../product_files.sh
. "$top_srcdir/tests/product_files.sh"

# named_files DESIGN_MD: the files §2's table rows name in their first
# cell, one a line.
named_files() {
	awk -F'|' '
	/^## 2\./ { in2 = 1; next }
	/^## / { in2 = 0 }
	in2 && /^\|/ {
		cell = $2
		gsub(/^[ \t]+|[ \t]+$/, "", cell)
		if (cell ~ /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/)
			print cell
	}' "$1" | LC_ALL=C sort -u
}

# all_product MAKEFILE_AM: the product .c and .h files.
all_product() {
	{ product_files "$1"; product_headers "$1"; } | LC_ALL=C sort -u
}

# unnamed SRCDIR: the product files SRCDIR's §2 has no row for.
unnamed() {
	comm -23 <(all_product "$1/Makefile.am") <(named_files "$1/docs/DESIGN.md")
}

# stale SRCDIR: the files SRCDIR's §2 names that are neither in the tree
# nor product sources of its Makefile.am.
stale() {
	named_files "$1/docs/DESIGN.md" | while IFS= read -r f; do
		[ -e "$1/$f" ] && continue
		all_product "$1/Makefile.am" | grep -qxF "$f" && continue
		printf '%s\n' "$f"
	done
}

# The check itself, on a made-up tree in $T/src: it must find what is
# missing either way, and only that.
mkdir -p "$T/src/docs" "$T/src/lib" "$T/src/daemon" "$T/src/tools" \
    "$T/src/tests" || bail "cannot make $T/src"
for f in lib/a.h lib/a.c lib/b.c lib/g.h daemon/c.c daemon/d_posix.c \
    daemon/d_win.c tools/e.c tools/f.c tests/helper.c; do
	: >"$T/src/$f"
done
cat >"$T/src/Makefile.am" <<'EOF'
lib_libtcptune_a_SOURCES = lib/a.h lib/a.c \
	lib/b.c lib/g.h
if X
tcptuned_SOURCES += daemon/c.c daemon/d_posix.c \
	daemon/d_win.c
endif
CTL_FULL_SOURCES = tools/e.c tools/f.c tools/built.c
noinst_PROGRAMS = tests/unit/test_z
tests_unit_test_z_SOURCES = tests/unit/test_z.c
EOF
cat >"$T/src/docs/DESIGN.md" <<'EOF'
## 1. The data path
| lib/b.c | is not in §2 | |
## 2. The modules
| file | owns | may not |
| --- | --- | --- |
| lib/a.c | a | |
|  lib/a.h  | a's interface | |
| daemon/c.c | c | |
| daemon/d_posix.c | d on Unix | |
| daemon/d_win.c | d on Windows | |
| tools/e.c | e; tools/f.c is mentioned but has no row | |
| tools/built.c | generated, listed in Makefile.am | |
| tests/helper.c | a test helper | |
| lib/gone.c | removed from the tree | |
- **lib/g.h** in bold, not a row.
## 3. Platform facts
| tools/f.c | a row outside §2 | |
EOF
got=$(unnamed "$T/src" | tr '\n' ' ')
if [ "$got" = "lib/b.c lib/g.h tools/f.c " ]; then
	ok "the check finds the product files §2 has no row for, and only those"
else
	not_ok "the check finds the product files §2 has no row for, and only those" \
	    "got: $got"
fi
got=$(stale "$T/src" | tr '\n' ' ')
if [ "$got" = "lib/gone.c " ]; then
	ok "the check finds the files §2 names that do not exist, and only those"
else
	not_ok "the check finds the files §2 names that do not exist, and only those" \
	    "got: $got"
fi

# The tree.
all_product "$top_srcdir/Makefile.am" >"$T/product"
named_files "$top_srcdir/docs/DESIGN.md" >"$T/named"
if [ -s "$T/product" ]; then
	ok "Makefile.am names $(wc -l <"$T/product") product files"
else
	not_ok "Makefile.am names product files" "none found"
fi
while IFS= read -r f; do
	if grep -qxF "$f" "$T/named"; then
		ok "$f is named in docs/DESIGN.md §2"
	else
		not_ok "$f is named in docs/DESIGN.md §2" \
		    "add a row '| $f | what it owns | what it may not touch |' to its directory's table"
	fi
done <"$T/product"
stale "$top_srcdir" >"$T/stale"
while IFS= read -r f; do
	not_ok "docs/DESIGN.md §2 names only files that exist" \
	    "$f: no such file, and not a product source of Makefile.am; remove or rename its row"
done <"$T/stale"
[ -s "$T/stale" ] ||
    ok "docs/DESIGN.md §2 names only files that exist ($(wc -l <"$T/named") rows)"
tap_end
