#!/usr/bin/env bash
# valgrind.sh [BUILDDIR]: build tcptune normally in BUILDDIR (a new
# temporary directory by default, never the source tree), then run under
# valgrind memcheck:
#   - every cmocka unit test and the fuzz replay programs (over their seed
#     corpora and saved crashes);
#   - the system tests (tests/system/*.sh) that take the daemon through
#     paths of its own (all but client_only and process_race below), with the
#     daemon under valgrind through TT_DAEMON_WRAPPER and their waits
#     stretched by TT_TIME_SCALE (default 4).
# A run fails when its test fails or its valgrind log shows an error or
# definitely lost bytes.  Last line: "N passed, N failed"; exit 1 on any
# failure.  Logs stay in BUILDDIR/valgrind/.  VALGRIND_TIMEOUT (seconds,
# default 1800) bounds the system tests; MAKE_JOBS (default 2) the build
# and the system tests' jobs (they mostly wait on the daemon).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tcptune-valgrind.XXXXXX")}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1
jobs=${MAKE_JOBS:-2}
pass=0 fail=0

die() {
	echo "valgrind.sh: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

command -v valgrind >/dev/null 2>&1 || die "valgrind not found (apt-get install -y valgrind)"
# shellcheck source-path=SCRIPTDIR source=vpath-source.sh
. "$src/scripts/vpath-source.sh"
vpath_setup "$src" "$dir"	# or die; sets src, cds to dir
# shellcheck source=../fuzz/seeds.sh
. "$src/fuzz/seeds.sh"
"$src/configure" -q --enable-werror --with-cmocka >configure.out 2>&1 ||
    { tail -n 20 configure.out; die "configure failed (log $dir/configure.out)"; }
# TESTS= builds every check program and runs none.
{ make -j"$jobs" && make -j"$jobs" check TESTS=; } >build.out 2>&1 ||
    { grep -E 'error|Error' build.out | head -n 20; die "build failed (log $dir/build.out)"; }

logs=$dir/valgrind
rm -rf "$logs" && mkdir -p "$logs" && chmod 1777 "$logs"
vg="valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99"

# log_clean LOG: no error and nothing definitely lost.  A log without a
# summary (the process was killed) must still show no error report.
log_clean() {
	local errs lost
	errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$1" | sort -n | tail -n 1)
	lost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$1" | tr -d , | sort -n | tail -n 1)
	[ "${errs:-0}" -eq 0 ] && [ "${lost:-0}" -eq 0 ] &&
	    ! grep -qE '^==[0-9]+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function)' "$1"
}

# bad_logs PATTERN: the logs matching PATTERN that are not clean.
bad_logs() {
	local f
	for f in $1; do
		[ -f "$f" ] && ! log_clean "$f" && echo "$f"
	done
}

result() {	# result OK NAME [LOGS...]
	local ok=$1 name=$2 f
	shift 2
	if [ "$ok" -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS: $name"
		return
	fi
	fail=$((fail + 1))
	echo "FAIL: $name"
	for f in "$@"; do
		echo "--- $f"
		grep -vE '^==[0-9]+== *$' "$f" | head -n 40
	done
}

# ---- unit tests and fuzz replays, each program under valgrind
export CMOCKA_MESSAGE_OUTPUT=TAP top_srcdir=$src top_builddir=$dir
for t in tests/unit/test_*; do
	if [ ! -f "$t" ] || [ ! -x "$t" ]; then continue; fi
	n=${t##*/}
	$vg --log-file="$logs/unit-$n.%p.log" "./$t" >"$logs/unit-$n.out" 2>&1
	rc=$?
	mapfile -t bad < <(bad_logs "$logs/unit-$n.*.log")
	ok=$(( rc != 0 || ${#bad[@]} > 0 ))
	[ "$rc" -ne 0 ] && bad+=("$logs/unit-$n.out")
	result "$ok" "$n (exit $rc)" "${bad[@]}"
done
for name in config proto value reply answer; do
	t=fuzz/replay_$name
	[ -x "$t" ] || continue
	mapfile -t seeds < <(fuzz_seeds "$name" "$src")
	$vg --log-file="$logs/replay-$name.%p.log" "./$t" \
	    "${seeds[@]}" "$src/fuzz/regress/$name"/* \
	    >"$logs/replay-$name.out" 2>&1
	rc=$?
	mapfile -t bad < <(bad_logs "$logs/replay-$name.*.log")
	ok=$(( rc != 0 || ${#bad[@]} > 0 ))
	result "$ok" "replay_$name (exit $rc)" "${bad[@]}"
done

# ---- the system tests, the daemon under valgrind
# --child-silent-after-fork: the daemon's fork for its parse helper is a
# copy that only places three descriptors and execs; when the daemon is
# killed in between (faults.sh's kill -9 loop), the copy _exits (confine.h)
# and memcheck would report the daemon's heap, which that copy never
# frees, as its leak (CI, stop 35: job_new's 96 bytes, 4 times).
export TT_DAEMON_WRAPPER="$vg --child-silent-after-fork=yes --log-file=$logs/tcptuned.%p.log"
export TT_TIME_SCALE=${TT_TIME_SCALE:-4}
# client_only TEST: a system test whose daemon goes only through paths
# the others take, so that under valgrind it would check tcptunectl's
# work (which valgrind does not watch here) at the price of a slow
# daemon: a daemon under memcheck made apply.sh 3.5 times slower.  The
# check stage runs these under ASan and UBSan, tcptunectl included.
#   advise, client, quick_client  no daemon, or a stand-in for it
#   usable, prometheus            tcptunectl's text, colours and metrics
#                                 of a status that apply.sh asks for
#   advise_apply                  set and reload, which set.sh and
#                                 reload.sh drive on the daemon
# (measure.sh stays: the only one whose daemon grants a lease and sees
# its holder killed.)
client_only() {
	case ${1##*/} in
	advise.sh | client.sh | quick_client.sh | usable.sh | prometheus.sh | \
	    advise_apply.sh) return 0 ;;
	esac
	return 1
}

# process_race TEST: a test of process-level races that valgrind hides:
# restart_crash.sh stops the parse helper's child between fork and exec
# with strace, which sees valgrind's own exec, not the daemon's (its
# daemon's kill -9 paths run under valgrind in faults.sh).
# quickstart.sh runs demo.sh, which builds and starts its own daemon,
# never under valgrind.
process_race() {
	case ${1##*/} in
	restart_crash.sh | quickstart.sh) return 0 ;;
	esac
	return 1
}
systests=
for t in "$src"/tests/system/*.sh; do
	n=tests/system/${t##*/}
	grep -q "$n" Makefile || continue	# lib.sh and helpers
	client_only "$n" && continue
	process_race "$n" && continue
	systests="$systests $n"
done
find tests/system -name '*.trs' -delete 2>/dev/null
# A hung test must not hang CI: the whole run is bounded (seconds).
timeout -k 10 "${VALGRIND_TIMEOUT:-1800}" make -j"$jobs" check \
    TESTS="$systests" >check.out 2>&1
[ $? -eq 124 ] && echo "valgrind.sh: system tests stopped after ${VALGRIND_TIMEOUT:-1800} s"
for n in $systests; do
	trs=${n%.sh}.trs
	if [ -f "$trs" ] && ! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$trs"; then
		result 0 "$n"
	else
		result 1 "$n" "${n%.sh}.log"
	fi
done
ndaemon=0
for f in "$logs"/tcptuned.*.log; do
	[ -f "$f" ] || continue
	ndaemon=$((ndaemon + 1))
	log_clean "$f" || result 1 "tcptuned under valgrind (${f##*/})" "$f"
done
errsum=$(cat "$logs"/*.log 2>/dev/null | sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
lostsum=$(cat "$logs"/*.log 2>/dev/null | sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' | tr -d , | awk '{ s += $1 } END { print s + 0 }')
echo "# $ndaemon daemon runs under valgrind; errors $errsum, definitely lost $lostsum bytes in all logs ($logs)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
