#!/usr/bin/env bash
# packaging/windows/build-msi.sh [OUTDIR]: the Windows Installer package
# OUTDIR/tcptune-VERSION-x64.msi (default OUTDIR packaging/windows/build),
# built on Linux: scripts/build-windows.sh cross-builds the two programs,
# mandoc turns the manual pages into text, wixl (msitools) builds the
# package from packaging/windows/tcptune.wxs, and msibuild adds the tables
# this wixl cannot write (tcptune.wxs says which, and why).  Prints the
# package's path last.
#
# VERSION is configure's (AC_INIT), read from the cross-build's config.h;
# TT_MSI_VERSION overrides it (the upgrade test builds a newer package).
# Signing, when a certificate is given, with osslsigncode: the two .exe
# files before they are packed, then the .msi.
#   TT_SIGN_CERT + TT_SIGN_KEY   PEM certificate (chain) and private key
#   TT_SIGN_PFX [+ TT_SIGN_PASS] or a PKCS#12 file and its password
#   TT_SIGN_TIMESTAMP            an RFC 3161 time-stamp server URL (optional)
# Installs what it needs with apt-get: CI machines start fresh.
set -eu

die() { echo "build-msi.sh: $*" >&2; exit 1; }
[ $# -le 1 ] || die "usage: $0 [OUTDIR]"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/build}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck source=scripts/need-packages.sh
. "$top/scripts/need-packages.sh"

need_packages wixl msitools mandoc osslsigncode mingw-w64

stage=$(mktemp -d "${TMPDIR:-/tmp}/tt-msi.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$stage"' EXIT

bash "$top/scripts/build-windows.sh" "$stage" >&2 ||
    die "the Windows build failed"
build=${TT_WIN_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/tcptune-windows}

# libxml2 is linked in statically: the programs may import only DLLs that
# every Windows 10 has.  Anything else would be missing on the target.
system_dlls=" ADVAPI32.dll IPHLPAPI.DLL KERNEL32.dll msvcrt.dll ole32.dll OLEAUT32.dll SHELL32.dll USER32.dll WS2_32.dll "
for exe in tcptuned.exe tcptunectl.exe; do
	for dll in $(x86_64-w64-mingw32-objdump -p "$stage/$exe" |
	    awk '/DLL Name:/ { print $3 }'); do
		case $system_dlls in
		*" $dll "*) ;;
		*) die "$exe imports $dll, which is not a system DLL" ;;
		esac
	done
done

version=${TT_MSI_VERSION:-$(sed -n \
    's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$build/tcptune/config.h")}
# ProductVersion is major.minor.build, each a number (Windows Installer).
echo "$version" | grep -Eqx '[0-9]+\.[0-9]+(\.[0-9]+)?' ||
    die "version '$version' is not major.minor[.build]"

# Text for Windows: CR LF line ends, no backspace overstrikes.
crlf() { sed 's/$/\r/'; }
for page in tcptuned.8 tcptunectl.8 tcptune.conf.5; do
	sh "$top/scripts/man2txt.sh" "$top/man/$page" | crlf \
	    >"$stage/${page%.*}.txt" || die "mandoc $page failed"
done
crlf <"$top/README.md" >"$stage/README.txt"
crlf <"$top/LICENSE" >"$stage/LICENSE.txt"
# The smoke test an administrator runs after installing (CR LF for Windows).
crlf <"$top/packaging/windows/smoke.ps1" >"$stage/smoke.ps1"
cp "$top/etc/tcptune.conf.windows" "$stage/"
cp "$top/packaging/windows/tcptune.admx" "$top/packaging/windows/en-US/tcptune.adml" "$stage/"

# sign FILE: signs FILE in place when a certificate is given.
sign() {
	local file=$1 ts=()
	[ -n "${TT_SIGN_TIMESTAMP:-}" ] && ts=(-ts "$TT_SIGN_TIMESTAMP")
	if [ -n "${TT_SIGN_PFX:-}" ]; then
		osslsigncode sign -pkcs12 "$TT_SIGN_PFX" -pass "${TT_SIGN_PASS:-}" \
		    -h sha256 -n tcptune "${ts[@]}" -in "$file" -out "$file.signed"
	else
		osslsigncode sign -certs "$TT_SIGN_CERT" -key "$TT_SIGN_KEY" \
		    ${TT_SIGN_PASS:+-pass "$TT_SIGN_PASS"} \
		    -h sha256 -n tcptune "${ts[@]}" -in "$file" -out "$file.signed"
	fi >/dev/null || die "osslsigncode could not sign $file"
	mv -f "$file.signed" "$file"
	echo "signed $(basename "$file")" >&2
}
signing=no
if [ -n "${TT_SIGN_PFX:-}" ] ||
    { [ -n "${TT_SIGN_CERT:-}" ] && [ -n "${TT_SIGN_KEY:-}" ]; }; then
	signing=yes
else
	echo "signing skipped: no certificate given (TT_SIGN_CERT and TT_SIGN_KEY, or TT_SIGN_PFX)" >&2
fi
if [ "$signing" = yes ]; then
	sign "$stage/tcptuned.exe"
	sign "$stage/tcptunectl.exe"
fi

msi=$out/tcptune-$version-x64.msi
rm -f "$msi"
(cd "$stage" && wixl -a x64 -D Version="$version" -o "$msi" "$here/tcptune.wxs") ||
    die "wixl failed"

# What this wixl (msitools 0.101) cannot write, as standard tables:
#   Environment       the install folder appended to the system PATH on
#                     install, taken out on uninstall ("=-*PATH",
#                     "[~];[INSTALLDIR]": Environment Table, Microsoft Learn)
#   MsiLockPermissionsEx  %ProgramData%\tcptune and tcptune.conf owned by
#                     Administrators with a protected DACL: SYSTEM and
#                     Administrators full control, Users read and execute
#                     (SDDL; the directory's entries inherit to what the
#                     daemon writes there, its originals)
#   RemoveFile        the pause record (%ProgramData%\tcptune\pause,
#                     daemon/originals.c) deleted on uninstall, after the
#                     restore custom action wrote it: a later install
#                     enforces rather than start paused (InstallMode 2,
#                     msidbRemoveFileInstallModeOnRemove, RemoveFile Table,
#                     Microsoft Learn); wixl writes no file name there
#   MsiServiceConfigFailureActions  restart after 5 s, 5 s, 60 s, the count
#                     reset after a day (sc.exe failure's reset=/actions=;
#                     action 1 is SC_ACTION_RESTART), applied by the
#                     MsiConfigureServices action after InstallServices
#                     (sequence 5850 as in msitools' msi-default.vala)
# and the config component's attributes: 256 (64-bit) + 16 Permanent +
# 128 NeverOverwrite = 400 (Component Table, Microsoft Learn).
(cd "$here" && msibuild "$msi" -i Environment.idt -i MsiLockPermissionsEx.idt \
    -i MsiServiceConfigFailureActions.idt -i RemoveFile.idt \
    -q "UPDATE Component SET Attributes = 400 WHERE Component = 'Config'" \
    -q "INSERT INTO InstallExecuteSequence (Action, Condition, Sequence) VALUES ('MsiConfigureServices', 'VersionNT>=600', 5850)") ||
    die "msibuild could not add the tables wixl lacks"

[ "$signing" = yes ] && sign "$msi"
echo "$msi"
