#!/bin/bash
# System test: the README's first command, scripts/demo.sh, as a new user
# runs it: on a clean copy of the tree (its git files, nothing built,
# under a root-owned 0755 directory), which it builds and runs with
# nothing installed: tcptuned finds the tcptune-parse beside it.  Asserts
# what the demo shows (the keys in force, the drift put back, the
# restore) and its exit status, 0; and that a demo whose daemon cannot
# start exits non-zero, saying so.  Builds the tree: a minute or two.
# Runs inside `unshare -n` (the demo makes its own namespace in it).

. "$(dirname "$0")/lib.sh"
tt_init "$@"

command -v git >/dev/null 2>&1 || skip_all "git not found"
# a tarball's tree is no checkout, even when it is unpacked inside one
# (make distcheck's tcptune-0.1.0/ in the worktree): git there answers
# for the enclosing tree, which tracks none of the copy's files
git -C "$top_srcdir" ls-files --error-unmatch scripts/demo.sh >/dev/null 2>&1 ||
    skip_all "$top_srcdir is not a git checkout (a tarball): nothing to clone"

TREE=$T/tree
mkdir -m 0755 "$TREE"
git -C "$top_srcdir" ls-files -z |
    tar -C "$top_srcdir" --null -T - -cf - 2>/dev/null | tar -C "$TREE" -xf - ||
    bail "cannot copy the tree"
[ -x "$TREE/scripts/demo.sh" ] || bail "no scripts/demo.sh in the copy"

"$TREE/scripts/demo.sh" >"$T/demo.out" 2>&1
rc=$?
[ "$rc" -eq 0 ]
report $? "demo.sh on a clean copy exits 0 (exit $rc)" "$(tail -n 30 "$T/demo.out")"

default=$("$TREE/tcptuned" -h 2>/dev/null | tr '\n' ' ' |
    grep -o '/[^ ()]*/tcptune-parse' | head -n 1)
if [ -n "$default" ] && [ -e "$default" ]; then
	skip "$default is installed here: the demo used it"
else
	grep -qF "parse helper $TREE/tcptune-parse" "$T/demo.out"
	report $? "its tcptuned used the tcptune-parse beside it ($default not installed)"
fi
! grep -qE 'cannot use the parse helper|not starting|no socket at' "$T/demo.out"
report $? "no start-up failure in what it shows"

# The sections, in order, and what each must show.
section() { sed -n "/^== $1/,/^== /p" "$T/demo.out"; }
section "tcptunectl status" | grep -q '^net.ipv4.tcp_rmem  *in force'
report $? "status shows net.ipv4.tcp_rmem in force"
section "something else lowers" | grep -q '^net.ipv4.tcp_rmem  *drifted\|^net.ipv4.tcp_rmem  *in force'
report $? "status after the drift answers"
section "the next check puts it back" | grep -q '^net.ipv4.tcp_rmem  *in force'
report $? "the drift is put back, and says it uses a short CheckInterval" \
    "$(section "the next check puts it back" | head -n 3)"
grep -q "the shipped config, every 60" "$T/demo.out"
report $? "the demo says its CheckInterval is not the shipped one"
section "tcptunectl restore" | grep -qi 'restored\|paused'
report $? "restore: the originals come back, enforcement paused" \
    "$(section "tcptunectl restore" | head -n 12)"

# ---- broken: the daemon cannot start (a config with an error)
sed -i 's|^<dict>$|<dict>\n\t<key>NoSuchSetting</key><true/>|' \
    "$TREE/etc/tcptune.conf.linux"
grep -q NoSuchSetting "$TREE/etc/tcptune.conf.linux" || bail "cannot break the config"
"$TREE/scripts/demo.sh" >"$T/broken.out" 2>&1
rc=$?
[ "$rc" -ne 0 ] && grep -q "FAILED: tcptuned did not start" "$T/broken.out"
report $? "a daemon that cannot start: demo.sh says so and exits $rc" \
    "$(tail -n 5 "$T/broken.out")"

tap_end
