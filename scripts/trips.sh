#!/usr/bin/env bash
# trips.sh [WORKDIR]: the source files whose code runs on tcptune's two
# main trips, measured rather than guessed (docs/DESIGN.md §2):
#   status  `tcptunectl status`, from the command line to the daemon and
#           back;
#   config  a config change on disk becoming a sysctl write.
# A measurement, run by hand by anyone (root or not; not part of make
# check): it prints each trip's files and count, the figures docs/DESIGN.md
# §2 quotes.  A count is a figure, not a ceiling: nothing fails because it
# went up.
# A coverage build (gcc --coverage, -O0) in WORKDIR (a new temporary one
# by default); tcptuned runs on a sysctl tree of its own (-r), with its
# lock directory in WORKDIR (configure --runstatedir), so nothing of this
# machine's is written.  Once the daemon is ready its counters are
# zeroed (gdb calls __gcov_reset in it), the trip is made, and the
# counters are written out (__gcov_dump) while the daemon still runs, so
# neither its start nor its exit is counted.  Linux, with gdb and gcov;
# as a user other than root, the kernel must let gdb attach to the
# user's own processes (kernel.yama.ptrace_scope 0, or no Yama).
# Nothing is installed: tcptuned takes the tcptune-parse built beside it
# (the sibling rule, docs/SECURITY.md), so WORKDIR must be a directory
# only its owner (root or the user running this) can write (mktemp's is;
# /tmp itself is not).  The helper confines itself before it parses (and
# as root gives up root first), so its counters could not be written
# ("profiling: ... Cannot create directory"): gdb makes both steps return
# at once for the config trip (helper_unconfined), and the trip counts
# the files of both processes.
# Background work is left out: the diagnose pass (daemon/flows/diagnose.c's
# timer, every FLOW_TICK_MS) would land in a trip by chance, more often
# in the config trip, which waits on gdb, and add the flows files, which
# are no part of either trip.  Once the daemon is ready, gdb stops that
# timer (ev_timer_stop on its tick, before the counters are zeroed, so
# the call itself is not counted); the daemon then does only what a trip
# asks of it.  Its other timers are an hour or more away (CheckInterval
# 3600).  Nothing in the daemon is changed for the measurement.
# Every wait is a poll for a state, bounded only by TT_WAIT_LIMIT seconds
# (default 120; times TT_TIME_SCALE), as in the tests.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "trips.sh: $*" >&2; exit 1; }
[ "$(uname -s)" = Linux ] || die "Linux only (gdb and gcov on tcptuned)"
for t in gdb gcov gcc; do
	command -v "$t" >/dev/null 2>&1 || die "$t is missing (apt-get install $t)"
done
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
[ "$(id -u)" -eq 0 ] || [ "$scope" -eq 0 ] ||
    die "kernel.yama.ptrace_scope is $scope: gdb cannot attach to tcptuned; run as root, or set it to 0"
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tt-trips.XXXXXX")} || exit 1
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
# shellcheck source=scripts/vpath-source.sh
. "$top/scripts/vpath-source.sh"
src=$(vpath_source "$top" "$work") || die "cannot copy the source tree"
build=$work/build
mkdir -p "$build" && cd "$build" || exit 1
if [ ! -f Makefile ]; then
	# -u: libgcov's reset and dump, which nothing in the programs calls,
	# linked in for gdb to call.
	# gcc: gcov reads gcc's counters, not clang's.
	# --runstatedir: the kernel lock's directory (run/tcptune/locks),
	# the runner's, not the machine's /run.  CTL_DAEMON_UID: the uid
	# tcptunectl takes the daemon's socket from, the runner's (the same
	# check, made against this uid instead of root's).
	"$src/configure" -q CC=gcc CFLAGS="-O0 -g --coverage" \
	    CPPFLAGS="-DCTL_DAEMON_UID=$(id -u)" \
	    LDFLAGS="--coverage -Wl,-u,__gcov_reset -Wl,-u,__gcov_dump" \
	    --runstatedir="$work/run/lockdir" ||
	    die "configure failed"
fi
make -s -j"$(nproc 2>/dev/null || echo 2)" tcptuned tcptunectl tcptune-parse >/dev/null ||
    die "the build failed"

run=$work/run
rm -rf "$run" && mkdir -m 0755 "$run" "$run/tree" "$run/sock" &&
    mkdir -m 0700 "$run/state" "$run/lockdir" || exit 1
mkdir -p "$run/tree/net/core" && echo 212992 >"$run/tree/net/core/rmem_max"
config() {
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
	    '<plist version="1.0"><dict>' \
	    '<key>CheckInterval</key><integer>3600</integer>' \
	    '<key>Sysctls</key><dict>' \
	    "<key>net.core.rmem_max</key><string>$1</string>" \
	    '</dict></dict></plist>' >"$run/conf.new"
	chmod 0644 "$run/conf.new" && mv "$run/conf.new" "$run/tcptune.conf"
}
config 16777216
# wait_for WHAT CMD...: poll CMD until it succeeds; die after the
# safety net (a state that never comes fails, not hangs).
wait_for() {
	local what=$1 left
	left=$(awk -v l="${TT_WAIT_LIMIT:-120}" -v k="${TT_TIME_SCALE:-1}" \
	    'BEGIN { printf "%d", l * k * 10 }')
	shift
	until "$@"; do
		left=$((left - 1))
		[ "$left" -gt 0 ] || die "$what: not reached"
		sleep 0.1
	done
}
sock=$run/sock/tcptuned.sock
./tcptuned -d -f "$run/tcptune.conf" -r "$run/tree" -S "$run/state" \
    -s "$sock" >"$run/daemon.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT
# ready: it answers, with the config applied
answers() {
	kill -0 "$pid" 2>/dev/null || die "tcptuned exited: $(tail -n 3 "$run/daemon.log")"
	./tcptunectl -s "$sock" status >/dev/null 2>&1
}
wait_for "tcptuned ready" answers
# the helper of this build, not one installed elsewhere
grep -qxF "parse helper $build/tcptune-parse" "$run/daemon.log" ||
    die "tcptuned did not take $build/tcptune-parse: $(head -n 3 "$run/daemon.log")"

gcov_call() {
	gdb -p "$pid" -batch -ex "call (void)$1()" >/dev/null 2>&1 ||
	    die "gdb could not call $1 in tcptuned"
}

# The diagnose pass's timer stopped (see the top): d is tcptuned_main's.
diagnose_timer_stop() {
	if ! gdb -p "$pid" -batch -ex 'frame function tcptuned_main' \
	    -ex 'call (void)ev_timer_stop(d.diagnose->tick)' \
	    >"$run/gdb-timer.log" 2>&1 ||
	    grep -q 'No symbol' "$run/gdb-timer.log"; then
		die "gdb could not stop the diagnose timer: $(tail -n 2 "$run/gdb-timer.log")"
	fi
}

# files_run: the .c files of the build with a line run since the reset.
files_run() {
	find "$build" -name '*.gcda' | while read -r f; do
		(cd "$(dirname "$f")" && gcov -n -o . "$f" 2>/dev/null) |
		    awk '/^File /{ file = $2 }
			/^Lines executed:/{ sub(/^Lines executed:/, "")
			if ($0 + 0 > 0 && file ~ /\.c.$/) print file }'
	done | tr -d "'" | sed "s|^$src/||; s|^\\./||" | sort -u
}

# trip NAME CMD...: the counters zeroed (the tool's gcda files removed),
# CMD run, the daemon's counters written; the files.
trip() {
	local name=$1
	shift
	find "$build" -name '*.gcda' -delete
	gcov_call __gcov_reset
	"$@" || die "$name: $* failed"
	gcov_call __gcov_dump
	echo "== $name: $(files_run | wc -l) files"
	files_run
}

status_trip() { ./tcptunectl -s "$sock" status >/dev/null; }
# The helper's side, in the same trip: gdb follows tcptuned's fork into
# the exec'd tcptune-parse and makes its giving up root and confining
# return at once, so that it can write its counters when it exits.  Its
# parse is the same; privdrop_posix.c and confine_linux.c are then
# counted without having run.
helper_unconfined() {
	gdb -p "$pid" -batch -ex 'set confirm off' \
	    -ex 'set follow-fork-mode child' -ex 'set detach-on-fork on' \
	    -ex 'catch exec' -ex continue \
	    -ex 'break confine_drop' -ex 'break confine_enter' \
	    -ex continue -ex 'return 0' -ex continue -ex 'return 0' \
	    -ex continue >"$run/gdb-helper.log" 2>&1
}
config_trip() {
	helper_unconfined &
	gdb_pid=$!
	# gdb has stopped tcptuned once attached: the change waits for it
	wait_for "gdb attached" gdb_attached
	config 8388608
	wait_for "the change written" written 8388608
	wait "$gdb_pid"
}
gdb_attached() {
	kill -0 "$gdb_pid" 2>/dev/null || die "gdb: $(tail -n 3 "$run/gdb-helper.log")"
	grep -q 'Catchpoint' "$run/gdb-helper.log" 2>/dev/null
}
written() {
	kill -0 "$pid" 2>/dev/null || die "tcptuned exited: $(tail -n 3 "$run/daemon.log")"
	[ "$(cat "$run/tree/net/core/rmem_max")" = "$1" ]
}

# count NAME: the trip's count, from what it printed.
count() {
	echo "$1 trip: $(awk -v n="$1" '/^== / { on = ($2 == n ":"); next } on' \
	    "$run/trips.out" | sort -u | grep -c .) files"
}

diagnose_timer_stop
{
	trip status status_trip
	trip config config_trip
} | tee "$run/trips.out"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
echo
count status
count config
