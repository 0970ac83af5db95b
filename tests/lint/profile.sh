#!/bin/sh
# The example MDM profile and the ProfileManifests manifest in etc/ (see
# tests/lint/profile.py): well-formed, the profile's payload passing
# tcptunectl check, the manifest listing every key lib/config.c accepts.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
export top_srcdir top_builddir
command -v python3 >/dev/null 2>&1 || {
	echo "1..0 # SKIP python3 not installed (scripts/deps.sh test)"
	exit 0
}
exec python3 "$top_srcdir/tests/lint/profile.py"
