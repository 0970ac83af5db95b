# shellcheck shell=bash
#
# The one TAP helper of the shell tests: lint, packaging, Windows and
# system tests source this file (the system tests through
# tests/system/lib.sh, which adds the daemon's helpers).  Output goes to
# build-aux/tap-driver.sh: "ok N - ...", "not ok N - ...", "# ..."
# diagnostics, and the plan at the end (tap_end).  A script that defines
# tap_context has it called after every failure and bail-out, to show
# what it knows (lib.sh shows the last tcptunectl run and the daemon's
# logs).

TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

# not_ok DESC [DIAG...]: a failed test, each DIAG shown as a diagnostic,
# then the script's tap_context.
not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"
	shift
	[ "$#" -eq 0 ] || diag "$@"
	tap_context_show
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
	tap_context_show
	exit 99
}

diag() {
	local line
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/# /'
	done
}

# diag_file LABEL FILE [LINES]: a file as diagnostics, its last LINES
# lines when LINES is given.
diag_file() {
	[ -e "$2" ] || { diag "$1: (no file $2)"; return 0; }
	if [ -n "${3:-}" ]; then
		diag "--- $1 (last $3 lines) ---"
		tail -n "$3" "$2" | sed 's/^/#   /'
	else
		diag "--- $1 ---"
		sed 's/^/#   /' "$2"
	fi
}

tap_context_show() {
	# command -v, not bash's declare -F: the sh tests source this too
	if command -v tap_context >/dev/null 2>&1; then
		tap_context
	fi
	return 0
}

# report RC DESC [DIAG...]: ok when RC is 0.  Call as `report $? ...`: $?
# must be the first argument, as command substitutions in later arguments
# change it.
report() {
	local rc=$1 desc=$2
	shift 2
	if [ "$rc" -eq 0 ]; then
		ok "$desc"
	else
		not_ok "$desc" "$@"
	fi
	return "$rc"
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
		not_ok "$desc" "command: $* -> exit $rc" \
		    "$(tail -n 30 "$T/check.out")"
	fi
	return "$rc"
}

# check_eq DESC WANT GOT
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected: '$2'" "     got: '$3'"
		return 1
	fi
}

# check_until DESC SECONDS CMD...: poll CMD every 0.1 s; ok as soon as it
# succeeds, not ok if it never does, followed by the caller's diagnostics
# (its function wait_diag, when it has one).  SECONDS is what it takes on
# an idle machine, not a deadline: the bound is a safety net of at least
# TT_WAIT_LIMIT seconds (default 120, as tests/system/lib.sh), so that a
# busy machine is not taken for a failure (docs/HACKING.md).
check_until() {
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

# tap_end: the plan and a summary, the script's last word.  Status 0: the
# "not ok" lines carry the failures, and a non-zero exit would make the
# TAP driver count one more.
tap_end() {
	echo "1..$TAP_N"
	echo "# ${0##*/}: $TAP_FAILED of $TAP_N failed"
	return 0
}
