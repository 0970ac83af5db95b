#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: `tcptunectl set` and `unset` answer with tcptunectl(8)'s
# exit codes, in `unshare -n`: a user other than root 3; a key without
# =VALUE, an unquoted value of several numbers and unset KEY=VALUE 64; a
# key this kernel refuses even to root (a global key in a namespace) 1,
# the file and the kernel as they were, and one it refuses at the reload
# 1, the file put back; no daemon 2, as advise --apply,
# with how to start a config when there is none; and the shipped,
# commented config kept as tcptune.conf.orig before set first replaces
# it.  What a user reads on stderr is compared with set_text/NAME.txt
# (paths as T, the default config as DEFAULT, each message on one line: the wrap depends on the length
# of the temporary directory's name; TT_GOLDEN_UPDATE=1 rewrites them),
# and no line of it is wider than 80 columns (that name counted short).

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
GOLD=$top_srcdir/tests/system/set_text

# The shipped Linux config, comments and all, but for its global keys:
# writable here, they would be the host's.  A key goes with its value,
# one line or a dict (Value, Mode) to its end.
sed '/<key>net\.core\./{N;/<dict>/{:a;N;/<\/dict>/!ba};d}' \
    "$top_srcdir/etc/tcptune.conf.linux" |
    write_config "$CONF"
start_ready main
wait_until 3 key_state_is $RMEM "in force"
report $? "the shipped config (but its global keys) is applied" "$(values)"

# golden NAME WANT_EXIT: the last ctl's exit and its stderr ($T/ctl.err)
# against set_text/NAME.txt, each message joined back onto one line; the
# congestion controls this host's kernel has as LIST.
golden() {
	local name=$1 want=$2 why wide
	sed -e ':a' -e 'N' -e '$!ba' -e 's/\n    / /g' "$T/ctl.err" |
	    sed -e "s|$T|T|g" -e "s|\([ ]\)$DEFAULT_CONF|\1DEFAULT|g" \
	    -e 's/(available: [^)]*)/(available: LIST)/' >"$T/golden"
	[ -n "${TT_GOLDEN_UPDATE:-}" ] && cp "$T/golden" "$GOLD/$name.txt"
	why=$(diff -u "$GOLD/$name.txt" "$T/golden" 2>&1)
	# (the temporary directory's long name as a short one: a line that
	# is only long because of it is a path standing alone)
	wide=$(sed "s|$T|/tmp/T|g" "$T/ctl.err" | awk 'length($0) > 80')
	[ -z "$why" ] && [ -z "$wide" ] && [ "$CTL_RC" -eq "$want" ]
	report $? "$name: exit $CTL_RC (want $want), stderr as set_text/$name.txt, within 80 columns" \
	    "$why" "${wide:+wider than 80: $wide}" "$(cat "$T/ctl.out")"
}

# ctl and ctl_as_nobody with stderr apart, in $T/ctl.err.
ctl_err() {
	echo "tcptunectl -s $SOCK $*" >"$T/ctl.cmd"
	"$TCPTUNECTL" -s "$SOCK" "$@" >"$T/ctl.out" 2>"$T/ctl.err"
	CTL_RC=$?
}
ctl_err_as_nobody() {
	echo "(uid 65534) tcptunectl -s $SOCK $*" >"$T/ctl.cmd"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$TCPTUNECTL" -s "$SOCK" "$@" >"$T/ctl.out" 2>"$T/ctl.err"
	CTL_RC=$?
}
# The default config (the build's sysconfdir) and its directory.
DEFAULT_CONF=$("$TCPTUNECTL" --help -v |
    sed -n 's/.*FILE defaults to \([^ ]*\).*/\1/p' | head -n 1)
DEFAULT_DIR=$(dirname "${DEFAULT_CONF:-/etc/tcptune.conf}")
# ctl_err_etc DIR ARGS: tcptunectl ARGS with DIR mounted over the default
# config's directory (in a mount namespace of its own), so that the
# default config is DIR's.  ld.so.cache goes along, for /etc.
# /run is an empty tmpfs in there, so that the next step named is the one
# for a Linux without systemd whatever this host runs (client.c), or, with
# TT_SYSTEMD=yes, the one under systemd (its /run/systemd/system made).
ctl_err_etc() {
	local etc=$1
	shift
	[ -e /etc/ld.so.cache ] && cp /etc/ld.so.cache "$etc/"
	echo "($DEFAULT_DIR from $etc) tcptunectl $*" >"$T/ctl.cmd"
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" &&
	    mount -t tmpfs tmpfs /run && { [ "$3" != yes ] ||
	    mkdir -p /run/systemd/system; } && shift 3 && exec "$@"' sh \
	    "$etc" "$DEFAULT_DIR" "${TT_SYSTEMD:-no}" "$TCPTUNECTL" "$@" \
	    >"$T/ctl.out" 2>"$T/ctl.err"
	CTL_RC=$?
}

cp "$CONF" "$T/shipped"
unchanged() {
	cmp -s "$CONF" "$T/shipped" && [ ! -e "$CONF.orig" ] &&
	    sysctl_is $RMEM "4096 131072 67108864"
}

# ---- not root: 3, as reload

ctl_err_as_nobody set "$RMEM=${RV[0]}"
unchanged
report $? "set as uid 65534: nothing changed" "$(values)"
golden not-root 3
ctl_err_as_nobody set -f "$T/shipped" "$RMEM=${RV[0]}"
golden not-root-f 3
ctl_err_as_nobody unset "$RMEM"
golden not-root-unset 3

# ---- the words: 64, before anything is read

ctl_err set "$RMEM"
golden no-value 64
# the value split by the shell, as a user's unquoted one is
ctl_err set "$RMEM=4096 131072 7340032" $WMEM=4096 16384 7340032
golden unquoted 64
ctl_err unset "$RMEM=4096 131072 7340032"
golden unset-value 64
unchanged
report $? "refused words: nothing changed" "$(values)"

# ---- a key this kernel refuses even to root: 1, the reason said

if global_key_readonly net.core.rmem_max; then
	ctl_err set net.core.rmem_max=64M "$RMEM=${RV[0]}"
	unchanged
	report $? "set of a global key: nothing changed" "$(values)"
	golden global-key 1
	cp "$T/shipped" "$T/other.conf"
	ctl_err set -f "$T/other.conf" net.core.wmem_max=64M
	cmp -s "$T/other.conf" "$T/shipped" && [ ! -e "$T/other.conf.orig" ]
	report $? "set -f of a global key: FILE unchanged" \
	    "$(cat "$T/ctl.err")"
	golden global-key-f 1
else
	skip "set of a global key" "net.core.rmem_max is writable here"
	skip "set of a global key: golden" "net.core.rmem_max is writable here"
	skip "set -f of a global key" "net.core.rmem_max is writable here"
	skip "set -f of a global key: golden" "net.core.rmem_max is writable here"
fi

# ---- no daemon: 2, for set as for advise --apply

# (the default config's directory must be there to mount over: not so
# in an unconfigured prefix)
if [ -d "$DEFAULT_DIR" ]; then
	mkdir "$T/no-etc" "$T/etc-with"
	cp "$T/shipped" "$T/etc-with/${DEFAULT_CONF##*/}"
	ctl_err_etc "$T/no-etc" -s "$T/none.sock" set "$RMEM=${RV[0]}"
	golden no-config 2
	ctl_err_etc "$T/no-etc" -s "$T/none.sock" advise --rate 1g \
	    --rtt 100ms --apply
	golden no-config-advise 2
	ctl_err_etc "$T/etc-with" -s "$T/none.sock" set "$RMEM=${RV[0]}"
	cmp -s "$T/etc-with/${DEFAULT_CONF##*/}" "$T/shipped"
	report $? "set, no daemon: the default config unchanged" \
	    "$(cat "$T/ctl.err")"
	golden no-daemon 2
	ctl_err_etc "$T/etc-with" -s "$T/none.sock" advise --rate 1g \
	    --rtt 100ms --apply
	golden no-daemon-advise 2
	# status, as any command, names the next step in one message: the
	# service's start and where it says why, on Linux with systemd and
	# without; with no config, that the service needs one (issue 45)
	ctl_err_etc "$T/etc-with" -s "$T/none.sock" status
	golden no-daemon-status 2
	TT_SYSTEMD=yes ctl_err_etc "$T/etc-with" -s "$T/none.sock" status
	golden no-daemon-status-systemd 2
	TT_SYSTEMD=yes ctl_err_etc "$T/no-etc" -s "$T/none.sock" status
	golden no-config-status-systemd 2
else
	for g in no-config no-config-advise "set, no daemon" no-daemon \
	    no-daemon-advise no-daemon-status no-daemon-status-systemd \
	    no-config-status-systemd; do
		skip "$g" "no $DEFAULT_DIR to mount over"
	done
fi

ctl_err set -f "$T/none.conf" "$RMEM=${RV[0]}"
golden no-file 1

# ---- the shipped config, replaced: said, and kept as tcptune.conf.orig

# The shipped key is Mode at-least, which set keeps: in force is the
# value raised from the original where it is below, never lowered.
rmem_at_least=$(printf '%s\n%s\n' "$R0" "${RV[0]}" |
    awk '{ for (i = 1; i <= NF; i++) if ($i > v[i]) v[i] = $i; n = NF }
	END { for (i = 1; i <= n; i++) printf "%s%s", v[i], i < n ? " " : "\n" }')
ctl_err set "$RMEM=${RV[0]}"
cmp -s "$CONF.orig" "$T/shipped" && sysctl_is $RMEM "$rmem_at_least" &&
    ! grep -q "Bandwidth-delay" "$CONF"
report $? "set on the shipped config: its copy in tcptune.conf.orig, the key in force" \
    "$(values)" "$(cat "$T/ctl.err")"
golden shipped 0

cp "$CONF" "$T/ours"
ctl_err set "$WMEM=${WV[0]}"
[ "$CTL_RC" -eq 0 ] && [ ! -s "$T/ctl.err" ] && [ ! -e "$CONF.orig.1" ] &&
    cmp -s "$CONF.orig" "$T/shipped"
report $? "set on a file set wrote: no copy, nothing said (exit $CTL_RC)" \
    "$(cat "$T/ctl.err")"

replace_config "$CONF" <"$T/shipped"
ctl_err set "$RMEM=${RV[1]}"
cmp -s "$CONF.orig" "$T/shipped" && cmp -s "$CONF.orig.1" "$T/shipped"
report $? "a hand-written config again: kept as .orig.1, .orig kept" \
    "$(ls "$T/etc")" "$(cat "$T/ctl.err")"
golden shipped-again 0

# ---- a value the kernel refuses at the reload (no such congestion
# control: access(2) cannot tell): the file put back and reloaded, 1

cp "$CONF" "$T/before"
before_w=$(sysctl_get $WMEM)
ctl_err set "$CC=nosuchcc" "$WMEM=${WV[1]}"
cmp -s "$CONF" "$T/before" && wait_until 3 sysctl_is $WMEM "$before_w" &&
    ! sysctl_is $CC nosuchcc
report $? "set of a value the kernel refuses: the file put back, the daemon on it again" \
    "$(values)" "$(cat "$T/ctl.err")"
golden kernel-refused 1

daemon_stop main
tap_end
