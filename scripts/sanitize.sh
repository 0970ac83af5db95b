#!/usr/bin/env bash
# sanitize.sh [BUILDDIR]: build with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (configure --enable-sanitizers) in BUILDDIR (a
# new temporary directory by default, never the source tree) and run the
# whole `make check` there: unit, config, fuzz-regression and system tests.
# Any sanitizer error fails its test; the daemon's reports also go to
# files, so one counts as a failure even when a test kills the daemon or
# ignores its exit status.
# Last line: "N passed, N failed"; exit status 1 on any failure.
#
# SANITIZE_CONFIGURE_FLAGS adds configure arguments (CFLAGS etc. from the
# environment reach configure too); MAKE_JOBS (default 2); SANITIZE_TIMEOUT
# (seconds, default 1800) bounds make check; SANITIZE_TESTS, when set, is
# the TESTS that make check runs (scripts/test.sh's check stage leaves out
# what must run uninstrumented).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tcptune-sanitize.XXXXXX")}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1
jobs=${MAKE_JOBS:-2}

die() {
	echo "sanitize.sh: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

command -v clang >/dev/null 2>&1 || die "clang not found (apt-get install -y clang)"
# shellcheck source-path=SCRIPTDIR source=vpath-source.sh
. "$src/scripts/vpath-source.sh"
vpath_setup "$src" "$dir"	# or die; sets src, cds to dir
# shellcheck disable=SC2086 # the extra flags are words
CC=clang "$src/configure" -q --enable-sanitizers --enable-werror --with-cmocka \
    ${SANITIZE_CONFIGURE_FLAGS:-} >configure.out 2>&1 ||
    { tail -n 20 configure.out; die "configure failed (log $dir/configure.out)"; }
make -j"$jobs" >build.out 2>&1 ||
    { grep -E 'error|Error' build.out | head -n 20; die "build failed (log $dir/build.out)"; }

reports=$dir/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
# halt_on_error: the first error ends the process, so no test can pass
# over it.  detect_leaks: LeakSanitizer works here (it stops the world with
# ptrace-like calls, which this kernel allows: checked with a known leak);
# it cannot work under strace, where tests/config/golden.sh runs
# tcptunectl, and says so there without changing the outcome.
san="halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export ASAN_OPTIONS=$san
# A library's own leak (scripts/lsan.supp says which and why) is not the
# project's: suppressed by name, everything else still fails.
export LSAN_OPTIONS="suppressions=$src/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# The daemon's reports go to files (tests/system/lib.sh puts this wrapper
# before it): a test that kills it or ignores its exit status cannot hide
# one.  Not for every process: golden.sh traces the files tcptunectl opens.
export TT_DAEMON_WRAPPER="env ASAN_OPTIONS=$san:log_path=$reports/tcptuned UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$reports/tcptuned"
find . -name '*.trs' -delete
# A hung test must not hang CI: the whole run is bounded (seconds).
if [ -n "${SANITIZE_TESTS+set}" ]; then
	timeout -k 10 "${SANITIZE_TIMEOUT:-1800}" make -j"$jobs" check \
	    TESTS="$SANITIZE_TESTS" >check.out 2>&1
else
	timeout -k 10 "${SANITIZE_TIMEOUT:-1800}" make -j"$jobs" check >check.out 2>&1
fi
rc=$?
[ "$rc" -eq 124 ] && echo "sanitize.sh: make check stopped after ${SANITIZE_TIMEOUT:-1800} s"

count() {
	cat "$@" 2>/dev/null | grep -c "^:test-result: $RESULT" || true
}
mapfile -t trs < <(find . -name '*.trs' | sort)
pass=$(RESULT=PASS count "${trs[@]}")
xfail=$(RESULT=XFAIL count "${trs[@]}")
skip=$(RESULT=SKIP count "${trs[@]}")
fail=$(RESULT='\(FAIL\|ERROR\|XPASS\)' count "${trs[@]}")
# UBSan creates its file at start; only one with a report in it counts.
nrep=$(find "$reports" -type f -size +0 | wc -l)

if [ "$fail" -gt 0 ] || [ "$nrep" -gt 0 ] || [ "$rc" -ne 0 ]; then
	for t in "${trs[@]}"; do
		grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$t" || continue
		log=${t%.trs}.log
		echo "=== $log (failures and last lines)"
		grep -E '^(not ok|Bail out)' "$log" | head -n 20
		tail -n 30 "$log"
	done
	for r in "$reports"/*; do
		[ -s "$r" ] || continue
		echo "=== sanitizer report $r"
		head -n 40 "$r"
	done
	[ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && [ "$nrep" -eq 0 ] && {
		echo "=== make check exit $rc"
		tail -n 20 check.out
		fail=1
	}
fi
echo "# build $dir; $skip skipped, $xfail expected failures; $nrep sanitizer reports"
echo "$((pass + xfail)) passed, $((fail + nrep)) failed"
[ "$((fail + nrep))" -eq 0 ]
