#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: `tcptunectl advise --apply` against the running daemon, in
# `unshare -n`: from stock values, the keys the advice raises are set in
# the daemon's config (its other keys kept), each shown old -> new, the
# config reloaded and the keys enforced; a second run has nothing to
# change; -f FILE edits FILE only; a user other than root, --platform of
# another OS, a broken config, a config the daemon would refuse (a
# user's) and the options --apply excludes are refused and change nothing, and so does a reload refused (set too: the
# same path), the file put back.  The advice is judged against the config
# (an at-least 4 MiB tcp_rmem with 64 MiB live is raised), its comments say
# how the file holds each key, and set and --apply alternated keep no
# .orig copy (issue 40 item 5).

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 1
STOCK_R="4096 131072 6291456"
STOCK_W="4096 16384 4194304"
sysctl_put $RMEM "$STOCK_R"
sysctl_put $WMEM "$STOCK_W"
ADV=(advise --rate 1g --rtt 100ms)

plist "$CC=$CA" | write_config "$CONF"
start_ready main
wait_until 3 sysctl_is $CC "$CA"
report $? "the stock config is applied" "$(values)"

# What the advice raises here, as advise --json says (the same model).
"$TCPTUNECTL" "${ADV[@]}" --json >"$T/advice.json" 2>"$T/advice.err"
recommended() {
	jq -r --arg n "$1" '.keys[] | select(.name == $n and .change) |
	    .recommended' "$T/advice.json"
}
REC_R=$(recommended $RMEM)
REC_W=$(recommended $WMEM)
[ -n "$REC_R" ] && [ -n "$REC_W" ] && [ "$REC_R" != "$STOCK_R" ]
report $? "advise raises $RMEM and $WMEM from stock values" \
    "$(cat "$T/advice.json" "$T/advice.err")"

# unchanged: the daemon's config as it was, the kernel's values stock.
unchanged() {
	cmp -s "$CONF" "$T/before" && sysctl_is $RMEM "$STOCK_R" &&
	    sysctl_is $WMEM "$STOCK_W"
}
cp "$CONF" "$T/before"

# ---- refused: nothing changes

ctl_as_nobody "${ADV[@]}" --apply
[ "$CTL_RC" -eq 3 ] && output_has "needs root" && unchanged
report $? "not root: refused (exit $CTL_RC), nothing changed" \
    "$(cat "$T/ctl.out")"

ctl "${ADV[@]}" --apply --platform windows
[ "$CTL_RC" -eq 64 ] && output_has "--platform windows models another" &&
    unchanged
report $? "--platform windows on Linux: refused (exit $CTL_RC)" \
    "$(cat "$T/ctl.out")"

for opts in "--json" "--config $T/new.conf" \
    "--set net.ipv4.tcp_moderate_rcvbuf=1"; do
	# shellcheck disable=SC2086 # the words of opts, split on purpose
	ctl "${ADV[@]}" --apply $opts
	[ "$CTL_RC" -eq 64 ] && unchanged && [ ! -e "$T/new.conf" ]
	report $? "--apply ${opts%% *}: refused (exit $CTL_RC)" \
	    "$(cat "$T/ctl.out")"
done
ctl "${ADV[@]}" -f "$T/before"
[ "$CTL_RC" -eq 64 ] && output_has "goes with --apply" && unchanged
report $? "-f without --apply: refused (exit $CTL_RC)" "$(cat "$T/ctl.out")"

bad_config "$T/bad.conf"
cp "$T/bad.conf" "$T/bad.before"
ctl "${ADV[@]}" --apply -f "$T/bad.conf"
[ "$CTL_RC" -eq 1 ] && output_has "not changed" &&
    cmp -s "$T/bad.conf" "$T/bad.before" && unchanged
report $? "-f FILE with errors: refused (exit $CTL_RC), FILE unchanged" \
    "$(cat "$T/ctl.out")"

# A config the daemon would refuse is refused in its words, not written
# back root's (its keys would then be applied as root), its owner kept.
chown 65534 "$CONF"
"$TCPTUNED" -P "$PARSE_HELPER" -n -f "$CONF" >"$T/n.out" 2>&1
words=$(grep -F "$CONF: " "$T/n.out" | grep -m1 -F "refusing to use it")
ctl "${ADV[@]}" --apply
[ "$CTL_RC" -eq 1 ] && [ -n "$words" ] && output_has "$words" &&
    output_has "not changed" && [ "$(stat -c %u "$CONF")" = 65534 ] &&
    unchanged
report $? "the daemon's config owned by uid 65534: refused in the daemon's words (exit $CTL_RC), unchanged" \
    "$(cat "$T/n.out" "$T/ctl.out")"
chown 0 "$CONF"

# ---- -f FILE: that file only, no reload

cp "$CONF" "$T/other.conf"
ctl "${ADV[@]}" --apply -f "$T/other.conf"
[ "$CTL_RC" -eq 0 ] && output_has "$RMEM: $STOCK_R -> $REC_R" &&
    grep -qF "<string>$REC_R</string>" "$T/other.conf" &&
    grep -qF "<string>$CA</string>" "$T/other.conf" && unchanged
report $? "-f FILE: FILE edited, its key kept; the daemon's config and the kernel not (exit $CTL_RC)" \
    "$(cat "$T/ctl.out")"
"$TCPTUNECTL" check --platform linux "$T/other.conf" >"$T/check" 2>&1
report $? "-f FILE: the file passes check" "$(cat "$T/check")"

# One writer (lib/config_write.c): the advice written by --apply is the
# file --config writes, byte for byte once comments are set aside, and
# with the same head comment.  The file --apply edits is --config's with
# the raised keys put back to their stock values; --apply raises them
# again.  The notes of keys read only here differ, and rightly: --config
# says what the kernel holds, --apply what the file it edits holds.
"$TCPTUNECTL" "${ADV[@]}" --config "$T/advised.conf" >"$T/config.out" 2>&1
sed -e "s|<string>$REC_R</string>|<string>$STOCK_R</string>|" \
    -e "s|<string>$REC_W</string>|<string>$STOCK_W</string>|" \
    "$T/advised.conf" >"$T/stock.conf"
cmp -s "$T/advised.conf" "$T/stock.conf"
lowered=$?
ctl "${ADV[@]}" --apply -f "$T/stock.conf"
bare() { sed '/<!--/,/-->/d' "$1"; }
head_of() { sed -n '1,/<plist/p' "$1"; }
[ "$lowered" -eq 1 ] && [ "$CTL_RC" -eq 0 ] &&
    cmp <(bare "$T/advised.conf") <(bare "$T/stock.conf") >"$T/cmp.out" 2>&1 &&
    cmp <(head_of "$T/advised.conf") <(head_of "$T/stock.conf") \
    >>"$T/cmp.out" 2>&1 && unchanged
report $? "--apply -f writes the file --config writes, comments aside, with its head (exit $CTL_RC)" \
    "$(cat "$T/config.out" "$T/ctl.out" "$T/cmp.out")" \
    "$(diff "$T/advised.conf" "$T/stock.conf")"

# ---- a reload refused: the file is put back (a server that names a
# config of ours and refuses every reload, tests/system/fakeserver.py)

FAKE_SOCK=$T/fake.sock
cp "$CONF" "$T/fake.conf"
cp "$CONF" "$T/fake.before"
FAKE_CONFIG=$T/fake.conf python3 "$(dirname "$0")/fakeserver.py" \
    "$FAKE_SOCK" refuse-reload "$T/fake.ready" 2>>"$T/fake.log" &
FAKE_PID=$!
wait_until 5 test -s "$T/fake.ready" || bail "fakeserver did not start"
"$TCPTUNECTL" -s "$FAKE_SOCK" "${ADV[@]}" --apply >"$T/ctl.out" 2>&1
CTL_RC=$?
[ "$CTL_RC" -eq 1 ] && output_has "$RMEM: $STOCK_R -> $REC_R" &&
    output_has "the reload failed, the file is as it was" &&
    cmp -s "$T/fake.conf" "$T/fake.before" && unchanged
report $? "apply, the reload refused: exit $CTL_RC, the file put back" \
    "$(cat "$T/ctl.out")"
"$TCPTUNECTL" -s "$FAKE_SOCK" set "$RMEM=$REC_R" >"$T/ctl.out" 2>&1
CTL_RC=$?
[ "$CTL_RC" -eq 1 ] && output_has "the file is as it was" &&
    cmp -s "$T/fake.conf" "$T/fake.before"
report $? "set, the reload refused: exit $CTL_RC, the file put back" \
    "$(cat "$T/ctl.out")"
kill "$FAKE_PID" 2>/dev/null
wait "$FAKE_PID" 2>/dev/null

# ---- the daemon's config: written, reloaded, enforced

ctl "${ADV[@]}" --apply
cp "$T/ctl.out" "$T/apply.out"
[ "$CTL_RC" -eq 0 ] && output_has "$RMEM: $STOCK_R -> $REC_R" &&
    output_has "$WMEM: $STOCK_W -> $REC_W" && output_has "in force"
report $? "apply: the changes shown, then the new status (exit $CTL_RC)" \
    "$(cat "$T/ctl.out")"
wait_until 3 sysctl_is $RMEM "$REC_R" && sysctl_is $WMEM "$REC_W" &&
    key_state_is $RMEM "in force" && key_state_is $WMEM "in force" &&
    key_state_is $CC "in force"
report $? "apply: the daemon enforces the raised keys, and keeps its own" \
    "$(values)" "$(cat "$T/status.json")"
# shellcheck disable=SC2012 # the owner and mode, as ls shows them
check_eq "apply: the config stays root's, mode 0644" "root 644" \
    "$(stat -c '%U %a' "$CONF")"
grep -A6 "<key>$RMEM</key>" "$CONF" | grep -q '<string>at-least</string>' &&
    grep -A6 "<key>$WMEM</key>" "$CONF" | grep -q '<string>at-least</string>'
report $? "apply: the raised keys are held at-least" "$(cat "$CONF")"

if global_key_readonly net.core.rmem_max; then
	grep -q "net.core.rmem_max: .* left out, read only" "$T/apply.out" &&
	    ! grep -qF "<key>net.core.rmem_max</key>" "$CONF"
	report $? "apply: net.core.rmem_max, read only here, is left out" \
	    "$(cat "$T/apply.out")"
else
	skip "apply: a read-only key left out" \
	    "net.core.rmem_max is writable here"
fi

# at-least: an outside write below the value is raised again
sysctl_put $RMEM "$STOCK_R"
wait_until 3 sysctl_is $RMEM "$REC_R"
report $? "apply: an outside write below $RMEM's value is undone" "$(values)"

# ---- again: nothing to change

cp "$CONF" "$T/applied"
ctl "${ADV[@]}" --apply
[ "$CTL_RC" -eq 0 ] && output_has "nothing to change" &&
    ! output_has " -> $REC_R" && cmp -s "$CONF" "$T/applied"
report $? "apply again: nothing to change, the config untouched" \
    "$(cat "$T/ctl.out")"

# ---- judged as the config, not the kernel (issue 40 item 5)

# The config holds tcp_rmem at-least 4 MiB, the kernel 64 MiB (tcptuned
# or another tool raised it): after a reboot the path gets 4 MiB, which
# is too little for 1 Gbit/s over 150 ms, so --apply raises the config.
BIG_R="4096 131072 67108864"
SMALL_R="4096 131072 4194304"
sysctl_put $RMEM "$BIG_R"
plist "$RMEM=$SMALL_R@at-least" "$CC=$CA" | write_config "$T/small.conf"
ctl advise --rate 1g --rtt 150ms --apply -f "$T/small.conf"
raised=$(grep -A3 "<key>$RMEM</key>" "$T/small.conf" |
    sed -n 's|.*<string>4096 131072 \([0-9]*\)</string>.*|\1|p')
[ "$CTL_RC" -eq 0 ] && output_has "$RMEM: $SMALL_R -> 4096 131072 " &&
    ! output_has "nothing to change" && [ -n "$raised" ] &&
    [ "$raised" -gt 4194304 ]
report $? "apply: an at-least 4 MiB config, 64 MiB live: the config raised (to ${raised:-nothing}, exit $CTL_RC)" \
    "$(cat "$T/ctl.out" "$T/small.conf")"

# Its comments describe the file as written: the congestion control is
# enforced, so not every key is at-least, and the raised key's note does
# not call its old value kept.
grep -q "Mode enforce (.*$CC" <(tr -d '\n\t' <"$T/small.conf") &&
    ! grep -q "Every key is Mode at-least" "$T/small.conf" &&
    ! grep -B12 "<key>$RMEM</key>" "$T/small.conf" | grep -q "kept so it"
report $? "apply: the comments say how each key of the file is held" \
    "$(cat "$T/small.conf")"

# set and advise --apply write one layout: alternating them on one file
# keeps no .orig copy (set used to call advise's file hand-written).
"$TCPTUNECTL" "${ADV[@]}" --config "$T/alt.conf" >"$T/alt.out" 2>&1
for step in set apply set apply; do
	if [ $step = set ]; then
		ctl set -f "$T/alt.conf" "$RMEM=$STOCK_R"
	else
		ctl "${ADV[@]}" --apply -f "$T/alt.conf"
	fi
	cat "$T/ctl.out" >>"$T/alt.out"
	[ "$CTL_RC" -eq 0 ] || break
done
[ "$CTL_RC" -eq 0 ] && ! ls "$T"/alt.conf.orig* >/dev/null 2>&1 &&
    grep -qF "<string>$REC_R</string>" "$T/alt.conf"
report $? "set and advise --apply alternated: no .orig copy (exit $CTL_RC)" \
    "$(cat "$T/alt.out")" "$(ls "$T")"

daemon_stop main
tap_end
