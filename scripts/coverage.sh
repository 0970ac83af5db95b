#!/usr/bin/env bash
# coverage.sh [BUILDDIR]: line coverage of `make check`.  Builds with gcc
# --coverage in BUILDDIR (a new temporary directory by default, never the
# source tree), runs the whole `make check` there and reports, per source
# file, the lines that any test ran: one file is often built into several
# programs (tools/client.c into tcptunectl, test_client and replay_reply),
# and each gets its own gcov counters, so they are merged line by line.
#
#   COVERAGE_FILES   the files reported (default below)
#   COVERAGE_GATED   those that must reach COVERAGE_MIN (default:
#                    tools/client.c daemon/control.c)
#   COVERAGE_MIN     the least a gated file may have, in % (default 90)
#   COVERAGE_TESTS   TESTS for make check (default: all of them)
#   MAKE_JOBS        (default 2)
#
# Prints "FILE: P% of N lines" for each file; exit status 1 when make
# check failed or a gated file is below COVERAGE_MIN (or has no data).  `make coverage`
# runs it (make coverage COVERAGE_DIR=DIR to choose the directory).
#
# The parse helper tcptune-parse is the one program built without
# --coverage (in BUILDDIR/uninstrumented, copied over the instrumented
# one).  It gives up root and confines itself before it parses (on Linux
# a seccomp filter refuses access, mkdir and open: daemon/confine_linux.c),
# so at its exit libgcov can open none of its counter files and says so on
# stderr, the daemon's: "profiling:DIR:Cannot create directory" and
# "profiling:FILE.gcda:Skip", a pair per object, in the output that
# tests/system/managed.sh and tests/config/golden.sh compare exactly and
# tests/system/columns.sh measures (82 columns in a mktemp directory).  No
# environment variable helps: tcptuned starts the helper with an empty
# environment (exec_helper in daemon/parse_posix.c); GCOV_PREFIX and
# GCOV_PREFIX_STRIP only move the files it cannot open; GCOV_ERROR_FILE
# would take the "Cannot create directory" lines alone, and could not be
# opened either: libgcov opens it at the first error, after confining,
# and writes "Skip" to stderr whatever it says (get_gcov_error_file,
# create_file_directory and gcov_exit_open_gcda_file in
# gcc-mirror/gcc@0199003d90ca:libgcc/libgcov-driver-system.c, as of 2022;
# Debian's gcc 12.2.0-14 does so, GCOV_ERROR_FILE set or not).  The
# helper's counters were never written, so none are lost:
# scripts/trips.sh counts its lines through gdb, keeping it unconfined.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tcptune-coverage.XXXXXX")}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1
jobs=${MAKE_JOBS:-2}
files=${COVERAGE_FILES:-tools/client.c daemon/control.c tools/output.c tools/ctl_log.c lib/util.c lib/proto.c}
gated=${COVERAGE_GATED:-tools/client.c daemon/control.c}
min=${COVERAGE_MIN:-90}

die() {
	echo "coverage.sh: $*" >&2
	exit 1
}

command -v gcov >/dev/null 2>&1 || die "gcov not found (it comes with gcc)"
# shellcheck source-path=SCRIPTDIR source=vpath-source.sh
. "$src/scripts/vpath-source.sh"
vpath_setup "$src" "$dir"	# or die; sets src, cds to dir
CC=gcc "$src/configure" -q --enable-werror CFLAGS="-O0 -g --coverage" \
    LDFLAGS="--coverage" >configure.out 2>&1 ||
    { tail -n 20 configure.out; die "configure failed (log $dir/configure.out)"; }
make -j"$jobs" >build.out 2>&1 ||
    { grep -E 'error|Error' build.out | head -n 20; die "build failed (log $dir/build.out)"; }
make -j"$jobs" check TESTS= >>build.out 2>&1 ||
    die "building the tests failed (log $dir/build.out)"

# The helper without --coverage (see above).  Copied last, it is newer
# than everything it is made of, so make check does not link it again.
if ! (mkdir -p uninstrumented && cd uninstrumented &&
    CC=gcc "$src/configure" -q --enable-werror CFLAGS="-O0 -g" &&
    make -j"$jobs" tcptune-parse) >>build.out 2>&1; then
	die "building tcptune-parse without --coverage failed (log $dir/build.out)"
fi
cp uninstrumented/tcptune-parse tcptune-parse || exit 1

# The system tests run tcptunectl and tcptuned as uid 65534 too: their
# counters must exist, writable by all, before a test runs one (a program
# that cannot write them says so on stderr, which tests read).  The
# counter files are, not the directories: the programs refuse to run
# the tcptune-parse or tcptunectl-full beside them from a directory
# anyone may write (the sibling rule, docs/SECURITY.md), so the tree
# stays root's 0755 and each program runs once as root first, under
# umask 0, to make its counters 0666 (tcptune-parse has none).
find . -name '*.gcda' -delete
chmod -R go+rX,go-w . 2>/dev/null
(
	umask 0
	./tcptunectl --version >/dev/null 2>&1
	./tcptunectl-full --version >/dev/null 2>&1
	./tcptuned -V >/dev/null 2>&1
	for t in tests/unit/test_* fuzz/replay_*; do
		[ -x "$t" ] && "./$t" /dev/null >/dev/null 2>&1
	done
)

find . -name '*.trs' -delete
# shellcheck disable=SC2086 # TESTS is a list of words
timeout -k 10 1800 make -j"$jobs" check ${COVERAGE_TESTS:+TESTS="$COVERAGE_TESTS"} \
    >check.out 2>&1
rc=$?
failed=$(find . -name '*.trs' -exec cat {} + 2>/dev/null |
    grep -Ec '^:test-result: (FAIL|ERROR|XPASS)')

# merged FILE: "covered total" over every object built from FILE.
merged() {
	local f=$1 base obj
	base=${f##*/}
	base=${base%.c}
	find "${f%/*}" -name "*.gcda" | while read -r obj; do
		case ${obj##*/} in
		"$base.gcda" | *"-$base.gcda") ;;
		*) continue ;;
		esac
		gcov -t "${obj%.gcda}.o" 2>/dev/null |
		    awk -v want="$base.c" '
			/^ *-: *0:Source:/ {
				n = split($0, p, "/"); sub(/^.*Source:/, "", p[n])
				on = (p[n] == want); next
			}
			on { print }'
	done | awk -F: '
		{ c = $1; gsub(/ /, "", c); l = $2 + 0 }
		c == "-" || l == 0 { next }
		{ seen[l] = 1; if (c !~ /^(#####|=====)$/) run[l] = 1 }
		END { n = 0; r = 0; for (l in seen) { n++; if (l in run) r++ }
		      print r, n }'
}

# is_listed FILE LIST: FILE is a word of LIST.
is_listed() {
	case " $2 " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# FILE is one that must reach COVERAGE_MIN.
is_gated() {
	is_listed "$1" "$gated"
}

# The gated files are reported even when COVERAGE_FILES leaves them out.
report=$files
for f in $gated; do
	is_listed "$f" "$files" || report="$report $f"
done

status=0
[ "$rc" -eq 0 ] || { echo "make check failed: $failed failing (log $dir/check.out)"; status=1; }
for f in $report; do
	read -r covered total <<<"$(merged "$f")"
	if [ -z "${total:-}" ] || [ "$total" -eq 0 ]; then
		echo "$f: no coverage data"
		is_gated "$f" && status=1
		continue
	fi
	pct=$(awk -v c="$covered" -v n="$total" 'BEGIN { printf "%.1f", 100 * c / n }')
	echo "$f: $pct% of $total lines ($covered run)"
	if is_gated "$f" &&
	    awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p < m) }'; then
		echo "coverage.sh: $f is below $min%"
		status=1
	fi
done
exit "$status"
