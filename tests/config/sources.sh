#!/bin/bash
#
# check names the other places that set a key of the config
# (lib/other_sources.c), each with its file and line, read under
# TT_SOURCES_ROOT, a tree laid out here as the other tools lay out /etc:
#   - Linux: sysctl.d files in systemd-sysctl's order (a name in /etc
#     masks the same name in /usr/lib, files sorted by name across the
#     directories, the last setting wins, /etc/sysctl.conf last), tuned's
#     active profile with an include= chain, a running bpftune;
#   - macOS (--platform macos): /etc/sysctl.conf and a LaunchDaemon that
#     runs sysctl -w through sh -c;
#   - FreeBSD: /etc/sysctl.conf and /boot/loader.conf.
# The config is opened once: the places named are those of the file
# judged.  Then hostile places (a FIFO, a link out of the tree, a file
# past the cap, NUL bytes, garbage, a link to /dev/null that masks):
# check ends, says what it can, and exits 0.  Speaks TAP.

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
: "${top_builddir:=$here/../..}"
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
top_builddir=$(cd "$top_builddir" && pwd) || exit 99
ctl=$top_builddir/tcptunectl

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

[ -x "$ctl" ] || skip_all "$ctl is not built"

T=$(mktemp -d "${TMPDIR:-/tmp}/tt-sources.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 99' HUP INT TERM

# A hang fails rather than stalls the suite (TT_WAIT_LIMIT, as golden.sh).
bounded() {
	if command -v timeout >/dev/null 2>&1; then
		timeout "${TT_WAIT_LIMIT:-120}" "$@"
	else
		"$@"
	fi
}

# same LABEL EXPECTED-FILE: check's output ($T/out) is the expected one.
same() {
	if diff -u "$2" "$T/out" >"$T/diff"; then
		ok "$1"
	else
		not_ok "$1" "$(cat "$T/diff")"
	fi
}

# check_in ROOT ARGS...: check from $T, the places read under ROOT.
check_in() {
	c_root=$1
	shift
	(cd "$T" && TT_SOURCES_ROOT=$c_root bounded "$ctl" check "$@") \
	    >"$T/out" 2>&1
}

R=$T/linux
mkdir -p "$R/etc/sysctl.d" "$R/usr/lib/sysctl.d" "$R/run/sysctl.d" \
    "$R/etc/tuned/fast" "$R/usr/lib/tuned/base" "$R/proc/4242" \
    "$R/proc/17" || bail "cannot lay out $R"
cat >"$R/etc/sysctl.d/90-big.conf" <<'CONF'
net.ipv4.tcp_rmem = 4096 131072 134217728
CONF
# masked by /etc's 90-big.conf: never read
printf 'net.ipv4.tcp_rmem = 1 2 3\nnet.core.wmem_max = 1\n' \
    >"$R/usr/lib/sysctl.d/90-big.conf"
# sorted before 90-big.conf whatever its directory: 95 wins over 10
printf '# comment\n; another\n-net/core/rmem_max = 1000\n' \
    >"$R/usr/lib/sysctl.d/10-low.conf"
printf '\nnet.core.rmem_max=2000\n' >"$R/run/sysctl.d/95-run.conf"
printf 'vm.swappiness = 10\n' >"$R/etc/sysctl.d/50-vm.conf"
printf 'net.core.wmem_max = 3000\n' >"$R/etc/sysctl.conf"
printf 'fast\n' >"$R/etc/tuned/active_profile"
printf '[main]\ninclude = base\n\n[sysctl]\nnet.core.wmem_max=777\n' \
    >"$R/etc/tuned/fast/tuned.conf"
printf '[sysctl]\nnet.core.wmem_max=111\nnet.core.rmem_max=555\n' \
    >"$R/usr/lib/tuned/base/tuned.conf"
printf 'bash\n' >"$R/proc/17/comm"
printf 'bpftune\n' >"$R/proc/4242/comm"

cat >"$T/linux.conf" <<'CONF'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>Sysctls</key>
	<dict>
		<key>net.core.rmem_max</key>
		<integer>67108864</integer>
		<key>net.core.wmem_max</key>
		<integer>67108864</integer>
		<key>net.ipv4.tcp_rmem</key>
		<string>4096 131072 67108864</string>
		<key>net.ipv4.tcp_congestion_control</key>
		<string>bbr</string>
	</dict>
</dict>
</plist>
CONF
cat >"$T/linux.want" <<'OUT'
configuration OK
linux.conf:6: net.core.rmem_max: also set by /run/sysctl.d/95-run.conf:2 to 2000, applied at boot by systemd-sysctl; also set by /usr/lib/tuned/base/tuned.conf:3 to 555, applied by tuned's active profile
linux.conf:8: net.core.wmem_max: also set by /etc/sysctl.conf:1 to 3000, applied at boot by sysctl --system (and systemd-sysctl where /etc/sysctl.d/99-sysctl.conf links to it); also set by /etc/tuned/fast/tuned.conf:5 to 777, applied by tuned's active profile
linux.conf:10: net.ipv4.tcp_rmem: also set by /etc/sysctl.d/90-big.conf:1 to 4096 131072 134217728, applied at boot by systemd-sysctl; bpftune is running and may change net.ipv4.tcp_rmem
OUT
check_in "$R" --platform linux linux.conf
same "linux: sysctl.d in systemd-sysctl's order, tuned, bpftune" \
    "$T/linux.want"

# The places are named for the config check judged, from the one read
# and parse of it: the file is opened once (a second read could find
# another file than the one judged).
if command -v strace >/dev/null 2>&1 &&
    strace -o "$T/probe" true >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace and says so on stderr (the
	# sanitize stage): the leak check is that stage's, not this one's.
	(cd "$T" && TT_SOURCES_ROOT=$R \
	    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    bounded strace -f -qq -o "$T/trace" \
	    -e trace='/^(open|openat|openat2)$' "$ctl" check --platform linux \
	    linux.conf) >"$T/out" 2>&1
	same "linux, under strace: the same places" "$T/linux.want"
	opens=$(grep -vF O_DIRECTORY "$T/trace" | grep -cE '"([^"]*/)?linux\.conf"')
	if [ "$opens" -eq 1 ]; then
		ok "check opens the config once, to judge it and name its places"
	else
		not_ok "check opens the config once, to judge it and name its places" \
		    "opened $opens times: $(grep -F linux.conf "$T/trace")"
	fi
else
	skip "linux, under strace: the same places" "strace cannot trace here"
	skip "check opens the config once, to judge it and name its places" \
	    "strace cannot trace here"
fi

cat >"$T/macos.conf" <<'CONF'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>Sysctls</key>
	<dict>
		<key>kern.ipc.maxsockbuf</key>
		<integer>16777216</integer>
		<key>net.inet.tcp.sendspace</key>
		<integer>1048576</integer>
	</dict>
</dict>
</plist>
CONF

# --platform for another OS than this one, and no TT_SOURCES_ROOT: this
# machine's /etc is not that machine's, so nothing is read.
(cd "$T" && env -u TT_SOURCES_ROOT "$ctl" check --platform freebsd \
    macos.conf) >"$T/out" 2>&1
printf 'configuration OK\n' >"$T/plain.want"
if [ "$(uname -s)" = FreeBSD ]; then
	skip "another OS: nothing read" "this is FreeBSD"
else
	same "another OS without TT_SOURCES_ROOT: nothing read" "$T/plain.want"
fi

M=$T/macos
mkdir -p "$M/etc" "$M/Library/LaunchDaemons" || bail "cannot lay out $M"
printf 'kern.ipc.maxsockbuf=8388608\n' >"$M/etc/sysctl.conf"
cp "$top_srcdir/tests/config/import/launchd-sh.plist" \
    "$M/Library/LaunchDaemons/com.local.tcp-tuning.plist" || bail "cp"
cp "$top_srcdir/tests/config/import/launchd-binary.plist" \
    "$M/Library/LaunchDaemons/com.local.binary.plist" || bail "cp"
printf 'not a plist at all\n' >"$M/Library/LaunchDaemons/junk.plist"
cat >"$T/macos.want" <<'OUT'
configuration OK
macos.conf:6: kern.ipc.maxsockbuf: also set by /etc/sysctl.conf:1 to 8388608, applied at boot (sysctl.conf(5): read by launchd); also set by /Library/LaunchDaemons/com.local.binary.plist:10 to 16777216, run at boot by launchd; also set by /Library/LaunchDaemons/com.local.tcp-tuning.plist:11 to 16777216, run at boot by launchd
macos.conf:8: net.inet.tcp.sendspace: also set by /Library/LaunchDaemons/com.local.binary.plist:10 to 262144, run at boot by launchd; also set by /Library/LaunchDaemons/com.local.tcp-tuning.plist:11 to 262144, run at boot by launchd
OUT
check_in "$M" --platform macos macos.conf
same "macos: sysctl.conf and LaunchDaemons (sh -c, binary) at their lines" \
    "$T/macos.want"

B=$T/freebsd
mkdir -p "$B/etc" "$B/boot" || bail "cannot lay out $B"
printf 'kern.ipc.maxsockbuf=4194304 # why\n' >"$B/etc/sysctl.conf"
printf 'net.inet.tcp.sendspace="65536"\n' >"$B/boot/loader.conf"
cat >"$T/freebsd.want" <<'OUT'
configuration OK
macos.conf:6: kern.ipc.maxsockbuf: also set by /etc/sysctl.conf:1 to 4194304, applied at boot by rc.d/sysctl
macos.conf:8: net.inet.tcp.sendspace: also set by /boot/loader.conf:1 to 65536, set at boot by loader(8) as a tunable
OUT
check_in "$B" --platform freebsd macos.conf
same "freebsd: sysctl.conf and loader.conf" "$T/freebsd.want"

# Hostile places: read as the daemon reads them, as root.
H=$T/hostile
mkdir -p "$H/etc/sysctl.d" "$H/usr/lib/sysctl.d" ||
    bail "cannot lay out $H"
# outside the root: $H/etc/sysctl.d/../../.. is $T
printf 'net.core.rmem_max = 5\n' >"$T/secret.conf"
ln -s ../../../secret.conf "$H/etc/sysctl.d/10-out.conf"
ln -s /etc/passwd "$H/etc/sysctl.d/11-abs.conf"
mkfifo "$H/etc/sysctl.d/20-fifo.conf" || bail "mkfifo"
head -c 300000 /dev/zero | tr '\0' 'a' >"$H/etc/sysctl.d/30-huge.conf"
printf 'net.core.rmem_max = 6\n\0\n' >"$H/etc/sysctl.d/40-nul.conf"
head -c 4096 /dev/urandom >"$H/etc/sysctl.d/50-garbage.conf"
printf '= = =\n=\nnet.core.rmem_max\nnet..x = 1\n%0400d = 1\n' 0 \
    >"$H/etc/sysctl.d/60-odd.conf"
# masks /usr/lib's 70-mask.conf, as systemd-sysctl takes a link to null
ln -s /dev/null "$H/etc/sysctl.d/70-mask.conf"
printf 'net.core.rmem_max = 7\n' >"$H/usr/lib/sysctl.d/70-mask.conf"
mkdir "$H/etc/sysctl.d/80-dir.conf"
printf 'net.core.rmem_max = 8\n' >"$H/usr/lib/sysctl.d/01-good.conf"
mkdir -p "$H/etc/tuned/loop"
printf 'loop\n' >"$H/etc/tuned/active_profile"
printf '[main]\ninclude=loop\n[sysctl]\nnet.core.wmem_max=9\n' \
    >"$H/etc/tuned/loop/tuned.conf"
printf '../../etc\n' >>"$H/etc/tuned/active_profile"
cat >"$T/hostile.want" <<'OUT'
configuration OK
linux.conf:6: net.core.rmem_max: also set by /usr/lib/sysctl.d/01-good.conf:1 to 8, applied at boot by systemd-sysctl
linux.conf:8: net.core.wmem_max: also set by /etc/tuned/loop/tuned.conf:4 to 9, applied by tuned's active profile
OUT
check_in "$H" --platform linux linux.conf
same "hostile places: links out, FIFO, huge, NUL, garbage, a loop: passed over" \
    "$T/hostile.want"

tap_end
