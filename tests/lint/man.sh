#!/bin/bash
# The manual pages: mandoc finds no warning in them, and they agree with
# the programs.  What the pages must cover is taken from the programs
# themselves (tcptuned -h, tcptunectl --help) and from the parser's key
# tables in lib/config.c and lib/proto.c, never from a list kept here, so
# a flag, command, exit code, key or state added on one side and not the
# other fails a test.  Speaks TAP.  Run by make check, or by hand:
#   top_srcdir=/work/main top_builddir=/tmp/b tests/lint/man.sh
# TCPTUNED and TCPTUNECTL name other binaries to compare with.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
TCPTUNED=${TCPTUNED:-$top_builddir/tcptuned}
TCPTUNECTL=${TCPTUNECTL:-$top_builddir/tcptunectl}
MAN=$top_srcdir/man
PAGES="tcptuned.8 tcptunectl.8 tcptune.conf.5"

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# ---- reading the pages

# section PAGE NAME: the lines of one .Sh section, without its heading.
section() {
	awk -v want="$2" '
	    /^\.Sh / { on = (substr($0, 5) == want); next }
	    on' "$MAN/$1"
}

# flag_letters: every letter of the words after Fl, one a line
# (".Op Fl dhnV" gives d h n V; long options, Fl -name, are left out).
flag_letters() {
	grep -o 'Fl [A-Za-z][A-Za-z]*' | sed 's/^Fl //' | fold -w1 |
	    sort -u
}

# item_flags: the short options that list items define (".It Fl d").
item_flags() {
	sed -n 's/^\.It Fl \([A-Za-z]\)\( .*\)\{0,1\}$/\1/p' | sort -u
}

# long_flags: every long option named (Fl -name), one a line.
long_flags() {
	grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl --*//' | sort -u
}

# ---- reading the programs

# help_block TITLE: the lines after "TITLE" up to the next blank line.
help_block() {
	awk -v t="$1" '$0 == t { on = 1; next } on && /^$/ { exit } on'
}

# abs_paths: the absolute paths in a text, one a line.
abs_paths() {
	grep -oE '(^|[[:space:](])/[A-Za-z0-9_.-][A-Za-z0-9_./-]*' |
	    sed 's/^[[:space:](]*//; s/[.]$//' | sort -u
}

# ---- comparing

# same DESC WHAT_A A WHAT_B B: ok when the two lists (one item a line)
# hold the same items.  An empty list never passes: it would mean the
# extraction broke, not that both sides agree.
same() {
	local desc=$1 na=$2 a=$3 nb=$4 b=$5 only_a only_b
	if [ -z "$a" ] || [ -z "$b" ]; then
		not_ok "$desc" "nothing found in ${na} or in ${nb}:" \
		    "$na: $(echo "$a" | tr '\n' ' ')" \
		    "$nb: $(echo "$b" | tr '\n' ' ')"
		return 1
	fi
	only_a=$(comm -23 <(echo "$a" | sort -u) <(echo "$b" | sort -u))
	only_b=$(comm -13 <(echo "$a" | sort -u) <(echo "$b" | sort -u))
	if [ -z "$only_a" ] && [ -z "$only_b" ]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc" \
	    "in $na but not in $nb: $(echo "$only_a" | tr '\n' ' ')" \
	    "in $nb but not in $na: $(echo "$only_b" | tr '\n' ' ')"
	return 1
}

# subset DESC WHAT_A A WHAT_B B: ok when every item of A is in B.
subset() {
	local desc=$1 na=$2 a=$3 nb=$4 b=$5 only_a
	if [ -z "$a" ]; then
		not_ok "$desc" "nothing found in $na"
		return 1
	fi
	only_a=$(comm -23 <(echo "$a" | sort -u) <(echo "$b" | sort -u))
	if [ -z "$only_a" ]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc" "in $na but not in $nb: $(echo "$only_a" | tr '\n' ' ')"
	return 1
}

# ---- mandoc

lint_pages() {
	local page out
	for page in $PAGES; do
		if ! command -v mandoc >/dev/null 2>&1; then
			skip "mandoc -Tlint: $page" "mandoc is not installed"
			continue
		fi
		# Style messages (a referenced page not installed here) are
		# below -W warning; anything mandoc prints at this level fails.
		if out=$(mandoc -Tlint -W warning "$MAN/$page" 2>&1) &&
		    [ -z "$out" ]; then
			ok "mandoc -Tlint -W warning: $page"
		else
			not_ok "mandoc -Tlint -W warning: $page" "$out"
		fi
	done
}

# ---- tcptuned.8

# The option letters tcptuned -h shows: on its usage line ("[-dnhV]",
# "[-f config]") and as the lines that explain them ("  -d  ...").
tcptuned_help_letters() {
	local help=$1
	{
		echo "$help" | head -n 1 | grep -oE '\[-[A-Za-z]+' |
		    sed 's/^\[-//' | fold -w1
		echo "$help" | sed -n 's/^  -\([A-Za-z]\) .*/\1/p'
	} | sort -u
}

check_tcptuned() {
	local help letters
	if ! help=$("$TCPTUNED" -h 2>&1); then
		not_ok "tcptuned -h runs" "$TCPTUNED -h failed: $help"
		return
	fi
	letters=$(tcptuned_help_letters "$help")
	same "tcptuned.8 SYNOPSIS has every option of tcptuned -h" \
	    "tcptuned -h" "$letters" \
	    "tcptuned.8 SYNOPSIS" "$(section tcptuned.8 SYNOPSIS | flag_letters)"
	same "tcptuned.8 explains every option of tcptuned -h" \
	    "tcptuned -h" "$letters" \
	    "tcptuned.8 options list" \
	    "$(section tcptuned.8 DESCRIPTION | item_flags)"
	check_paths tcptuned.8 "tcptuned -h" "$help"
	check_drift_caught "$help"
	# tcptuned -h lists no exit codes: take those its source can exit
	# with (fatal() in lib/log.c exits too).
	same "tcptuned.8 EXIT STATUS has every exit code of tcptuned" \
	    "daemon/tcptuned.c and lib/log.c" \
	    "$(cat "$top_srcdir/daemon/tcptuned.c" "$top_srcdir/lib/log.c" |
	    sed -n 's/.*[^_a-z]exit(\([0-9][0-9]*\));.*/\1/p' | sort -u)" \
	    "tcptuned.8 EXIT STATUS" \
	    "$(section tcptuned.8 'EXIT STATUS' | sed -n 's/^\.It \([0-9][0-9]*\)$/\1/p')"
}

# The comparison must notice a flag that the program has and the page
# lacks: run it on the real help with a made-up option added.
check_drift_caught() {
	local fake letters out
	fake=$(printf '%s\n%s\n' "$1" "  -Z            a flag no page explains")
	letters=$(tcptuned_help_letters "$fake")
	if out=$(same "(inner)" "help" "$letters" "page" \
	    "$(section tcptuned.8 DESCRIPTION | item_flags)") ||
	    ! echo "$out" | grep -q 'not in page: Z'; then
		not_ok "an option missing from tcptuned.8 is caught" \
		    "the comparison did not notice -Z: $out"
	else
		ok "an option missing from tcptuned.8 is caught"
	fi
}

# check_paths PAGE WHAT HELP: every absolute path the help prints (the
# defaults this build was configured with) is in the page's FILES.
check_paths() {
	local page=$1 what=$2 files path missing=''
	files=$(section "$page" FILES | sed -n 's/^\.It Pa \([^ ]*\).*/\1/p')
	for path in $(echo "$3" | abs_paths); do
		echo "$files" | grep -qxF "$path" || missing="$missing $path"
	done
	if [ -z "$(echo "$3" | abs_paths)" ]; then
		not_ok "$page FILES has the default paths of $what" \
		    "no path found in the output of $what"
	elif [ -z "$missing" ]; then
		ok "$page FILES has the default paths of $what"
	elif custom_paths >/dev/null; then
		skip "$page FILES has the default paths of $what" \
		    "configured with other directories ($(custom_paths)):$missing"
	else
		not_ok "$page FILES has the default paths of $what" \
		    "not in FILES:$missing"
	fi
}

# The directory options configure was given, if any: with them the
# programs print paths no page can know.
custom_paths() {
	local cs=$top_builddir/config.status
	[ -x "$cs" ] || return 1
	"$cs" --config | grep -oE "'?--(prefix|sysconfdir|localstatedir|runstatedir|with-statedir|with-rundir)=[^ ']*" |
	    tr -d "'" | tr '\n' ' ' | grep .
}

# ---- tcptunectl.8

check_tcptunectl() {
	local help cmds opts
	# --help -v: the whole reference (--help alone is one screen)
	if ! help=$("$TCPTUNECTL" --help -v 2>&1); then
		not_ok "tcptunectl --help -v runs" "$TCPTUNECTL --help -v failed: $help"
		return
	fi
	cmds=$(echo "$help" | help_block "Commands:" |
	    sed -n 's/^  \([a-z][a-z]*\).*/\1/p')
	same "tcptunectl.8 COMMANDS has every command of --help" \
	    "tcptunectl --help" "$cmds" "tcptunectl.8 COMMANDS" \
	    "$(section tcptunectl.8 COMMANDS | sed -n 's/^\.It Cm \([a-z]*\).*/\1/p')"
	opts=$(echo "$help" | help_block "Options, before or after the command:")
	same "tcptunectl.8 has every long option of --help" \
	    "tcptunectl --help" \
	    "$(echo "$opts" | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
	    sed 's/.*--//')" \
	    "tcptunectl.8 option lists" \
	    "$(grep '^\.It ' "$MAN/tcptunectl.8" | long_flags)"
	subset "every long option tcptunectl.8 names exists" \
	    "tcptunectl.8" "$(long_flags < "$MAN/tcptunectl.8")" \
	    "tcptunectl --help" \
	    "$(echo "$opts" | grep -oE -- '--[a-z][a-z-]*' | sed 's/^--//')"
	same "tcptunectl.8 has every short option of --help" \
	    "tcptunectl --help" \
	    "$(echo "$opts" | sed -n 's/^  -\([A-Za-z]\), --.*/\1/p')" \
	    "tcptunectl.8 options list" \
	    "$(section tcptunectl.8 DESCRIPTION | item_flags)"
	same "tcptunectl.8 EXIT STATUS has the exit codes of --help" \
	    "tcptunectl --help" \
	    "$(echo "$help" | help_block "Exit status:" |
	    sed -n 's/^  \([0-9][0-9]*\) .*/\1/p')" \
	    "tcptunectl.8 EXIT STATUS" \
	    "$(section tcptunectl.8 'EXIT STATUS' | sed -n 's/^\.It \([0-9][0-9]*\)$/\1/p')"
	# (issue 45: import's and set's codes were in the page alone)
	subset "--help -v's exit statuses name every command tcptunectl.8's do" \
	    "tcptunectl.8 EXIT STATUS" \
	    "$(section tcptunectl.8 'EXIT STATUS' |
	    sed -n 's/^\.Cm \([a-z][a-z]*\).*/\1/p' | sort -u)" \
	    "tcptunectl --help -v, Exit status" \
	    "$(echo "$help" | help_block "Exit status:" | grep -oE '[a-z]+' |
	    sort -u)"
	check_paths tcptunectl.8 "tcptunectl --help" "$help"
	check_states
}

# The key states of lib/proto.c, each described in STATUS OUTPUT, which
# describes no other: an item starts with the state's name.
check_states() {
	local states items s missing='' extra=''
	states=$(sed -n '/key_state_names\[/,/^};/s/.*\] = "\([^"]*\)".*/\1/p' \
	    "$top_srcdir/lib/proto.c")
	items=$(section tcptunectl.8 'STATUS OUTPUT' | sed -n 's/^\.It //p')
	if [ -z "$states" ] || [ -z "$items" ]; then
		not_ok "tcptunectl.8 STATUS OUTPUT has every key state" \
		    "states in lib/proto.c: $states" "items: $items"
		return
	fi
	while IFS= read -r s; do
		echo "$items" | grep -q "^$s\( \|:\|$\)" ||
		    missing="$missing \"$s\""
	done <<<"$states"
	while IFS= read -r s; do
		echo "$states" | while IFS= read -r st; do
			case $s in "$st"|"$st "*|"$st:"*) echo y ;; esac
		done | grep -q y || extra="$extra \"$s\""
	done <<<"$items"
	if [ -z "$missing$extra" ]; then
		ok "tcptunectl.8 STATUS OUTPUT has every key state"
	else
		not_ok "tcptunectl.8 STATUS OUTPUT has every key state" \
		    "states not described:$missing" "items not states:$extra"
	fi
}

# ---- tcptune.conf.5

# The quoted strings of one array in lib/config.c (FILE: another file of
# lib/; the mode words are in config_model.c, which tcptunectl shares).
config_table() {
	sed -n "/^\(static \)\{0,1\}const char \*const $1\[[A-Z_ +0-9]*\] = {/,/};/p" \
	    "$top_srcdir/lib/${2:-config.c}" | grep -o '"[^"]*"' | tr -d '"'
}

check_conf() {
	local desc
	desc=$(section tcptune.conf.5 DESCRIPTION)
	same "tcptune.conf.5 has every key lib/config.c accepts" \
	    "lib/config.c" \
	    "$(config_table top_fields; config_table key_fields)" \
	    "tcptune.conf.5" \
	    "$(echo "$desc" | sed -n 's/^\.It Ic \([A-Za-z]*\).*/\1/p')"
	same "tcptune.conf.5 has every Mode and OnReject of lib/config_model.c" \
	    "lib/config_model.c" \
	    "$(config_table config_mode_names config_model.c
	       config_table config_reject_names config_model.c)" \
	    "tcptune.conf.5" \
	    "$(echo "$desc" | sed -n 's/^\.It Cm \([a-z-]*\)$/\1/p')"
}

# ---- the pages built into tcptunectl (tcptunectl help PAGE)

# rendered PAGE: the page as scripts/man2c.sh is given it.
rendered() {
	sh "$top_srcdir/scripts/man2txt.sh" "$MAN/$1"
}

check_builtin_pages() {
	local page name out rv
	for page in $PAGES; do
		name=${page%.*}
		if ! out=$("$TCPTUNECTL" help "$name" 2>&1); then
			not_ok "tcptunectl help $name runs" "$out"
			continue
		fi
		if [ "$out" = "$(rendered "$page")" ] && [ -n "$out" ]; then
			ok "tcptunectl help $name is $page as mandoc renders it"
		else
			not_ok "tcptunectl help $name is $page as mandoc renders it" \
			    "$(diff <(echo "$out") <(rendered "$page") | head -n 10)"
		fi
	done
	if [ "$("$TCPTUNECTL" help tcptune.conf.5 2>&1)" = \
	    "$(rendered tcptune.conf.5)" ]; then
		ok "tcptunectl help NAME.SECTION finds the page too"
	else
		not_ok "tcptunectl help NAME.SECTION finds the page too"
	fi
	# a page's name, as a command's, whatever its case (issue 31)
	if [ "$("$TCPTUNECTL" help TCPTUNED 2>&1)" = "$(rendered tcptuned.8)" ] &&
	    [ "$("$TCPTUNECTL" help TcpTune.Conf.5 2>&1)" = \
	    "$(rendered tcptune.conf.5)" ]; then
		ok "tcptunectl help PAGE ignores the case of PAGE"
	else
		not_ok "tcptunectl help PAGE ignores the case of PAGE"
	fi
	out=$("$TCPTUNECTL" help tcptune 2>&1 >/dev/null)
	rv=$?
	# neither a command nor a page: the one meant, then both lists
	if [ "$rv" -eq 64 ] &&
	    echo "$out" | grep -q 'no command or manual page "tcptune": did you mean tcptuned?$' &&
	    echo "$out" | grep -q '^manual pages: tcptuned, tcptunectl, tcptune.conf$'; then
		ok "an unknown page is a usage error naming the pages there are"
	else
		not_ok "an unknown page is a usage error naming the pages there are" \
		    "exit $rv: $out"
	fi
	out=$("$TCPTUNECTL" help tcptuned tcptunectl 2>&1 >/dev/null)
	rv=$?
	if [ "$rv" -eq 64 ] && echo "$out" | grep -q 'too many arguments for help'; then
		ok "help takes one page at most"
	else
		not_ok "help takes one page at most" "exit $rv: $out"
	fi
	out=$("$TCPTUNECTL" help tcptuned 2>&1 >/dev/full)
	rv=$?
	if [ "$rv" -eq 1 ] && echo "$out" | grep -q 'standard output'; then
		ok "a page that cannot be written out is a failure, said"
	else
		not_ok "a page that cannot be written out is a failure, said" \
		    "exit $rv: $out"
	fi
	out=$(sh "$top_srcdir/scripts/man2txt.sh" 2>&1)
	rv=$?
	if [ "$rv" -eq 64 ] && echo "$out" | grep -q 'usage:'; then
		ok "man2txt.sh without a page: usage, exit 64"
	else
		not_ok "man2txt.sh without a page: usage, exit 64" "exit $rv: $out"
	fi
}

# Building the pages in without mandoc (a checkout on a machine without
# it) stops with what to install: the rule is forced (-W) with MANDOC
# empty, and fails before it writes anything.
check_no_mandoc() {
	local out rv
	if [ ! -f "$top_builddir/Makefile" ]; then
		skip "without mandoc, the build says what to install" \
		    "no Makefile in $top_builddir"
		return
	fi
	out=$(make -s -C "$top_builddir" MANDOC= \
	    -W scripts/man2c.sh tools/manual_pages.c 2>&1)
	rv=$?
	if [ "$rv" -ne 0 ] && echo "$out" | grep -q 'mandoc is needed.*apt-get install mandoc'; then
		ok "without mandoc, the build says what to install"
	else
		not_ok "without mandoc, the build says what to install" \
		    "exit $rv: $out"
	fi
}

lint_pages
check_tcptuned
check_tcptunectl
check_conf
check_builtin_pages
check_no_mandoc
tap_end
