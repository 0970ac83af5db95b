#!/usr/bin/env bash
# The Windows Installer package (packaging/windows/build-msi.sh).  Speaks
# TAP.  Run by scripts/test-windows.sh after wine.sh, in its prefix; or by
# hand:  WINEPREFIX=PREFIX bash tests/windows/msi.sh
# (TT_WIN_BUILD as for scripts/build-windows.sh; the prefix is booted by
# the caller, the first boot is slow).
#
#   build     build-msi.sh: the package, named by configure's version; the
#             programs import only system DLLs (build-msi.sh refuses
#             others); signing skipped without a certificate, done with a
#             throw-away self-signed one (PEM pair and PKCS#12): the
#             signature is in the .exe files and the .msi
#   tables    msiinfo/msidump: each row the package needs, so a .wxs (or
#             a build-msi.sh table) that loses one fails here; also what
#             Wine cannot show: failure actions, ACLs, NeverOverwrite
#   wine      msiexec /i, /qn: files, config, PATH, event log source
#             (its message file formats an event's text: msgtable.exe),
#             service registered and running, tcptunectl status through
#             it; an edited config through an upgrade to a newer version
#             (and the uninstall of the old one without a restore); then
#             msiexec /x: restore before StopServices, programs, service,
#             PATH entry gone, the edited config kept
# What Wine cannot do is listed in docs/INSTALL.md (Windows, installer).
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
top_srcdir=$(cd "$top_srcdir" && pwd)
: "${WINEPREFIX:?WINEPREFIX must name a prefix made for this run}"
# WINBIN: where scripts/test-windows.sh left its test tools (msgtable.exe).
: "${WINBIN:=}"
export WINEPREFIX WINEDEBUG=-all
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source=tests/windows/wine_session.sh
. "$here/wine_session.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-msi.XXXXXX") || exit 99
keepalive=""
cleanup() {
	[ -z "$keepalive" ] || kill "$keepalive" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 99' HUP INT TERM

upgrade_code='{2D66A1CA-9228-49D8-8B4A-D74887CDE9EA}'
version=$("$top_srcdir/configure" --version | sed -n '1s/.* //p')
# The upgrade's version: one more in the last part.
next=${version%.*}.$((${version##*.} + 1))
build_msi="$top_srcdir/packaging/windows/build-msi.sh"

# ---- build

if bash "$build_msi" "$T/out" >"$T/build.out" 2>&1; then
	msi=$(tail -n 1 "$T/build.out")
	ok "build-msi.sh builds a package"
else
	diag_file "build-msi.sh" "$T/build.out"
	bail "build-msi.sh failed"
fi
check "the package is named tcptune-$version-x64.msi (configure's version)" \
    test "$msi" = "$T/out/tcptune-$version-x64.msi" -a -f "$msi"
check "without a certificate: 'signing skipped' and no signature" \
    eval "grep -q '^signing skipped: no certificate given (TT_SIGN_' '$T/build.out' &&
    ! osslsigncode extract-signature -in '$msi' -out '$T/none.sig'"

# Only system DLLs: build-msi.sh refuses others; here the list itself.
imports_ok() {
	local exe dlls
	msiextract -C "$T/x" "$msi" >/dev/null || return 1
	for exe in tcptuned.exe tcptunectl.exe; do
		dlls=$(x86_64-w64-mingw32-objdump -p "$T/x/tcptune/$exe" |
		    awk '/DLL Name:/ { print $3 }' | sort | tr '\n' ' ')
		echo "$exe: $dlls"
		[ -n "$dlls" ] || return 1
		case $dlls in
		*libxml2*|*lib*.dll*) return 1 ;;
		esac
		echo "$dlls" | tr ' ' '\n' | grep -v '^$' |
		    grep -Eqvx 'ADVAPI32.dll|IPHLPAPI.DLL|KERNEL32.dll|msvcrt.dll|ole32.dll|OLEAUT32.dll|SHELL32.dll|USER32.dll|WS2_32.dll' &&
		    return 1
	done
	return 0
}
check "the packed programs import only system DLLs (libxml2 is static)" imports_ok

# A throw-away self-signed certificate: the signature is checked to be
# there and to be this certificate's; osslsigncode verify cannot trust it.
if ! openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
    -subj "/CN=tcptune msi test" -keyout "$T/key.pem" -out "$T/cert.pem" \
    >/dev/null 2>&1 ||
    ! openssl pkcs12 -export -inkey "$T/key.pem" -in "$T/cert.pem" \
    -passout pass:test -out "$T/cert.pfx" >/dev/null 2>&1; then
	bail "openssl cannot make a test certificate"
fi
# signed_by_test_cert FILE: FILE carries a signature by that certificate,
# over FILE as it is (osslsigncode verify: the digest in the signature is
# the one it computes; only the chain, self-signed, fails).
signed_by_test_cert() {
	rm -f "$T/sig.der"	# osslsigncode does not write over a file
	if ! osslsigncode extract-signature -in "$1" -out "$T/sig.der" >/dev/null 2>&1 ||
	    ! openssl pkcs7 -inform DER -in "$T/sig.der" -print_certs 2>/dev/null |
	    grep -q 'CN *= *tcptune msi test'; then
		echo "$1: no signature by the test certificate"
		return 1
	fi
	osslsigncode verify -in "$1" >"$T/verify.out" 2>&1
	awk '/^(Current|Calculated) (message digest|DigitalSignature) *:/ {
		k = $0; sub(/ *:.*/, "", k); v = $0; sub(/.*: */, "", v)
		split(v, w, " "); d[k] = w[1] }
	    END { n = 0
		for (k in d) if (k ~ /^Current/) {
			c = k; sub(/^Current/, "Calculated", c)
			if (d[k] == "" || d[k] != d[c]) exit 1
			n++
		}
		exit n == 0 }' "$T/verify.out" ||
	    { echo "$1: the signature's digest is not the file's"; cat "$T/verify.out"; return 1; }
}
signed_all() {
	local out=$1 pkg
	pkg=$(tail -n 1 "$out/build.out")
	msiextract -C "$out/x" "$pkg" >/dev/null || return 1
	signed_by_test_cert "$pkg" &&
	    signed_by_test_cert "$out/x/tcptune/tcptuned.exe" &&
	    signed_by_test_cert "$out/x/tcptune/tcptunectl.exe"
}
mkdir -p "$T/pem" "$T/pfx"
TT_SIGN_CERT=$T/cert.pem TT_SIGN_KEY=$T/key.pem \
    bash "$build_msi" "$T/pem" >"$T/pem/build.out" 2>&1
check "signing with TT_SIGN_CERT/TT_SIGN_KEY: .msi and both .exe signed" \
    signed_all "$T/pem" || diag_file build "$T/pem/build.out"
TT_SIGN_PFX=$T/cert.pfx TT_SIGN_PASS=test \
    bash "$build_msi" "$T/pfx" >"$T/pfx/build.out" 2>&1
check "signing with TT_SIGN_PFX/TT_SIGN_PASS: .msi and both .exe signed" \
    signed_all "$T/pfx" || diag_file build "$T/pfx/build.out"

if TT_MSI_VERSION=$next bash "$build_msi" "$T/next" >"$T/next.out" 2>&1; then
	msi_next=$(tail -n 1 "$T/next.out")
	ok "TT_MSI_VERSION=$next builds the upgrade"
else
	diag_file "build-msi.sh" "$T/next.out"
	bail "build-msi.sh TT_MSI_VERSION=$next failed"
fi

# ---- tables

product_code() { msiinfo export "$1" Property | tr -d '\r' | awk -F'\t' '$1 == "ProductCode" { print $2 }'; }

# row TABLE PATTERN: a row of TABLE matches the extended regex PATTERN
# (columns tab-separated, the three header lines left out).
table() { msiinfo export "$msi" "$1" | tr -d '\r' | tail -n +4; }
TAB=$(printf '\t')
row() { table "$1" | grep -Eq "$2"; }
check "Property: ProductVersion is configure's $version" \
    row Property "^ProductVersion${TAB}${version//./\\.}\$"
check "Property: UpgradeCode is the fixed $upgrade_code" \
    row Property "^UpgradeCode${TAB}${upgrade_code}\$"
check "Property: ALLUSERS=1 (per machine)" row Property "^ALLUSERS${TAB}1\$"
check "Property: Manufacturer and ProductName" eval \
    "row Property '^Manufacturer${TAB}.+' && row Property '^ProductName${TAB}tcptune\$'"
check "Summary: x64 package (Template x64;1033)" \
    eval "msiinfo suminfo '$msi' | grep -Eq '^Template: x64;1033'"
check "Directory: ProgramFiles64Folder\\tcptune, its doc, CommonAppDataFolder\\tcptune" eval \
    "row Directory '^INSTALLDIR${TAB}ProgramFiles64Folder${TAB}tcptune\$' &&
     row Directory '^DOCDIR${TAB}INSTALLDIR${TAB}doc\$' &&
     row Directory '^DATADIR${TAB}CommonAppDataFolder${TAB}tcptune\$'"
check "Directory: WindowsFolder\\PolicyDefinitions and its en-US (the template)" eval \
    "row Directory '^POLICYDEFS${TAB}WindowsFolder${TAB}PolicyDefinitions\$' &&
     row Directory '^POLICYDEFS_ENUS${TAB}POLICYDEFS${TAB}en-US\$'"
files_ok() {
	local f
	for f in "Daemon${TAB}tcptuned.exe" "Ctl${TAB}tcptunectl.exe" \
	    "Docs${TAB}tcptuned.txt" "Docs${TAB}tcptunectl.txt" \
	    "Docs${TAB}tcptune.conf.txt" "Docs${TAB}README.txt" \
	    "Docs${TAB}LICENSE.txt" "Docs${TAB}smoke.ps1" "Config${TAB}tcptune.conf" "Admx${TAB}tcptune.admx" \
	    "Adml${TAB}tcptune.adml"; do
		row File "^[^${TAB}]+${TAB}$f${TAB}" || { echo "no File row $f"; return 1; }
	done
}
check "File: both programs, five text documents (the license too), smoke.ps1, the config, the ADMX and ADML" files_ok
check "Component: the ADMX in PolicyDefinitions, the ADML in its en-US, 64-bit" eval \
    "row Component '^Admx${TAB}\\{[^${TAB}]+\\}${TAB}POLICYDEFS${TAB}256${TAB}${TAB}tcptune\\.admx\$' &&
     row Component '^Adml${TAB}\\{[^${TAB}]+\\}${TAB}POLICYDEFS_ENUS${TAB}256${TAB}${TAB}tcptune\\.adml\$'"
check "Component: programs and docs under INSTALLDIR/DOCDIR, 64-bit" eval \
    "row Component '^Daemon${TAB}\\{[^${TAB}]+\\}${TAB}INSTALLDIR${TAB}256${TAB}${TAB}tcptuned\\.exe\$' &&
     row Component '^Ctl${TAB}\\{[^${TAB}]+\\}${TAB}INSTALLDIR${TAB}256${TAB}${TAB}tcptunectl\\.exe\$' &&
     row Component '^Docs${TAB}\\{[^${TAB}]+\\}${TAB}DOCDIR${TAB}256${TAB}'"
# 400 = 256 64-bit + 16 Permanent + 128 NeverOverwrite (Component Table).
check "Component Config: in DATADIR, NeverOverwrite + Permanent (400), fixed GUID" \
    row Component "^Config${TAB}\\{5A0F3C41-7E3B-4C55-9D7E-2C6B1E0A9F13\\}${TAB}DATADIR${TAB}400${TAB}${TAB}tcptune\\.conf\$"
check "ServiceInstall: tcptuned, own process, auto start (2), normal errors (1)" \
    row ServiceInstall "^tcptuned${TAB}tcptuned${TAB}tcptune${TAB}16${TAB}2${TAB}1${TAB}(${TAB}){5}Daemon${TAB}"
check "ServiceInstall: in the component whose key is tcptuned.exe (its binary path)" \
    row Component "^Daemon${TAB}.*${TAB}tcptuned\\.exe\$"
# 163 = 1 start on install + 2 stop on install + 32 stop on uninstall +
# 128 delete on uninstall (ServiceControl Table); wait for each.
check "ServiceControl: start on install, stop both, delete on uninstall, wait" \
    row ServiceControl "^tcptuned${TAB}tcptuned${TAB}163${TAB}${TAB}1${TAB}Daemon\$"
check "MsiServiceConfigFailureActions: restart 5 s, 5 s, 60 s, reset after 86400 s" \
    row MsiServiceConfigFailureActions "^[^${TAB}]+${TAB}tcptuned${TAB}5${TAB}86400${TAB}${TAB}${TAB}1\\[~\\]1\\[~\\]1${TAB}5000\\[~\\]5000\\[~\\]60000${TAB}Daemon\$"
# 2: msidbRemoveFileInstallModeOnRemove (RemoveFile Table).
check "RemoveFile: the pause record in %ProgramData%\\tcptune, on uninstall" \
    row RemoveFile "^PauseRecord${TAB}Daemon${TAB}pause${TAB}DATADIR${TAB}2\$"
check "Environment: system PATH, appended, removed on uninstall" \
    row Environment "^[^${TAB}]+${TAB}=-\\*PATH${TAB}\\[~\\];\\[INSTALLDIR\\]${TAB}Ctl\$"
check "Registry: event log source tcptune in the Application log" \
    row Registry "${TAB}2${TAB}SYSTEM\\\\CurrentControlSet\\\\Services\\\\EventLog\\\\Application\\\\tcptune${TAB}TypesSupported${TAB}#7${TAB}Daemon\$"
check "Registry: the source's EventMessageFile is the installed tcptuned.exe" \
    row Registry "${TAB}2${TAB}SYSTEM\\\\CurrentControlSet\\\\Services\\\\EventLog\\\\Application\\\\tcptune${TAB}EventMessageFile${TAB}\\[#tcptuned\\.exe\\]${TAB}Daemon\$"
check "MsiLockPermissionsEx: %ProgramData%\\tcptune and the config, SYSTEM/Administrators only write" eval \
    "row MsiLockPermissionsEx '^[^${TAB}]+${TAB}DATADIR${TAB}CreateFolder${TAB}O:BAG:SYD:PAI\\(A;OICI;FA;;;SY\\)\\(A;OICI;FA;;;BA\\)\\(A;OICI;FRFX;;;BU\\)${TAB}\$' &&
     row MsiLockPermissionsEx '^[^${TAB}]+${TAB}tcptune\\.conf${TAB}File${TAB}O:BAG:SYD:PAI\\(A;;FA;;;SY\\)\\(A;;FA;;;BA\\)\\(A;;FRFX;;;BU\\)${TAB}\$' &&
     row CreateFolder '^DATADIR${TAB}Config\$'"
# 3154 = 18 (run an installed file) + 64 ignore the exit code + 1024
# deferred + 2048 no impersonation (as SYSTEM) (Custom Action Types).
check "CustomAction: tcptunectl.exe restore, deferred, as SYSTEM, exit code ignored" \
    row CustomAction "^RestoreOriginals${TAB}3154${TAB}tcptunectl\\.exe${TAB}restore${TAB}"
seq_of() { table InstallExecuteSequence | awk -F'\t' -v a="$1" '$1 == a { print $3 }'; }
restore_sequenced() {
	local r i s
	r=$(seq_of RestoreOriginals) i=$(seq_of InstallInitialize) s=$(seq_of StopServices)
	echo "RestoreOriginals $r, InstallInitialize $i, StopServices $s"
	[ -n "$r" ] && [ "$i" -lt "$r" ] && [ "$r" -lt "$s" ] &&
	    row InstallExecuteSequence "^RestoreOriginals${TAB}REMOVE=\"ALL\" AND NOT UPGRADINGPRODUCTCODE${TAB}"
}
check "InstallExecuteSequence: restore after InstallInitialize, before StopServices, on uninstall only" \
    restore_sequenced
standard_actions() {
	local a
	for a in WriteEnvironmentStrings RemoveEnvironmentStrings \
	    InstallServices StartServices StopServices DeleteServices \
	    MsiConfigureServices CreateFolders RemoveExistingProducts; do
		[ -n "$(seq_of "$a")" ] || { echo "no $a"; return 1; }
	done
	[ "$(seq_of InstallServices)" -lt "$(seq_of MsiConfigureServices)" ]
}
check "InstallExecuteSequence: environment, services and their failure actions" \
    standard_actions
check "Upgrade: older versions of the UpgradeCode removed, newer detected" eval \
    "row Upgrade '^${upgrade_code}${TAB}${TAB}${version//./\\.}${TAB}${TAB}1${TAB}${TAB}WIX_UPGRADE_DETECTED\$' &&
     row Upgrade '^${upgrade_code}${TAB}${version//./\\.}${TAB}${TAB}${TAB}2${TAB}${TAB}WIX_DOWNGRADE_DETECTED\$'"
upgrade_package() {
	local p
	p=$(msiinfo export "$msi_next" Property | tr -d '\r')
	echo "$p" | grep -qx "ProductVersion${TAB}$next" &&
	    echo "$p" | grep -qx "UpgradeCode${TAB}$upgrade_code" &&
	    [ "$(product_code "$msi")" != "$(product_code "$msi_next")" ]
}
check "the upgrade package: ProductVersion $next, same UpgradeCode, a new ProductCode" \
    upgrade_package
dumps() {
	mkdir -p "$T/dump" && (cd "$T/dump" && msidump -t "$msi" >/dev/null) &&
	    test -f "$T/dump/ServiceInstall.idt" -a -f "$T/dump/MsiLockPermissionsEx.idt" \
	    -a -f "$T/dump/Environment.idt"
}
check "msidump: the whole package dumps (every table readable)" dumps

# ---- wine

keepalive=$(wine_session_start) ||
    bail "the wineserver or Wine's services did not start"
w() { timeout 120 wine "$@" </dev/null 2>&1 | tr -d '\r'; }
c=$WINEPREFIX/drive_c
bin="$c/Program Files/tcptune"
conf=$c/ProgramData/tcptune/tcptune.conf
uninstall_key='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall'
msiexec() {
	local log=$1
	shift
	timeout 300 wine msiexec "$@" /qn /l*v "$(winpath "$log")" \
	    </dev/null >/dev/null 2>&1
}
svc_running() { w sc query tcptuned | grep -q 'STATE.*RUNNING'; }
status_answers() { w "$bin/tcptunectl.exe" status | grep -q '^tcptuned '; }
# action_line LOG ACTION: the line number where ACTION starts in LOG.
action_line() { tr -d '\0' <"$1" | grep -an "Action start [0-9:]*: $2\\.\$" | head -n 1 | cut -d: -f1; }

# The prefix is this run's: what an earlier run of this test left
# (the config is Permanent) goes first.
rm -rf "$c/ProgramData/tcptune"
check "msiexec /i $(basename "$msi") /qn" msiexec "$T/install.log" /i "$(winpath "$msi")" ||
    diag_file log "$T/install.log"
installed_files() {
	local f
	test -f "$bin/tcptuned.exe" && test -f "$bin/tcptunectl.exe" || return 1
	for f in tcptuned tcptunectl tcptune.conf README LICENSE; do
		test -s "$bin/doc/$f.txt" || { echo "no doc/$f.txt"; return 1; }
	done
	# The license word for word, in CR LF.
	tr -d '\r' <"$bin/doc/LICENSE.txt" | cmp -s - "$top_srcdir/LICENSE" ||
	    { echo "doc/LICENSE.txt is not LICENSE"; return 1; }
	grep -q 'tcptune smoke test' "$bin/doc/smoke.ps1" || { echo "no doc/smoke.ps1"; return 1; }
	# Windows text: CR LF, no backspace overstrikes left by mandoc.
	grep -q "$(printf '\r')\$" "$bin/doc/tcptunectl.txt" &&
	    ! grep -q "$(printf '\b')" "$bin/doc/tcptunectl.txt"
}
check "programs in Program Files\\tcptune, text manuals, the license (CR LF) and smoke.ps1 in its doc" installed_files
check "Group Policy template: %SystemRoot%\\PolicyDefinitions\\tcptune.admx and en-US\\tcptune.adml" eval \
    "cmp '$top_srcdir/packaging/windows/tcptune.admx' '$c/windows/PolicyDefinitions/tcptune.admx' &&
     cmp '$top_srcdir/packaging/windows/en-US/tcptune.adml' '$c/windows/PolicyDefinitions/en-US/tcptune.adml'"
check "config: ProgramData\\tcptune\\tcptune.conf is the shipped default" \
    cmp "$top_srcdir/etc/tcptune.conf.windows" "$conf"
check "PATH (system) ends with C:\\Program Files\\tcptune" eval \
    "w reg query 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment' /v PATH |
     grep -Eq 'PATH +REG_(EXPAND_)?SZ +.*;C:\\\\Program Files\\\\tcptune\\\\?\$'"
check "event log source tcptune registered (TypesSupported 7)" eval \
    "w reg query 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\EventLog\\Application\\tcptune' /v TypesSupported |
     grep -Eq 'TypesSupported +REG_DWORD +0x7'"
# Event Viewer formats an event from the EventMessageFile's message table:
# message 1 (lib/log_win.c's TT_EVENT_ID) must be the line itself.
message_file_formats() {
	local file
	file=$(w reg query 'HKLM\SYSTEM\CurrentControlSet\Services\EventLog\Application\tcptune' /v EventMessageFile |
	    sed -n 's/^ *EventMessageFile *REG_[A-Z_]*SZ *//p')
	echo "EventMessageFile: $file"
	[ "$file" = 'C:\Program Files\tcptune\tcptuned.exe' ] || return 1
	[ -n "$WINBIN" ] || { echo "no WINBIN: msgtable.exe not built"; return 1; }
	w "$WINBIN/msgtable.exe" "$file" 1 'tcptuned: net.ipv4 ok' |
	    tee /dev/stderr | grep -qx '\[tcptuned: net.ipv4 ok\]'
}
check "event log: EventMessageFile is tcptuned.exe, and its message 1 is the event's text" \
    message_file_formats
service_registered() {
	w reg query 'HKLM\SYSTEM\CurrentControlSet\Services\tcptuned' >"$T/svc.reg"
	cat "$T/svc.reg"
	grep -Eq 'Start +REG_DWORD +0x2' "$T/svc.reg" &&
	    grep -Eq 'ImagePath +REG_(EXPAND_)?SZ +"?C:\\Program Files\\tcptune\\tcptuned\.exe' "$T/svc.reg"
}
check "service tcptuned registered: auto start, the installed tcptuned.exe" service_registered
check_until "service tcptuned started by the install (RUNNING)" 60 svc_running
check_until "tcptunectl status answers from the installed service" 60 status_answers

# The user edits the config; the upgrade and the uninstall keep it.
printf '<!-- edited by the msi test -->\r\n' >>"$conf"
cp "$conf" "$T/edited.conf"
check "msiexec /i $(basename "$msi_next") /qn (major upgrade)" \
    msiexec "$T/upgrade.log" /i "$(winpath "$msi_next")" ||
    diag_file log "$T/upgrade.log"
check "upgrade: the edited config is kept" cmp "$T/edited.conf" "$conf"
check "upgrade: $next registered, $version gone" eval \
    "w reg query '$uninstall_key\\$(product_code "$msi_next")' /v DisplayVersion | grep -q '$next' &&
     ! w reg query '$uninstall_key\\$(product_code "$msi")' | grep -q DisplayVersion"
check "upgrade: the old version's uninstall did not run restore" \
    eval "[ -z \"\$(action_line '$T/upgrade.log' RestoreOriginals)\" ]"
check_until "upgrade: service tcptuned RUNNING again" 60 svc_running

# The pause record restore leaves (daemon/originals.c): the uninstall
# removes it, so a later install enforces instead of starting paused.
printf 'pause 0 0 0 tcptunectl restore\n' >"$(dirname "$conf")/pause"
check "msiexec /x $(basename "$msi_next") /qn" \
    msiexec "$T/uninstall.log" /x "$(winpath "$msi_next")" ||
    diag_file log "$T/uninstall.log"
restore_ran_first() {
	local r s
	r=$(action_line "$T/uninstall.log" RestoreOriginals)
	s=$(action_line "$T/uninstall.log" StopServices)
	echo "RestoreOriginals at log line ${r:-none}, StopServices at ${s:-none}"
	[ -n "$r" ] && [ -n "$s" ] && [ "$r" -lt "$s" ]
}
check "uninstall: tcptunectl restore ran before StopServices" restore_ran_first
check "uninstall: programs and manuals gone" \
    eval "! test -e '$bin/tcptuned.exe' && ! test -e '$bin/tcptunectl.exe' && ! test -e '$bin/doc/README.txt'"
check "uninstall: the Group Policy template gone" \
    eval "! test -e '$c/windows/PolicyDefinitions/tcptune.admx' && ! test -e '$c/windows/PolicyDefinitions/en-US/tcptune.adml'"
check "uninstall: service tcptuned deleted" \
    eval "! w reg query 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\tcptuned' | grep -q ImagePath &&
    ! w sc query tcptuned | grep -q 'SERVICE_NAME: tcptuned'"
check "uninstall: PATH entry removed" eval \
    "! w reg query 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment' /v PATH |
     grep -q 'Program Files\\\\tcptune'"
check "uninstall: the event log source's value removed" eval \
    "! w reg query 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\EventLog\\Application\\tcptune' | grep -q TypesSupported"
check "uninstall: the edited config is left" cmp "$T/edited.conf" "$conf"
check "uninstall: the pause record removed (a fresh install enforces)" \
    eval "! test -e '$(dirname "$conf")/pause'"
check "uninstall: the product is no longer registered" \
    eval "! w reg query '$uninstall_key\\$(product_code "$msi_next")' | grep -q DisplayVersion"

# ---- shellcheck

if command -v shellcheck >/dev/null 2>&1; then
	check "shellcheck build-msi.sh, this test, wine_session.sh" shellcheck -x \
	    "$build_msi" "$here/msi.sh" "$here/wine_session.sh" \
	    "$top_srcdir/scripts/need-packages.sh"
else
	skip "shellcheck" "shellcheck is not installed"
fi

tap_end
