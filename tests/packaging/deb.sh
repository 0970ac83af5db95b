#!/usr/bin/env bash
# The Debian package, for real, on this machine: build it with
# packaging/debian/build-deb.sh, lintian it, dpkg -i it (no service may
# start), check what dpkg installed and that the programs run, then prove
# that prerm gives the original values back: the installed tcptuned runs
# on the installed config inside a private network namespace (unshare -n,
# as the system tests do), and dpkg -r must restore that namespace's
# tcp_rmem.  dpkg -r keeps the config, dpkg -P removes it and the state.
# The build and its checks run as anyone; dpkg -i onwards only as root.
#
# Never leaves the package installed (a trap purges it on any failure),
# puts back an /etc/tcptune.conf or /var/lib/tcptune that was here before,
# and runs one at a time across concurrent test suites (flock).  Never
# writes the host's sysctls: the daemon only ever runs in a namespace of
# its own, and only after the config's global keys are seen read-only
# there.
# shellcheck disable=SC2317 # functions run through check, wait_for, trap
set -u

finish() {
	tap_end
	exit 0
}
# skip_rest REASON...: the root part (dpkg -i onwards) cannot run here.
skip_rest() {
	skip "install, run, remove and purge the package" "$*"
	finish
}

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"
PKG=tcptune
LOCK=/run/lock/tcptune-deb-test.lock

[ "$(uname -s)" = Linux ] || skip_all "Linux only"
command -v dpkg-deb >/dev/null 2>&1 || skip_all "no dpkg-deb here"

T=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-deb.XXXXXX") || bail "mktemp failed"
chmod 0755 "$T"
trap 'rm -rf "$T"' EXIT
DPID=
POLICY_SET=

# absent PATH...: none of them exists, not even as a dangling link.
absent() {
	local f
	for f in "$@"; do
		if [ -e "$f" ] || [ -L "$f" ]; then
			echo "still there: $f"
			return 1
		fi
	done
}

pkg_gone() {
	case $(pkg_status) in
	"" | un) return 0 ;;
	*) pkg_status; return 1 ;;
	esac
}

pkg_status() {
	dpkg-query -W -f='${db:Status-Abbrev}' "$PKG" 2>/dev/null | tr -d ' '
}

# dpkg_retry ARGS...: dpkg, waiting (up to 5 minutes) while something
# else (apt) holds the dpkg lock.
dpkg_retry() {
	local i rc
	for i in $(seq 300); do
		DEBIAN_FRONTEND=noninteractive dpkg "$@" >"$T/dpkg.out" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ] || ! grep -q 'lock' "$T/dpkg.out"; then
			cat "$T/dpkg.out"
			return "$rc"
		fi
		[ "$i" -eq 1 ] && diag "dpkg is locked; waiting"
		sleep 1
	done
	cat "$T/dpkg.out"
	return "$rc"
}

# ---- the namespace and the daemon in it

# In the new namespace, before exec'ing the daemon: refuse unless this is
# not the host's namespace (nor pid 1's), holds only lo, and every key
# of the config outside net.ipv4 is read-only here.
guard_and_exec() {
	cat <<'EOF'
me=$(readlink /proc/self/ns/net)
init=$(readlink /proc/1/ns/net 2>/dev/null)
ifs=$(awk -F: 'NR > 2 { gsub(/ /, "", $1); printf "%s ", $1 }' /proc/self/net/dev)
if [ -z "$me" ] || [ "$me" = "$1" ] || [ "$me" = "$init" ] || [ "$ifs" != "lo " ]; then
	echo "guard: not in a private network namespace ($me, host $1, pid 1 $init, $ifs)"
	exit 97
fi
shift
for k in "$@"; do
	p=/proc/sys/$(printf '%s' "$k" | tr . /)
	if [ -e "$p" ] && [ -w "$p" ]; then
		echo "guard: $k is writable in this namespace; it would be the host's"
		exit 98
	fi
done
exec /usr/sbin/tcptuned -d
EOF
}

# The config's keys that are not per namespace (anything but net.ipv4.*).
global_keys() {
	grep -o '<key>[A-Za-z0-9_.-]*\.[A-Za-z0-9_.-]*</key>' /etc/tcptune.conf |
	    sed 's|</*key>||g' | grep -v '^net\.ipv4\.' || true
}

# ns_get NAME: a sysctl as the daemon's namespace sees it.
ns_get() {
	nsenter --net="/proc/$DPID/ns/net" \
	    cat "/proc/sys/$(printf '%s' "$1" | tr . /)" | tr -s ' \t' '  '
}

# ns_is NAME VALUE: the namespace's value is VALUE (white space folded).
ns_is() {
	local got
	got=$(ns_get "$1")
	[ "$got" = "$2" ] && return 0
	echo "$1 is '$got', not '$2'"
	return 1
}

# wanted NAME: the value the installed config asks for (string form).
wanted() {
	python3 -c 'import plistlib, sys
v = plistlib.load(open("/etc/tcptune.conf", "rb"))["Sysctls"][sys.argv[1]]
v = v["Value"] if isinstance(v, dict) else v
print(" ".join(str(v).split()))' "$1"
}

daemon_alive() {
	[ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null &&
	    [ "$(readlink "/proc/$DPID/exe" 2>/dev/null)" = /usr/sbin/tcptuned ]
}

stop_daemon() {
	local i
	[ -n "$DPID" ] || return 0
	kill -TERM "$DPID" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$DPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	DPID=
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s.  SECONDS is no deadline:
# the bound is at least TT_WAIT_LIMIT (120 s), a safety net that a busy
# machine does not reach (docs/HACKING.md, "Tests on a busy machine").
wait_for() {
	local i s=$1
	[ "$s" -ge "${TT_WAIT_LIMIT:-120}" ] || s=${TT_WAIT_LIMIT:-120}
	for i in $(seq $((s * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	"${@:2}"
}

ctl_answers() {
	local rc=0
	tcptunectl status >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]
}

# tcptuned processes running the installed binary (not a test's build).
installed_daemons() {
	local p
	for p in $(pgrep -x tcptuned); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = /usr/sbin/tcptuned ] &&
		    echo "$p"
	done
}

deb_depends_ok() {
	local d
	d=$(dpkg-deb -f "$1" Depends)
	echo "Depends: $d"
	case $d in *libc6*) ;; *) return 1 ;; esac
	case $d in *libxml2*) ;; *) return 1 ;; esac
}

deb_version() {
	dpkg-deb -f "$1" Version
}

deb_conffile_ok() {
	dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./conffiles |
	    grep -qx /etc/tcptune.conf
}

# deb_license_ok DEB: its copyright file names the ISC license and carries
# LICENSE's text word for word (DEP-5: each line indented one space, an
# empty line as " .").
deb_license_ok() {
	local got want
	got=$(dpkg-deb --fsys-tarfile "$1" |
	    tar -xOf - ./usr/share/doc/tcptune/copyright) || return 1
	printf '%s\n' "$got" | grep -qx 'License: ISC' || { echo "no License: ISC"; return 1; }
	want=$(sed -n '3,$p' "$top_srcdir/LICENSE" | sed -e 's/^$/./' -e 's/^/ /')
	case $got in
	*"$want"*) ;;
	*) echo "the copyright file lacks LICENSE's permission notice"; return 1 ;;
	esac
	printf '%s\n' "$got" | grep -qx "Copyright: 2026 The tcptune authors"
}

# ---- setup, and the way back

cleanup() {
	stop_daemon
	if ! pkg_gone >/dev/null; then
		echo "# cleanup: purging $PKG"
		DEBIAN_FRONTEND=noninteractive dpkg -P "$PKG" >/dev/null 2>&1 ||
		    echo "# cleanup: dpkg -P $PKG failed; remove it by hand"
	fi
	[ -n "$POLICY_SET" ] && rm -f /usr/sbin/policy-rc.d
	if [ -e "$T/saved/policy-rc.d" ]; then
		mv -f "$T/saved/policy-rc.d" /usr/sbin/policy-rc.d
	fi
	if [ -e "$T/saved/tcptune.conf" ]; then
		mv -f "$T/saved/tcptune.conf" /etc/tcptune.conf
	fi
	if [ -e "$T/saved/state" ]; then
		rm -rf /var/lib/tcptune
		mv "$T/saved/state" /var/lib/tcptune
	fi
	rm -rf "$T"
}

# ---- build
if ! check "build-deb.sh builds the package" \
    bash "$top_srcdir/packaging/debian/build-deb.sh" "$T/out"; then
	finish
fi
deb=$(tail -n 1 "$T/check.out")
diag "built $deb"

check "control: Depends names libxml2 and libc6" deb_depends_ok "$deb"
check "control: /etc/tcptune.conf is a conffile" deb_conffile_ok "$deb"
check "copyright: ISC, LICENSE's text in full (DEP-5)" deb_license_ok "$deb"
if command -v lintian >/dev/null 2>&1; then
	lintian --tag-display-limit 0 "$deb" >"$T/lintian.out" 2>&1
	if grep -q '^E: ' "$T/lintian.out"; then
		not_ok "lintian reports no errors"
	else
		ok "lintian reports no errors"
	fi
	sed 's/^/#   /' "$T/lintian.out"
else
	skip "lintian reports no errors" "lintian not installed"
fi

# A changelog behind the source's version is refused before any build.
mkdir "$T/tree"
tar -C "$top_srcdir" --exclude=./.git -cf - . | tar -C "$T/tree" -xf -
chmod -R u+w "$T/tree"
sed -i '1s/^tcptune ([^)]*)/tcptune (0.0.1-1)/' "$T/tree/packaging/debian/changelog"
if bash "$T/tree/packaging/debian/build-deb.sh" "$T/out2" >"$T/check.out" 2>&1; then
	not_ok "build-deb.sh refuses a changelog behind the source version"
	sed 's/^/#   /' "$T/check.out" | tail -n 5
elif grep -q 'changelog is at 0.0.1-1.*add an entry' "$T/check.out"; then
	ok "build-deb.sh refuses a changelog behind the source version"
else
	not_ok "build-deb.sh refuses a changelog behind the source version"
	sed 's/^/#   /' "$T/check.out" | tail -n 5
fi
rm -rf "$T/out2"

# The same tree one Debian revision later, for the upgrade below.
sed -i "1s/^tcptune ([^)]*)/tcptune ($(deb_version "$deb")+test1)/" \
    "$T/tree/packaging/debian/changelog"
if check "build-deb.sh builds a later revision, for an upgrade" \
    bash "$T/tree/packaging/debian/build-deb.sh" "$T/out2"; then
	deb2=$(tail -n 1 "$T/check.out")
else
	deb2=
fi
rm -rf "$T/tree"

# ---- from here on the package goes onto this machine: root only
if [ "$(id -u)" -ne 0 ]; then
	skip_rest "needs root to dpkg -i"
fi
for c in dpkg dpkg-query unshare nsenter flock jq python3; do
	command -v "$c" >/dev/null 2>&1 || skip_rest "no $c here"
done

exec 9>"$LOCK" || skip_rest "cannot open $LOCK"
flock -w 900 9 || skip_rest "another run holds $LOCK"

if ! pkg_gone >/dev/null; then
	skip_rest "$PKG is installed here ($(pkg_status)); not touching it"
fi
for f in /usr/sbin/tcptuned /usr/bin/tcptunectl \
    /usr/libexec/tcptune/tcptune-parse /usr/libexec/tcptune/tcptunectl-full \
    /lib/systemd/system/tcptuned.service; do
	if [ -e "$f" ]; then
		skip_rest "$f is here, not from a package (make install" \
		    "--prefix=/usr?); dpkg -P would remove it"
	fi
done
if [ -S /run/tcptune/tcptuned.sock ] && python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).connect(sys.argv[1])' \
    /run/tcptune/tcptuned.sock 2>/dev/null; then
	skip_rest "a tcptuned answers on /run/tcptune/tcptuned.sock"
fi
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir "$T/saved"
[ -e /etc/tcptune.conf ] && mv /etc/tcptune.conf "$T/saved/tcptune.conf" &&
    diag "set aside this machine's /etc/tcptune.conf"
[ -e /var/lib/tcptune ] && mv /var/lib/tcptune "$T/saved/state" &&
    diag "set aside this machine's /var/lib/tcptune"
# Where systemd runs (a CI runner), postinst would start the service and
# tune the host: policy-rc.d(8) forbids that for the length of the test,
# as deb-systemd-invoke obeys it (exit 101: action forbidden).
[ -e /usr/sbin/policy-rc.d ] && mv /usr/sbin/policy-rc.d "$T/saved/policy-rc.d"
POLICY_SET=1
printf '#!/bin/sh\n# tcptune deb.sh: no service starts during the test\nexit 101\n' \
    >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d

# ---- install: files in place, no daemon started
check "dpkg -i installs it" dpkg_retry -i "$deb"
check "dpkg says it is installed" [ "$(pkg_status)" = ii ]
check "no daemon was started" [ -z "$(installed_daemons)" ]
if command -v deb-systemd-helper >/dev/null 2>&1; then
	check "postinst enabled the unit for the next boot" \
	    [ -L /etc/systemd/system/multi-user.target.wants/tcptuned.service ]
else
	skip "postinst enabled the unit for the next boot" \
	    "no deb-systemd-helper (init-system-helpers)"
fi
dpkg -L "$PKG" >"$T/list" 2>&1
missing=
for f in /usr/sbin/tcptuned /usr/bin/tcptunectl /etc/tcptune.conf \
    /usr/libexec/tcptune/tcptune-parse /usr/libexec/tcptune/tcptunectl-full \
    /lib/systemd/system/tcptuned.service /usr/share/doc/tcptune/copyright \
    /usr/share/doc/tcptune/changelog.Debian.gz \
    /usr/share/bash-completion/completions/tcptunectl \
    /usr/share/zsh/site-functions/_tcptunectl \
    /usr/share/fish/vendor_completions.d/tcptunectl.fish; do
	grep -qx "$f" "$T/list" && [ -e "$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
	ok "dpkg -L lists the programs, unit, config, docs and completions, all present"
else
	not_ok "dpkg -L lists the programs, unit, config, docs and completions, all present"
	diag "missing:$missing"
fi
check "dpkg-query: /etc/tcptune.conf is a conffile" \
    sh -c "dpkg-query -W -f='\${Conffiles}' $PKG | grep -q '^ /etc/tcptune.conf '"
check "/etc/tcptune.conf is root's, mode 0644" \
    [ "$(stat -c '%U:%G %a' /etc/tcptune.conf)" = "root:root 644" ]
check "the unit starts /usr/sbin/tcptuned" \
    grep -qx 'ExecStart=/usr/sbin/tcptuned' /lib/systemd/system/tcptuned.service
check "tcptunectl version" tcptunectl version
check "tcptunectl check /etc/tcptune.conf" tcptunectl check /etc/tcptune.conf
check "tcptuned -n finds /etc/tcptune.conf by itself" /usr/sbin/tcptuned -n

# ---- the installed daemon, in a namespace of its own
hostns=$(readlink /proc/self/ns/net)
# shellcheck disable=SC2046 # one argument per key
unshare -n sh -c "$(guard_and_exec)" sh "$hostns" $(global_keys) \
    >"$T/daemon.log" 2>&1 &
DPID=$!
if wait_for 10 ctl_answers && daemon_alive; then
	ok "installed tcptuned runs in a private namespace and answers"
else
	not_ok "installed tcptuned runs in a private namespace and answers"
	sed 's/^/#   /' "$T/daemon.log" | tail -n 20
	DPID=
fi
key=net.ipv4.tcp_rmem
if [ -n "$DPID" ]; then
	want=$(wanted "$key")
	orig=$(tcptunectl status --json | jq -r --arg k "$key" \
	    '.keys[] | select(.name == $k) | .original' | tr -s ' \t' '  ')
	check "the daemon applied $key = $want in its namespace" \
	    wait_for 10 ns_is "$key" "$want"
	if [ -n "$orig" ] && [ "$orig" != null ] && [ "$orig" != "$want" ]; then
		ok "the namespace's original $key ($orig) was another value"
	else
		not_ok "the namespace's original $key ($orig) was another value"
	fi
fi

# ---- upgrade: an edited config stays, and so do the tuned values
if [ -n "$deb2" ]; then
	printf '<!-- edited before the upgrade -->\n' >>/etc/tcptune.conf
	cp /etc/tcptune.conf "$T/edited"
	check "dpkg -i of the later revision upgrades it" dpkg_retry -i "$deb2"
	check "the later revision is installed" \
	    [ "$(dpkg-query -W -f='${Version}' "$PKG")" = "$(deb_version "$deb2")" ]
	check "the upgrade keeps the edited /etc/tcptune.conf" \
	    cmp "$T/edited" /etc/tcptune.conf
	check "no daemon was started by the upgrade" \
	    [ -z "$(installed_daemons | grep -vx "${DPID:-none}")" ]
	if [ -n "$DPID" ]; then
		check "the upgrade left $key tuned ($want)" ns_is "$key" "$want"
	else
		skip "the upgrade left $key tuned" "the daemon did not run"
	fi
else
	skip "upgrade to a later revision" "it did not build"
fi

# ---- remove: prerm restores, the config stays
check "dpkg -r removes it" dpkg_retry -r "$PKG"
check "dpkg says config files remain" [ "$(pkg_status)" = rc ]
check "/usr/sbin/tcptuned and /usr/bin/tcptunectl are gone" \
    absent /usr/sbin/tcptuned /usr/bin/tcptunectl \
    /usr/libexec/tcptune/tcptune-parse /usr/libexec/tcptune/tcptunectl-full
check "/etc/tcptune.conf stays after dpkg -r" [ -f /etc/tcptune.conf ]
if [ -n "$DPID" ]; then
	check "prerm put the original $key back ($orig)" \
	    wait_for 5 ns_is "$key" "$orig"
	stop_daemon
else
	skip "prerm put the original $key back" "the daemon did not run"
fi
check "the daemon created /var/lib/tcptune" [ -d /var/lib/tcptune ]

# ---- purge: config, state and unit enablement gone
check "dpkg -P purges it" dpkg_retry -P "$PKG"
check "dpkg no longer knows it" pkg_gone
check "/etc/tcptune.conf is gone" absent /etc/tcptune.conf
check "/var/lib/tcptune is gone" absent /var/lib/tcptune
check "no systemd enablement or mask link is left" \
    absent /etc/systemd/system/multi-user.target.wants/tcptuned.service \
    /etc/systemd/system/tcptuned.service

finish
