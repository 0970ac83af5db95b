#!/bin/bash
# No product .c file spells the OSes out by hand (issue 33: "adding an OS
# should touch one file per layer; no second OS enumeration").  What each
# OS is called, and what --platform also takes, is lib/catalogue.c's
# os_table[] and os_aliases[]; a message or help text that names the
# OSes takes them from catalogue_os_list(), and a program asks
# catalogue_os_parse() or catalogue_os_name(), never compares with a
# name of its own.  So in a string literal (adjacent literals joined, as
# the compiler joins them; comments skipped), outside lib/catalogue.c, a
# name or alias of os_table[]/os_aliases[] may not be the whole literal
# ("darwin"), nor one of two or more in it ("linux, macos, freebsd or
# windows").  One name in running text is left alone: "win" is also a
# verb ("its keys win"), "windows-autotuning-level" an identifier.
# Names are matched as the catalogue spells them, in lower case: the
# labels (Linux, macOS) are prose.  tools/manual_pages.c is the manual
# pages, generated from man/ (which names the OSes for readers).  The
# product files are design_files.sh's: every _SOURCES of Makefile.am, on
# every platform.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-os-names.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../product_files.sh
. "$top_srcdir/tests/product_files.sh"

# The files that may name the OSes: the catalogue, and the generated
# manual pages.
ALLOWED="lib/catalogue.c tools/manual_pages.c"

# os_words CATALOGUE_C: the names, --platform words and aliases of
# os_table[] and os_aliases[], one a line.
os_words() {
	awk '
	/^} os_table\[|^} os_aliases\[/ { in_table = 1; next }
	in_table && /^};/ { in_table = 0 }
	in_table && /\[TT_OS_[A-Z]+\] = \{/ {
		# name, label, word: the first and third strings
		n = split($0, s, "\"")
		print s[2]
		if (n >= 6)
			print s[6]
	}
	in_table && /\{ "[^"]*", TT_OS_/ {
		line = $0
		while (match(line, /\{ "[^"]*", TT_OS_/)) {
			w = substr(line, RSTART + 3)
			print substr(w, 1, index(w, "\"") - 1)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1" | LC_ALL=C sort -u
}

# os_named FILE WORDS: silent and 0 when FILE names no OS as above; else
# "line N: LITERAL" for each literal that does, and 1.
os_named() {
	awk -v words="$2" '
	BEGIN { nw = split(words, w, " "); for (i = 1; i <= nw; i++) os[w[i]] = 1 }
	{ text = text $0 "\n" }
	# the OS words in the literal s: how many distinct, and whether s is one
	function judge(s, at,    tok, n, i, seen, count, t) {
		n = split(s, tok, /[^-A-Za-z0-9_.]+/)
		count = 0
		for (i = 1; i <= n; i++) {
			t = tok[i]
			sub(/\.+$/, "", t)
			if ((t in os) && !(t in seen)) {
				seen[t] = 1
				count++
			}
		}
		if ((s in os) || count >= 2) {
			printf "line %d: \"%s\"\n", at, s
			bad = 1
		}
	}
	END {
		n = length(text)
		line = 1
		lit = ""
		inlit = 0
		for (i = 1; i <= n; i++) {
			c = substr(text, i, 1)
			if (c == "\n") {
				line++
				continue
			}
			if (c == " " || c == "\t" || c == "\\")
				continue	# joins literals, continues macros
			if (c == "/" && substr(text, i + 1, 1) == "*") {
				j = index(substr(text, i + 2), "*/")
				if (j == 0)
					j = n
				skipped = substr(text, i, j + 3)
				line += gsub(/\n/, "", skipped)
				i += j + 2
				continue
			}
			if (c == "/" && substr(text, i + 1, 1) == "/") {
				j = index(substr(text, i), "\n")
				i += (j ? j - 2 : n)
				continue
			}
			if (c == "\"" || c == "\047") {
				start = i
				for (i++; i <= n; i++) {
					d = substr(text, i, 1)
					if (d == "\\")
						i++
					else if (d == c || d == "\n")
						break
				}
				if (c == "\047")
					continue
				if (!inlit) {
					lit = ""
					at = line
					inlit = 1
				}
				lit = lit substr(text, start + 1, i - start - 1)
				continue
			}
			if (inlit)
				judge(lit, at)
			inlit = 0
		}
		if (inlit)
			judge(lit, at)
		exit bad
	}' "$1"
}

# The check itself, on files made up in $T to pass and to fail.
WORDS="darwin linux mac macos win win11 windows"
printf 'x = "darwin";\n' >"$T/whole.c"
printf 'warn("say linux, "\n    "macos or windows");\n' >"$T/list.c"
printf '#define X "linux and " \\\n\t"win11"\n' >"$T/macro.c"
printf '/* linux, darwin */ x = "its keys win"; // linux, mac\n' >"$T/prose.c"
printf 'y = "windows-autotuning-level"; c = %s; z = "win.h";\n' \
    "'\"'" >"$T/ident.c"
printf 'a = "Linux, macOS and Windows"; b = "linux" "-rmem";\n' >"$T/label.c"
if ! os_named "$T/whole.c" "$WORDS" >/dev/null &&
    [ "$(os_named "$T/list.c" "$WORDS")" = 'line 1: "say linux, macos or windows"' ] &&
    ! os_named "$T/macro.c" "$WORDS" >/dev/null &&
    os_named "$T/prose.c" "$WORDS" && os_named "$T/ident.c" "$WORDS" &&
    os_named "$T/label.c" "$WORDS"; then
	ok "the check finds an OS's name, a list of them, in a macro too; not prose, identifiers, labels or comments"
else
	not_ok "the check is broken on made-up files" \
	    "$(for f in "$T"/*.c; do echo "$f:"; os_named "$f" "$WORDS"; done)"
fi

words=$(os_words "$top_srcdir/lib/catalogue.c" | tr '\n' ' ')
for w in linux darwin freebsd windows macos win11; do
	case " $words" in
	*" $w "*) ;;
	*) not_ok "os_table[]/os_aliases[] read: $w is missing" "read: $words"
	   tap_end
	   exit ;;
	esac
done
ok "os_table[] and os_aliases[] read: $words"

files=$(product_files "$top_srcdir/Makefile.am")
[ -n "$files" ]
report $? "Makefile.am lists the product files" ""
for f in $files; do
	case " $ALLOWED " in
	*" $f "*) continue ;;
	esac
	# a generated file not yet built (tools/manual_pages.c) is not ours
	[ -f "$top_srcdir/$f" ] || continue
	why=$(os_named "$top_srcdir/$f" "$words")
	report $? "$f: names no OS by hand (catalogue_os_list)" "$why"
done
tap_end
