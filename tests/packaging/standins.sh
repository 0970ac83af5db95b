# shellcheck shell=bash
#
# Shared by tests/packaging/macos.sh and freebsd.sh (and tests/macos/live.sh):
# the TAP helpers of tests/tap.sh, same, and the recording stand-ins for
# tools this machine does not have (launchctl, pkgutil, tcptunectl, the
# Apple build tools).  Every stand-in appends one line, "tool args...", to
# $CALLS; tests compare those lines exactly.

# top_srcdir is set by the sourcing script.
# shellcheck source-path=SCRIPTDIR source=../tap.sh disable=SC2154
. "$top_srcdir/tests/tap.sh"

# same DESC EXPECTED ACTUAL: ok when the two strings are equal.
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected:" "$2" "got:" "$3"
	fi
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
