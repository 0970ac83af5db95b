#!/usr/bin/env bash
# scripts/build-windows.sh OUTDIR: cross-builds tcptuned.exe and
# tcptunectl.exe for Windows 10/11 x86_64 with mingw-w64 and leaves them in
# OUTDIR.  libxml2 comes from Debian's own source package for this suite
# (apt-get source, after adding a deb-src entry), built once as a static
# library and kept under the build directory (TT_WIN_BUILD, default
# ~/.cache/tcptune-windows, outside the tree).  Installs what it needs with apt-get:
# CI machines start fresh.  Warnings are errors (--enable-werror).
set -eu

die() { echo "build-windows.sh: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$1
host=x86_64-w64-mingw32
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TT_WIN_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/tcptune-windows}
mkdir -p "$out" "$build"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
# shellcheck source=scripts/vpath-source.sh
. "$top/scripts/vpath-source.sh"
# shellcheck source=scripts/need-packages.sh
. "$top/scripts/need-packages.sh"

# A deb-src line for the suite this machine runs, from its own deb entries,
# so the libxml2 source is the one Debian builds its libxml2-dev from.
add_deb_src() {
	local codename list=/etc/apt/sources.list.d/tcptune-deb-src.sources
	apt-get source --print-uris libxml2 >/dev/null 2>&1 && return 0
	[ "$(id -u)" -eq 0 ] || die "no deb-src entry for libxml2; run as root"
	# shellcheck disable=SC1091
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "cannot tell the Debian suite from /etc/os-release"
	cat >"$list" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	apt-get -o DPkg::Lock::Timeout=600 update -qq
}

# libxml2, static and small: no Python, no compression, no iconv (UTF-8
# and Latin-1 are built in, which is all a plist needs), no network I/O.
build_libxml2() {
	local prefix=$build/libxml2 dir
	if [ -f "$prefix/.built" ]; then
		return 0
	fi
	add_deb_src
	rm -rf "$build/libxml2-src" && mkdir -p "$build/libxml2-src"
	(cd "$build/libxml2-src" && apt-get source -qq libxml2 >/dev/null 2>&1) ||
	    (cd "$build/libxml2-src" && apt-get source libxml2) ||
	    die "apt-get source libxml2 failed"
	dir=$(find "$build/libxml2-src" -mindepth 1 -maxdepth 1 -type d -name 'libxml2-*' | head -n 1)
	[ -n "$dir" ] || die "no libxml2 source directory after apt-get source"
	# Debian's patches leave Makefile.am newer than Makefile.in, and the
	# shipped aclocal.m4 is another automake's: regenerate first.
	(cd "$dir" &&
	    autoreconf -fi >/dev/null 2>&1 &&
	    ./configure -q --host=$host --prefix="$prefix" \
		--enable-static --disable-shared --without-python \
		--without-lzma --without-zlib --without-iconv --without-icu \
		--without-http --without-ftp --without-modules \
		--without-threads --without-catalog --without-debug \
		--without-readline --without-history &&
	    nice make -j"$(nproc 2>/dev/null || echo 2)" libxml2.la >/dev/null &&
	    make install-libLTLIBRARIES install-pkgconfigDATA >/dev/null &&
	    make -C include install >/dev/null) ||
	    die "libxml2 cross-build failed"
	basename "$dir" >"$prefix/.built"
}

need_packages mingw-w64 dpkg-dev autoconf automake libtool pkg-config make mandoc
build_libxml2

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
	(cd "$top" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
fi
src=$(vpath_source "$top" "$build") || die "cannot copy the configured source tree"
mkdir -p "$build/tcptune"
cd "$build/tcptune"
if [ ! -f Makefile ] || [ "$src/configure" -nt Makefile ]; then
	PKG_CONFIG_LIBDIR="$build/libxml2/lib/pkgconfig" \
	PKG_CONFIG="pkg-config --static" \
	    "$src/configure" -q --host=$host --enable-werror ||
	    die "configure failed (config.log in $build/tcptune)"
fi
nice make -j"$(nproc 2>/dev/null || echo 2)" tcptuned.exe tcptunectl.exe ||
    die "build failed"
cp tcptuned.exe tcptunectl.exe "$out/"
echo "built $out/tcptuned.exe $out/tcptunectl.exe"
