#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the config file flaps.  A writer flips it between a good A,
# a good B, a bad one, a truncated one, a half-written one, a slow write
# and no file at all, about 20 times a second (in place and by rename),
# with SIGHUPs on top; then only bad versions; then it settles.  The daemon
# stays up and answering, every value stays one the running config wants,
# a bad file never replaces the last good config, and it converges once
# the file is good again.  Runs inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_init "$@"

use_keys 2
V=$T/variants
mkdir "$V"
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" >"$V/A"
plist "$RMEM=${RV[1]}" "$WMEM=${WV[1]}" "$CC=$CA" >"$V/B"
bad_config "$V/bad"
head -c 150 "$V/B" >"$V/truncated"
head -c "$(($(wc -c <"$V/A") / 2))" "$V/A" >"$V/half"
: >"$V/empty"

# put VARIANT: the config becomes that, in one of the ways files change.
put() {
	case $1 in
	deleted) rm -f "$CONF" ;;
	slow)	# one file written in two parts, 20 ms apart
		head -c 200 "$V/B" >"$CONF"
		sleep 0.02
		tail -c +201 "$V/B" >>"$CONF" ;;
	*)	if [ $((RANDOM % 2)) -eq 0 ]; then
			cat "$V/$1" >"$CONF"
		else
			cp "$V/$1" "$CONF.tmp" && mv -f "$CONF.tmp" "$CONF"
		fi ;;
	esac
}

# flap SECONDS VARIANT...: change the file about 20 times a second.
flap() {
	local end=$(( $(now_ms) + $1 * 1000 )) n=0
	shift
	local v=("$@")
	while [ "$(now_ms)" -lt "$end" ]; do
		put "${v[RANDOM % ${#v[@]}]}"
		n=$((n + 1))
		sleep 0.05
	done
	echo "$n" >"$T/flaps"
}

# values_of A|B: the values that config wants are all in place.
values_of() {
	local i=0
	[ "$1" = B ] && i=1
	sysctl_is "$RMEM" "${RV[$i]}" && sysctl_is "$WMEM" "${WV[$i]}" &&
	    sysctl_is "$CC" "$CA"
}

# running: A or B, the config the daemon runs (from status "wanted").
running() {
	status_json || return 1
	case $(fold_ws "$(key_field "$RMEM" wanted)") in
	"$(fold_ws "${RV[0]}")") echo A ;;
	"$(fold_ws "${RV[1]}")") echo B ;;
	*) echo "?" ;;
	esac
}

sample_ok() {
	{ sysctl_is "$RMEM" "${RV[0]}" || sysctl_is "$RMEM" "${RV[1]}"; } &&
	    { sysctl_is "$WMEM" "${WV[0]}" || sysctl_is "$WMEM" "${WV[1]}"; } &&
	    sysctl_is "$CC" "$CA"
}

# sample_while PID: until PID ends, every 0.1 s: the daemon is up and
# answers, and each key holds a value of A or of B (a reload moves keys
# one by one).  Sets SBAD (bad samples) and SN (samples); what was wrong
# goes to $T/sample.diag.
sample_while() {
	SBAD=0
	SN=0
	: >"$T/sample.diag"
	while kill -0 "$1" 2>/dev/null; do
		SN=$((SN + 1))
		# A read racing the daemon's write of a vector may see it half
		# written (the kernel stores the numbers one by one): a value
		# counts as wrong only when a second read 50 ms later agrees.
		if ! daemon_alive main || { ! sample_ok && sleep 0.05 && ! sample_ok; }; then
			SBAD=$((SBAD + 1))
			echo "bad sample: $(values)" >>"$T/sample.diag"
		fi
		"$TCPTUNECTL" -s "$SOCK" status >/dev/null 2>&1
		if [ $? -eq 2 ]; then
			SBAD=$((SBAD + 1))
			echo "status unreachable" >>"$T/sample.diag"
		fi
		sleep 0.1
	done
}

put A
start_ready main
wait_until 3 values_of A
report $? "config A applied" "$(values)"

# ---- everything at once

rel_begin
reloads0=$(count_in "$T/d.main.log" "reading it")
flap 4 A B bad truncated half empty deleted slow &
writer=$!
(
	for _ in $(seq 1 20); do
		kill -HUP "$(daemon_pid main)" 2>/dev/null
		sleep 0.2
	done
) &
hupper=$!
sample_while "$writer"
wait "$writer" "$hupper"
check_eq "while the file flapped ($(cat "$T/flaps") changes in 4 s, 20 SIGHUPs): $SN samples, the daemon up and answering, every value A's or B's" 0 "$SBAD" ||
    diag_file "samples" "$T/sample.diag"
reloads=$(( $(count_in "$T/d.main.log" "reading it") - reloads0 ))
[ "$reloads" -ge 1 ]
report $? "the file was still read while it never settled ($reloads reads by the watch in 4 s)"
put bad
sleep 0.5
wait_until 3 log_has main "keeping the running configuration"
kept=$(running)
{ [ "$kept" = A ] || [ "$kept" = B ]; } && wait_until 3 values_of "$kept" &&
    wait_until 3 all_in_force
report $? "left bad: the last good config ($kept) is kept and in force" "$(values)"
status_json
check_eq "status shows the failed reload (last_reload_ok false)" false "$(json_get .daemon.last_reload_ok)"
sysctl_put "$RMEM" "$R0"
wait_until 4 values_of "$kept"
report $? "with the bad file, drift is corrected to the kept config" "$(values)"
other=A
[ "$kept" = A ] && other=B
put "$other"
wait_until 4 values_of "$other" && wait_until 3 all_in_force
report $? "a good file again ($other): the daemon converges to it" "$(values)"
daemon_alive main
report $? "the daemon never died" "exit '$(daemon_exit_status main)'"
rel_row "config: flapping file" \
    "a change every 50 ms or so for 4 s among good A, good B, bad, truncated, half-written, empty, deleted, a slow write; 20 SIGHUPs; then left bad; then good" \
    "$(cat "$T/flaps") changes, $reloads reads by the watch, values always A's or B's, last good kept, converged"

# ---- only bad versions: the running config must not move

flap 3 bad truncated half empty deleted &
writer=$!
sample_while "$writer"
wait "$writer"
check_eq "bad versions only ($(cat "$T/flaps") changes in 3 s): $SN samples, up and answering" 0 "$SBAD" ||
    diag_file "samples" "$T/sample.diag"
values_of "$other" && [ "$(running)" = "$other" ]
report $? "the running config ($other) never moved" "$(values)"
put deleted
sleep 1
wait_until 3 all_in_force && values_of "$other"
report $? "file deleted and left so: the config is kept and in force" "$(values)"
put "$kept"
wait_until 4 values_of "$kept" && wait_until 3 all_in_force
report $? "the file back ($kept): converged" "$(values)"
rel_row "config: bad versions only" \
    "3 s of bad, truncated, half-written, empty and deleted files, then deleted for 1 s, then good" \
    "running config never moved, converged"

daemon_stop main
check_eq "SIGTERM: exit 0" 0 "$(daemon_exit_status main)"

tap_end
