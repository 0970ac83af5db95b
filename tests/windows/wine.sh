#!/usr/bin/env bash
# The Windows programs under Wine.  Speaks TAP.  Run by
# scripts/test-windows.sh, which builds them; or by hand:
#   WINBIN=DIR-WITH-THE-EXES WINEPREFIX=PREFIX bash tests/windows/wine.sh
# WINBIN holds tcptuned.exe, tcptunectl.exe and the test tools set_acl.exe,
# pipe_abuse.exe, svc_control.exe, pipe_owner.exe, run_deadline.exe;
# WINEPREFIX is made once by the caller (the first boot is slow).
#
#   config    the good, bad and shipped corpus through tcptunectl.exe
#             check: the Linux golden files, Windows line ends aside
#   run       lib/run_win.c, netsh's runner (run_deadline.exe): a child
#             that hangs, silent or after writing, is ended at the deadline
#             of the whole run; only its output pipe is inherited
#   acl       tcptuned.exe -n refuses a config in a directory, or a file,
#             that Everyone may change; accepts a private one
#   cim       the real CIM backend: Wine has no root/StandardCimv2, so each
#             key is refused with WBEM_E_INVALID_NAMESPACE and the daemon
#             goes on checking, answering, reloading
#   watch     the config directory's change notification reloads it
#   policy    reg add under HKLM\SOFTWARE\Policies\tcptune: in force by
#             itself, named as the source; a bad value refused, naming it,
#             the running config kept, and found by tcptunectl check as
#             by tcptuned -n; its removal gives the config back
#   one machine  a second daemon on its own pipe and state directory is
#             refused and names the first; once the first is gone a new one
#             starts (kernel_lock_win.c)
#   pipe      protocol abuse (pipe_abuse.exe): garbage, oversize, another
#             version, many clients; the daemon still answers.  Its owner
#             is SYSTEM, and tcptunectl refuses a pipe someone else owns
#             (pipe_owner.exe)
#   service   sc create / start / query / stop, and PARAMCHANGE sent with
#             svc_control.exe (Wine's sc.exe cannot send it)
# What Wine cannot run is in docs/DESIGN.md §5 (what each platform is
# compiled, run and tested with).
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
top_srcdir=$(cd "$top_srcdir" && pwd)
: "${WINBIN:?WINBIN must name the directory of the .exe files}"
: "${WINEPREFIX:?WINEPREFIX must name a prefix made for this run}"
export WINEPREFIX WINEDEBUG=-all
cfg=$top_srcdir/tests/config
ctl=$WINBIN/tcptunectl.exe
daemon=$WINBIN/tcptuned.exe
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-wine.XXXXXX") || exit 99
chmod 755 "$tmp"
pids=""
cleanup() {
	local p
	for p in $pids; do kill "$p" 2>/dev/null; done
	wine sc stop tcptuned >/dev/null 2>&1
	wine sc delete tcptuned >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 99' HUP INT TERM

# shellcheck source=tests/windows/wine_session.sh
. "$here/wine_session.sh"
keepalive=$(wine_session_start) ||
    { echo "Bail out! the wineserver or Wine's services did not start"; exit 99; }
pids="$pids $keepalive"

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
# What a failure shows: the output of the command that failed.
tap_context() {
	[ -f "$tmp/out" ] && sed 's/^/# /' "$tmp/out" | head -n 30
	return 0
}
# Windows programs end lines with CR LF; the goldens are Unix text.
unix() { tr -d '\r'; }

# wait_for SECONDS CMD...: until CMD succeeds, bounded.  SECONDS is no
# deadline: the bound is at least TT_WAIT_LIMIT (120 s), a safety net a
# busy machine does not reach (docs/HACKING.md); so are the timeouts
# around single wine commands (WT).
WT=${TT_WAIT_LIMIT:-120}
wait_for() {
	local limit=$1 i=0
	[ "$limit" -ge "$WT" ] || limit=$WT
	shift
	while [ "$i" -lt "$((limit * 5))" ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# ---- config: the same golden files as tests/config/golden.sh

# golden NAME DIR FILE BASE STATUS ARGS...: check's stdout against
# BASE.out and its stderr against BASE.err, each empty when its file is
# not there (tests/config/golden.sh's rule: the report on stdout, the
# findings on stderr).
golden() {
	local name=$1 dir=$2 file=$3 base=$4 want=$5 status ext
	shift 5
	(cd "$dir" && timeout "$WT" wine "$ctl" check "$@" "$file") \
	    >"$tmp/stdout.raw" 2>"$tmp/stderr.raw"
	status=$?
	: >"$tmp/diff"
	for ext in out err; do
		[ "$ext" = out ] && unix <"$tmp/stdout.raw" >"$tmp/got"
		[ "$ext" = err ] && unix <"$tmp/stderr.raw" >"$tmp/got"
		if [ -f "$base.$ext" ]; then
			diff -u "$base.$ext" "$tmp/got" >>"$tmp/diff" 2>&1
		else
			diff -u /dev/null "$tmp/got" >>"$tmp/diff" 2>&1
		fi
	done
	if [ -s "$tmp/diff" ]; then
		cp "$tmp/diff" "$tmp/out"
		not_ok "config $name: output differs from the Linux golden files"
	elif [ "$status" -ne "$want" ]; then
		not_ok "config $name: exit $status, expected $want"
	else
		ok "config $name"
	fi
}
for f in "$cfg"/good/*.conf; do
	b=$(basename "$f" .conf)
	os=linux
	[ -f "$cfg/good/$b.os" ] && os=$(cat "$cfg/good/$b.os")
	golden "good/$b" "$cfg/good" "$b.conf" "$cfg/good/$b" 0 -v \
	    --platform "$os"
done
for os in darwin freebsd linux windows; do
	golden "etc/tcptune.conf.$os" "$top_srcdir/etc" "tcptune.conf.$os" \
	    "$cfg/shipped/tcptune.conf.$os" 0 -v --platform "$os"
done
for f in "$cfg"/bad/*.conf; do
	b=$(basename "$f" .conf)
	golden "bad/$b" "$cfg/bad" "$b.conf" "$cfg/bad/$b" 1 --platform linux
done
for f in "$cfg"/catalogue/*.conf; do
	b=$(basename "$f" .conf)
	if [ -f "$cfg/catalogue/$b.out" ]; then
		golden "catalogue/$b" "$cfg/catalogue" "$b.conf" \
		    "$cfg/catalogue/$b" 0 -v --platform "${b%%-*}"
	else
		golden "catalogue/$b" "$cfg/catalogue" "$b.conf" \
		    "$cfg/catalogue/$b" 1 --platform "${b%%-*}"
	fi
done

# ---- help: the manual pages built into tcptunectl.exe (no man(1) here)

for page in tcptunectl.8 tcptuned.8 tcptune.conf.5; do
	timeout "$WT" wine "$ctl" help "${page%.*}" 2>&1 | unix >"$tmp/out"
	sh "$top_srcdir/scripts/man2txt.sh" "$top_srcdir/man/$page" >"$tmp/want"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/out"; then
		ok "help ${page%.*}: the page as mandoc renders it"
	else
		diff -u "$tmp/want" "$tmp/out" | head -n 10 >&2
		not_ok "help ${page%.*}: the page as mandoc renders it"
	fi
done

# ---- run: netsh's runner, lib/run_win.c, on children that hang

# A failure shows the whole output, with the result and output kept.
timeout "$WT" wine "$WINBIN/run_deadline.exe" 2>&1 | unix >"$tmp/run"
cp "$tmp/run" "$tmp/out"
while read -r line; do
	case $line in
	"ok "*) ok "${line#ok [0-9]* - }" ;;
	"not ok "*) not_ok "${line#not ok [0-9]* - }" ;;
	esac
done <"$tmp/run"
grep -q '^1\.\.4$' "$tmp/run" ||
    not_ok "run: run_deadline.exe ran its 4 cases to the end"

# ---- acl: the owner and ACL rule of lib/trust_win.c

conf_text() {
	cat <<EOC
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>CheckInterval</key><integer>1</integer>
  <key>Sysctls</key><dict>
    <key>tcp.autotuninglevel</key><string>normal</string>
    <key>offload.rss</key><string>enabled</string>$1
  </dict>
</dict></plist>
EOC
}
mkdir -p "$tmp/etc" "$tmp/open"
chmod 755 "$tmp/etc"
chmod 1777 "$tmp/open"	# Wine: Everyone may add and delete entries
conf_text "" >"$tmp/etc/tcptune.conf"
conf_text "" >"$tmp/open/tcptune.conf"
chmod 644 "$tmp/etc/tcptune.conf" "$tmp/open/tcptune.conf"
wconf=$(winpath "$tmp/etc/tcptune.conf")

wine "$daemon" -n -f "$wconf" 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -eq 0 ] && grep -qx 'configuration OK' "$tmp/out"
then ok "acl: a private directory and file are accepted"
else not_ok "acl: a private directory and file are accepted"; fi

wine "$daemon" -n -f "$(winpath "$tmp/open/tcptune.conf")" 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -eq 1 ] && grep -q 'its directory must not be writable by Users, Everyone or Authenticated Users (Everyone may change it): refusing to use it' "$tmp/out"
then ok "acl: a directory Everyone may change is refused"
else not_ok "acl: a directory Everyone may change is refused"; fi

cp "$tmp/etc/tcptune.conf" "$tmp/etc/open.conf"
wine "$WINBIN/set_acl.exe" "$(winpath "$tmp/etc/open.conf")" \
    'D:P(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;WD)' >/dev/null 2>&1
wine "$daemon" -n -f "$(winpath "$tmp/etc/open.conf")" 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -eq 1 ] && grep -q 'the file must not be writable by Users, Everyone or Authenticated Users (Everyone may change it)' "$tmp/out"
then ok "acl: a file Everyone may write is refused"
else not_ok "acl: a file Everyone may write is refused"; fi
rm -f "$tmp/etc/open.conf"

wine "$daemon" -n -f "$(winpath "$tmp/etc/none.conf")" 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -eq 1 ] && grep -q 'none.conf: No such file or directory' "$tmp/out"
then ok "acl: a missing file is reported as on Linux"
else not_ok "acl: a missing file is reported as on Linux"; fi

# ---- cim: the real backend's failure path, in a foreground daemon

pipe='\\.\pipe\tcptune-wine-test'
st='C:\tcptune-wine-state'
wine "$daemon" -d -f "$wconf" -S "$st" -s "$pipe" >"$tmp/daemon.log" 2>&1 &
pids="$pids $!"
status_ok() { wine "$ctl" -s "$pipe" status >/dev/null 2>&1; [ $? -le 1 ]; }
if wait_for 60 status_ok; then
	ok "cim: the daemon starts and answers on $pipe"
else
	cp "$tmp/daemon.log" "$tmp/out"
	not_ok "cim: the daemon starts and answers on $pipe"
fi
for key in tcp.autotuninglevel:MSFT_NetTCPSetting \
    offload.rss:MSFT_NetOffloadGlobalSetting; do
	k=${key%%:*} cls=${key#*:}
	if grep -q "^$k: cannot read: No such file or directory: $cls is not on this Windows (root/StandardCimv2: WBEM_E_INVALID_NAMESPACE 0x8004100E); the other keys still apply" "$tmp/daemon.log"
	then ok "cim: $k: the missing class is logged"
	else cp "$tmp/daemon.log" "$tmp/out"; not_ok "cim: $k: the missing class is logged"; fi
done
wine "$ctl" -s "$pipe" --json status 2>/dev/null | unix >"$tmp/out"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = {k["name"]: k for k in d["keys"]}
for name in ("tcp.autotuninglevel", "offload.rss"):
    k = keys[name]
    assert k["state"] == "refused", k
    assert "WBEM_E_INVALID_NAMESPACE 0x8004100E" in k["note"], k
' "$tmp/out" 2>>"$tmp/out"
then ok "cim: status --json shows both keys refused, with the reason"
else not_ok "cim: status --json shows both keys refused, with the reason"; fi
checks_done() {
	wine "$ctl" -s "$pipe" --json status 2>/dev/null | unix |
	    python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["daemon"]["checks"] >= 3 else 1)'
}
if wait_for 30 checks_done; then
	ok "cim: the daemon keeps checking (3 checks and more)"
else
	wine "$ctl" -s "$pipe" --json status 2>&1 | unix >"$tmp/out"
	not_ok "cim: the daemon keeps checking (3 checks and more)"
fi
wine "$ctl" -s "$pipe" reload 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -eq 0 ] && grep -q '^reloaded ' "$tmp/out"
then ok "cim: reload over the pipe (an Administrator under Wine)"
else not_ok "cim: reload over the pipe (an Administrator under Wine)"; fi
wine "$ctl" -s "$pipe" restore 2>&1 | unix >"$tmp/out"
if grep -q 'enforcement paused' "$tmp/out"
then ok "cim: restore answers and pauses"
else not_ok "cim: restore answers and pauses"; fi
wine "$ctl" -s "$pipe" resume 2>&1 | unix >"$tmp/out"
if grep -q '^resumed ' "$tmp/out"
then ok "cim: resume answers"
else not_ok "cim: resume answers"; fi

# ---- one daemon per machine: a second, on its own pipe and state
# directory, refuses to start and names the first (kernel_lock_win.c)

pipe2='\\.\pipe\tcptune-wine-second'
st2='C:\tcptune-wine-state2'
timeout 60 wine "$daemon" -d -f "$wconf" -S "$st2" -s "$pipe2" >"$tmp/second.log" 2>&1
rc=$?
unix <"$tmp/second.log" >"$tmp/out"
if [ "$rc" -eq 1 ] && grep -qF "another tcptuned (pid " "$tmp/out" &&
    grep -qF ", socket $pipe, state $st) already manages the sysctls of this machine; stop it first (it holds Global\tcptuned-sysctls)" "$tmp/out" &&
    [ ! -e "$WINEPREFIX/drive_c/tcptune-wine-state2" ]
then ok "one machine: a second daemon (other pipe and state) is refused, names the first, writes no state"
else not_ok "one machine: a second daemon (other pipe and state) is refused, names the first, writes no state"; fi
if status_ok
then ok "one machine: the first still answers"
else not_ok "one machine: the first still answers"; fi

# ---- watch: FindFirstChangeNotification on the config directory

conf_text '
    <key>tcp.congestionprovider.internet</key><string>cubic</string>' \
    >"$tmp/etc/tcptune.conf.new"
mv "$tmp/etc/tcptune.conf.new" "$tmp/etc/tcptune.conf"
three_keys() {
	wine "$ctl" -s "$pipe" --json status 2>/dev/null | unix |
	    python3 -c 'import json,sys; sys.exit(0 if len(json.load(sys.stdin)["keys"]) == 3 else 1)'
}
if wait_for 30 three_keys; then
	ok "watch: the replaced config is reloaded by itself"
else
	cp "$tmp/daemon.log" "$tmp/out"
	not_ok "watch: the replaced config is reloaded by itself"
fi

# ---- policy: the registry policy Group Policy or Intune leaves
# (lib/policy_win.c) laid over the config key by key, watched with
# RegNotifyChangeKeyValue (daemon/policy_watch_win.c): each step waits on
# the daemon's own status, never on a clock.

pkey='HKLM\SOFTWARE\Policies\tcptune'
psrc="policy $pkey\\Sysctls"
# policy_is KEY WANTED SOURCE [INTERVAL [RELOAD_OK]]: status --json says so.
policy_is() {
	wine "$ctl" -s "$pipe" --json status 2>/dev/null | unix |
	    python3 -c '
import json, sys
d = json.load(sys.stdin)
k = {k["name"]: k for k in d["keys"]}[sys.argv[1]]
ok = k["wanted"] == sys.argv[2] and k["source"] == sys.argv[3]
if len(sys.argv) > 4 and sys.argv[4]:
    ok = ok and d["daemon"]["check_interval"] == int(sys.argv[4])
if len(sys.argv) > 5:
    ok = ok and d["daemon"].get("last_reload_ok") == (sys.argv[5] == "1")
sys.exit(0 if ok else 1)' "$@"
}
policy_diag() {
	wine "$ctl" -s "$pipe" --json status 2>&1 | unix >"$tmp/out"
	unix <"$tmp/daemon.log" | tail -n 15 >>"$tmp/out"
}
wine reg delete "$pkey" /f >/dev/null 2>&1
wine reg add "$pkey\\Sysctls" /v tcp.autotuninglevel /t REG_SZ \
    /d restricted /f >/dev/null 2>&1
if wait_for 30 policy_is tcp.autotuninglevel restricted "$psrc"; then
	ok "policy: reg add under $pkey\\Sysctls is in force by itself, status naming the policy key"
else
	policy_diag
	not_ok "policy: reg add under $pkey\\Sysctls is in force by itself, status naming the policy key"
fi
if policy_is offload.rss enabled "$wconf"
then ok "policy: a key the policy does not name stays the config's"
else policy_diag; not_ok "policy: a key the policy does not name stays the config's"; fi
wine "$ctl" -s "$pipe" status 2>&1 | unix >"$tmp/out"
if grep -qF "from $psrc" "$tmp/out" && grep -qF "$psrc (its keys win)" "$tmp/out"
then ok "policy: status in text says where the value comes from"
else not_ok "policy: status in text says where the value comes from"; fi
wine reg add "$pkey" /v CheckInterval /t REG_DWORD /d 7 /f >/dev/null 2>&1
if wait_for 30 policy_is tcp.autotuninglevel restricted "$psrc" 7; then
	ok "policy: CheckInterval (REG_DWORD) in $pkey wins"
else policy_diag; not_ok "policy: CheckInterval (REG_DWORD) in $pkey wins"; fi

# A value the config's checks refuse: the running config stays.
wine reg add "$pkey\\Sysctls" /v kernel.core_pattern /t REG_SZ /d x /f \
    >/dev/null 2>&1
if wait_for 30 policy_is tcp.autotuninglevel restricted "$psrc" 7 0; then
	ok "policy: a bad policy value is refused and the running config stays"
else policy_diag; not_ok "policy: a bad policy value is refused and the running config stays"; fi
bad="$pkey\\Sysctls, value \"kernel.core_pattern\": kernel.core_pattern is not a network or socket-buffer sysctl"
if unix <"$tmp/daemon.log" | grep -qF "$bad"
then ok "policy: the refusal names the registry key and value"
else policy_diag; not_ok "policy: the refusal names the registry key and value"; fi
wine "$ctl" -s "$pipe" reload 2>&1 | unix >"$tmp/out"
if [ "${PIPESTATUS[0]}" -ne 0 ] && grep -qF "$bad" "$tmp/out"
then ok "policy: tcptunectl reload says the same and fails"
else not_ok "policy: tcptunectl reload says the same and fails"; fi
# check of the default config reads the policy as tcptuned -n does
# (lib/config_model.c): the same lines, the bad value among them; both
# say them on stderr, their findings (check under Wine also its own note
# that no kernel keys could be read, "tcptunectl: ...").
wine "$daemon" -n 2>&1 >/dev/null | unix >"$tmp/n.out"
wine "$ctl" check 2>&1 >/dev/null | unix | grep -v '^tcptunectl: ' >"$tmp/out"
crc=${PIPESTATUS[0]}
if [ "$crc" -eq 1 ] && grep -qF "$bad" "$tmp/out" &&
    diff -u "$tmp/n.out" "$tmp/out" >"$tmp/diff" 2>&1
then ok "policy: tcptunectl check reads it as tcptuned -n does"
else cat "$tmp/diff" >>"$tmp/out"; not_ok "policy: tcptunectl check reads it as tcptuned -n does"; fi
wine reg add "$pkey\\Sysctls" /v offload.rss /t REG_BINARY /d 01 /f \
    >/dev/null 2>&1
wine reg delete "$pkey\\Sysctls" /v kernel.core_pattern /f >/dev/null 2>&1
wine "$ctl" -s "$pipe" reload 2>&1 | unix >"$tmp/out"
if grep -qF "$pkey\\Sysctls, value \"offload.rss\": registry type 3 is neither REG_SZ nor REG_DWORD" "$tmp/out"
then ok "policy: a value of another registry type is refused, named"
else not_ok "policy: a value of another registry type is refused, named"; fi
wine reg delete "$pkey\\Sysctls" /v offload.rss /f >/dev/null 2>&1
# The policy is the running one again: the watch has nothing to reload
# (the same digest), and a reload says it is good.
reload_ok() { wine "$ctl" -s "$pipe" reload >/dev/null 2>&1; }
if wait_for 30 reload_ok &&
    policy_is tcp.autotuninglevel restricted "$psrc" 7 1; then
	ok "policy: once the bad values are gone the policy reloads"
else policy_diag; not_ok "policy: once the bad values are gone the policy reloads"; fi

# A key Users or Everyone may change is not believed, as such a config
# file is not (lib/trust_win.c, win_trusted_key).
wine "$WINBIN/set_acl.exe" 'MACHINE\SOFTWARE\Policies\tcptune\Sysctls' \
    'O:BAD:P(A;;KA;;;SY)(A;;KA;;;BA)(A;;KA;;;WD)' >/dev/null 2>&1
wine reg add "$pkey\\Sysctls" /v tcp.autotuninglevel /t REG_SZ \
    /d experimental /f >/dev/null 2>&1
if wait_for 30 policy_is tcp.autotuninglevel restricted "$psrc" 7 0 &&
    unix <"$tmp/daemon.log" | grep -qF "$pkey\\Sysctls: must not be writable by Users, Everyone or Authenticated Users (Everyone may change it): refusing the policy"
then ok "policy: a key Everyone may change is refused, the running config kept"
else policy_diag; not_ok "policy: a key Everyone may change is refused, the running config kept"; fi

# Removing the policy gives the config's values back.
wine reg delete "$pkey" /f >/dev/null 2>&1
if wait_for 30 policy_is tcp.autotuninglevel normal "$wconf" 1 1; then
	ok "policy: removing $pkey falls back to the config"
else policy_diag; not_ok "policy: removing $pkey falls back to the config"; fi

# ---- pipe: protocol abuse

timeout 120 wine "$WINBIN/pipe_abuse.exe" "$pipe" 2>&1 | unix >"$tmp/abuse"
while read -r line; do
	case $line in
	"ok "*) ok "${line#ok [0-9]* - }" ;;
	"not ok "*) : >"$tmp/out"; not_ok "${line#not ok [0-9]* - }" ;;
	esac
done <"$tmp/abuse"
grep -q '^ok .*status still answers (after)' "$tmp/abuse" ||
    { cp "$tmp/abuse" "$tmp/out"; not_ok "pipe: pipe_abuse.exe ran to the end"; }

# ---- pipe: whose it is (control_pipe_win.c's O:SY; tcptunectl checks it)

wine "$WINBIN/pipe_owner.exe" owner "$pipe" 2>&1 | unix >"$tmp/out"
if grep -qx 'S-1-5-18' "$tmp/out"
then ok "pipe: owned by SYSTEM (O:SY), its owner read with tcptunectl's rights"
else not_ok "pipe: owned by SYSTEM (O:SY), its owner read with tcptunectl's rights"; fi
squat='\\.\pipe\tcptune-wine-squat'
# A program holding a pipe name, owned by BUILTIN\Users (S-1-5-32-545).
wine "$WINBIN/pipe_owner.exe" squat "$squat" 'O:BUD:(A;;GA;;;WD)' 120 \
    >"$tmp/squat.log" 2>&1 &
squatter=$!
pids="$pids $squatter"
squat_ready() { grep -q ready "$tmp/squat.log"; }
wait_for 60 squat_ready
wine "$ctl" -s "$squat" status >"$tmp/raw" 2>&1
rc=$?
unix <"$tmp/raw" >"$tmp/out"
if [ "$rc" -eq 2 ] && grep -qF "$squat is owned by S-1-5-32-545, not SYSTEM or Administrators: it is not tcptuned's pipe (another program holds the name); refusing to use it" "$tmp/out"
then ok "pipe: tcptunectl refuses a pipe another owner holds, and says why"
else { cat "$tmp/squat.log"; echo "rc $rc"; } >>"$tmp/out"; not_ok "pipe: tcptunectl refuses a pipe another owner holds, and says why"; fi
kill "$squatter" 2>/dev/null

first_pids=$pids
for p in $pids; do [ "$p" = "$keepalive" ] || kill "$p" 2>/dev/null; done
pids=$keepalive
# The lock goes with the first daemon's process: a new one starts.
for p in $first_pids; do [ "$p" = "$keepalive" ] || wait "$p" 2>/dev/null; done
status2_ok() { wine "$ctl" -s "$pipe2" status >/dev/null 2>&1; [ $? -le 1 ]; }
wine "$daemon" -d -f "$wconf" -S "$st2" -s "$pipe2" >"$tmp/third.log" 2>&1 &
pids="$pids $!"
if wait_for 60 status2_ok
then ok "one machine: once the first has stopped, a new daemon starts"
else unix <"$tmp/third.log" >"$tmp/out"; not_ok "one machine: once the first has stopped, a new daemon starts"; fi
for p in $pids; do [ "$p" = "$keepalive" ] || kill "$p" 2>/dev/null; done
pids=$keepalive

# ---- service: as far as Wine's services.exe goes

if kill -0 "$keepalive" 2>/dev/null; then
	ok "service: the process that keeps Wine's services up still runs"
else
	: >"$tmp/out"
	not_ok "service: the process that keeps Wine's services up still runs"
fi
svc_state() { wine sc query tcptuned 2>/dev/null | unix | grep -q "STATE.*$1"; }
svc_create() {
	wine sc create tcptuned binpath= "$(winpath "$daemon") -f $wconf -S C:\\tcptune-wine-svc -s \\\\.\\pipe\\tcptune-wine-svc" \
	    start= demand >>"$tmp/svc" 2>&1
	wine sc query tcptuned >/dev/null 2>&1
}
# services.exe of a fresh prefix holds its database locked for a while
# (ERROR_SERVICE_DATABASE_LOCKED, 1055) as it starts its own services.
svc_start() {
	wine sc start tcptuned 2>&1 | unix >>"$tmp/svc"
	svc_state START_PENDING || svc_state RUNNING
}
wait_for 60 svc_create
wait_for 60 svc_start
if wait_for 60 svc_state RUNNING; then
	ok "service: sc start: RUNNING after the first apply"
else
	{ unix <"$tmp/svc"; wine sc query tcptuned 2>&1 | unix; } >"$tmp/out"
	not_ok "service: sc start: RUNNING after the first apply"
fi
svc_status() { wine "$ctl" -s '\\.\pipe\tcptune-wine-svc' status >/dev/null 2>&1; [ $? -le 1 ]; }
if wait_for 60 svc_status
then ok "service: answers status on its pipe"
else
	{ wine sc query tcptuned; wine "$ctl" -s '\\.\pipe\tcptune-wine-svc' status; } 2>&1 |
	    unix >"$tmp/out"
	not_ok "service: answers status on its pipe"
fi
# SERVICE_CONTROL_PARAMCHANGE (Wine's sc.exe has no "control" verb).
svc_reloaded() {
	wine "$ctl" -s '\\.\pipe\tcptune-wine-svc' status 2>/dev/null |
	    unix | grep -Eq '^last reload .*ok: reloaded( |$)'	# wrapped at 80
}
if wine "$WINBIN/svc_control.exe" tcptuned >"$tmp/out" 2>&1 &&
    wait_for 30 svc_reloaded
then ok "service: PARAMCHANGE reloads the configuration"
else
	wine "$ctl" -s '\\.\pipe\tcptune-wine-svc' status 2>&1 | unix >>"$tmp/out"
	not_ok "service: PARAMCHANGE reloads the configuration"
fi
wine sc stop tcptuned >/dev/null 2>&1
# one query shows both: a second one, under load, could fail on its own
svc_stopped_clean() {
	wine sc query tcptuned 2>/dev/null | unix >"$tmp/query" &&
	    grep -q 'STATE.*STOPPED' "$tmp/query" &&
	    grep -q 'WIN32_EXIT_CODE *: 0 ' "$tmp/query"
}
if wait_for 30 svc_stopped_clean
then ok "service: sc stop: STOPPED, exit code 0"
else
	wine sc query tcptuned 2>&1 | unix >"$tmp/out"
	not_ok "service: sc stop: STOPPED, exit code 0"
fi

# ---- advise: tcptunectl.exe advise read live.  Wine has no
# root/StandardCimv2, so nothing can be read: advise says so and models a
# stock Windows.  --config FILE as on Windows; --host refused.

# advise ARGS: Unix text on stdout, wine's exit status returned.
advise() {
	local rc
	(cd "$tmp" && timeout "$WT" wine "$ctl" advise "$@") >"$tmp/raw" 2>&1
	rc=$?
	unix <"$tmp/raw"
	return "$rc"
}
advise --rate 1g --rtt 150ms >"$tmp/out"
if [ $? -eq 0 ] && grep -q '^Machine     Windows: nothing could be read here' "$tmp/out" &&
    grep -q '^tcp.autotuninglevel  normal\*  *normal  *capped' "$tmp/out" &&
    grep -q 'WBEM_E_INVALID_NAMESPACE 0x8004100E' "$tmp/out" &&
    tr -s ' \n' '  ' <"$tmp/out" |
    grep -q 'advice is for a stock Windows, as --platform windows'
then ok "advise: nothing readable under Wine, said so, a stock Windows modelled"
else not_ok "advise: nothing readable under Wine, said so, a stock Windows modelled"
fi
advise --rate 1g --rtt 150ms --json >"$tmp/out"
if grep -q '"live": true' "$tmp/out" && grep -q '"nothing-read"' "$tmp/out" &&
    grep -q '"least_level": "experimental"' "$tmp/out"
then ok "advise --json: live, nothing-read, the least level"
else not_ok "advise --json: live, nothing-read, the least level"
fi
wcfg=$(winpath "$tmp/advice.conf")
advise --rate 1g --rtt 150ms --set offload.rss=disabled --config "$wcfg" \
    >"$tmp/out"
if grep -q "^Wrote $(printf '%s' "$wcfg" | sed 's/\\/\\\\/g')" "$tmp/out" &&
    grep -q '<string>normal</string>' "$tmp/advice.conf" &&
    ! grep -q '<string>experimental</string>' "$tmp/advice.conf" &&
    (cd "$tmp" && timeout "$WT" wine "$ctl" check "$wcfg") 2>&1 | unix |
    grep -q 'configuration OK'
then ok "advise --config FILE: written, and check accepts it"
else not_ok "advise --config FILE: written, and check accepts it"
fi
cp "$tmp/advice.conf" "$tmp/advice.before"
advise --rate 1g --rtt 10ms --config "$wcfg" >"$tmp/out"
if [ $? -eq 1 ] && grep -q 'exists: add --force' "$tmp/out" &&
    cmp -s "$tmp/advice.conf" "$tmp/advice.before" &&
    advise --rate 1g --rtt 10ms --config "$wcfg" --force >/dev/null &&
    grep -q '<string>normal</string>' "$tmp/advice.conf" &&
    [ -z "$(ls "$tmp"/advice.conf.tmp.* 2>/dev/null)" ]
then ok "advise --config: an existing FILE only with --force, no temporary left"
else not_ok "advise --config: an existing FILE only with --force, no temporary left"
fi
advise --rate 1g --host 127.0.0.1 >"$tmp/out"
if [ $? -eq 64 ] && grep -q 'not available on Windows; give it with --rtt' "$tmp/out"
then ok "advise --host: refused on Windows, --rtt named"
else not_ok "advise --host: refused on Windows, --rtt named"
fi
advise --rate 1g --rtt 150ms --platform linux >"$tmp/out"
if grep -q '^Machine     Linux (--platform)' "$tmp/out"
then ok "advise --platform linux on Windows: modelled"
else not_ok "advise --platform linux on Windows: modelled"
fi

tap_end
