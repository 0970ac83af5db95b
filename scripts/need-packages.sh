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
	apt-get update -qq
	# shellcheck disable=SC2086 # one word per package
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
