#!/bin/bash
#
# bench/config/hostile_xml.sh [CASE...]: the CPU seconds (user + system)
# that reading a 1 MB plist costs, hostile against plain, through each
# program that reads XML: `tcptunectl check`, `tcptunectl import` and,
# as root, `tcptuned -n` (its parse helper).  Issue 41: libxml2 2.9's
# duplicate-attribute check is quadratic, and 143,208 attributes on
# <plist> cost check 31-46 s before lib/plist_scan.c refused them
# unparsed.  Prints one line a run; asserts nothing (the tests assert
# the refusal, tests/config/plist_scan.sh).
#
# CASEs (all by default):
#   plain            a good config padded to 1 MiB by a comment
#   attribute-flood  that config with 143,208 attributes on <plist>
#   namespace-flood  62,192 namespace declarations on a <dict> (930 kB)
#   launchd-flood    a launchd job with the attributes (check and import)
#
# top_builddir names the build measured (by default this tree's), so the
# same script on a build of the commit before gives the "before" figure:
#   top_builddir=/path/to/old/build bench/config/hostile_xml.sh
# Writes nothing but its temporary directory; no sysctl.
set -u
export LC_ALL=C
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
ctl=$top_builddir/tcptunectl
if [ ! -x "$ctl" ]; then
	echo "bench/config/hostile_xml.sh: $ctl not built" >&2
	exit 1
fi

# shellcheck source=tests/config/hostile.sh
. "$top_srcdir/tests/config/hostile.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/tt-bench-xml.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
mkdir "$T/etc" && chmod 0755 "$T/etc" || exit 1

# cpu CASE WHAT FILE CMD...: CMD's CPU seconds and its first line.
cpu() {
	local case=$1 what=$2 file=$3 t
	shift 3
	TIMEFORMAT='%U %S'
	t=$( { time "$@" >"$T/out" 2>&1; } 2>&1 )
	printf '%-16s %-12s %7.2f s CPU  %s\n' "$case" "$what" \
	    "$(echo "$t" | awk '{ print $1 + $2 }')" \
	    "$(head -n 1 "$T/out" | sed "s|$file|FILE|" | cut -c1-60)"
}

cases=("$@")
[ "${#cases[@]}" -gt 0 ] ||
	cases=(plain attribute-flood namespace-flood launchd-flood)
printf '# %s, build %s, libxml2 %s, load %s\n' "$(git -C "$top_srcdir" \
    describe --always --dirty 2>/dev/null || echo '?')" "$top_builddir" \
    "$(dpkg-query -W -f '${Version}' libxml2 2>/dev/null || echo '?')" \
    "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
for c in "${cases[@]}"; do
	f=$T/etc/$c.plist
	case $c in
	plain) hostile_padded 1048576 >"$f" ;;
	launchd-flood) hostile_launchd_flood >"$f" ;;
	*) hostile_make "$c" "$f" || exit 1 ;;
	esac
	chmod 0644 "$f"
	cpu "$c" check "$f" "$ctl" check --platform linux "$f"
	if [ "$c" = launchd-flood ]; then
		cpu "$c" import "$f" "$ctl" import --platform darwin "$f"
	fi
	if [ "$(id -u)" -eq 0 ] && [ -x "$top_builddir/tcptuned" ]; then
		cpu "$c" "tcptuned -n" "$f" "$top_builddir/tcptuned" -P \
		    "$top_builddir/tcptune-parse" -n -f "$f"
	fi
done
