# shellcheck shell=bash
#
# Shared by tests/packaging/macos.sh and freebsd.sh: TAP helpers and the
# recording stand-ins for tools this machine does not have (launchctl,
# pkgutil, tcptunectl, the Apple build tools).  Every stand-in appends one
# line, "tool args...", to $CALLS; tests compare those lines exactly.

TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $*"
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

diag_file() {
	[ -e "$2" ] || { diag "$1: (no file $2)"; return 0; }
	diag "--- $1 ---"
	sed 's/^/#   /' "$2"
}

# check DESC CMD...: ok when CMD succeeds; its output is shown otherwise.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		diag "command: $*" "$out"
	fi
}

# same DESC EXPECTED ACTUAL: ok when the two strings are equal.
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected:" "$2" "got:" "$3"
	fi
}

tap_end() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# write_standin FILE BODY: an executable sh script that first records its
# name and arguments in $CALLS (a path fixed when it is written, so the
# stand-in also works in a chroot).
write_standin() {
	local file=$1 calls=$2 body=$3
	cat >"$file" <<EOF
#!/bin/sh
echo "\${0##*/} \$*" >>"$calls"
$body
EOF
	chmod 0755 "$file"
}
