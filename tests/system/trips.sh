#!/bin/bash
# System test: the files on tcptune's two main trips (`tcptunectl
# status`; a config change on disk becoming a sysctl write), measured by
# scripts/trips.sh, stay few and named.  Each trip's files are shown as
# diagnostics; a trip fails when it crosses more files than its ceiling
# below, or a file that docs/DESIGN.md §2's trips table does not name
# (a change that adds a file to a trip says so there, or merges it);
# and the table and the ceilings follow a trip that crosses fewer: a
# file the trip leaves out is not named, a ceiling above the count fails.
# The coverage build is kept in the build tree (build/trips, which the
# source tree's copy leaves out) and made again only where the source
# changed.  The daemon runs on a sysctl tree of its own (tcptuned -r), so
# nothing of the host's is written.  Root, as the daemon's paths must be
# root's; gdb and gcov (scripts/deps.sh test).

# shellcheck source=tests/tap.sh
. "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/tap.sh"
: "${top_builddir:=$top_srcdir}"

# The ceilings: a ratchet, lowered as files are merged (a count below
# its ceiling fails until it is), never raised without saying why in
# docs/DESIGN.md.
STATUS_MAX=24
CONFIG_MAX=21

[ "$(id -u)" -eq 0 ] || skip_all "needs root (the daemon's paths must be root's)"
[ "$(uname -s)" = Linux ] || skip_all "Linux only (gdb and gcov on tcptuned)"
for t in gdb gcov gcc; do
	command -v "$t" >/dev/null 2>&1 ||
	    skip_all "$t is missing (scripts/deps.sh test)"
done

work=$top_builddir/build/trips
out=$work/trips.out
mkdir -p "$work" || bail "cannot make $work"
chmod 0755 "$top_builddir/build" "$work" || bail "cannot open $work to all"
if ! bash "$top_srcdir/scripts/trips.sh" "$work" >"$out" 2>"$work/trips.err"; then
	diag_file "scripts/trips.sh's errors" "$work/trips.err" 30
	bail "scripts/trips.sh failed"
fi

# trip_files NAME: the files scripts/trips.sh printed for trip NAME.
trip_files() {
	awk -v n="$1" '/^== / { on = ($2 == n ":") ; next } on' "$out"
}

# named_files ROW: the .c files the DESIGN table's row (its first cell's
# start) names.  A name without one of the three folders is in the
# folder of the last name that had one ("tools/tcptunectl.c, client.c,
# diagnose/diagnose_words.c").
named_files() {
	awk -F'|' -v row="$1" 'index($2, " " row) == 1 { print $4 }' \
	    "$top_srcdir/docs/DESIGN.md" | grep -oE '[A-Za-z0-9_/]+\.c' |
	    awk '/^(lib|daemon|tools)\// { top = $0; sub(/\/.*/, "", top)
			print; next }
		{ print top "/" $0 }' | sort -u
}

# check_trip NAME ROW MAX
check_trip() {
	local name=$1 row=$2 max=$3 files n unnamed
	files=$(trip_files "$name")
	n=$(printf '%s\n' "$files" | grep -c .)
	diag "$name trip: $n files" "$files"
	[ "$n" -gt 0 ] && [ "$n" -le "$max" ]
	report $? "the $name trip crosses $n files, at most $max"
	[ "$n" -ge "$max" ]
	report $? "the $name trip's ceiling is its count ($n): lowered as files merge" \
	    "the trip crosses $n files: lower its ceiling in tests/system/trips.sh from $max to $n"
	unnamed=$(comm -23 <(printf '%s\n' "$files" | sort -u) \
	    <(named_files "$row"))
	[ -z "$unnamed" ]
	report $? "every file of the $name trip is in docs/DESIGN.md's trips table" \
	    "not in the row \"$row\":" "$unnamed"
	gone=$(comm -13 <(printf '%s\n' "$files" | sort -u) \
	    <(named_files "$row"))
	[ -z "$gone" ]
	report $? "docs/DESIGN.md's trips table names no file the $name trip leaves out" \
	    "named in the row \"$row\" but not crossed:" "$gone"
}

# shellcheck disable=SC2016 # the row's words, backquotes and all
check_trip status '`tcptunectl status`' "$STATUS_MAX"
check_trip config 'a config change on disk' "$CONFIG_MAX"
tap_end
