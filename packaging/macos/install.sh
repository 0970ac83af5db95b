#!/bin/sh
# install.sh: install tcptune from the macOS archive that scripts/release.sh
# makes (tcptune-VERSION-macos-universal.tar.gz), for Macs without the
# .pkg.  From the unpacked archive's directory:
#
#   sudo ./install.sh [VOLUME]
#
# It puts the files of root/ (the same layout as the .pkg's payload:
# /Library/tcptune, the LaunchDaemon, /etc/paths.d and manpaths.d) in
# place owned by root, each file by a rename so a running program is never
# half written, and runs the .pkg's own preinstall and postinstall
# (scripts/): stop a running tcptuned, create /etc/tcptune.conf from the
# shipped default when there is none, bootstrap and start the job.
# Remove it with: sudo /Library/tcptune/sbin/tcptune-uninstall (the same
# script as uninstall.sh here).
#
# VOLUME (default "/") is where to install; launchd is only touched when
# it is "/", as in the package scripts.

PATH="$PATH:/bin:/sbin:/usr/bin:/usr/sbin"
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "install.sh: $*" >&2
	exit 1
}

[ $# -le 1 ] || { echo "usage: install.sh [VOLUME]" >&2; exit 64; }
VOLUME=${1:-/}
ROOT=${VOLUME%/}
if [ "$VOLUME" = / ] && [ "$(uname -s)" != Darwin ]; then
	die "this is tcptune for macOS; this system is $(uname -s)"
fi
[ "$(id -u)" -eq 0 ] || die "must be run as root (sudo)"
[ -d "$VOLUME" ] || die "no volume $VOLUME"
[ -d "$here/root/Library/tcptune" ] || die "no root/Library/tcptune beside $0"

# install_dirs: every directory of the payload that is missing on the
# volume, root:wheel 0755 (numeric: both are 0 on macOS).  Existing ones
# (/Library, /private/etc) are left as they are.
install_dirs() {
	(cd "$here/root" && find . -mindepth 1 -type d) | sort |
	while IFS= read -r d; do
		d=${d#./}
		[ -d "$ROOT/$d" ] && continue
		if ! { mkdir "$ROOT/$d" && chown 0:0 "$ROOT/$d" &&
		    chmod 0755 "$ROOT/$d"; }; then
			exit 1
		fi
	done
}

# install_files: each file copied beside its place, made root's with the
# payload's mode, then renamed over the old one.
install_files() {
	(cd "$here/root" && find . -type f) | sort |
	while IFS= read -r f; do
		f=${f#./}
		mode=0644
		[ -x "$here/root/$f" ] && mode=0755
		if ! { cp "$here/root/$f" "$ROOT/$f.tcptune-new" &&
		    chown 0:0 "$ROOT/$f.tcptune-new" &&
		    chmod "$mode" "$ROOT/$f.tcptune-new" &&
		    mv -f "$ROOT/$f.tcptune-new" "$ROOT/$f"; }; then
			rm -f "$ROOT/$f.tcptune-new"
			exit 1
		fi
	done
}

sh "$here/scripts/preinstall" "$here" "$VOLUME" "$VOLUME" ||
    die "preinstall failed"
install_dirs || die "cannot create the directories on $VOLUME"
install_files || die "cannot install the files on $VOLUME"
sh "$here/scripts/postinstall" "$here" "$VOLUME" "$VOLUME" ||
    die "postinstall failed (the files are installed)"
echo "install.sh: tcptune installed on $VOLUME"
exit 0
