#!/usr/bin/env bash
# fuzz.sh [SECONDS [BUILDDIR]]: build the libFuzzer harnesses (clang,
# -fsanitize=fuzzer,address,undefined) in BUILDDIR (a new temporary
# directory by default, never the source tree) and run each of them --
# the config reader, the protocol decoder, tcptunectl's reply parser,
# the value normalizer -- for
# SECONDS (default 60) on a copy of its seed corpus (`make fuzz`).
# Last line: "N passed, N failed", one per harness; exit 1 on any failure.
# A crash leaves its input in BUILDDIR/fuzz/work/NAME/artifacts/: once
# fixed, copy it into fuzz/regress/NAME/ so `make check` keeps it fixed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/tcptune-fuzz.XXXXXX")}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1

die() {
	echo "fuzz.sh: $*" >&2
	echo "0 passed, 3 failed"
	exit 1
}

case $secs in
'' | *[!0-9]*) die "SECONDS must be a whole number, not '$secs'" ;;
esac
command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 ||
    die "${FUZZ_CC:-clang} not found (apt-get install -y clang)"
# shellcheck source-path=SCRIPTDIR source=vpath-source.sh
. "$src/scripts/vpath-source.sh"
vpath_setup "$src" "$dir"	# or die; sets src, cds to dir
if [ ! -f Makefile ]; then
	"$src/configure" -q >configure.out 2>&1 ||
	    { tail -n 20 configure.out; die "configure failed (log $dir/configure.out)"; }
fi
make fuzz-build FUZZ_CC="${FUZZ_CC:-clang}" >build.out 2>&1 ||
    { grep -E 'error|Error' build.out | head -n 20; die "build failed (log $dir/build.out)"; }
make -s fuzz FUZZ_TIME="$secs" FUZZ_CC="${FUZZ_CC:-clang}" 2>&1 | tee fuzz.out
pass=$(grep -c '^PASS: fuzz_' fuzz.out)
fail=$(grep -c '^FAIL: fuzz_' fuzz.out)
# a harness that did not report at all is a failure too
[ $((pass + fail)) -lt 3 ] && fail=$((3 - pass))
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
