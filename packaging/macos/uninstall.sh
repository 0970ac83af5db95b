#!/bin/sh
# tcptune-uninstall: remove tcptune installed from org.tcptune.pkg.
#
#   sudo /Library/tcptune/sbin/tcptune-uninstall [-f] [VOLUME]
#
# In order:
#  1. `tcptunectl restore`: the running tcptuned puts back the values each
#     key had before tcptune first wrote it.  This needs the daemon, so it
#     comes before the bootout.  If it fails the uninstall stops and
#     changes nothing (the originals would be lost with /var/db/tcptune),
#     unless -f is given.
#  2. `launchctl bootout system/org.tcptune.tcptuned`: tcptuned gets
#     SIGTERM and exits, leaving the (now original) values in force.
#  3. Remove the files the package installed, the state and socket
#     directories, and /etc/tcptune.conf unless it was edited (an edited
#     one is kept and named).
#  4. `pkgutil --forget org.tcptune.pkg`: drop Installer's receipt, so a
#     later install counts as a fresh one.
#
# VOLUME (default "/") is the volume tcptune was installed on; as in the
# package scripts, launchd is only touched when it is "/", and pkgutil is
# given --volume otherwise (pkgutil(1): "--volume path: perform all
# operations on the specified volume").

PATH="$PATH:/bin:/sbin:/usr/bin:/usr/sbin"
LABEL=org.tcptune.tcptuned
PKGID=org.tcptune.pkg
PREFIX=/Library/tcptune
CONF=/etc/tcptune.conf
DEFAULT=$PREFIX/share/tcptune/tcptune.conf.default

usage() {
	echo "usage: tcptune-uninstall [-f] [VOLUME]" >&2
	exit 64
}

FORCE=no
while getopts f opt; do
	case $opt in
	f) FORCE=yes ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
VOLUME=${1:-/}
ROOT=${VOLUME%/}

if [ "$(id -u)" -ne 0 ]; then
	echo "tcptune-uninstall: must be run as root (sudo)" >&2
	exit 1
fi
if [ ! -d "$VOLUME" ]; then
	echo "tcptune-uninstall: no volume $VOLUME" >&2
	exit 1
fi

# restore_originals: ask the running daemon to put the originals back.
restore_originals() {
	if ! launchctl print "system/$LABEL" >/dev/null 2>&1; then
		echo "tcptune-uninstall: tcptuned is not loaded; nothing to restore"
		return 0
	fi
	if "$ROOT$PREFIX/bin/tcptunectl" restore; then
		return 0
	fi
	if [ "$FORCE" = yes ]; then
		echo "tcptune-uninstall: restore failed; going on (-f)" >&2
		return 0
	fi
	echo "tcptune-uninstall: 'tcptunectl restore' failed: nothing removed." >&2
	echo "  The original values are kept in /var/db/tcptune/originals;" >&2
	echo "  fix the daemon (tcptunectl status) or run again with -f." >&2
	return 1
}

stop_job() {
	launchctl print "system/$LABEL" >/dev/null 2>&1 || return 0
	launchctl bootout "system/$LABEL" ||
	    echo "tcptune-uninstall: bootout of $LABEL failed" >&2
}

# remove_config: /etc/tcptune.conf goes only when it is still the shipped
# default; an edited one is the user's.
remove_config() {
	[ -e "$ROOT$CONF" ] || return 0
	if [ -f "$ROOT$DEFAULT" ] && cmp -s "$ROOT$CONF" "$ROOT$DEFAULT"; then
		rm -f "$ROOT$CONF"
	else
		echo "tcptune-uninstall: keeping $CONF (edited)"
	fi
}

remove_files() {
	remove_config
	rm -f "$ROOT/Library/LaunchDaemons/$LABEL.plist" \
	    "$ROOT/etc/paths.d/tcptune" "$ROOT/etc/manpaths.d/tcptune"
	rm -rf "$ROOT/var/db/tcptune" "$ROOT/var/run/tcptune" "$ROOT$PREFIX"
}

forget_receipt() {
	if [ "$VOLUME" = / ]; then
		set -- --forget "$PKGID"
	else
		set -- --volume "$VOLUME" --forget "$PKGID"
	fi
	pkgutil "$@" >/dev/null 2>&1 ||
	    echo "tcptune-uninstall: no receipt $PKGID (installed from source?)"
}

if [ "$VOLUME" = / ]; then
	restore_originals || exit 1
	stop_job
fi
remove_files
forget_receipt
echo "tcptune-uninstall: tcptune removed from $VOLUME"
exit 0
