#!/usr/bin/env bash
# The macOS package, tested on Linux (TAP):
#  - preinstall, postinstall and tcptune-uninstall run as Installer would
#    run them, in a chroot whose "/" is a temporary directory (a private
#    mount namespace binds /usr read-only into it), with recording
#    stand-ins for launchctl, pkgutil and tcptunectl: fresh install,
#    upgrade with an edited config, bootstrap failing twice then working,
#    bootstrap never working, another target volume, uninstall;
#  - the LaunchDaemon plist read by Python's plistlib and by tcptune's own
#    plist reader, the shipped default config by `tcptunectl check`;
#  - build-pkg.sh with stand-ins for the Apple tools (a compiler wrapper
#    that drops the -arch flags, lipo, codesign, pkgbuild, productbuild,
#    productsign, pkgutil, xcrun) around a real configure, make and
#    make install DESTDIR: payload layout, no /etc/tcptune.conf in it,
#    signing skipped without identities and done in order with them.
# Needs root for unshare -m and chroot; nothing outside the temporary
# directory is written.
#
# The stand-ins' bodies are single-quoted on purpose: they expand when the
# stand-ins run.
# shellcheck disable=SC2016
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
# shellcheck source-path=SCRIPTDIR source=standins.sh
. "$top_srcdir/tests/packaging/standins.sh"

LABEL=org.tcptune.tcptuned
JOB=/Library/LaunchDaemons/$LABEL.plist
MAC=$top_srcdir/packaging/macos
CTL=$top_builddir/tcptunectl

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	skip_all "needs root and unshare -m (a chroot in a mount namespace)"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/tt-macos.XXXXXX")
trap 'rm -rf "$T"' EXIT
R=$T/root

# ---- the fake running system

make_root() {
	mkdir -p "$R/usr" "$R/dev" "$R/standin/receipts" "$R/pkg" "$R/standin-nonroot"
	local d
	# As on macOS, /etc and /var are symlinks into /private.
	for d in "$R" "$R/Volumes/Other" "$R/Volumes/Broken"; do
		mkdir -p "$d/private/etc" "$d/private/var"
		ln -s private/etc "$d/etc"
		ln -s private/var "$d/var"
	done
	for d in bin sbin lib lib32 lib64 libx32; do
		if [ -L "/$d" ]; then
			ln -s "$(readlink "/$d")" "$R/$d"
		elif [ -d "/$d" ]; then
			mkdir -p "$R/$d"
		fi
	done
	: >"$R/dev/null"
	write_standin "$R/standin/launchctl" /standin/calls '
S=/standin
[ -e "$S/fail-$1" ] && exit 1
case $1 in
print) [ -e "$S/loaded" ]; exit ;;
enable) exit 0 ;;
bootout)
	echo "  tcptuned=$(cat /Library/tcptune/sbin/tcptuned)" >>"$S/calls"
	[ -e "$S/loaded" ] || { echo "Boot-out failed: 3: No such process" >&2; exit 3; }
	rm -f "$S/loaded"; exit 0 ;;
bootstrap)
	[ "$2" = system ] && [ -f "$3" ] || { echo "bad bootstrap $*" >&2; exit 2; }
	n=$(cat "$S/bootstrap-failures" 2>/dev/null || echo 0)
	if [ "$n" -gt 0 ]; then
		echo $((n - 1)) >"$S/bootstrap-failures"
		echo "Bootstrap failed: 5: Input/output error" >&2
		exit 5
	fi
	: >"$S/loaded"; exit 0 ;;
kickstart)
	echo "  tcptuned=$(cat /Library/tcptune/sbin/tcptuned)" >>"$S/calls"
	[ -e "$S/loaded" ] || exit 113
	exit 0 ;;
esac
exit 64'
	write_standin "$R/standin/pkgutil" /standin/calls '
vol=
if [ "$1" = --volume ]; then vol=$2; shift 2; fi
[ "$1" = --forget ] || exit 64
r=/standin/receipts$vol/$2
[ -e "$r" ] || { echo "No receipt for $2 found at ${vol:-/}." >&2; exit 1; }
rm -f "$r"'
	write_standin "$R/standin-nonroot/id" /standin/calls 'echo 501'
	install -m 0755 "$MAC/scripts/preinstall" "$MAC/scripts/postinstall" "$R/pkg/"
}

# make_payload DIR VERSION: what the package installs; tcptuned is a
# marker the launchctl stand-in prints at bootout and kickstart.
make_payload() {
	local p=$1
	mkdir -p "$p/Library/tcptune/sbin" "$p/Library/tcptune/bin" \
	    "$p/Library/tcptune/share/tcptune" "$p/Library/LaunchDaemons" \
	    "$p/private/etc/paths.d" "$p/private/etc/manpaths.d"
	echo "$2" >"$p/Library/tcptune/sbin/tcptuned"
	write_standin "$p/Library/tcptune/bin/tcptunectl" /standin/calls \
	    'exit "$(cat /standin/tcptunectl.rc 2>/dev/null || echo 0)"'
	install -m 0755 "$MAC/uninstall.sh" "$p/Library/tcptune/sbin/tcptune-uninstall"
	install -m 0644 "$top_srcdir/etc/tcptune.conf.darwin" \
	    "$p/Library/tcptune/share/tcptune/tcptune.conf.default"
	sed -e 's|@sbindir@|/Library/tcptune/sbin|g' -e 's|@bindir@|/Library/tcptune/bin|g' \
	    -e 's|@sysconfdir@|/etc|g' "$top_srcdir/etc/$LABEL.plist.in" >"$p$JOB"
	install -m 0644 "$MAC/paths.d-tcptune" "$p/private/etc/paths.d/tcptune"
	install -m 0644 "$MAC/manpaths.d-tcptune" "$p/private/etc/manpaths.d/tcptune"
	# As pkgbuild --ownership recommended would not: a loose mode that
	# postinstall must fix.
	chmod 0664 "$p$JOB"
}

# in_root [PATHDIRS] CMD...: run CMD with $R as "/".
in_root() {
	local path=/standin
	case $1 in /standin*) path=$1; shift ;; esac
	unshare -m -- /bin/sh -c '
		R=$1; P=$2; shift 2
		mount --bind /usr "$R/usr" && mount -o remount,bind,ro "$R/usr" &&
		mount --bind /dev/null "$R/dev/null" || exit 125
		exec chroot "$R" /usr/bin/env -i PATH="$P:/usr/bin:/usr/sbin" "$@"
	' in_root "$R" "$path" "$@"
}

reset_calls() {
	: >"$R/standin/calls"
}

# calls: the recorded calls, without launchctl print (a query).
calls() {
	grep -v '^launchctl print ' "$R/standin/calls"
}

# installer VOLUME VERSION: what Installer does for one install or upgrade.
# Sets INST_OUT and INST_RC (of the first script that failed, else 0).
installer() {
	local vol=$1 v=$2 root=$R${1%/}
	INST_RC=0
	INST_OUT=$(in_root /pkg/preinstall /pkg/tcptune.pkg "$vol" "$vol" / 2>&1) || INST_RC=$?
	[ "$INST_RC" -eq 0 ] || return 0
	cp -R "$T/payload-$v/." "$root/"
	INST_OUT+=$'\n'$(in_root /pkg/postinstall /pkg/tcptune.pkg "$vol" "$vol" / 2>&1) || INST_RC=$?
	mkdir -p "$R/standin/receipts${vol%/}"
	: >"$R/standin/receipts${vol%/}/org.tcptune.pkg"
}

mode_owner() {
	stat -c '%a %u:%g' "$1"
}

expect_rc() {
	if [ "$2" -eq "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit status $3, expected $2" "$INST_OUT"
	fi
}

# ---- the package scripts

scripts_shellcheck() {
	check "shellcheck -s sh preinstall postinstall tcptune-uninstall" \
	    shellcheck -s sh "$MAC/scripts/preinstall" "$MAC/scripts/postinstall" \
	    "$MAC/uninstall.sh"
	check "shellcheck build-pkg.sh, this test and tests/macos/live.sh" shellcheck -x \
	    "$MAC/build-pkg.sh" "$top_srcdir/tests/packaging/macos.sh" \
	    "$top_srcdir/tests/packaging/standins.sh" "$top_srcdir/tests/macos/live.sh"
}

test_fresh_install() {
	reset_calls
	installer / v1
	expect_rc "fresh install: preinstall and postinstall succeed" 0 "$INST_RC"
	same "fresh install: enable, bootstrap, kickstart -k, nothing booted out" \
	    "launchctl enable system/$LABEL
launchctl bootstrap system $JOB
launchctl kickstart -k system/$LABEL
  tcptuned=v1" "$(calls)"
	check "fresh install: /etc/tcptune.conf is the shipped default" \
	    cmp "$R/etc/tcptune.conf" "$top_srcdir/etc/tcptune.conf.darwin"
	same "fresh install: /etc/tcptune.conf is root's, 0644" "644 0:0" \
	    "$(mode_owner "$R/etc/tcptune.conf")"
	same "fresh install: the LaunchDaemon is root's, 0644" "644 0:0" \
	    "$(mode_owner "$R$JOB")"
}

test_upgrade_edited() {
	sed -i 's|<integer>60</integer>|<integer>30</integer>|' "$R/etc/tcptune.conf"
	cp "$R/etc/tcptune.conf" "$T/edited.conf"
	reset_calls
	installer / v2
	expect_rc "upgrade: scripts succeed" 0 "$INST_RC"
	same "upgrade: the old job is booted out before its files are replaced, the new one started" \
	    "launchctl bootout system/$LABEL
  tcptuned=v1
launchctl enable system/$LABEL
launchctl bootstrap system $JOB
launchctl kickstart -k system/$LABEL
  tcptuned=v2" "$(calls)"
	check "upgrade: the edited /etc/tcptune.conf is kept as it was" \
	    cmp "$R/etc/tcptune.conf" "$T/edited.conf"
}

test_bootstrap_retry() {
	echo 2 >"$R/standin/bootstrap-failures"
	reset_calls
	installer / v2
	expect_rc "bootstrap failing twice: postinstall succeeds" 0 "$INST_RC"
	same "bootstrap failing twice: three bootstraps, then kickstart" \
	    "launchctl bootout system/$LABEL
  tcptuned=v2
launchctl enable system/$LABEL
launchctl bootstrap system $JOB
launchctl bootstrap system $JOB
launchctl bootstrap system $JOB
launchctl kickstart -k system/$LABEL
  tcptuned=v2" "$(calls)"
	case $INST_OUT in
	*"attempt 2 of 4"*) ok "bootstrap failing twice: the retries are reported" ;;
	*) not_ok "bootstrap failing twice: the retries are reported"; diag "$INST_OUT" ;;
	esac
}

test_bootstrap_exhausted() {
	echo 99 >"$R/standin/bootstrap-failures"
	reset_calls
	installer / v2
	expect_rc "bootstrap never working: postinstall fails" 1 "$INST_RC"
	same "bootstrap never working: 4 attempts, no kickstart" \
	    "launchctl bootout system/$LABEL
  tcptuned=v2
launchctl enable system/$LABEL
launchctl bootstrap system $JOB
launchctl bootstrap system $JOB
launchctl bootstrap system $JOB
launchctl bootstrap system $JOB" "$(calls)"
	rm -f "$R/standin/bootstrap-failures"
	installer / v2
	expect_rc "bootstrap never working: the next install recovers" 0 "$INST_RC"
}

# A bootout that fails leaves the job loaded: no bootstrap (it would fail
# with "already loaded"), kickstart -k restarts it on the new binary.
test_bootout_fails() {
	: >"$R/standin/fail-bootout"
	reset_calls
	installer / v2
	rm -f "$R/standin/fail-bootout"
	expect_rc "bootout failing: the install still succeeds" 0 "$INST_RC"
	same "bootout failing: the loaded job is restarted by kickstart -k" \
	    "launchctl bootout system/$LABEL
launchctl enable system/$LABEL
launchctl kickstart -k system/$LABEL
  tcptuned=v2" "$(calls)"
}

test_launchctl_fails() {
	local sub
	for sub in enable kickstart; do
		: >"$R/standin/fail-$sub"
		installer / v2
		rm -f "$R/standin/fail-$sub"
		expect_rc "launchctl $sub failing: postinstall fails" 1 "$INST_RC"
	done
}

test_other_volume() {
	local v=$R/Volumes/Other
	reset_calls
	installer /Volumes/Other v1
	expect_rc "volume /Volumes/Other: scripts succeed" 0 "$INST_RC"
	same "volume /Volumes/Other: launchctl is not called" "" "$(calls)"
	check "volume /Volumes/Other: its etc/tcptune.conf is the default" \
	    cmp "$v/etc/tcptune.conf" "$top_srcdir/etc/tcptune.conf.darwin"
	check "volume /Volumes/Other: the running system's config is untouched" \
	    cmp "$R/etc/tcptune.conf" "$T/edited.conf"
}

test_config_unwritable_default() {
	cp -R "$T/payload-v1/." "$R/Volumes/Broken/"
	rm "$R/Volumes/Broken/Library/tcptune/share/tcptune/tcptune.conf.default"
	reset_calls
	INST_RC=0
	INST_OUT=$(in_root /pkg/postinstall /pkg/tcptune.pkg /Volumes/Broken /Volumes/Broken / 2>&1) || INST_RC=$?
	expect_rc "no shipped default: postinstall fails" 1 "$INST_RC"
	check "no shipped default: no partial tcptune.conf is left" \
	    test ! -e "$R/Volumes/Broken/etc/tcptune.conf" -a \
	    ! -e "$R/Volumes/Broken/etc/tcptune.conf.tcptune-new"
}

# ---- the uninstaller

uninstall() {
	INST_RC=0
	INST_OUT=$(in_root "$@" 2>&1) || INST_RC=$?
}

installed_files_present() {
	test -e "$R/Library/tcptune/sbin/tcptuned" -a -e "$R$JOB" -a \
	    -e "$R/etc/paths.d/tcptune" -a -e "$R/etc/manpaths.d/tcptune"
}

test_uninstall_usage() {
	uninstall /Library/tcptune/sbin/tcptune-uninstall a b
	expect_rc "uninstall: two volumes is a usage error (64)" 64 "$INST_RC"
	uninstall /Library/tcptune/sbin/tcptune-uninstall /Volumes/Missing
	expect_rc "uninstall: a missing volume is refused" 1 "$INST_RC"
	uninstall /standin-nonroot:/standin /Library/tcptune/sbin/tcptune-uninstall
	expect_rc "uninstall: refused when not root" 1 "$INST_RC"
	check "uninstall: refusals leave the files" installed_files_present
}

test_uninstall_restore_fails() {
	echo 2 >"$R/standin/tcptunectl.rc"
	mkdir -p "$R/var/db/tcptune"
	echo originals >"$R/var/db/tcptune/originals"
	reset_calls
	uninstall /Library/tcptune/sbin/tcptune-uninstall
	expect_rc "uninstall, tcptunectl restore failing: refused" 1 "$INST_RC"
	same "uninstall, restore failing: no bootout, no forget" \
	    "tcptunectl restore" "$(calls)"
	check "uninstall, restore failing: files and originals kept" \
	    test -e "$R/var/db/tcptune/originals" -a -e "$R/Library/tcptune/sbin/tcptuned"
}

test_uninstall() {
	rm -f "$R/standin/tcptunectl.rc"
	reset_calls
	uninstall /Library/tcptune/sbin/tcptune-uninstall
	expect_rc "uninstall: succeeds" 0 "$INST_RC"
	same "uninstall: restore, then bootout, then the receipt is forgotten" \
	    "tcptunectl restore
launchctl bootout system/$LABEL
  tcptuned=v2
pkgutil --forget org.tcptune.pkg" "$(calls)"
	local left
	left=$(cd "$R" && find Library private -mindepth 1 | sort | tr '\n' ' ')
	same "uninstall: only the edited config is left" \
	    "Library/LaunchDaemons private/etc private/etc/manpaths.d private/etc/paths.d private/etc/tcptune.conf private/var private/var/db " "$left"
	check "uninstall: the edited config is intact" \
	    cmp "$R/etc/tcptune.conf" "$T/edited.conf"
	check "uninstall: the job is no longer loaded" test ! -e "$R/standin/loaded"
	check "uninstall: the receipt is gone" test ! -e "$R/standin/receipts/org.tcptune.pkg"
}

test_uninstall_force() {
	reset_calls
	installer / v1
	expect_rc "reinstall after uninstall: succeeds as a fresh install" 0 "$INST_RC"
	echo 2 >"$R/standin/tcptunectl.rc"
	reset_calls
	uninstall /Library/tcptune/sbin/tcptune-uninstall -f
	expect_rc "uninstall -f with restore failing: goes on" 0 "$INST_RC"
	same "uninstall -f: restore tried, bootout, forget" \
	    "tcptunectl restore
launchctl bootout system/$LABEL
  tcptuned=v1
pkgutil --forget org.tcptune.pkg" "$(calls)"
	check "uninstall -f: the files are gone" test ! -e "$R/Library/tcptune"
	rm -f "$R/standin/tcptunectl.rc"
}

test_uninstall_other_volume() {
	reset_calls
	uninstall /Volumes/Other/Library/tcptune/sbin/tcptune-uninstall /Volumes/Other
	expect_rc "uninstall /Volumes/Other: succeeds" 0 "$INST_RC"
	same "uninstall /Volumes/Other: only pkgutil --volume, no launchctl or restore" \
	    "pkgutil --volume /Volumes/Other --forget org.tcptune.pkg" "$(calls)"
	check "uninstall /Volumes/Other: the unedited default config is removed too" \
	    test -z "$(find "$R/Volumes/Other" -type f)"
}

# ---- plists

test_launchd_plist() {
	local f=$T/payload-v1$JOB out
	out=$(python3 - "$f" <<'EOF' 2>&1
import plistlib, sys
with open(sys.argv[1], "rb") as fh:
    p = plistlib.load(fh)
want = {
    "Label": "org.tcptune.tcptuned",
    "ProgramArguments": ["/Library/tcptune/sbin/tcptuned", "-f", "/etc/tcptune.conf"],
    "RunAtLoad": True,
    "KeepAlive": {"SuccessfulExit": False},
    "ThrottleInterval": 10,
    "ProcessType": "Background",
    "HardResourceLimits": {"NumberOfFiles": 1024},
}
if p != want:
    sys.exit("got %r" % (p,))
EOF
)
	same "LaunchDaemon plist: plistlib reads the keys docs/DESIGN.md asks for" "" "$out"
	# tcptune's reader is schema-checked: the launchd keys must be its
	# only complaints, each at its own line, which shows the XML and
	# plist layers read the whole file.
	local want k line
	want=
	for k in Label ProgramArguments RunAtLoad KeepAlive ThrottleInterval \
	    ProcessType HardResourceLimits; do
		line=$(grep -n "<key>$k</key>" "$f" | cut -d: -f1)
		want+="$f:$line: unknown key \"$k\" (expected CheckInterval, RestoreOnExit, AllowAnySysctl, Sysctls or MetricsTextfileDirectory)"$'\n'
	done
	out=$("$CTL" check "$f" 2>&1)
	same "LaunchDaemon plist: tcptune's reader finds only the 7 launchd keys, at their lines" \
	    "${want%$'\n'}" "$out"
	check "shipped default config passes tcptunectl check" \
	    "$CTL" check --platform darwin "$T/payload-v1/Library/tcptune/share/tcptune/tcptune.conf.default"
	same "paths.d and manpaths.d name the install tree" \
	    "/Library/tcptune/bin /Library/tcptune/share/man" \
	    "$(cat "$MAC/paths.d-tcptune") $(cat "$MAC/manpaths.d-tcptune")"
}

# ---- build-pkg.sh

# The stand-ins of the Apple tools.  LIPO_ARCHS is what lipo reports;
# NOTARY_RC the exit status of notarytool.
make_build_standins() {
	local b=$T/bbin c=$T/bcalls
	mkdir -p "$b"
	: >"$c"
	cat >"$b/cc-mac" <<EOF
#!/bin/sh
# The compiler: macOS flags recorded (once each) and dropped.
n=
for a in "\$@"; do
	shift
	case \$n\$a in
	-arch) n=-arch ;;
	-arch*) echo "-arch \$a" >>"$T/ccflags"; n= ;;
	-mmacosx-version-min=*) echo "\$a" >>"$T/ccflags" ;;
	*) set -- "\$@" "\$a" ;;
	esac
done
exec cc "\$@"
EOF
	chmod 0755 "$b/cc-mac"
	write_standin "$b/lipo" "$c" 'echo "${LIPO_ARCHS-x86_64 arm64}"'
	write_standin "$b/codesign" "$c" 'exit 0'
	write_standin "$b/pkgbuild" "$c" '
out=; for a; do out=$a; done
while [ $# -gt 1 ]; do
	case $1 in
	--root) (cd "$2" && find . -mindepth 1 | sort) >"'"$T"'/pkgbuild-root" ;;
	--scripts) ls -l "$2" >"'"$T"'/pkgbuild-scripts"
		cp "$2/preinstall" "$2/postinstall" "'"$T"'/" ;;
	esac
	shift
done
echo component >"$out"'
	write_standin "$b/productbuild" "$c" '
dist=$2; out=; for a; do out=$a; done
cp "$dist" "'"$T"'/distribution.xml"
[ -f "$4/tcptune-component.pkg" ] || exit 1
echo product >"$out"'
	write_standin "$b/productsign" "$c" 'cp "$3" "$4"'
	write_standin "$b/pkgutil" "$c" 'exit 0'
	write_standin "$b/xcrun" "$c" '
[ "$1" = notarytool ] && exit "${NOTARY_RC:-0}"
exit 0'
}

# build_pkg OUT [VAR=VALUE...]: build-pkg.sh with the stand-ins; sets
# BUILD_RC and keeps its output in $T/build.out.
build_pkg() {
	local out=$1
	shift
	: >"$T/bcalls"
	BUILD_RC=0
	env -u DEVELOPER_ID_APPLICATION -u DEVELOPER_ID_INSTALLER -u NOTARY_PROFILE \
	    PATH="$T/bbin:$PATH" CC="$T/bbin/cc-mac" "$@" "$MAC/build-pkg.sh" -o "$out" -w "$T/work" >"$T/build.out" 2>&1 || BUILD_RC=$?
}

bcalls() {
	sed "s|$T|T|g" "$T/bcalls"
}

expect_build() {
	if [ "$BUILD_RC" -eq "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit status $BUILD_RC, expected $2"
		diag_file "build-pkg.sh output (tail)" <(tail -n 30 "$T/build.out")
	fi
}

test_build_unsigned() {
	local v
	build_pkg "$T/out"
	expect_build "build-pkg.sh without identities: succeeds" 0
	v=$(sed -n 's/^VERSION = //p' "$T/work/build/Makefile")
	same "build-pkg.sh: configure saw -arch arm64 -arch x86_64 -mmacosx-version-min=11.0" \
	    "-arch arm64
-arch x86_64
-mmacosx-version-min=11.0" "$(sort -u "$T/ccflags" 2>/dev/null)"
	same "build-pkg.sh without identities: lipo, pkgbuild, productbuild only" \
	    "lipo -archs T/work/payload/Library/tcptune/sbin/tcptuned
lipo -archs T/work/payload/Library/tcptune/bin/tcptunectl
pkgbuild --root T/work/payload --scripts T/work/scripts --identifier org.tcptune.pkg --version $v --install-location / --ownership recommended T/work/tcptune-component.pkg
productbuild --distribution T/work/distribution.xml --package-path T/work --resources T/work/resources T/out/tcptune-$v.pkg" \
	    "$(bcalls)"
	check "build-pkg.sh without identities: says each signing step is skipped" \
	    grep -q -e 'binaries left unsigned' -e 'package left unsigned' \
	    -e 'not notarized' "$T/build.out"
	check "build-pkg.sh: the product archive is in OUTDIR" test -s "$T/out/tcptune-$v.pkg"
	check "build-pkg.sh: the package's preinstall is packaging/macos/scripts/preinstall" \
	    cmp "$T/preinstall" "$MAC/scripts/preinstall"
	check "build-pkg.sh: the package's postinstall is packaging/macos/scripts/postinstall" \
	    cmp "$T/postinstall" "$MAC/scripts/postinstall"
	check "build-pkg.sh: both scripts are executable" \
	    test -x "$T/work/scripts/preinstall" -a -x "$T/work/scripts/postinstall"
	check_payload
	check_distribution "$v"
}

check_payload() {
	local p=$T/work/payload f bad
	bad=$(grep -v -E '^\./(Library(/tcptune(/(sbin|bin|share)(/(tcptuned|tcptune-uninstall|tcptunectl|man(/.*)?|tcptune(/tcptune\.conf\.default)?|doc(/tcptune(/LICENSE)?)?|bash-completion(/completions(/tcptunectl)?)?|zsh(/site-functions(/_tcptunectl)?)?|fish(/vendor_completions\.d(/tcptunectl\.fish)?)?))?|/libexec(/tcptune(/(tcptune-parse|tcptunectl-full))?)?)?|/LaunchDaemons(/org\.tcptune\.tcptuned\.plist)?)?|private(/etc(/(paths\.d|manpaths\.d)(/tcptune)?)?)?)$' \
	    "$T/pkgbuild-root" 2>&1)
	[ -s "$T/pkgbuild-root" ] || bad="pkgbuild never saw a payload"
	same "payload: nothing outside the macOS layout (no etc/tcptune.conf)" "" "$bad"
	check "payload: no etc/tcptune.conf, under etc or private/etc" \
	    test ! -e "$p/etc/tcptune.conf" -a ! -e "$p/private/etc/tcptune.conf"
	bad=
	for f in Library/tcptune/sbin/tcptuned Library/tcptune/bin/tcptunectl \
	    Library/tcptune/sbin/tcptune-uninstall "${JOB#/}" \
	    Library/tcptune/share/tcptune/tcptune.conf.default \
	    private/etc/paths.d/tcptune private/etc/manpaths.d/tcptune; do
		[ -f "$p/$f" ] || bad+="$f "
	done
	same "payload: daemon, tool, uninstaller, LaunchDaemon, default config, paths.d, manpaths.d" "" "$bad"
	check "payload: the license, LICENSE, in /Library/tcptune/share/doc/tcptune" \
	    cmp "$p/Library/tcptune/share/doc/tcptune/LICENSE" "$top_srcdir/LICENSE"
	check "the installer's license page: LICENSE as LICENSE.txt in --resources" \
	    cmp "$T/work/resources/LICENSE.txt" "$top_srcdir/LICENSE"
	check "payload: the default config is etc/tcptune.conf.darwin and passes tcptunectl check" \
	    cmp "$p/Library/tcptune/share/tcptune/tcptune.conf.default" \
	    "$top_srcdir/etc/tcptune.conf.darwin"
	check "payload: the LaunchDaemon is the one tested above (plistlib, tcptune's reader)" \
	    cmp "$p$JOB" "$T/payload-v1$JOB"
	check "payload: the built tcptunectl accepts the default config" \
	    "$CTL" check --platform darwin "$p/Library/tcptune/share/tcptune/tcptune.conf.default"
}

check_distribution() {
	local out
	out=$(python3 - "$T/distribution.xml" "$1" <<'EOF' 2>&1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
opts = root.find("options")
assert opts.get("hostArchitectures") == "arm64,x86_64", opts.attrib
refs = [r for r in root.iter("pkg-ref") if r.text]
assert len(refs) == 1 and refs[0].text == "tcptune-component.pkg", refs
assert refs[0].get("version") == sys.argv[2], refs[0].attrib
assert root.find("volume-check/allowed-os-versions/os-version").get("min") == "11.0"
lic = root.find("license")
assert lic is not None and lic.get("file") == "LICENSE.txt", "no license page"
assert lic.get("mime-type") == "text/plain", lic.attrib
EOF
)
	same "distribution.xml: well formed, hostArchitectures arm64,x86_64, version $1, the license page" "" "$out"
}

test_build_signed() {
	local v app="Developer ID Application: Test (TEAMID1234)"
	local inst="Developer ID Installer: Test (TEAMID1234)"
	build_pkg "$T/out2" DEVELOPER_ID_APPLICATION="$app" \
	    DEVELOPER_ID_INSTALLER="$inst" NOTARY_PROFILE=tcptune-notary
	expect_build "build-pkg.sh with identities: succeeds" 0
	v=$(sed -n 's/^VERSION = //p' "$T/work/build/Makefile")
	local pkg=T/out2/tcptune-$v.pkg bin=T/work/payload/Library/tcptune
	same "build-pkg.sh with identities: codesign (hardened runtime), pkgbuild, productbuild, productsign, notarize, staple, in that order" \
	    "lipo -archs $bin/sbin/tcptuned
lipo -archs $bin/bin/tcptunectl
codesign --force --options runtime --timestamp --sign $app $bin/sbin/tcptuned
codesign --verify --strict --verbose=2 $bin/sbin/tcptuned
codesign --force --options runtime --timestamp --sign $app $bin/bin/tcptunectl
codesign --verify --strict --verbose=2 $bin/bin/tcptunectl
pkgbuild --root T/work/payload --scripts T/work/scripts --identifier org.tcptune.pkg --version $v --install-location / --ownership recommended T/work/tcptune-component.pkg
productbuild --distribution T/work/distribution.xml --package-path T/work --resources T/work/resources $pkg
productsign --sign $inst $pkg $pkg.signed
pkgutil --check-signature $pkg
xcrun notarytool submit $pkg --keychain-profile tcptune-notary --wait
xcrun stapler staple $pkg
xcrun stapler validate $pkg" "$(bcalls)"
	check "build-pkg.sh with identities: the signed package replaced the unsigned one" \
	    test -s "$T/out2/tcptune-$v.pkg" -a ! -e "$T/out2/tcptune-$v.pkg.signed"
}

test_build_failures() {
	build_pkg "$T/out3" NOTARY_PROFILE=p
	expect_build "build-pkg.sh: NOTARY_PROFILE without identities is refused" 1
	same "build-pkg.sh: ... before any tool runs" "" "$(bcalls)"
	build_pkg "$T/out3" LIPO_ARCHS=x86_64
	expect_build "build-pkg.sh: a binary without its arm64 slice fails the build" 1
	check "build-pkg.sh: ... saying which slice is missing, before pkgbuild" \
	    eval 'grep -q "lacks arm64" "$T/build.out" && ! grep -q pkgbuild "$T/bcalls"'
	build_pkg "$T/out3" NOTARY_RC=1 DEVELOPER_ID_APPLICATION=a \
	    DEVELOPER_ID_INSTALLER=i NOTARY_PROFILE=p
	expect_build "build-pkg.sh: a failed notarization fails the build" 1
	check "build-pkg.sh: ... and nothing is stapled" \
	    eval '! grep -q stapler "$T/bcalls"'
}

make_root
make_payload "$T/payload-v1" v1
make_payload "$T/payload-v2" v2
scripts_shellcheck
test_fresh_install
test_upgrade_edited
test_bootstrap_retry
test_bootstrap_exhausted
test_bootout_fails
test_launchctl_fails
test_other_volume
test_config_unwritable_default
test_uninstall_usage
test_uninstall_restore_fails
test_uninstall
test_uninstall_force
test_uninstall_other_volume
test_launchd_plist
make_build_standins
test_build_unsigned
test_build_signed
test_build_failures
tap_end
