#!/bin/bash
# Every product .c file is named in docs/DESIGN.md §2, the map of what
# each file owns, so the map cannot drift from the tree: a file added,
# split or renamed without its entry fails here.  The product files are
# the sources Makefile.am builds into libtcptune.a, tcptuned,
# tcptune-parse, tcptunectl and tcptunectl-full, on every platform (the
# Windows and BSD files too, whatever this configure chose).  A file is
# named when §2 has it in bold, "- **DIR/FILE.c** owns ..." or, within
# the entry of the concern it serves, "**DIR/FILE.c** is ..."; bold may
# name several ("- **lib/log_posix.c / lib/log_win.c**",
# "- **tools/output.c, output_json.c**": a bare name is in the directory
# of the path before it).  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-design-files.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../product_files.sh
. "$top_srcdir/tests/product_files.sh"

# named_files DESIGN_MD: the .c files §2's entries name in bold, one a
# line: an entry's head or a file it goes on to describe in bold.
named_files() {
	awk '
	/^## 2\./ { in2 = 1; next }
	/^## / { in2 = 0 }
	in2 {
		line = $0
		while (match(line, /\*\*[^*]+\*\*/)) {
			s = substr(line, RSTART + 2, RLENGTH - 4)
			line = substr(line, RSTART + RLENGTH)
			n = split(s, tok, /( \/ |, | and |[ ()`])+/)
			dir = ""
			for (i = 1; i <= n; i++) {
				t = tok[i]
				if (t ~ /\//) {
					dir = t
					sub(/\/[^\/]*$/, "/", dir)
				} else if (t != "")
					t = dir t
				if (t ~ /\.c$/)
					print t
			}
		}
	}' "$1" | LC_ALL=C sort -u
}

# The check itself, on a made-up Makefile.am and design document in $T.
cat >"$T/Makefile.am" <<'EOF'
lib_libtcptune_a_SOURCES = lib/a.h lib/a.c \
	lib/b.c
if X
tcptuned_SOURCES += daemon/c.c daemon/d_posix.c \
	daemon/d_win.c
endif
CTL_FULL_SOURCES = tools/e.c tools/f.c
noinst_PROGRAMS = tests/unit/test_z
tests_unit_test_z_SOURCES = tests/unit/test_z.c
EOF
cat >"$T/DESIGN.md" <<'EOF'
## 1. The data path
- **lib/b.c** is not in §2.
## 2. The modules
- **lib/a.c** owns a.
- **daemon/c.c, d_posix.c / daemon/d_win.c** own c and d.
- **tools/e.c** owns e; tools/f.c is mentioned but has no entry,
  **tools/g.c** is described within it.
## 3. Platform facts
EOF
got=$(comm -23 <(product_files "$T/Makefile.am") <(named_files "$T/DESIGN.md") |
    tr '\n' ' ')
if [ "$got" = "lib/b.c tools/f.c " ]; then
	ok "the check finds the files §2 has no entry for, and only those"
else
	not_ok "the check finds the files §2 has no entry for, and only those" \
	    "got: $got"
fi

# The tree.
product_files "$top_srcdir/Makefile.am" >"$T/product"
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
		    "add an entry '- **$f** owns ...' to its directory's list"
	fi
done <"$T/product"
tap_end
