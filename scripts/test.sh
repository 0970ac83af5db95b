#!/usr/bin/env bash
# Quick start, command two: installs what the tests need, builds, and runs
# every test, in stages:
#   check       make check, once: unit, config golden files, lints, fuzz
#               regressions and system tests in private network namespaces
#               under ASan + UBSan (clang, scripts/sanitize.sh); packaging
#               and bench smoke runs in the tree's own (gcc) build
#   distcheck   the release tarball builds, tests (a subset), installs and
#               uninstalls
#   valgrind    the system tests with the daemon under memcheck
#   fuzz        each libFuzzer harness for a bounded time
#   macos       cross-build of every program and test for arm64 and x86_64
#               macOS with -Werror (zig from npm, scripts/build-macos.sh)
#   windows     the Windows build (mingw-w64) and its tests under Wine
#   release     scripts/release.sh end to end (tests/packaging/release.sh),
#               on the builds the macos and windows stages left
# Each stage prints its own "N passed, N failed"; the summary gives each
# stage's figures and duration, and its last line sums them.
# TT_STAGES="check fuzz" picks stages; TT_FUZZ_TIME sets the fuzz seconds;
# TT_TEST_JOBS make check's jobs (twice the cores).
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)

started=$(date +%s)
bash scripts/deps.sh test || exit 1
# The check stage must build the unit tests, so configure requires cmocka
# here (it fails, loudly, without it).  A tree configured without that
# (scripts/demo.sh configures before the test dependencies are in) is
# configured again, with its own options.
conf=()
if [ -f config.status ] &&
    ! ./config.status --config | grep -q -- "'--with-cmocka'"; then
	echo "test.sh: configuring again, now requiring cmocka for the unit tests"
	eval "conf=($(./config.status --config))"
	rm -f Makefile		# so that build.sh runs configure
fi
bash scripts/build.sh "${conf[@]}" --with-cmocka ||
    { echo "0 passed, 1 failed"; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)
# make check's jobs in the check and distcheck stages.  A system test
# mostly waits on its daemon (apply.sh: 18 s of CPU in 82 s, control.sh 5
# in 46), so twice the cores keeps them busy; TT_TEST_JOBS overrides.
test_jobs=${TT_TEST_JOBS:-$((2 * jobs))}
total_pass=0
total_fail=0
summary=""

# minsec SECONDS: "12m05s".
minsec() {
	printf '%dm%02ds' "$(($1 / 60))" "$(($1 % 60))"
}
summary=$(printf '%-11s %35s' setup "$(minsec $(($(date +%s) - started)))")"\n"

# count_trs DIR: "PASS FAIL SKIP" over the automake test results under DIR.
count_trs() {
	local trs
	trs=$(find "$1" -name '*.trs' -newer "$2" -exec cat {} + 2>/dev/null)
	printf '%s %s %s\n' \
	    "$(grep -c '^:test-result: PASS' <<<"$trs")" \
	    "$(grep -Ec '^:test-result: (FAIL|XPASS|ERROR)' <<<"$trs")" \
	    "$(grep -c '^:test-result: SKIP' <<<"$trs")"
}

# show_failures DIR: the tail of each failing test's log.
show_failures() {
	local log
	find "$1" -name '*.log' ! -name 'test-suite.log' ! -name 'config.log' |
	while read -r log; do
		grep -Eq '^(FAIL|ERROR|XPASS|not ok)' "$log" 2>/dev/null || continue
		echo "==== $log"
		tail -n 60 "$log"
	done
}

# tally NAME PASS FAIL: add one stage's figures to the total, with the
# time since stage_start.
tally() {
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
	summary="$summary$(printf '%-11s %5s passed, %4s failed %9s' "$1" "$2" "$3" \
	    "$(minsec $(($(date +%s) - stage_start)))")\n"
}

# tests_of: the tree's TESTS, one a line, as its configure chose them.
tests_of() {
	# shellcheck disable=SC2016 # make expands them
	printf 'tt-print-tests:\n\t@for t in $(TESTS); do echo $$t; done\n' |
	    make -s -f Makefile -f - tt-print-tests
}

# uninstrumented TEST: whether the check stage runs TEST on the tree's own
# build (gcc, as users get it) rather than under the sanitizers: the
# packaging tier builds, packages and installs the programs, and the
# benchmarks' smoke runs and security.sh's bound on the daemon's resident
# memory measure them (ASan's shadow and quarantine are not what users run).
uninstrumented() {
	case $1 in
	tests/packaging/* | bench/* | tests/system/security.sh) return 0 ;;
	# the quick start as a user runs it: demo.sh on a copy of the git
	# checkout (the sanitizer build's source is a copy without .git,
	# where it could only skip); it builds its own tree anyway
	tests/system/quickstart.sh) return 0 ;;
	esac
	return 1
}

# counts_of FILE: "PASS FAIL" from the last "N passed, N failed" line of
# FILE, "0 1" when there is none (the script crashed).
counts_of() {
	local last fail
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$last" ]; then
		echo "0 1"
		return
	fi
	fail=${last#*passed, }
	echo "${last%% passed*} ${fail%% failed*}"
}

# The check stage: every test of make check, once.  Most of them under
# AddressSanitizer, LeakSanitizer and UBSan (scripts/sanitize.sh: clang, a
# build directory of its own), which used to be a stage of its own running
# the whole suite a second time; the uninstrumented ones in the tree's own
# build, which scripts/build.sh made with gcc and -Werror.
stage_check() {
	local t plain=() san=() stamp out pass fail skip status spass sfail
	while read -r t; do
		if uninstrumented "$t"; then plain+=("$t"); else san+=("$t"); fi
	done < <(tests_of)
	echo "check: ${#san[@]} tests under the sanitizers, ${#plain[@]} uninstrumented"
	stamp=$(mktemp)
	make -j"$test_jobs" check TESTS="${plain[*]}"
	status=$?
	read -r pass fail skip <<<"$(count_trs . "$stamp")"
	rm -f "$stamp"
	if [ "$status" -ne 0 ]; then
		show_failures tests
		show_failures bench
		[ "$fail" -eq 0 ] && fail=1
	fi
	echo "check, uninstrumented: $pass passed, $fail failed, $skip skipped"
	out=$(mktemp)
	SANITIZE_TESTS="${san[*]}" MAKE_JOBS=$test_jobs bash scripts/sanitize.sh 2>&1 |
	    tee "$out"
	read -r spass sfail <<<"$(counts_of "$out")"
	rm -f "$out"
	echo "check: $((pass + spass)) passed, $((fail + sfail)) failed"
	tally check "$((pass + spass))" "$((fail + sfail))"
}

# distcheck_tests: what the tarball's make check runs.  The check stage
# ran every test on this tree; the tarball has to show that it builds
# from its own files in a read-only source directory and carries what its
# tests read.  So the unit, config and lint tiers and the fuzz regressions
# run whole (the golden files, corpora, man pages and shims they read are
# in the tarball only if EXTRA_DIST says so), and of the system tier and
# the benchmarks a smoke set, one test for each helper the tarball must
# ship: apply.sh (lib.sh, tap.sh, the daemon with its parse helper from a
# VPATH build), json.sh (the JSON golden files), advise.sh (advise's text
# golden files), advise_apply.sh (fakeserver.py), bench/daemon/smoke.sh (the
# benchmarks' lib.sh and helper programs), completion.sh (the shell
# completions); and the tests a packager's plain make distcheck tripped
# on (issue 45): columns.sh and usable.sh, whose help text shows the long
# paths of distcheck's prefix, and quickstart.sh, which needs a git
# checkout and skips in the tarball.  The packaging tier stays out:
# it builds the packages again from the tree (the release stage does so
# from its tarball), and distcheck installs and uninstalls by itself.
# Why not the whole suite again: docs/HACKING.md, "The stages".
distcheck_tests() {
	local t
	tests_of | while read -r t; do
		case $t in
		tests/system/apply.sh | tests/system/json.sh | \
		    tests/system/advise.sh | tests/system/advise_apply.sh | \
		    tests/system/completion.sh | tests/system/columns.sh | \
		    tests/system/usable.sh | tests/system/quickstart.sh | \
		    bench/daemon/smoke.sh) echo "$t" ;;
		tests/system/* | tests/packaging/* | bench/*) ;;
		*) echo "$t" ;;
		esac
	done
}

# The log gets a fresh name: this runs as root, and a fixed name in /tmp
# could be a symlink someone else planted.  Kept only on failure.
stage_distcheck() {
	local log tests
	log=$(mktemp "${TMPDIR:-/tmp}/tcptune-distcheck.XXXXXX") || {
		tally distcheck 0 1
		return
	}
	tests=$(distcheck_tests | tr '\n' ' ')
	# With the check stage's jobs: the tarball's own make check, serial,
	# was the longest stage (16 minutes of an 81-minute run).  TESTS on
	# the command line reaches the tarball's make check through MAKEFLAGS.
	if make -j"$test_jobs" distcheck TESTS="$tests" >"$log" 2>&1; then
		echo "distcheck: the tarball's make check:" \
		    "$(grep -E '^# (TOTAL|PASS|FAIL):' "$log" | tr -s '\n ' ' ')"
		rm -f "$log"
		echo "distcheck: 1 passed, 0 failed"
		tally distcheck 1 0
	else
		tail -n 80 "$log"
		echo "distcheck: 0 passed, 1 failed (log $log)"
		tally distcheck 0 1
	fi
}

# stage_script NAME SCRIPT [ARGS]: a script whose last line is
# "N passed, N failed".
stage_script() {
	local name=$1 script=$2 out pass fail
	shift 2
	out=$(mktemp)
	bash "$top/$script" "$@" 2>&1 | tee "$out"
	read -r pass fail <<<"$(counts_of "$out")"
	rm -f "$out"
	tally "$name" "$pass" "$fail"
}

# stage_release: tests/packaging/release.sh, whose TAP lines are counted.
# It takes the macos stage's builds (build/macos) and the windows stage's
# build directory (TT_WIN_BUILD, its default alike) as they are, so that
# only the tarball, the .deb and the .msi's packing are made again.
stage_release() {
	local out pass fail
	out=$(mktemp)
	TT_MACOS_BUILD=${TT_MACOS_BUILD:-$top/build/macos} top_srcdir=$top \
	    bash "$top/tests/packaging/release.sh" 2>&1 | tee "$out"
	pass=$(grep -c '^ok ' "$out")
	fail=$(grep -c -e '^not ok ' -e '^Bail out!' "$out")
	# No line at all is a crash, unless the test skipped itself whole.
	if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ] && ! grep -q '^1\.\.0 # SKIP' "$out"; then
		fail=1
	fi
	rm -f "$out"
	echo "release: $pass passed, $fail failed"
	tally release "$pass" "$fail"
}

for stage in ${TT_STAGES:-check distcheck valgrind fuzz macos windows release}; do
	echo "==== stage: $stage"
	stage_start=$(date +%s)
	case $stage in
	check) stage_check ;;
	distcheck) stage_distcheck ;;
	valgrind) stage_script valgrind scripts/valgrind.sh ;;
	fuzz) stage_script fuzz scripts/fuzz.sh "${TT_FUZZ_TIME:-60}" ;;
	macos) stage_script macos scripts/build-macos.sh ;;
	windows) stage_script windows scripts/test-windows.sh ;;
	release) stage_release ;;
	*) echo "unknown stage $stage"; tally "$stage" 0 1 ;;
	esac
done

printf '\n%b' "$summary"
printf '%-11s %35s\n' all "$(minsec $(($(date +%s) - started)))"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
