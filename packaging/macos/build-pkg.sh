#!/usr/bin/env bash
# Builds tcptune-VERSION.pkg: a universal (arm64 + x86_64) tcptuned and
# tcptunectl under /Library/tcptune, the LaunchDaemon, the shipped default
# config, and the preinstall/postinstall scripts.
#
#   packaging/macos/build-pkg.sh [-o OUTDIR] [-w WORKDIR]
#
# OUTDIR defaults to packaging/macos/build in the source tree; WORKDIR
# (build tree, payload, component package) to a fresh temporary directory.
# An existing WORKDIR is reused: configure runs only once in it.
#
# Signing, each step only when its variable is set, and skipped with a
# message otherwise:
#   DEVELOPER_ID_APPLICATION  codesign the binaries ("Developer ID
#                             Application: ...") with the hardened runtime
#   DEVELOPER_ID_INSTALLER    productsign the .pkg ("Developer ID
#                             Installer: ...")
#   NOTARY_PROFILE            notarytool keychain profile (made with
#                             `xcrun notarytool store-credentials`): submit,
#                             wait, staple.  Needs both identities.
# CC may name the compiler (default: configure's choice, clang on macOS).
set -euo pipefail

PKGID=org.tcptune.pkg
LABEL=org.tcptune.tcptuned
PREFIX=/Library/tcptune
ARCHS="arm64 x86_64"
MIN_MACOS=11.0

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
outdir=$srcdir/packaging/macos/build
workdir=

die() { echo "build-pkg: $*" >&2; exit 1; }
say() { echo "build-pkg: $*"; }

while getopts o:w: opt; do
	case $opt in
	o) outdir=$OPTARG ;;
	w) workdir=$OPTARG ;;
	*) echo "usage: build-pkg.sh [-o OUTDIR] [-w WORKDIR]" >&2; exit 64 ;;
	esac
done
[ -n "$workdir" ] || workdir=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-pkg.XXXXXX")
mkdir -p "$workdir" "$outdir"
workdir=$(cd "$workdir" && pwd)
outdir=$(cd "$outdir" && pwd)

# Notarization checks signatures: refuse a half-signed request early.
check_identities() {
	if [ -n "${NOTARY_PROFILE:-}" ] && { [ -z "${DEVELOPER_ID_APPLICATION:-}" ] ||
	    [ -z "${DEVELOPER_ID_INSTALLER:-}" ]; }; then
		die "NOTARY_PROFILE needs DEVELOPER_ID_APPLICATION and DEVELOPER_ID_INSTALLER"
	fi
	return 0
}

# configure_tree: a VPATH build for the macOS layout.  -arch twice makes
# clang build both slices in one pass (and link them, since automake links
# with CFLAGS); -mmacosx-version-min matches the distribution's
# os-version min.  On macOS libxml2 and libcurl are taken from the SDK, which is
# universal, rather than from a package manager's single-arch copy.
configure_tree() {
	local b=$workdir/build
	[ -f "$b/Makefile" ] && return 0
	if [ ! -x "$srcdir/configure" ]; then
		(cd "$srcdir" && autoreconf -fi)
	fi
	local arch_flags="" a
	for a in $ARCHS; do arch_flags="$arch_flags -arch $a"; done
	local xml=()
	if [ "$(uname -s)" = Darwin ]; then
		local sdk
		sdk=$(xcrun --show-sdk-path)
		xml=(LIBXML2_CFLAGS="-I$sdk/usr/include/libxml2" LIBXML2_LIBS=-lxml2
		    LIBCURL_CFLAGS="-I$sdk/usr/include" LIBCURL_LIBS=-lcurl)
	fi
	local src
	# shellcheck source-path=SCRIPTDIR source=../../scripts/vpath-source.sh
	. "$srcdir/scripts/vpath-source.sh"
	src=$(vpath_source "$srcdir" "$workdir") ||
	    die "cannot copy the configured source tree"
	mkdir -p "$b"
	(cd "$b" && "$src/configure" -q --prefix="$PREFIX" --sysconfdir=/etc \
	    --localstatedir=/var --with-statedir=/var/db/tcptune \
	    CFLAGS="-O2${arch_flags} -mmacosx-version-min=$MIN_MACOS" \
	    ${CC:+CC="$CC"} ${xml[@]+"${xml[@]}"})
}

build_tree() {
	make -C "$workdir/build" -j"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
}

version() {
	sed -n 's/^VERSION = //p' "$workdir/build/Makefile"
}

# make_payload: `make install` into a fresh root, then the macOS layout:
#  - /etc/tcptune.conf out of the payload.  Installer treats every file of
#    a receipt as the package's and replaces it on upgrade, which would
#    lose an edited config; postinstall creates it from the shipped
#    default (share/tcptune/tcptune.conf.default) only when missing.
#  - the LaunchDaemon, made from etc/org.tcptune.tcptuned.plist.in here
#    too, so the payload does not depend on the build host's install rules.
#  - tcptunectl on PATH through /etc/paths.d, the man pages on MANPATH
#    through /etc/manpaths.d (path_helper(8)).  /etc is a symlink to
#    private/etc on macOS: the payload names the real directory, as
#    packages that add to paths.d commonly do, so it does not depend on
#    how Installer treats a directory that is a symlink on the target.
#  - the uninstaller as /Library/tcptune/sbin/tcptune-uninstall.
#  - the license (LICENSE, ISC) in /Library/tcptune/share/doc/tcptune.
make_payload() {
	local p=$workdir/payload
	rm -rf "$p"
	make -C "$workdir/build" install DESTDIR="$p" >/dev/null
	rm -f "$p/etc/tcptune.conf" "$p/etc/tcptune.conf.default"
	# A systemd unit only appears when this runs on Linux (the tests).
	rm -rf "$p$PREFIX/lib/systemd"
	rmdir "$p$PREFIX/lib" 2>/dev/null || true
	rmdir "$p/etc" 2>/dev/null || true
	install -d -m 0755 "$p$PREFIX/share/tcptune" "$p/Library/LaunchDaemons" \
	    "$p/private/etc/paths.d" "$p/private/etc/manpaths.d" "$p$PREFIX/sbin"
	install -m 0644 "$srcdir/etc/tcptune.conf.darwin" \
	    "$p$PREFIX/share/tcptune/tcptune.conf.default"
	sed -e "s|@sbindir@|$PREFIX/sbin|g" -e "s|@bindir@|$PREFIX/bin|g" \
	    -e "s|@sysconfdir@|/etc|g" "$srcdir/etc/$LABEL.plist.in" \
	    >"$p/Library/LaunchDaemons/$LABEL.plist"
	chmod 0644 "$p/Library/LaunchDaemons/$LABEL.plist"
	install -m 0644 "$here/paths.d-tcptune" "$p/private/etc/paths.d/tcptune"
	install -m 0644 "$here/manpaths.d-tcptune" "$p/private/etc/manpaths.d/tcptune"
	install -m 0755 "$here/uninstall.sh" "$p$PREFIX/sbin/tcptune-uninstall"
	install -d -m 0755 "$p$PREFIX/share/doc/tcptune"
	install -m 0644 "$srcdir/LICENSE" "$p$PREFIX/share/doc/tcptune/LICENSE"
}

# Both slices must be there: lipo -archs lists the architectures of a
# Mach-O file.
check_archs() {
	local f got a
	for f in "$PREFIX/sbin/tcptuned" "$PREFIX/bin/tcptunectl"; do
		got=" $(lipo -archs "$workdir/payload$f") "
		for a in $ARCHS; do
			case $got in
			*" $a "*) ;;
			*) die "$f lacks $a (lipo -archs:$got)" ;;
			esac
		done
		say "$f: $got"
	done
}

# Hardened runtime (--options runtime) and a secure timestamp are what
# notarization requires of every Mach-O (Apple, "Resolving common
# notarization issues").
sign_binaries() {
	local f
	if [ -z "${DEVELOPER_ID_APPLICATION:-}" ]; then
		say "DEVELOPER_ID_APPLICATION not set: binaries left unsigned"
		return 0
	fi
	for f in "$PREFIX/sbin/tcptuned" "$PREFIX/bin/tcptunectl"; do
		codesign --force --options runtime --timestamp \
		    --sign "$DEVELOPER_ID_APPLICATION" "$workdir/payload$f"
		codesign --verify --strict --verbose=2 "$workdir/payload$f"
	done
}

# pkgbuild(1): the whole payload root, installed at /, with our scripts;
# --ownership recommended makes the files root:wheel whoever built them.
build_component() {
	local s=$workdir/scripts
	rm -rf "$s"
	mkdir -p "$s"
	install -m 0755 "$here/scripts/preinstall" "$here/scripts/postinstall" "$s/"
	pkgbuild --root "$workdir/payload" --scripts "$s" --identifier "$PKGID" \
	    --version "$1" --install-location / --ownership recommended \
	    "$workdir/tcptune-component.pkg"
}

# productbuild(1) --distribution: the product archive Installer opens;
# --resources: the files its pages show (the license, LICENSE.txt).
build_product() {
	local r=$workdir/resources
	sed -e "s|@VERSION@|$1|g" -e "s|@COMPONENT@|tcptune-component.pkg|g" \
	    "$here/distribution.xml.in" >"$workdir/distribution.xml"
	rm -rf "$r"
	install -d -m 0755 "$r"
	install -m 0644 "$srcdir/LICENSE" "$r/LICENSE.txt"
	productbuild --distribution "$workdir/distribution.xml" \
	    --package-path "$workdir" --resources "$r" "$2"
}

# productsign(1) replaces the archive with a signed copy; pkgutil
# --check-signature shows the chain.
sign_product() {
	if [ -z "${DEVELOPER_ID_INSTALLER:-}" ]; then
		say "DEVELOPER_ID_INSTALLER not set: package left unsigned"
		return 0
	fi
	productsign --sign "$DEVELOPER_ID_INSTALLER" "$1" "$1.signed"
	mv "$1.signed" "$1"
	pkgutil --check-signature "$1"
}

# notarytool submit --wait uploads and waits for the verdict; stapler
# attaches the ticket so Gatekeeper can check it offline, and fails when
# there is no ticket, which catches a rejected submission (TN3147).
notarize() {
	if [ -z "${NOTARY_PROFILE:-}" ]; then
		say "NOTARY_PROFILE not set: package not notarized"
		return 0
	fi
	xcrun notarytool submit "$1" --keychain-profile "$NOTARY_PROFILE" --wait
	xcrun stapler staple "$1"
	xcrun stapler validate "$1"
}

main() {
	check_identities
	configure_tree
	build_tree
	local v pkg
	v=$(version)
	[ -n "$v" ] || die "no VERSION in $workdir/build/Makefile"
	pkg=$outdir/tcptune-$v.pkg
	make_payload
	check_archs
	sign_binaries
	build_component "$v"
	build_product "$v" "$pkg"
	sign_product "$pkg"
	notarize "$pkg"
	say "built $pkg"
}

main
