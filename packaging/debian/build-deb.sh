#!/usr/bin/env bash
# Builds the Debian package of tcptune from this source tree, in one
# command:  packaging/debian/build-deb.sh [OUTDIR]   (default: the current
# directory).  Prints the path of the .deb on its last line.
#
# The tree is copied to a temporary directory and built there with the
# Debian paths (--prefix=/usr --sysconfdir=/etc --localstatedir=/var), so a
# source tree that is already configured or built, or read-only (make
# distcheck), is left as it is.  Then make install into a staging
# root with the unit in /lib/systemd/system, Debian's documentation files,
# DEBIAN/ (control with Depends from dpkg-shlibdeps, conffiles, md5sums,
# maintainer scripts) and dpkg-deb --root-owner-group --build.  No root
# needed.  Needs: the build dependencies (scripts/deps.sh build), dpkg-dev
# for dpkg-shlibdeps (else Depends is libc6, libxml2, libcurl4).
#
# DEB_MAINTAINER overrides the Maintainer field.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:-.}
mkdir -p "$out"
out=$(cd "$out" && pwd)

die() { echo "build-deb.sh: $*" >&2; exit 1; }
command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (dpkg)"

work=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
log=$work/build.log

# run CMD...: quiet while it works; its output when it fails.
run() {
	"$@" >>"$log" 2>&1 || { tail -n 40 "$log" >&2; die "failed: $*"; }
}

# ---- a private copy of the tree, configured for Debian
echo "copying $src"
mkdir "$work/src"
# Not the test logs: under `make -j4 check` other tests write theirs into
# the tree while this copies it.  Other tests also add and remove files of
# their own beside it then, which GNU tar reports as "file changed as we
# read it" with exit status 1 ("some files differ", tar(1) RETURN VALUE);
# the sources do not change under a check, so status 1 is not a failure,
# 2 (a fatal error) is.
copy_tree() {
	local rc=0
	tar -C "$src" --exclude=./.git --exclude=./autom4te.cache \
	    --exclude='*.log' --exclude='*.trs' --warning=no-file-changed \
	    -cf - . || rc=$?
	[ "$rc" -le 1 ]
}
copy_tree | tar -C "$work/src" -xf -
chmod -R u+w "$work/src"
cd "$work/src"
if [ ! -x configure ]; then
	echo "autoreconf"
	run autoreconf -fi
fi
# The package's version comes from the top of debian/changelog, whose
# upstream part must be this tree's version ("tcptune configure 0.1.0").
version=$(./configure --version | sed -n '1s/^tcptune configure //p')
[ -n "$version" ] || die "cannot read the version from configure --version"
debversion=$(sed -n '1s/^tcptune (\([^)]*\)).*/\1/p' "$here/changelog")
[ "${debversion%-*}" = "$version" ] ||
    die "packaging/debian/changelog is at ${debversion:-no version}, the source at $version: add an entry"
arch=$(dpkg --print-architecture)

# Debian's hardening flags (fortify, relro, bindnow), as dpkg-buildpackage
# would set them.
if command -v dpkg-buildflags >/dev/null 2>&1; then
	export DEB_BUILD_MAINT_OPTIONS=hardening=+all
	eval "$(dpkg-buildflags --export=sh)"
fi
echo "configure --prefix=/usr --sysconfdir=/etc --localstatedir=/var"
run ./configure --prefix=/usr --sysconfdir=/etc --localstatedir=/var
# Objects an in-tree build left in the source were made for other paths.
run make clean
echo "make"
run make -j"$(nproc 2>/dev/null || echo 2)"

# ---- staging root
echo "make install DESTDIR=..."
run make install DESTDIR="$root" systemdsystemunitdir=/lib/systemd/system
# Stripped as dh_strip does it.
run strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$root/usr/sbin/tcptuned" "$root/usr/bin/tcptunectl" \
    "$root/usr/libexec/tcptune/tcptune-parse" \
    "$root/usr/libexec/tcptune/tcptunectl-full"
[ -x "$root/usr/libexec/tcptune/tcptune-parse" ] ||
    die "make install left no /usr/libexec/tcptune/tcptune-parse"
[ -f "$root/etc/tcptune.conf" ] || die "make install left no /etc/tcptune.conf"
[ ! -e "$root/etc/tcptune.conf.default" ] ||
    die "make install put a tcptune.conf.default into an empty root"

doc=$root/usr/share/doc/tcptune
mkdir -p "$doc"
install -m 0644 "$here/copyright" "$doc/copyright"
install -m 0644 "$src/README.md" "$doc/README.md"
gzip -9n -c "$here/changelog" >"$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"
# Debian compresses man pages.
if [ -d "$root/usr/share/man" ]; then
	find "$root/usr/share/man" -type f ! -name '*.gz' -exec gzip -9n {} +
fi

# ---- DEBIAN/
mkdir -m 0755 "$root/DEBIAN"
for s in postinst prerm postrm; do
	install -m 0755 "$here/$s" "$root/DEBIAN/$s"
done
echo /etc/tcptune.conf >"$root/DEBIAN/conffiles"

depends="libc6, libxml2, libcurl4"
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
	# dpkg-shlibdeps reads a debian/control; give it a minimal one.
	mkdir -p "$work/shlibs/debian"
	printf 'Source: tcptune\n\nPackage: tcptune\nArchitecture: any\n' \
	    >"$work/shlibs/debian/control"
	depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O \
	    "$root/usr/sbin/tcptuned" "$root/usr/bin/tcptunectl" \
	    "$root/usr/libexec/tcptune/tcptune-parse" \
	    "$root/usr/libexec/tcptune/tcptunectl-full" 2>>"$log" |
	    sed -n 's/^shlibs:Depends=//p')
	[ -n "$depends" ] || { tail -n 20 "$log" >&2; die "dpkg-shlibdeps gave no Depends"; }
fi
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$debversion|" -e "s|@ARCH@|$arch|" \
    -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|$depends|" \
    -e "s|@MAINTAINER@|${DEB_MAINTAINER:-tcptune maintainers <tcptune@example.org>}|" \
    "$here/control.in" >"$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
    LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
chmod 0755 "$root"

deb=$out/tcptune_${debversion}_$arch.deb
echo "dpkg-deb --build"
run dpkg-deb --root-owner-group -Zxz --build "$root" "$deb"
echo "$deb"
