#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the one trust rule for paths (lib/trust_posix.c) against a
# hostile local user, uid 65534, who owns a directory on the way to a path
# root uses and swaps what is below it for a symbolic link to a directory
# of root's (standing for /etc).  Every path root reads or writes must be
# refused with a message naming the path and the reason, and nothing may
# be written through the link:
#   client  status --textfile DIR and advise --config FILE (with --force)
#           run as root; the service account's own textfile directory is
#           still written, and a user's own file as that user;
#   daemon  the config, the state directory and the socket directory,
#           with no sysctl touched before the refusal.
# Runs inside `unshare -n`: every sysctl written is in its namespace.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

# uid 65534 must be able to reach what we give it.
chmod 0755 "$T" "$T/etc"
use_keys 1
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# The attacker's home, and root's directories the links point into.
HOME_N=$T/nobody
mkdir -m 0755 "$HOME_N" && chown 65534:65534 "$HOME_N"
VICTIM=$T/victim			# stands for /etc
mkdir -m 0755 "$VICTIM"

# swap NAME TARGET: uid 65534 replaces its directory $HOME_N/NAME by a
# symlink to TARGET (the race won, made certain).
swap() {
	as_nobody sh -c 'mkdir -p "$1" && mv "$1" "$1.was" &&
	    ln -s "$2" "$1"' swap "$HOME_N/$1" "$2"
}

# nothing_new DIR: DIR holds only what it held before (list in DIR.before).
snapshot() {
	ls -A "$1" >"$T/${1##*/}.before"
}
nothing_new() {
	ls -A "$1" | cmp -s - "$T/${1##*/}.before"
}

untouched() {
	sysctl_is "$RMEM" "$R0" && sysctl_is "$WMEM" "$W0" &&
	    sysctl_is "$CC" "$C0"
}

# ---- client: tcptunectl run as root

start_ready main

swap prom "$VICTIM"
snapshot "$VICTIM"
ctl status --textfile "$HOME_N/prom"
[ "$CTL_RC" -eq 1 ] && nothing_new "$VICTIM" &&
    output_has "cannot write $HOME_N/prom/tcptune.prom: $HOME_N is owned by another user"
report $? "status --textfile DIR under uid 65534's directory, DIR swapped for a link to root's: refused, nothing written there (exit $CTL_RC)" \
    "$(ls -A "$VICTIM")"

echo precious >"$VICTIM/tcptune.conf"
swap adv "$VICTIM"
snapshot "$VICTIM"
"$TCPTUNECTL" advise --rate 1g --rtt 150ms --force \
    --config "$HOME_N/adv/tcptune.conf" >"$T/ctl.out" 2>&1
CTL_RC=$?
[ "$CTL_RC" -eq 1 ] && [ "$(cat "$VICTIM/tcptune.conf")" = precious ] &&
    nothing_new "$VICTIM" &&
    output_has "cannot write $HOME_N/adv/tcptune.conf: $HOME_N is owned by another user"
report $? "advise --config FILE --force with FILE's directory swapped by uid 65534: refused, root's file untouched (exit $CTL_RC)" \
    "$(cat "$VICTIM/tcptune.conf")"

# The directory may be the reading account's own, as the last one.
TEXTDIR=$T/textfile
mkdir -m 0755 "$TEXTDIR" && chown 65534:65534 "$TEXTDIR"
ctl status --textfile "$TEXTDIR"
[ "$CTL_RC" -eq 0 ] && grep -q '^tcptune_up 1$' "$TEXTDIR/tcptune.prom" &&
    [ "$(stat -c %u "$TEXTDIR/tcptune.prom")" = 0 ]
report $? "status --textfile DIR owned by the reader's account (node_exporter's), in root's tree: written (exit $CTL_RC)"

# ... as the last one only: nothing below it, and never through a link
# that account owns.
as_nobody ln -s "$VICTIM" "$TEXTDIR/sub"
ln -s "$VICTIM" "$T/textlink" && chown -h 65534:65534 "$T/textlink"
snapshot "$VICTIM"
ctl status --textfile "$TEXTDIR/sub"
rc1=$CTL_RC
output_has "$TEXTDIR is owned by another user"
below=$?
ctl status --textfile "$T/textlink"
[ "$rc1" -eq 1 ] && [ "$below" -eq 0 ] && [ "$CTL_RC" -eq 1 ] &&
    nothing_new "$VICTIM" &&
    output_has "$T/textlink is a symbolic link owned by uid 65534; only root's links are followed"
report $? "status --textfile below the reader's directory, or through that account's link: refused (exit $rc1, $CTL_RC)"

# Not root: a user writes where they may, their own business.
echo "(uid 65534) tcptunectl -s $SOCK status --textfile $HOME_N/mine" >"$T/ctl.cmd"
as_nobody mkdir "$HOME_N/mine"
as_nobody "$TCPTUNECTL" -s "$SOCK" status --textfile "$HOME_N/mine" \
    >"$T/ctl.out" 2>&1
CTL_RC=$?
[ "$CTL_RC" -eq 0 ] && [ "$(stat -c %u "$HOME_N/mine/tcptune.prom")" = 65534 ]
report $? "uid 65534 writing its own --textfile: allowed (exit $CTL_RC)"

daemon_stop main
reset() {
	sysctl_put "$RMEM" "$R0"
	sysctl_put "$WMEM" "$W0"
	sysctl_put "$CC" "$C0"
}
reset

# ---- the daemon's paths

# refused ID DESC WANT VICTIMDIR [ARGS]: the daemon exits non-zero naming
# WANT, nothing new in VICTIMDIR, no sysctl changed.
refused() {
	local id=$1 desc=$2 want=$3 victim=$4
	shift 4
	snapshot "$victim"
	daemon_start "$id" "$@"
	wait_until 5 daemon_exited "$id"
	[ "$(daemon_exit_status "$id")" != 0 ] && log_has "$id" "$want" &&
	    nothing_new "$victim" && untouched
	report $? "$desc: refused ('$want'), nothing written, no sysctl touched" \
	    "exit '$(daemon_exit_status "$id")'; $(ls -A "$victim")"
	daemon_stop "$id"
	reset
}

# A root config the attacker would have the daemon read instead.
mkdir -m 0755 "$VICTIM/etc"
plist "$RMEM=${RV[0]}" | write_config "$VICTIM/etc/tcptune.conf"
swap etc "$VICTIM/etc"
refused config "the config under uid 65534's directory, swapped for a link to another of root's" \
    "$HOME_N/etc/tcptune.conf: $HOME_N is owned by another user" "$VICTIM/etc" \
    -f "$HOME_N/etc/tcptune.conf" -s "$SOCK" -S "$STATE"

mkdir -m 0700 "$VICTIM/state"
swap state "$VICTIM/state"
refused state "the state directory under uid 65534's directory, swapped for a link to root's" \
    "$HOME_N is owned by another user" "$VICTIM/state" \
    -f "$CONF" -s "$SOCK" -S "$HOME_N/state"

mkdir -m 0755 "$VICTIM/run"
swap run "$VICTIM/run"
refused sockdir "the socket directory under uid 65534's directory, swapped for a link to root's" \
    "socket directory: $HOME_N is owned by another user" "$VICTIM/run" \
    -f "$CONF" -s "$HOME_N/run/tcptuned.sock" -S "$STATE"

# The same paths reached through root's own link still work (as macOS's
# /var -> private/var): the rule follows what only root can place.
ln -s "$T/etc" "$T/etc-link"
start_ready rootlink -f "$T/etc-link/tcptune.conf" -s "$SOCK" -S "$STATE"
wait_until 5 all_in_force
report $? "a config reached through root's symlink is read"
daemon_stop rootlink

tap_end
