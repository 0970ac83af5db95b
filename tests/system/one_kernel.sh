#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: one tcptuned per set of sysctls (docs/SECURITY.md, "One
# daemon per kernel"; daemon/kernel_lock_posix.c).
#   - a second daemon in the same network namespace, with its own socket
#     and state directory, refuses to start and names the first (pid,
#     socket, state directory); no sysctl changes, no originals written;
#   - the same for a second daemon on the same -r tree, reached by another
#     name (a symbolic link: the tree is known by its dev:ino);
#   - a daemon on another -r tree, or in another network namespace (its
#     own unshare -n), starts beside the first;
#   - once the first is gone, kill -9 included, a new one starts at once
#     (the record lock ends with its holder); a clean exit removes the lock file.
# Runs inside `unshare -n`: every sysctl written is in its namespace.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
# The first daemon checks rarely: a write by the second would stay there
# to be seen, not be put back within a second.
plist -i 3600 "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
CONF2=$T/etc/second.conf
plist "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$CC=$C0" | write_config "$CONF2"
NETNS=$(stat -L -c %i /proc/self/ns/net)

# answers SOCKET: a daemon serves status on it.
answers() {
	"$TCPTUNECTL" -s "$1" status >/dev/null 2>&1
	[ $? -ne 2 ]
}

# refused ID: the daemon ID has exited with a non-zero status.
refused() {
	local rc
	wait_until 10 daemon_exited "$1" || return 1
	rc=$(daemon_exit_status "$1")
	[ -n "$rc" ] && [ "$rc" -ne 0 ]
}

# names_first ID PID SOCKET STATE UNIT: ID's refusal names the first.
names_first() {
	log_has "$1" "another tcptuned (pid $2, socket $3, state $4) already manages the sysctls of $5" &&
	    log_has "$1" "; stop it first"
}

# up ID SOCKET ARGS...: start a daemon on SOCKET and wait until it serves.
up() {
	local id=$1 sock=$2
	shift 2
	daemon_start "$id" -s "$sock" "$@"
	wait_until 10 answers "$sock" ||
	    bail "tcptuned ($id) did not come up on $sock (exit $(daemon_exit_status "$id"))"
}

# tree DIR R W C: a sysctl tree (tcptuned -r) holding the three keys.
tree() {
	mkdir -p "$1/net/ipv4"
	printf '%s\n' "$2" >"$1/net/ipv4/tcp_rmem"
	printf '%s\n' "$3" >"$1/net/ipv4/tcp_wmem"
	printf '%s\n' "$4" >"$1/net/ipv4/tcp_congestion_control"
}

# tree_is DIR R W C: the tree's files hold these values.
tree_is() {
	[ "$(fold_ws "$(cat "$1/net/ipv4/tcp_rmem")")" = "$(fold_ws "$2")" ] &&
	    [ "$(fold_ws "$(cat "$1/net/ipv4/tcp_wmem")")" = "$(fold_ws "$3")" ] &&
	    [ "$(cat "$1/net/ipv4/tcp_congestion_control")" = "$4" ]
}

# lock_file ID: the lock file ID's refusal says the first holds.
lock_file() {
	sed -n 's/.*(it holds \(.*\.lock\)).*/\1/p' "$T/d.$1.log" | tail -n 1
}

# ---- a second daemon in the same network namespace

start_ready first
wait_until 5 tuned || bail "the first daemon did not tune ($(values))"
S2=$T/run2/second.sock
daemon_start second -f "$CONF2" -s "$S2" -S "$T/state2"
refused second
report $? "a second daemon in the same namespace, other socket and state, is refused (exit $(daemon_exit_status second))" \
    "$(tail -n 3 "$T/d.second.log")"
names_first second "$DPID_first" "$SOCK" "$STATE" "network namespace net:[$NETNS]"
report $? "the refusal names the first: pid $DPID_first, its socket, state directory and namespace" \
    "$(tail -n 3 "$T/d.second.log")"
tuned
report $? "no sysctl was touched by the second: $(values)"
[ ! -e "$T/state2/originals" ]
report $? "no originals were written by the second" "$(ls -la "$T/state2" 2>&1)"
LOCK=$(lock_file second)
[ -n "$LOCK" ] && grep -qx "pid $DPID_first" "$LOCK" && [ "$(stat -c %u:%a "$LOCK")" = 0:600 ] &&
    [ "$(stat -c %u:%a "$(dirname "$LOCK")")" = 0:700 ]
report $? "the lock file ${LOCK:-?} and its directory are root's, and name the holder" \
    "$(ls -la "$LOCK" "$(dirname "$LOCK")" 2>&1 | head -n 3)" "$(cat "$LOCK" 2>&1)"

# ---- another network namespace: its own unit

OTHER=$T/run2/other.sock
TT_DAEMON_WRAPPER="unshare -n" daemon_start other -f "$CONF2" -s "$OTHER" -S "$T/state-other"
wait_until 10 answers "$OTHER" && daemon_alive other && daemon_alive first
report $? "a daemon in another network namespace (unshare -n) starts beside the first" \
    "$(tail -n 3 "$T/d.other.log")"
[ "$(readlink "/proc/$DPID_other/ns/net")" != "$(readlink /proc/self/ns/net)" ] && tuned
report $? "it runs in its own namespace and leaves ours alone: $(values)"
daemon_stop other

# ---- the same -r tree, by another name

TREE=$T/tree
tree "$TREE" "$R0" "$W0" "$C0"
ln -s "$TREE" "$T/tree-link"
up ta "$T/run2/ta.sock" -f "$CONF" -S "$T/state-ta" -r "$TREE"
wait_until 5 tree_is "$TREE" "${RV[0]}" "${WV[0]}" "$CA" ||
    bail "the daemon on $TREE did not tune it"
daemon_start tb -f "$CONF2" -s "$T/run2/tb.sock" -S "$T/state-tb" -r "$T/tree-link"
refused tb
report $? "a second daemon on the same -r tree (through a link) is refused (exit $(daemon_exit_status tb))" \
    "$(tail -n 3 "$T/d.tb.log")"
names_first tb "$DPID_ta" "$T/run2/ta.sock" "$T/state-ta" "sysctl tree $T/tree-link"
report $? "the refusal names the first on the tree" "$(tail -n 3 "$T/d.tb.log")"
tree_is "$TREE" "${RV[0]}" "${WV[0]}" "$CA" && [ ! -e "$T/state-tb/originals" ]
report $? "the tree was not touched and no originals written by the second" \
    "$(cat "$TREE"/net/ipv4/* 2>&1)"

TREE2=$T/tree2
tree "$TREE2" "$R0" "$W0" "$C0"
up tc "$T/run2/tc.sock" -f "$CONF2" -S "$T/state-tc" -r "$TREE2"
wait_until 5 tree_is "$TREE2" "${RV[1]}" "${WV[1]}" "$C0" && daemon_alive ta &&
    daemon_alive first
report $? "a daemon on another -r tree starts and tunes it, beside the others" \
    "$(cat "$TREE2"/net/ipv4/* 2>&1)" "$(tail -n 3 "$T/d.tc.log")"
daemon_stop tc

# ---- the first gone, a new one starts

daemon_stop first KILL
daemon_start second2 -f "$CONF2" -s "$S2" -S "$T/state2"
wait_until 10 answers "$S2" && daemon_alive second2
report $? "after kill -9 of the first, a new daemon in the namespace starts" \
    "$(tail -n 3 "$T/d.second2.log")"
[ -n "$LOCK" ] && grep -qx "pid $DPID_second2" "$LOCK"
report $? "the lock file now names the new holder" "$(cat "$LOCK" 2>&1)"
daemon_stop second2
[ -n "$LOCK" ] && [ ! -e "$LOCK" ]
report $? "a clean exit removes its lock file" "$(ls -la "$LOCK" 2>&1)"

daemon_stop ta KILL
up tb2 "$T/run2/tb.sock" -f "$CONF2" -S "$T/state-tb" -r "$T/tree-link"
wait_until 5 tree_is "$TREE" "${RV[1]}" "${WV[1]}" "$C0"
report $? "after kill -9 of the first on the tree, a new one starts on it" \
    "$(cat "$TREE"/net/ipv4/* 2>&1)" "$(tail -n 3 "$T/d.tb2.log")"
daemon_stop tb2

tap_end
