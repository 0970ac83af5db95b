#!/usr/bin/env bash
# scripts/release.sh [-u BASEURL] OUTDIR: everything a user downloads,
# built on Debian in one command, into OUTDIR:
#
#   tcptune-VERSION.tar.gz              the sources (make dist: configure,
#                                       LICENSE), for make install and Homebrew
#   tcptune_VERSION-1_ARCH.deb          Debian and Ubuntu
#                                       (packaging/debian/build-deb.sh)
#   tcptune-VERSION-x64.msi             Windows 10/11
#                                       (packaging/windows/build-msi.sh)
#   tcptune-VERSION-macos-universal.tar.gz  macOS: tcptuned and tcptunectl
#                                       as universal arm64 + x86_64 binaries,
#                                       the LaunchDaemon, install.sh and
#                                       uninstall.sh (packaging/macos)
#   tcptune.rb                          the Homebrew formula, pointing at
#                                       BASEURL/tcptune-VERSION.tar.gz with
#                                       its sha256
#   SHA256SUMS                          over all of the above (sha256sum -c)
#
# The macOS programs are scripts/build-macos.sh's two cross-builds (zig),
# joined by llvm-lipo (Debian package llvm-14) without being changed
# otherwise: the arm64 slice keeps the ad-hoc code signature zig's linker
# gives it, which Apple silicon requires of every program it runs.
#
# Everything is built in a temporary directory and moved into OUTDIR only
# when all of it is built and its checksums verify, so a failed run leaves
# OUTDIR as it was and a second run replaces this version's files (other
# files in OUTDIR are left alone).  Exit status 0, 1 on any failure (the
# step, its log's tail and the log's path on stderr), 64 on a usage error.
#
# BASEURL (or TT_RELEASE_URL): where the tarball will be published, an
# https URL; without it the formula keeps its placeholder's directory.
# TT_MACOS_BUILD: a scripts/build-macos.sh work directory whose arm64 and
# x86_64 builds of this version are taken as they are (the test stage
# reuses the macos stage's); otherwise build-macos.sh runs in build/macos.
# TT_WIN_BUILD: the Windows build directory, as for build-windows.sh.
# LIPO: the llvm-lipo to use.  Needs root when packages are missing
# (scripts/deps.sh release installs them).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
me=release.sh
work=
ok=no

die() {
	echo "$me: $*" >&2
	exit 1
}
usage() {
	echo "usage: $me [-u BASEURL] OUTDIR" >&2
	exit 64
}
say() { echo "$me: $*"; }

# run LOG CMD...: CMD's output into LOG; on failure its tail and LOG's path.
run() {
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		die "failed: $* (log $log)"
	fi
}

cleanup() {
	[ -n "$work" ] || return 0
	if [ "$ok" = yes ]; then
		rm -rf "$work"
	else
		echo "$me: the logs of this run are kept in $work/logs" >&2
	fi
}

base=${TT_RELEASE_URL:-}
while getopts u: opt; do
	case $opt in
	u) base=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
out=$1

version=$(sed -n 's/^AC_INIT(\[tcptune\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
[ -n "$version" ] || die "cannot read the version from configure.ac"
if [ -z "$base" ]; then
	base=$(sed -n 's|^  url "\(.*\)/[^/]*"$|\1|p' "$top/packaging/homebrew/tcptune.rb")
fi
case $base in
https://?*) base=${base%/} ;;
*) die "BASEURL must be an https URL (got '${base}')" ;;
esac

# find_lipo: LIPO, else llvm-lipo on PATH, else a versioned one.
find_lipo() {
	local l
	if [ -n "${LIPO:-}" ]; then
		command -v "$LIPO" && return 0
		return 1
	fi
	for l in llvm-lipo llvm-lipo-19 llvm-lipo-16 llvm-lipo-15 llvm-lipo-14; do
		command -v "$l" && return 0
	done
	return 1
}

# macos_build DIR: DIR holds scripts/build-macos.sh's builds of this version.
macos_build_ok() {
	local a v
	for a in arm64 x86_64; do
		if [ ! -f "$1/$a/tcptuned" ] || [ ! -f "$1/$a/tcptunectl" ]; then
			echo "$1/$a has no tcptuned and tcptunectl"
			return 1
		fi
		v=$(sed -n 's/^VERSION = //p' "$1/$a/Makefile" 2>/dev/null)
		[ "$v" = "$version" ] || {
			echo "$1/$a is version ${v:-unknown}, not $version"
			return 1
		}
	done
}

# ---- before anything is built: the tools, OUTDIR, a given macOS build
preflight() {
	bash "$top/scripts/deps.sh" release >/dev/null ||
	    die "cannot install the packages a release needs (scripts/deps.sh release)"
	lipo=$(find_lipo) ||
	    die "llvm-lipo not found${LIPO:+ (LIPO=$LIPO)} (Debian: apt-get install llvm-14)"
	if [ -n "${TT_MACOS_BUILD:-}" ] && [ -d "$TT_MACOS_BUILD/arm64" ]; then
		local why
		why=$(macos_build_ok "$TT_MACOS_BUILD") ||
		    die "TT_MACOS_BUILD: $why"
	fi
	mkdir -p "$out" 2>/dev/null || die "cannot create $out"
	out=$(cd "$out" && pwd)
	[ -w "$out" ] || die "$out is not writable"
	work=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-release.XXXXXX") ||
	    die "mktemp failed"
	chmod 0755 "$work"
	mkdir "$work/out" "$work/logs"
}

# ---- the source tarball: make dist in a build directory of its own
build_tarball() {
	local src b=$work/dist tgz
	say "the source tarball (make dist)"
	if [ ! -x "$top/configure" ]; then
		run "$work/logs/autoreconf.log" sh -c "cd '$top' && autoreconf -fi"
	fi
	# shellcheck source=scripts/vpath-source.sh
	. "$top/scripts/vpath-source.sh"
	# Without pipefail, as its other callers run it: its tar of a tree in
	# use may say "file changed as we read it" (status 1) of a test log.
	src=$(set +o pipefail; vpath_source "$top" "$work") ||
	    die "cannot copy the configured source tree"
	mkdir -p "$b"
	run "$work/logs/configure.log" sh -c "cd '$b' && '$src/configure' -q"
	run "$work/logs/dist.log" make -C "$b" dist
	tgz=$b/tcptune-$version.tar.gz
	[ -f "$tgz" ] || die "make dist made no $(basename "$tgz")"
	tar -tzf "$tgz" >"$work/logs/tarball.list"
	grep -qx "tcptune-$version/LICENSE" "$work/logs/tarball.list" ||
	    die "the tarball lacks LICENSE"
	grep -qx "tcptune-$version/configure" "$work/logs/tarball.list" ||
	    die "the tarball lacks configure"
	mv "$tgz" "$work/out/"
}

build_deb() {
	local deb
	say "the .deb (packaging/debian/build-deb.sh)"
	run "$work/logs/deb.log" bash "$top/packaging/debian/build-deb.sh" "$work/out"
	deb=$(tail -n 1 "$work/logs/deb.log")
	[ -f "$deb" ] || die "build-deb.sh made no package (log $work/logs/deb.log)"
}

build_msi() {
	local msi
	say "the .msi (packaging/windows/build-msi.sh)"
	run "$work/logs/msi.log" bash "$top/packaging/windows/build-msi.sh" "$work/out"
	msi=$(tail -n 1 "$work/logs/msi.log")
	[ -f "$msi" ] || die "build-msi.sh made no package (log $work/logs/msi.log)"
}

# universal NAME DIR: DIR/NAME from the two builds' NAME, both slices
# checked.
universal() {
	local m=$macos archs a
	run "$work/logs/lipo-$1.log" "$lipo" -create "$m/arm64/$1" "$m/x86_64/$1" \
	    -output "$2/$1"
	archs=" $("$lipo" -archs "$2/$1") "
	for a in arm64 x86_64; do
		case $archs in
		*" $a "*) ;;
		*) die "$1: no $a slice after llvm-lipo (it has:$archs)" ;;
		esac
	done
	chmod 0755 "$2/$1"
}

# The archive's root/: the .pkg's payload layout (build-pkg.sh
# make_payload), so tcptune-uninstall removes either.
macos_payload() {
	local r=$1/root p=$1/root/Library/tcptune page
	install -d -m 0755 "$p/sbin" "$p/bin" "$p/share/tcptune" \
	    "$p/share/doc/tcptune" "$p/share/man/man5" "$p/share/man/man8" \
	    "$r/Library/LaunchDaemons" "$r/private/etc/paths.d" \
	    "$r/private/etc/manpaths.d" "$1/scripts"
	universal tcptuned "$p/sbin"
	universal tcptunectl "$p/bin"
	install -m 0755 "$top/packaging/macos/uninstall.sh" "$p/sbin/tcptune-uninstall"
	install -m 0644 "$top/etc/tcptune.conf.darwin" "$p/share/tcptune/tcptune.conf.default"
	install -m 0644 "$top/LICENSE" "$p/share/doc/tcptune/LICENSE"
	for page in "$top"/man/*.[58]; do
		install -m 0644 "$page" "$p/share/man/man${page##*.}/"
	done
	sed -e "s|@sbindir@|/Library/tcptune/sbin|g" -e "s|@bindir@|/Library/tcptune/bin|g" \
	    -e "s|@sysconfdir@|/etc|g" "$top/etc/org.tcptune.tcptuned.plist.in" \
	    >"$r/Library/LaunchDaemons/org.tcptune.tcptuned.plist"
	chmod 0644 "$r/Library/LaunchDaemons/org.tcptune.tcptuned.plist"
	install -m 0644 "$top/packaging/macos/paths.d-tcptune" "$r/private/etc/paths.d/tcptune"
	install -m 0644 "$top/packaging/macos/manpaths.d-tcptune" "$r/private/etc/manpaths.d/tcptune"
	install -m 0755 "$top/packaging/macos/scripts/preinstall" \
	    "$top/packaging/macos/scripts/postinstall" "$1/scripts/"
	install -m 0755 "$top/packaging/macos/install.sh" "$1/install.sh"
	install -m 0755 "$top/packaging/macos/uninstall.sh" "$1/uninstall.sh"
	install -m 0644 "$top/LICENSE" "$top/README.md" "$1/"
}

build_macos() {
	local name=tcptune-$version-macos-universal d why
	macos=${TT_MACOS_BUILD:-$top/build/macos}
	if [ -n "${TT_MACOS_BUILD:-}" ] && macos_build_ok "$macos" >/dev/null; then
		say "the macOS programs: the builds in $macos"
	else
		say "the macOS programs (scripts/build-macos.sh $macos)"
		run "$work/logs/macos.log" bash "$top/scripts/build-macos.sh" "$macos"
		why=$(macos_build_ok "$macos") || die "$why"
	fi
	d=$work/mac/$name
	mkdir -p "$d"
	macos_payload "$d"
	# Owned by root in the archive; sorted, so the same files pack the same.
	tar -C "$work/mac" --owner=0 --group=0 --numeric-owner --sort=name \
	    -czf "$work/out/$name.tar.gz" "$name" ||
	    die "cannot pack $name.tar.gz"
}

formula() {
	say "the Homebrew formula ($base/tcptune-$version.tar.gz)"
	cp "$top/packaging/homebrew/tcptune.rb" "$work/out/tcptune.rb"
	run "$work/logs/formula.log" sh "$top/packaging/homebrew/release.sh" \
	    "$work/out/tcptune-$version.tar.gz" "$base/tcptune-$version.tar.gz" \
	    "$work/out/tcptune.rb"
}

checksums() {
	(cd "$work/out" && find . -maxdepth 1 -type f -printf '%P\0' |
	    LC_ALL=C sort -z | xargs -0 sha256sum -- >"$work/SHA256SUMS") ||
	    die "sha256sum failed"
	mv "$work/SHA256SUMS" "$work/out/SHA256SUMS"
	(cd "$work/out" && sha256sum -c --quiet SHA256SUMS) >&2 ||
	    die "SHA256SUMS does not verify"
}

# publish: this version's files in OUTDIR replaced by the new ones, each
# by a rename on the same file system.
# SHA256SUMS last, so that it never names a file not yet replaced.
publish() {
	local f
	while read -r _ f; do
		put "$f"
	done <"$work/out/SHA256SUMS"
	put SHA256SUMS
}
put() {
	if ! cp "$work/out/$1" "$out/.$1.new" || ! mv -f "$out/.$1.new" "$out/$1"; then
		rm -f "$out/.$1.new"
		die "cannot write $out/$1"
	fi
}

trap cleanup EXIT
preflight
say "tcptune $version into $out"
build_tarball
build_deb
build_msi
build_macos
formula
checksums
publish
ok=yes
say "built:"
(cd "$out" && while read -r _ f; do
	printf '  %s/%s (%s bytes)\n' "$out" "$f" "$(stat -c %s "$f")"
done <SHA256SUMS)
say "$out/SHA256SUMS"
