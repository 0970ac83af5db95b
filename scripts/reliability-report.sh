#!/bin/bash
# reliability-report.sh: run the reliability suite and print its table.
#
#   sudo scripts/reliability-report.sh [-B BUILDDIR] [--update-doc]
#
# Runs, against the daemon built in BUILDDIR (default: $top_builddir, or
# the current directory when it holds ./tcptuned):
#   tests/system/abuse.sh      protocol abuse and load
#   tests/system/faults.sh     kill -9 loops during start, reload, restore
#   tests/system/statedir.sh   state directory full, read-only, corrupt
#   tests/system/originals.sh  five damaged originals files in a row
#   tests/system/flip.sh       a config file that flaps
#   tests/system/hostile_reload.sh   hostile configs on reload (if there)
#   tests/unit/test_backend_sysctl_dir, test_engine   kernel errors on a fake
#                              kernel (if built: make check builds them)
# and prints one markdown table: class | what was tried | outcome.  The
# system tests print their own rows as "# report: class|tried|outcome"
# lines; a test without them gets one row from its TAP counts.  With
# --update-doc the table replaces what docs/RELIABILITY.md holds between
# <!-- reliability-table:begin --> and <!-- reliability-table:end -->.
# Exit status: 0 when every check passed, 1 otherwise, 64 usage.
#
# The system tests need root: they run the real daemon inside private
# network (and mount) namespaces and never touch the host's sysctls.

set -u

usage() {
	sed -n 's/^#   sudo /usage: /p' "$0" >&2
	exit 64
}

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${top_builddir:-}
UPDATE=false
while [ $# -gt 0 ]; do
	case $1 in
	-B) [ $# -ge 2 ] || usage; BUILD=$2; shift 2 ;;
	# --update-readme: its name from when the table was in README.md
	--update-doc | --update-readme) UPDATE=true; shift ;;
	-h | --help) usage ;;
	*) usage ;;
	esac
done
if [ -z "$BUILD" ]; then
	[ -x ./tcptuned ] && BUILD=$(pwd)
fi
if [ -z "$BUILD" ] || [ ! -x "$BUILD/tcptuned" ] || [ ! -x "$BUILD/tcptunectl" ]; then
	echo "reliability-report.sh: no tcptuned and tcptunectl built in" \
	    "'${BUILD:-.}': give the build directory with -B" >&2
	exit 64
fi
BUILD=$(cd "$BUILD" && pwd)
if [ "$(id -u)" -ne 0 ]; then
	echo "reliability-report.sh: needs root (the system tests use unshare)" >&2
	exit 64
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-report.XXXXXX") || exit 1
trap 'rm -rf "$OUT"' EXIT
ROWS=$OUT/rows
: >"$ROWS"
FAILED=0
CHECKS=0
T0=$(date +%s)

# tap_counts FILE: "PASSED TOTAL" of a TAP stream.
tap_counts() {
	local pass total
	total=$(grep -cE '^(not )?ok ' "$1")
	pass=$(grep -cE '^ok ' "$1")
	echo "$pass $total"
}

# row CLASS TRIED OUTCOME
row() {
	printf '%s|%s|%s\n' "$1" "$2" "$3" >>"$ROWS"
}

# run_system NAME CLASS TRIED: one system test; its "# report:" rows, or
# one row made of CLASS, TRIED and its counts when it prints none.
run_system() {
	local t=$SRC/tests/system/$1 log=$OUT/$1.out pass total
	[ -f "$t" ] || return 0
	echo "running tests/system/$1 ..." >&2
	env top_srcdir="$SRC" top_builddir="$BUILD" bash "$t" >"$log" 2>&1
	read -r pass total < <(tap_counts "$log")
	CHECKS=$((CHECKS + total))
	if grep -q '^Bail out!' "$log" || [ "$total" -eq 0 ] ||
	    [ "$pass" -ne "$total" ]; then
		FAILED=$((FAILED + 1))
		grep -E '^(not ok|Bail out!)' "$log" | sed 's/^/  /' >&2
	fi
	if grep -q '^# report: ' "$log"; then
		sed -n 's/^# report: //p' "$log" >>"$ROWS"
	elif grep -q '^1\.\.0 # SKIP' "$log"; then
		row "$2" "$3" "skipped: $(sed -n 's/^1\.\.0 # SKIP //p' "$log")"
	elif [ "$pass" -eq "$total" ] && [ "$total" -gt 0 ]; then
		row "$2" "$3" "pass ($total checks)"
	else
		row "$2" "$3" "FAIL ($((total - pass)) of $total checks)"
	fi
}

# run_unit "PROGRAM..." CLASS: the kernel-error cases of cmocka programs
# (their names say error, refused, EIO, short, ...), counted from TAP.
run_unit() {
	local p log=$OUT/unit.out ran=0 pass total errs names
	: >"$log"
	for p in $1; do
		[ -x "$BUILD/tests/unit/$p" ] || continue
		echo "running tests/unit/$p ..." >&2
		CMOCKA_MESSAGE_OUTPUT=TAP "$BUILD/tests/unit/$p" >>"$log" 2>&1
		ran=$((ran + 1))
	done
	[ "$ran" -gt 0 ] || return 0
	read -r pass total < <(tap_counts "$log")
	CHECKS=$((CHECKS + total))
	errs=$(grep -ciE '^(not )?ok .*(err|eio|refus|fail|short|enoent|eacces|eperm|erange|einval|enomem|missing|escape)' "$log")
	names=$(grep -iE '^(not )?ok .*(err|eio|refus|fail|short|enoent|eacces|eperm|erange|einval|enomem|missing|escape)' "$log" |
	    sed -E 's/^(not )?ok [0-9]+ - (test_)?//' | head -n 6 | paste -sd, - | sed 's/,/, /g')
	if [ "$pass" -eq "$total" ] && [ "$total" -gt 0 ]; then
		row "$2" "$errs injected-error cases of $total ($1 on a fake kernel: ${names}, ...)" \
		    "pass ($total checks)"
	else
		FAILED=$((FAILED + 1))
		row "$2" "$errs injected-error cases of $total ($1 on a fake kernel)" \
		    "FAIL ($((total - pass)) of $total checks)"
	fi
}

run_system abuse.sh "protocol and load" "see abuse.sh"
run_system faults.sh "process: kill -9" "see faults.sh"
run_system statedir.sh "machine: state directory" "see statedir.sh"
run_system originals.sh "machine: successive corrupt originals files" "see originals.sh"
run_system flip.sh "config: flapping file" "see flip.sh"
run_system hostile_reload.sh "config: hostile files on reload" \
    "every bad and hostile config of the corpus (too big, device, FIFO, NUL, attribute floods, foreign owner, loose modes) by tcptunectl reload, the file watch and SIGHUP"
run_unit "test_backend_sysctl_dir test_engine" "kernel: refused and failing sysctls"
T1=$(date +%s)

table() {
	echo "| class | what was tried | outcome |"
	echo "| --- | --- | --- |"
	sed 's/|/ | /g; s/^/| /; s/$/ |/' "$ROWS"
	echo
	echo "$CHECKS checks in $((T1 - T0)) s on $(uname -sr), $(date -u +%Y-%m-%d)." \
	    "Regenerate with \`sudo scripts/reliability-report.sh -B BUILDDIR" \
	    "--update-doc\`."
}

table | tee "$OUT/table"

if $UPDATE; then
	DOC=$SRC/docs/RELIABILITY.md
	if ! grep -q '^<!-- reliability-table:begin -->$' "$DOC" ||
	    ! grep -q '^<!-- reliability-table:end -->$' "$DOC"; then
		echo "reliability-report.sh: docs/RELIABILITY.md lacks the table markers" >&2
		exit 1
	fi
	awk -v table="$OUT/table" '
		/^<!-- reliability-table:begin -->$/ {
			print; while ((getline line < table) > 0) print line
			skip = 1; next
		}
		/^<!-- reliability-table:end -->$/ { skip = 0 }
		!skip { print }
	' "$DOC" >"$OUT/RELIABILITY.md" && cat "$OUT/RELIABILITY.md" >"$DOC" ||
	    exit 1
	echo "docs/RELIABILITY.md: reliability table updated" >&2
fi
[ "$FAILED" -eq 0 ]
