#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: five faults in a row never lose the true originals.
#
# The daemon tunes three keys and saves their true originals; it stops
# with the tuned values in place (RestoreOnExit false), as after a crash.
# Then, five times: the originals file is damaged (a wrong checksum,
# truncated, a byte flipped, empty, garbage) and the daemon started again.
# Each time it sets the damaged file aside and takes the current (tuned)
# values as originals: the file it sets aside the next time holds those.
# After the third and the fifth fault: every damaged file is still on
# disk, byte for byte, under a name of its own; the oldest still holds the
# true originals; status (text and JSON) and the log name the copies and
# the way back (RECOVERY in tcptuned(8)); and that way, followed to the
# letter, brings the true originals back.  Before, each fault renamed the
# file over the one originals.corrupt, and from the second on the true
# originals were gone.  Runs inside `unshare -n` (tt_init).

. "$(dirname "$0")/lib.sh"
tt_init "$@"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"

use_keys 1
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"
S=$T/state

all_saved() {
	originals_file_ok "$S/originals" "$@" >/dev/null &&
	    [ "$(grep -c '^original ' "$S/originals" 2>/dev/null)" = 3 ]
}

# copies: the damaged copies on disk, oldest first (the names sort by
# time; n is below 10 here).
copies() {
	find "$S" -maxdepth 1 -name 'originals.corrupt*' -printf '%f\n' | sort
}

# holds_true FILE: FILE's "original" lines give the true originals.
holds_true() {
	grep -qxF "original $RMEM $R0" "$1" &&
	    grep -qxF "original $WMEM $W0" "$1" &&
	    grep -qxF "original $CC $C0" "$1"
}

# damage KIND: the originals file damaged in that way; its sha256 noted.
damage() {
	local f=$S/originals
	case $1 in
	checksum) sed -i 's/^checksum .*/checksum 0000000000000000/' "$f" ;;
	truncated) truncate -s "$(($(wc -c <"$f") - 20))" "$f" ;;
	flipped) python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[60] ^= 0x20
open(sys.argv[1], "wb").write(d)' "$f" ;;
	empty) : >"$f" ;;
	garbage) head -c 300 /dev/urandom >"$f" ;;
	esac
	sha256sum <"$f" | cut -d' ' -f1 >>"$T/damaged.sha"
}

# kept_intact: the damaged files on disk are exactly those made, each
# with its bytes unchanged.
kept_intact() {
	local f
	for f in $(copies); do
		sha256sum <"$S/$f" | cut -d' ' -f1
	done | sort >"$T/kept.sha"
	sort "$T/damaged.sha" | cmp -s - "$T/kept.sha"
}

# status_names N: text and JSON status name the N copies on disk.
status_names() {
	local f
	ctl status
	output_has "originals    $1 damaged copies kept, oldest first; see RECOVERY in tcptuned(8)" ||
	    return 1
	for f in $(copies); do
		output_has "$S/$f" || return 1
	done
	status_json || return 1
	[ "$(json_get .daemon.damaged_originals.count)" = "$1" ] &&
	    [ "$(json_get '.daemon.damaged_originals.paths[]' | tr '\n' ' ')" = \
	    "$(copies | sed "s|^|$S/|" | tr '\n' ' ')" ]
}

# recover: the procedure of RECOVERY in tcptuned(8), to the letter: stop
# the daemon, write back each "original" line of the oldest copy, remove
# the originals file, start the daemon again.
recover() {
	local oldest name value
	oldest=$(json_get '.daemon.damaged_originals.paths[0]')
	daemon_stop "$1"
	grep '^original ' "$oldest" | while read -r _ name value; do
		sysctl_put "$name" "$value"
	done
	rm -f "$S/originals"
	start_ready "$1r" -f "$CONF" -s "$SOCK" -S "$S"
	wait_until 3 tuned
	ctl restore
	originals && status_json && key_value_is "$RMEM" original "$R0" &&
	    key_value_is "$WMEM" original "$W0" && key_value_is "$CC" original "$C0"
}

rel_begin
start_ready o0 -f "$CONF" -s "$SOCK" -S "$S"
wait_until 3 tuned
wait_until 3 all_saved "$R0" "$W0" "$C0" ||
    bail "the true originals were not saved: $(cat "$S/originals" 2>&1)"
daemon_stop o0
tuned
check_eq "stopped with the tuned values in place (precondition)" 0 "$?"
: >"$T/damaged.sha"

n=0
recovered=
for kind in checksum truncated flipped empty garbage; do
	n=$((n + 1))
	damage "$kind"
	start_ready "f$n" -f "$CONF" -s "$SOCK" -S "$S"
	wait_until 3 tuned
	wait_until 3 all_saved "${RV[0]}" "${WV[0]}" "$CA" ||
	    diag "fault $n: the tuned values were not saved as originals"
	[ "$(copies | wc -l)" -eq "$n" ]
	report $? "fault $n ($kind): set aside under a new name, $n copies on disk" \
	    "$(copies)"
	[ "$n" -eq 3 ] || [ "$n" -eq 5 ] || { daemon_stop "f$n"; continue; }
	kept_intact
	report $? "after $n faults: every damaged file is still there, byte for byte" \
	    "made: $(tr '\n' ' ' <"$T/damaged.sha"); kept: $(tr '\n' ' ' <"$T/kept.sha")"
	oldest=$(copies | head -n 1)
	holds_true "$S/$oldest"
	report $? "after $n faults: the oldest copy ($oldest) still holds the true originals" \
	    "$(cat "$S/$oldest" 2>&1)"
	status_names "$n"
	report $? "after $n faults: tcptunectl status (text and JSON) names the $n copies and RECOVERY" \
	    "$(cat "$T/ctl.out")"
	ctl status
	diag "--- tcptunectl status after $n faults ---"
	sed 's/^/#   /' "$T/ctl.out"
	diag_file "its log" "$T/d.f$n.log" 8
	status_json
	key_field "$RMEM" note | grep -qF "the damaged copy $oldest holds $R0 as its original; see RECOVERY in tcptuned(8)"
	report $? "after $n faults: status shows both values of a key (its note names the oldest copy and the true original)" \
	    "$(key_field "$RMEM" note)"
	log_has "f$n" "the damaged copy $S/$oldest holds '$R0'" &&
	    log_has "f$n" "RECOVERY in tcptuned(8)"
	report $? "after $n faults: the log names the oldest copy, the true original in it and RECOVERY" \
	    "$(grep -i 'damaged\|corrupt' "$T/d.f$n.log")"
	recover "f$n"
	rc=$?
	report "$rc" "after $n faults: following RECOVERY brings the true originals back" \
	    "$(values)"
	[ "$rc" -eq 0 ] && recovered="$recovered $n:3/3" || recovered="$recovered $n:0/3"
	# Enforcing again for the next faults: the true originals on
	# record now, the tuned values in place.
	ctl resume
	wait_until 3 tuned
	daemon_stop "f${n}r"
done
diag "originals recovered after N faults (N:keys):$recovered"
rel_row "machine: successive corrupt originals files" \
    "5 faults in a row (wrong checksum, truncated, a byte flipped, empty, garbage), the daemon restarted on tuned values each time" \
    "every copy kept; true originals recovered after 3 and 5 faults (3 of 3 keys each)"

tap_end
