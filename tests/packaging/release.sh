#!/usr/bin/env bash
# scripts/release.sh end to end (TAP): the `release` stage of
# scripts/test.sh, not make check (it builds the Windows and macOS
# programs; the stage reuses what the macos and windows stages built:
# TT_MACOS_BUILD, TT_WIN_BUILD).  By hand, as root:
#   TT_MACOS_BUILD=build/macos bash tests/packaging/release.sh
#
#  - refusals before anything is built: no OUTDIR, an http URL, no
#    llvm-lipo, a macOS build without its x86_64 slice; OUTDIR untouched
#  - the artifacts: exactly the tarball, .deb, .msi, macOS archive,
#    formula and SHA256SUMS; `sha256sum -c` passes, and fails on a
#    changed byte; the formula's sha256 and url are the tarball's
#  - the license (LICENSE) in the tarball, the .deb's copyright, the
#    .msi's doc folder and the macOS archive
#  - the macOS programs universal (file(1): both architectures, and
#    llvm-lipo), the arm64 slice still carrying its code signature; the
#    LaunchDaemon's program is the archive's tcptuned; install.sh onto a
#    scratch volume puts every file in place root-owned with the default
#    config, uninstall.sh takes it all away; install.sh refuses "/" off
#    macOS
#  - a second run into the same OUTDIR: the same names, checksums that
#    verify, nothing else left behind
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
REL=$top_srcdir/scripts/release.sh

[ "$(uname -s)" = Linux ] || skip_all "Debian only"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (packages, the scratch volume's owners)"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-release.XXXXXX") || bail "mktemp failed"
chmod 0755 "$T"
trap 'rm -rf "$T"' EXIT

version=$(sed -n 's/^AC_INIT(\[tcptune\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
URL=https://example.org/tcptune/releases
O=$T/out

# ---- refusals, before anything is built

# refused DESC PATTERN ENV... -- ARGS...: release.sh exits 1 (64 for a
# usage error) saying PATTERN, and OUTDIR $T/never is not made.
refused() {
	local desc=$1 pat=$2 want=1 rc=0
	shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	[ "$#" -eq 0 ] && want=64
	env ${envs[@]+"${envs[@]}"} bash "$REL" "$@" >"$T/refused.out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$T/refused.out" &&
	    [ ! -e "$T/never" ]; then
		ok "$desc"
	else
		not_ok "$desc" "exit $rc (want $want), looking for '$pat'" \
		    "$(cat "$T/refused.out")"
	fi
}
refused "no OUTDIR: usage, exit 64" "usage: release.sh" --
refused "an http URL refused" "must be an https URL" -- -u http://example.org/x "$T/never"
refused "no llvm-lipo: said so, with the package" "llvm-lipo not found.*llvm-14" \
    LIPO=/nonexistent/llvm-lipo -- "$T/never"
mkdir -p "$T/halfmac/arm64"
: >"$T/halfmac/arm64/tcptuned"
: >"$T/halfmac/arm64/tcptunectl"
echo "VERSION = $version" >"$T/halfmac/arm64/Makefile"
refused "a macOS build without x86_64: named, before any build" "x86_64 has no tcptuned" \
    TT_MACOS_BUILD="$T/halfmac" -- "$T/never"

# ---- the release

mkdir -p "$O"
echo "not ours" >"$O/unrelated.txt"
if bash "$REL" -u "$URL" "$O" >"$T/run1.out" 2>&1; then
	ok "release.sh -u $URL OUTDIR"
	diag_file "release.sh" "$T/run1.out"
else
	diag_file "release.sh" "$T/run1.out" 60
	bail "release.sh failed"
fi

tgz=tcptune-$version.tar.gz
mac=tcptune-$version-macos-universal.tar.gz
msi=tcptune-$version-x64.msi
deb=$(find "$O" -maxdepth 1 -name "tcptune_$version-*_*.deb" -printf "%P\n")
want=$(printf '%s\n' SHA256SUMS "$deb" "$msi" "$tgz" "$mac" tcptune.rb unrelated.txt | LC_ALL=C sort)
check_eq "OUTDIR: tarball, .deb, .msi, macOS archive, formula, SHA256SUMS (and what was there)" \
    "$want" "$(find "$O" -mindepth 1 -printf "%P\n" | LC_ALL=C sort)"
check "SHA256SUMS verifies (sha256sum -c)" sh -c "cd '$O' && sha256sum -c SHA256SUMS"
check_eq "SHA256SUMS names every artifact" \
    "$(printf '%s\n' "$deb" "$msi" "$tgz" "$mac" tcptune.rb | LC_ALL=C sort)" \
    "$(awk '{ print $2 }' "$O/SHA256SUMS" | LC_ALL=C sort)"
mkdir "$T/tampered"
cp "$O"/* "$T/tampered/"
printf 'x' >>"$T/tampered/$msi"
if (cd "$T/tampered" && sha256sum -c --quiet SHA256SUMS) >"$T/tamper.out" 2>&1; then
	not_ok "a changed byte fails sha256sum -c"
else
	check "a changed byte fails sha256sum -c, naming the file" grep -q "^$msi: FAILED" "$T/tamper.out"
fi

# ---- the formula

sum=$(sha256sum "$O/$tgz" | cut -d' ' -f1)
check_eq "formula: sha256 is the tarball's" "  sha256 \"$sum\"" "$(grep '^  sha256 ' "$O/tcptune.rb")"
check_eq "formula: url is BASEURL/$tgz" "  url \"$URL/$tgz\"" "$(grep '^  url ' "$O/tcptune.rb")"
check_eq "formula: version $version, license ISC" "  version \"$version\"|  license \"ISC\"" \
    "$(grep -e '^  version ' -e '^  license ' "$O/tcptune.rb" | paste -sd'|')"
if command -v ruby >/dev/null 2>&1; then
	check "formula: ruby -c" ruby -c "$O/tcptune.rb"
else
	skip "formula: ruby -c" "no ruby"
fi

# ---- the license in each artifact

LIC=$top_srcdir/LICENSE
mkdir "$T/tgz" "$T/deb" "$T/msi" "$T/mac"
tar -C "$T/tgz" -xzf "$O/$tgz"
check "tarball: LICENSE, as in the sources" cmp "$T/tgz/tcptune-$version/LICENSE" "$LIC"
check "tarball: configure, runnable" test -x "$T/tgz/tcptune-$version/configure"
deb_license() {
	dpkg-deb -x "$O/$deb" "$T/deb" &&
	    grep -qx 'License: ISC' "$T/deb/usr/share/doc/tcptune/copyright" &&
	    sed -n 's/^ //p' "$T/deb/usr/share/doc/tcptune/copyright" | sed 's/^\.$//' |
	    grep -A 100 '^Permission to use' >"$T/deb.lic" &&
	    diff "$T/deb.lic" <(sed -n '3,$p' "$LIC")
}
check ".deb: copyright is ISC with LICENSE's text" deb_license
msi_license() {
	msiextract -C "$T/msi" "$O/$msi" >/dev/null &&
	    tr -d '\r' <"$T/msi/tcptune/doc/LICENSE.txt" | cmp - "$LIC"
}
if command -v msiextract >/dev/null 2>&1; then
	check ".msi: doc\\LICENSE.txt is LICENSE (CR LF)" msi_license
else
	not_ok ".msi: doc\\LICENSE.txt is LICENSE" "no msiextract (msitools), which build-msi.sh installs"
fi
tar -C "$T/mac" -xzf "$O/$mac"
M=$T/mac/tcptune-$version-macos-universal
check "macOS archive: LICENSE beside install.sh and in share/doc/tcptune" eval \
    "cmp '$M/LICENSE' '$LIC' && cmp '$M/root/Library/tcptune/share/doc/tcptune/LICENSE' '$LIC'"

# ---- the macOS programs and their install

LIPO=$(command -v llvm-lipo || command -v llvm-lipo-14)
OBJDUMP=$(command -v llvm-objdump || command -v llvm-objdump-14)
universal() {
	local f=$M/root/Library/tcptune/$1 d
	d=$(file -b "$f")
	echo "$1: $d"
	case $d in
	"Mach-O universal binary with 2 architectures"*) ;;
	*) return 1 ;;
	esac
	echo "$d" | grep -q 'Mach-O 64-bit x86_64 executable' &&
	    echo "$d" | grep -q 'Mach-O 64-bit arm64 executable' &&
	    [ "$("$LIPO" -archs "$f" | tr ' ' '\n' | grep -v '^$' | sort | paste -sd' ')" = "arm64 x86_64" ]
}
check "file: sbin/tcptuned is universal, arm64 and x86_64" universal sbin/tcptuned
check "file: bin/tcptunectl is universal, arm64 and x86_64" universal bin/tcptunectl
signed() {
	"$LIPO" -thin arm64 "$M/root/Library/tcptune/$1" -output "$T/$2.arm64" &&
	    "$OBJDUMP" --macho --private-headers "$T/$2.arm64" | grep -q LC_CODE_SIGNATURE
}
check "the arm64 slices keep their code signature (LC_CODE_SIGNATURE)" eval \
    "signed sbin/tcptuned d && signed bin/tcptunectl c"
job_program() {
	python3 - "$M/root/Library/LaunchDaemons/org.tcptune.tcptuned.plist" <<'EOF'
import plistlib, sys
with open(sys.argv[1], "rb") as f:
    job = plistlib.load(f)
assert job["Label"] == "org.tcptune.tcptuned", job
assert job["ProgramArguments"][0] == "/Library/tcptune/sbin/tcptuned", job
EOF
}
check "LaunchDaemon: org.tcptune.tcptuned runs /Library/tcptune/sbin/tcptuned" job_program
check "the archive's uninstall.sh is the .pkg's tcptune-uninstall" eval \
    "cmp '$M/uninstall.sh' '$top_srcdir/packaging/macos/uninstall.sh' &&
     cmp '$M/root/Library/tcptune/sbin/tcptune-uninstall' '$top_srcdir/packaging/macos/uninstall.sh'"
if command -v shellcheck >/dev/null 2>&1; then
	check "shellcheck: install.sh (sh), release.sh, deps.sh, test.sh, this test" eval \
	    "shellcheck -s sh '$M/install.sh' && cd '$top_srcdir' &&
	     shellcheck -x scripts/release.sh scripts/deps.sh scripts/test.sh tests/packaging/release.sh"
else
	skip "shellcheck" "not installed"
fi

# A scratch volume laid out as macOS is (/etc and /var in /private).
V=$T/vol
mkdir -p "$V/private/etc" "$V/private/var" "$V/Library"
ln -s private/etc "$V/etc"
ln -s private/var "$V/var"
check "install.sh VOLUME (as root)" sh "$M/install.sh" "$V"
installed() {
	local f bad=
	for f in Library/tcptune/sbin/tcptuned Library/tcptune/bin/tcptunectl \
	    Library/tcptune/sbin/tcptune-uninstall Library/tcptune/share/doc/tcptune/LICENSE \
	    Library/tcptune/share/man/man8/tcptunectl.8 Library/tcptune/share/man/man5/tcptune.conf.5 \
	    Library/LaunchDaemons/org.tcptune.tcptuned.plist etc/paths.d/tcptune \
	    etc/manpaths.d/tcptune etc/tcptune.conf; do
		[ -f "$V/$f" ] || { bad="$bad $f(missing)"; continue; }
		[ "$(stat -c %u:%g "$V/$f")" = 0:0 ] || bad="$bad $f($(stat -c %u:%g "$V/$f"))"
	done
	[ "$(stat -c %a "$V/Library/tcptune/sbin/tcptuned")" = 755 ] || bad="$bad tcptuned-mode"
	[ "$(stat -c %a "$V/Library/LaunchDaemons/org.tcptune.tcptuned.plist")" = 644 ] || bad="$bad plist-mode"
	cmp -s "$V/etc/tcptune.conf" "$top_srcdir/etc/tcptune.conf.darwin" || bad="$bad config"
	[ -z "$(find "$V" -name '*.tcptune-new')" ] || bad="$bad leftovers"
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check "installed: programs, uninstaller, license, pages, job, paths.d, default config, root's" installed
check "uninstall.sh VOLUME removes it" sh "$M/uninstall.sh" "$V"
check_eq "nothing of tcptune is left on the volume" "" \
    "$(cd "$V" && find . -mindepth 1 ! -path ./etc ! -path ./var ! -path ./private \
        ! -path ./private/etc ! -path ./private/var ! -path ./Library \
        ! -path ./Library/LaunchDaemons ! -path ./private/etc/paths.d \
        ! -path ./private/etc/manpaths.d)"
# As nobody: a mistake here could not write the host's /.
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sh "$M/install.sh" >"$T/slash.out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q 'this is tcptune for macOS; this system is Linux' "$T/slash.out"; then
		ok "install.sh refuses / off macOS, saying why"
	else
		not_ok "install.sh refuses / off macOS, saying why" "exit $rc" "$(cat "$T/slash.out")"
	fi
else
	skip "install.sh refuses / off macOS" "no setpriv"
fi

# ---- again, into the same OUTDIR

cp "$O/SHA256SUMS" "$T/sums1"
if bash "$REL" -u "$URL" "$O" >"$T/run2.out" 2>&1; then
	ok "release.sh again into the same OUTDIR"
else
	not_ok "release.sh again into the same OUTDIR" "$(tail -n 30 "$T/run2.out")"
fi
check_eq "second run: the same files, nothing left behind" "$want" "$(find "$O" -mindepth 1 -printf "%P\n" | LC_ALL=C sort)"
check "second run: SHA256SUMS verifies" sh -c "cd '$O' && sha256sum -c --quiet SHA256SUMS"
check_eq "second run: the same artifact names in SHA256SUMS" \
    "$(awk '{ print $2 }' "$T/sums1")" "$(awk '{ print $2 }' "$O/SHA256SUMS")"
check_eq "second run: the unrelated file left alone" "not ours" "$(cat "$O/unrelated.txt")"

tap_end
