#!/usr/bin/env bash
# make install / make uninstall into a DESTDIR, from the test's own build
# tree: the programs, man pages, the platform's service file with the right
# paths in it, and the config, which is the user's: a second install keeps
# an edited config and puts the default beside it, uninstall keeps an
# edited config and removes everything else.  Writes only under a temporary
# directory; needs no root.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
: "${top_builddir:=$top_srcdir}"
[ -f "$top_builddir/Makefile" ] || bail "$top_builddir is not configured"

T=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-install.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
D=$T/root

# The make that runs this test is not ours to share: a clean environment
# for the nested one (no jobserver, no command-line overrides).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@"
}

# mkvar NAME...: the build tree's make variables, fully expanded.
mkvar() {
	local v rules=
	for v in "$@"; do
		rules="$rules	@echo '\$($v)'
"
	done
	printf 'tt-print-vars:\n%s' "$rules" |
	    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s -C "$top_builddir" -f Makefile -f - tt-print-vars
}

# mode FILE: permission bits in octal (GNU or BSD stat).
mode() {
	stat -c %a "$1" 2>/dev/null || stat -f %Lp "$1"
}

# shellcheck disable=SC2317 # called through check
# has_lines FILE LINE...: FILE has every LINE, whole; names those missing.
has_lines() {
	local f=$1 l rc=0
	shift
	for l in "$@"; do
		grep -qxF -- "$l" "$f" || { echo "missing: $l"; rc=1; }
	done
	return "$rc"
}

# files_under DIR: every file (not directory) below DIR, sorted.
files_under() {
	(cd "$1" && find . ! -type d | sed 's|^\./|/|' | LC_ALL=C sort)
}

{
	read -r platform
	read -r sbindir
	read -r bindir
	read -r sysconfdir
	read -r mandir
	read -r service
	read -r service_mode
	read -r pkglibexecdir
	read -r bashcompletiondir
	read -r zshcompletiondir
	read -r fishcompletiondir
} < <(mkvar tt_platform sbindir bindir sysconfdir mandir tt_service \
    tt_service_mode pkglibexecdir bashcompletiondir zshcompletiondir \
    fishcompletiondir)
if [ -z "$platform" ] || [ -z "$service" ]; then
	bail "cannot read the build's install paths from $top_builddir/Makefile"
fi
diag "platform $platform, sbindir $sbindir, sysconfdir $sysconfdir," \
    "service $service"
default=$top_srcdir/etc/tcptune.conf.$platform
conf=$D$sysconfdir/tcptune.conf

# ---- first install, into an empty DESTDIR
check "make install DESTDIR" mk install DESTDIR="$D" || bail "install failed"

# The parse helper lives in libexecdir on Unix (Windows parses in the
# service itself), and on Linux the full tcptunectl beside it.
helpers=
[ "$platform" = windows ] || helpers=$pkglibexecdir/tcptune-parse
[ "$platform" = linux ] && helpers="$helpers $pkglibexecdir/tcptunectl-full"
for f in "$sbindir/tcptuned" "$bindir/tcptunectl" $helpers; do
	if [ -f "$D$f" ] && [ -x "$D$f" ] && [ "$(mode "$D$f")" = 755 ]; then
		ok "$f installed, mode 0755"
	else
		not_ok "$f installed, mode 0755"
		diag "$(ls -l "$D$f" 2>&1)"
	fi
done
check "installed tcptunectl runs" "$D$bindir/tcptunectl" -V
# the shell completions, where bash-completion, zsh and fish look
for f in "$bashcompletiondir/tcptunectl" "$zshcompletiondir/_tcptunectl" \
    "$fishcompletiondir/tcptunectl.fish"; do
	if [ -f "$D$f" ] && [ "$(mode "$D$f")" = 644 ]; then
		ok "$f installed, mode 0644"
	else
		not_ok "$f installed, mode 0644"
		diag "$(ls -l "$D$f" 2>&1)"
	fi
done

pages=$(cd "$top_srcdir/man" 2>/dev/null &&
    ls -- *.[1-8] 2>/dev/null)
if [ -z "$pages" ]; then
	skip "man pages installed" "no man pages in $top_srcdir/man yet"
else
	missing=
	for p in $pages; do
		[ -f "$D$mandir/man${p##*.}/$p" ] || missing="$missing $p"
	done
	if [ -z "$missing" ]; then
		ok "man pages installed: $(printf '%s' "$pages" | tr '\n' ' ')"
	else
		not_ok "man pages installed"
		diag "missing under $D$mandir:$missing"
	fi
fi

svc=$D$service
if [ -f "$svc" ] && [ "$(mode "$svc")" = "${service_mode#0}" ]; then
	ok "service file $service, mode $service_mode"
else
	not_ok "service file $service, mode $service_mode"
	diag "$(ls -l "$svc" 2>&1)"
fi
if grep -q '@[a-z_]*@' "$svc" 2>/dev/null; then
	not_ok "service file has every placeholder filled in"
	diag "$(grep -n '@[a-z_]*@' "$svc")"
else
	ok "service file has every placeholder filled in"
fi
check "service file starts $sbindir/tcptuned" \
    grep -qF "$sbindir/tcptuned" "$svc"

if [ "$platform" = linux ]; then
	check "unit: ExecStart=$sbindir/tcptuned" \
	    grep -qx "ExecStart=$sbindir/tcptuned" "$svc"
	check "unit: ConditionPathExists=$sysconfdir/tcptune.conf" \
	    grep -qx "ConditionPathExists=$sysconfdir/tcptune.conf" "$svc"
	check "unit: Type=notify, reload by tcptunectl, restart on failure" \
	    has_lines "$svc" 'Type=notify' 'Restart=on-failure' \
	    "ExecReload=$bindir/tcptunectl reload" \
	    'After=systemd-sysctl.service'
	if grep -Eq '^(PrivateNetwork|ProtectKernelTunables)=(yes|true|1)' "$svc"; then
		not_ok "unit: no PrivateNetwork= or ProtectKernelTunables="
	else
		ok "unit: no PrivateNetwork= or ProtectKernelTunables="
	fi
	if command -v systemd-analyze >/dev/null 2>&1; then
		# verify wants ExecStart and ExecReload to exist: point them
		# into DESTDIR.
		sed "s|^ExecStart=|ExecStart=$D|; s|^ExecReload=|ExecReload=$D|" \
		    "$svc" >"$T/tcptuned.service"
		check "systemd-analyze verify accepts the unit" \
		    systemd-analyze verify --man=no "$T/tcptuned.service"
	else
		skip "systemd-analyze verify accepts the unit" \
		    "no systemd-analyze here"
	fi
fi

if cmp -s "$default" "$conf" && [ "$(mode "$conf")" = 644 ]; then
	ok "config installed from tcptune.conf.$platform, mode 0644"
else
	not_ok "config installed from tcptune.conf.$platform, mode 0644"
	diag "$(ls -l "$conf" 2>&1)"
fi
check "installed config passes tcptunectl check" \
    "$D$bindir/tcptunectl" check "$conf"
check "no tcptune.conf.default beside a fresh config" [ ! -e "$conf.default" ]

# ---- the user edits the config, then installs again
printf '<!-- edited by the test -->\n' >>"$conf"
cp "$conf" "$T/edited"
check "second make install over an edited config" \
    mk install DESTDIR="$D"
check "the edited config is kept" cmp "$T/edited" "$conf"
check "the default goes beside it as tcptune.conf.default" \
    cmp "$default" "$conf.default"

# ---- uninstall keeps the edited config and nothing else
check "make uninstall DESTDIR" mk uninstall DESTDIR="$D"
left=$(files_under "$D")
if [ "$left" = "$sysconfdir/tcptune.conf" ] && cmp -s "$T/edited" "$conf"; then
	ok "uninstall leaves the edited config and nothing else"
else
	not_ok "uninstall leaves the edited config and nothing else"
	diag "files left:" "$left"
fi

# ---- an unedited config is the package's, and goes with it
rm -rf "$D"
mk install DESTDIR="$D" >"$T/check.out" 2>&1 &&
    mk uninstall DESTDIR="$D" >>"$T/check.out" 2>&1
left=$(files_under "$D" 2>&1)
if [ -z "$left" ]; then
	ok "install then uninstall of an unedited config leaves no file"
else
	not_ok "install then uninstall of an unedited config leaves no file"
	diag "files left:" "$left"
	sed 's/^/#   /' "$T/check.out" | tail -n 20
fi

# ---- the pause's record goes with the program, the originals stay
# (issue 40: a later install must not start paused in silence)
statedir=$(mkvar tt_statedir)
rm -rf "$D"
mk install DESTDIR="$D" >"$T/check.out" 2>&1
mkdir -p "$D$statedir"
echo "pause 1700000000 0 812 tcptunectl restore" >"$D$statedir/pause"
echo "kept" >"$D$statedir/originals"
mk uninstall DESTDIR="$D" >>"$T/check.out" 2>&1
if [ ! -e "$D$statedir/pause" ] && [ -s "$D$statedir/originals" ]; then
	ok "uninstall removes the pause's record and keeps the originals"
else
	not_ok "uninstall removes the pause's record and keeps the originals"
	diag "$(ls -la "$D$statedir" 2>&1)"
	sed 's/^/#   /' "$T/check.out" | tail -n 20
fi

tap_end
exit 0
