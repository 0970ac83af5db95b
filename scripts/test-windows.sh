#!/usr/bin/env bash
# The "windows" stage of scripts/test.sh: builds the Windows programs
# (scripts/build-windows.sh), the test tools beside them, makes one
# Wine prefix for the whole stage (Wine's first boot is slow), runs
# tests/windows/wine.sh and then, in the same prefix, the .msi package's
# tests/windows/msi.sh, and ends with "N passed, N failed".
# Installs wine (and openssl, for msi.sh's test certificate) with apt-get
# when it is missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "test-windows.sh: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

die() { fail "$@"; }
# shellcheck source=scripts/need-packages.sh
. "$top/scripts/need-packages.sh"
need_packages wine wine64 openssl || fail "cannot install wine or openssl"
work=$(mktemp -d "${TMPDIR:-/tmp}/tt-windows.XXXXXX") || fail "mktemp"
trap 'WINEPREFIX=$work/prefix wineserver -k >/dev/null 2>&1; rm -rf "$work"' EXIT
bin=$work/bin
host=x86_64-w64-mingw32
bash "$top/scripts/build-windows.sh" "$bin" || fail "the Windows build failed"
build=${TT_WIN_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/tcptune-windows}
for tool in set_acl pipe_abuse svc_control msgtable pipe_owner; do
	x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Werror \
	    -D_WIN32_WINNT=0x0A00 -D__USE_MINGW_ANSI_STDIO=1 \
	    -I"$top/lib" -I"$build/tcptune" -o "$bin/$tool.exe" \
	    "$top/tests/windows/$tool.c" -ladvapi32 ||
	    fail "cannot build $tool.exe"
done
# run_deadline.exe tests lib/run_win.c itself: built with it.
x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Werror \
    -D_WIN32_WINNT=0x0A00 -D__USE_MINGW_ANSI_STDIO=1 -I"$top/lib" \
    -o "$bin/run_deadline.exe" "$top/tests/windows/run_deadline.c" \
    "$top/lib/run_win.c" || fail "cannot build run_deadline.exe"
export WINEPREFIX=$work/prefix WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="	# no Mono or Gecko dialogs
wineboot -i >/dev/null 2>&1 || fail "wineboot failed"
# Right after the first boot a second services.exe can answer beside the
# first (sc query then alternates between two databases): start afresh.
wineserver -k >/dev/null 2>&1
wineserver -w >/dev/null 2>&1
out=$work/tap
# Bounded: a Wine that hangs fails the stage instead of the whole run.
{
	# The Windows programs too: no files call each other, pair or ring.
	NM=$host-nm CC=$host-gcc top_srcdir=$top top_builddir=$build/tcptune \
	    bash "$top/tests/lint/call_cycles.sh"
	WINBIN=$bin top_srcdir=$top timeout 1500 bash "$top/tests/windows/wine.sh"
	WINBIN=$bin top_srcdir=$top timeout 900 bash "$top/tests/windows/msi.sh"
	top_srcdir=$top timeout 60 bash "$top/tests/windows/smoke_rules.sh"
} | tee "$out"
pass=$(grep -c '^ok ' "$out")
failed=$(grep -c -e '^not ok ' -e '^Bail out!' "$out")
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
