# shellcheck shell=bash
#
# need_packages PKG...: install the Debian packages of PKG... that are
# missing, with apt-get (CI machines start fresh); the caller's die()
# reports a non-root run.  Sourced by scripts/deps.sh,
# scripts/build-windows.sh, scripts/test-windows.sh and
# packaging/windows/build-msi.sh.
need_packages() {
	local missing="" pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
		    grep -q "install ok installed" || missing="$missing $pkg"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages:$missing; run as root (sudo) to install them"
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# Another apt-get or dpkg on the machine (an admin installing a
	# package while the suite runs) holds dpkg's lock: wait for it, up to
	# ten minutes, rather than fail at once (apt.conf(5), DPkg::Lock::Timeout).
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	# shellcheck disable=SC2086 # one word per package
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
	    --no-install-recommends $missing >/dev/null
}
