#!/bin/bash
# configure.ac asks for the autoconf it needs: $runstatedir exists from
# autoconf 2.70 on, and a configure made by 2.69 leaves it empty, so the
# control socket would become /tcptune/tcptuned.sock.  Checked in the
# source (AC_PREREQ against the variables configure.ac uses) and in this
# build (the directories the paths are made of are absolute).  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
AC=$top_srcdir/configure.ac

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# version_ge A B: A >= B, both "major.minor".
version_ge() {
	local am=${1%%.*} an=${1#*.} bm=${2%%.*} bn=${2#*.}
	[ "$am" -gt "$bm" ] || { [ "$am" -eq "$bm" ] && [ "$an" -ge "$bn" ]; }
}

prereq=$(sed -n 's/^AC_PREREQ(\[\{0,1\}\([0-9.]*\)\]\{0,1\})$/\1/p' "$AC")
if [ -z "$prereq" ]; then
	not_ok "configure.ac has an AC_PREREQ" "none found in $AC"
elif grep -q 'runstatedir' "$AC" && ! version_ge "$prereq" 2.70; then
	not_ok "AC_PREREQ is 2.70 or later, as \$runstatedir needs" \
	    "AC_PREREQ([$prereq]) in $AC"
else
	ok "AC_PREREQ([$prereq]) covers the variables configure.ac uses"
fi

# The Makefile of this build: each directory a default path is made of.
mk=$top_builddir/Makefile
if [ ! -f "$mk" ]; then
	skip "the configured directories are absolute" "no $mk"
else
	for var in runstatedir localstatedir sysconfdir tt_rundir tt_statedir; do
		val=$(sed -n "s/^$var = //p" "$mk")
		# a literal ${ (make expands it), not a shell expansion
		# shellcheck disable=SC2016
		case $val in
		/*|'${'*) ok "$var is a path ($val)" ;;
		*) not_ok "$var is a path" "$var = '$val' in $mk" ;;
		esac
	done
fi
tap_end
