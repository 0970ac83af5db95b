# shellcheck shell=bash
#
# TAP helpers for the test scripts that are not system tests (those use
# tests/system/lib.sh): tests/lint/man.sh, tests/packaging/*.sh and
# tests/macos/live.sh source this file.  Output goes to
# build-aux/tap-driver.sh: "ok N - ...", "not ok N - ...", "# ..."
# diagnostics, and the plan at the end (tap_end).

TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

# not_ok DESC [DIAG...]: a failed test, each DIAG shown as a diagnostic.
not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"
	shift
	[ "$#" -eq 0 ] || diag "$@"
}

# skip DESC REASON
skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

# skip_all REASON...: nothing here can run; the whole script is skipped.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

bail() {
	echo "Bail out! ${0##*/}: $*"
	exit 99
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# diag_file LABEL FILE: a whole file as diagnostics.
diag_file() {
	[ -e "$2" ] || { diag "$1: (no file $2)"; return 0; }
	diag "--- $1 ---"
	sed 's/^/#   /' "$2"
}

# check DESC CMD...: ok when CMD succeeds, the tail of its output as
# diagnostics if not; returns CMD's status.  The output goes through the
# file $T/check.out (the sourcing script's temporary directory), not $(),
# so a daemon CMD leaves running cannot hold the test up.
check() {
	local desc=$1 rc
	shift
	"$@" >"$T/check.out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $* -> exit $rc"
		sed 's/^/#   /' "$T/check.out" | tail -n 30
	fi
	return "$rc"
}

# wait_until DESC SECONDS CMD...: poll CMD every 0.1 s; ok as soon as it
# succeeds, not ok if it never does, followed by the caller's diagnostics
# (its function wait_diag, when it has one).  SECONDS is what it takes on
# an idle machine, not a deadline: the bound is a safety net of at least
# TT_WAIT_LIMIT seconds (default 120, as tests/system/lib.sh), so that a
# busy machine is not taken for a failure (docs/HACKING.md).
wait_until() {
	local desc=$1 s=$2
	[ "$s" -ge "${TT_WAIT_LIMIT:-120}" ] || s=${TT_WAIT_LIMIT:-120}
	local n=$((s * 10))
	shift 2
	while ! "$@" 2>/dev/null; do
		n=$((n - 1))
		if [ "$n" -le 0 ]; then
			not_ok "$desc"
			if declare -F wait_diag >/dev/null; then
				wait_diag
			fi
			return 1
		fi
		sleep 0.1
	done
	ok "$desc"
}

# tap_end: the plan and a summary; status 0 only when no test failed.
tap_end() {
	echo "1..$TAP_N"
	echo "# ${0##*/}: $TAP_FAILED of $TAP_N failed"
	[ "$TAP_FAILED" -eq 0 ]
}
