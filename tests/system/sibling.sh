#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the sibling rule (lib/trust_posix.c, docs/SECURITY.md).
# A program found beside the running one runs only when it and every
# directory above it are as trusted as the running program: root's
# tcptunectl copied into a sticky world-writable directory never runs a
# user's tcptunectl-full there; tcptuned from a build tree, with no -P
# and nothing installed, uses the tcptune-parse beside it (the shipped
# config, checked and applied), and a user's own checkout run by root
# works; a helper it may not use is refused with what to do, never
# blamed on the config.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

NOBODY=65534
MARK=$T/ran

# fake_full DIR UID: a tcptunectl-full that only leaves a mark.
fake_full() {
	# shellcheck disable=SC2016 # $0 is the fake program's
	printf '#!/bin/sh\necho "$0" >>%s\n' "$MARK" >"$1/tcptunectl-full"
	chmod 0755 "$1/tcptunectl-full"
	chown "$2" "$1/tcptunectl-full"
}

# ---- the quick tcptunectl and the tcptunectl-full beside it
if [ -x "$top_builddir/tcptunectl-full" ]; then
	# Control: root's full program beside root's tcptunectl runs.
	mkdir -m 0755 "$T/safe"
	cp "$TCPTUNECTL" "$T/safe/tcptunectl"
	fake_full "$T/safe" 0
	"$T/safe/tcptunectl" help >/dev/null 2>"$T/safe.err"
	grep -qx "$T/safe/tcptunectl-full" "$MARK" 2>/dev/null
	report $? "root's tcptunectl-full beside root's tcptunectl runs" \
	    "$(cat "$T/safe.err")"

	# A shared directory like /tmp: root-owned, sticky, world-writable.
	mkdir -m 1777 "$T/shared"
	chmod 1777 "$T/shared"
	cp "$TCPTUNECTL" "$T/shared/tcptunectl"
	fake_full "$T/shared" "$NOBODY"
	rm -f "$MARK"
	"$T/shared/tcptunectl" help >/dev/null 2>"$T/shared.err"
	rc=$?
	[ "$rc" -ne 0 ] && [ ! -e "$MARK" ]
	report $? "a user's tcptunectl-full in a sticky shared directory is not run (exit $rc)" \
	    "$(cat "$T/shared.err" "$MARK" 2>/dev/null)"
	grep -qF "will not run $T/shared/tcptunectl-full: $T/shared is writable by group or others" \
	    "$T/shared.err"
	report $? "the refusal names the path and why" "$(cat "$T/shared.err")"
	chown 0 "$T/shared/tcptunectl-full"
	"$T/shared/tcptunectl" help >/dev/null 2>&1
	[ ! -e "$MARK" ]
	report $? "nor root's: anyone could have put it there first"

	# A user's program beside root's, in root's directory.
	fake_full "$T/safe" "$NOBODY"
	rm -f "$MARK"
	"$T/safe/tcptunectl" help >/dev/null 2>"$T/safe.err"
	[ ! -e "$MARK" ] && grep -qF "owner uid $NOBODY, mode 0755" "$T/safe.err"
	report $? "a user's tcptunectl-full beside root's tcptunectl is not run" \
	    "$(cat "$T/safe.err")"
else
	skip "no tcptunectl-full: not a Linux build (the quick client is Linux's)"
fi

# ---- tcptuned from a build tree: the tcptune-parse beside it
# the first path in -h naming a tcptune-parse, however the text wraps
default=$("$TCPTUNED" -h | tr '\n' ' ' | grep -o '/[^ ()]*/tcptune-parse' | head -n 1)
[ -n "$default" ] || bail "tcptuned -h names no default parse helper"
cp "$top_srcdir/etc/tcptune.conf.linux" "$CONF"
chmod 0644 "$CONF"
if [ -e "$default" ]; then
	skip "$default is installed: tcptuned uses it, not the one beside it"
else
	"$TCPTUNED" -n -f "$CONF" >"$T/n.out" 2>&1
	check_eq "tcptuned -n -f CONF from the build tree, no -P ($default not installed)" \
	    0 "$?"
	grep -qx "configuration OK" "$T/n.out"
	report $? "it says configuration OK" "$(cat "$T/n.out")"

	# The daemon itself, with the shipped config (CheckInterval 60).
	"$TCPTUNED" -d -f "$CONF" -s "$SOCK" -S "$STATE" >"$T/d.log" 2>&1 &
	pid=$!
	echo "$pid" >>"$T/pids"
	# status exits 1 here: the net.core keys are refused in a namespace
	wait_until 30 sh -c '"$1" -s "$2" status 2>&1 | grep -q "in force" ||
	    ! kill -0 "$3"' - "$TCPTUNECTL" "$SOCK" "$pid"
	"$TCPTUNECTL" -s "$SOCK" status >"$T/status.out" 2>&1
	grep -q '^net.ipv4.tcp_rmem  *in force' "$T/status.out"
	report $? "tcptuned from the build tree puts the shipped config in force" \
	    "$(cat "$T/status.out" "$T/d.log")"
	grep -qF "parse helper $top_builddir/tcptune-parse" "$T/d.log"
	report $? "it logs the helper it uses" "$(cat "$T/d.log")"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null

	# A user's own checkout, run by root: the user's helper is exactly
	# as trusted as the user's tcptuned.
	mkdir -m 0755 "$T/home"
	cp "$TCPTUNED" "$top_builddir/tcptune-parse" "$T/home/"
	chown -R "$NOBODY" "$T/home"
	"$T/home/tcptuned" -n -f "$CONF" >"$T/home.out" 2>&1
	check_eq "root runs a user's checkout: its own helper is used" 0 "$?"

	# Another user's helper beside it: refused, with what to do.
	mkdir -m 0755 "$T/mixed"
	cp "$TCPTUNED" "$top_builddir/tcptune-parse" "$T/mixed/"
	chown "$NOBODY" "$T/mixed/tcptune-parse"
	"$T/mixed/tcptuned" -n -f "$CONF" >"$T/mixed.out" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] &&
	    grep -qF "$T/mixed/tcptune-parse: owner uid $NOBODY, mode 0755" "$T/mixed.out" &&
	    grep -qF 'run "make install", or name a tcptune-parse with -P PATH' "$T/mixed.out" &&
	    ! grep -q "error" "$T/mixed.out"
	report $? "a user's helper beside root's tcptuned: refused, saying what to do (exit $rc)" \
	    "$(cat "$T/mixed.out")"

	# Cloned into a sticky shared directory itself: refused, and why.
	cp "$TCPTUNED" "$top_builddir/tcptune-parse" "$T/shared/" 2>/dev/null ||
	    { mkdir -m 1777 "$T/shared"; cp "$TCPTUNED" "$top_builddir/tcptune-parse" "$T/shared/"; }
	"$T/shared/tcptuned" -d -f "$CONF" -s "$SOCK" -S "$STATE" >"$T/shared.out" 2>&1
	rc=$?
	[ "$rc" -ne 0 ] &&
	    grep -qF "$T/shared is writable by group or others" "$T/shared.out" &&
	    grep -qF -- "-P PATH" "$T/shared.out" &&
	    ! grep -q "not starting" "$T/shared.out"
	report $? "tcptuned in a sticky shared directory does not start, saying why (exit $rc)" \
	    "$(cat "$T/shared.out")"
fi

tap_end
