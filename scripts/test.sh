#!/usr/bin/env bash
# Quick start, command two: installs what the tests need, builds, and runs
# every test (unit, config golden files, system tests inside private
# network namespaces).  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1

bash scripts/deps.sh test || exit 1
bash scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }

make -j"$(nproc 2>/dev/null || echo 2)" check
status=$?

# Count the TAP results of every test log.
pass=$(cat tests/*/*.trs tests/*.trs 2>/dev/null | grep -c '^:test-result: PASS')
fail=$(cat tests/*/*.trs tests/*.trs 2>/dev/null | grep -Ec '^:test-result: (FAIL|XPASS|ERROR)')
skip=$(cat tests/*/*.trs tests/*.trs 2>/dev/null | grep -c '^:test-result: SKIP')
if [ "$status" -ne 0 ]; then
	for log in tests/*/*.log; do
		grep -Eq '^(FAIL|ERROR|XPASS)' "$log" 2>/dev/null || continue
		echo "==== $log"
		tail -n 60 "$log"
	done
	[ "$fail" -eq 0 ] && fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$status" -eq 0 ]
