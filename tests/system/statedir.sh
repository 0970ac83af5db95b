#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through wait_until
# System test: the state directory full (a 16 KiB tmpfs filled up),
# read-only (a tmpfs remounted ro: chmod does not stop root), or holding a
# corrupt originals file (bytes changed, truncated, a wrong checksum,
# empty, oversized, a directory, a symlink, a FIFO).  The daemon keeps
# enforcing, says so in status and the log, never believes a corrupt
# file, and saves the originals as soon as the disk lets it.  Runs in a
# private mount namespace (tt_private_mounts) inside `unshare -n`.

. "$(dirname "$0")/lib.sh"
tt_private_mounts "$@"
tt_init "$@"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"
[ -n "${TT_IN_MNTNS:-}" ] || {
	echo "1..0 # SKIP no private mount namespace (unshare -m)"
	exit 0
}

MOUNTS=()
statedir_cleanup() {
	local m
	for m in "${MOUNTS[@]}"; do
		umount -l "$m" 2>/dev/null
	done
	tt_cleanup
}
trap statedir_cleanup EXIT

# tmpfs DIR OPTIONS: a private tmpfs there.
tmpfs() {
	mkdir -p "$1" || bail "mkdir $1 failed"
	mount -t tmpfs -o "$2" tt-state "$1" || bail "mount tmpfs on $1 failed"
	MOUNTS+=("$1")
}

use_keys 1
FAKE="4096 65536 5242880"
if [ "$FAKE" = "$R0" ] || [ "$FAKE" = "${RV[0]}" ]; then
	FAKE="8192 196608 11534336"
fi
plist "$RMEM=${RV[0]}" "$WMEM=${WV[0]}" "$CC=$CA" | write_config "$CONF"

# reset: the pre-daemon values back, as before any daemon ran.
reset() {
	sysctl_put "$RMEM" "$R0"
	sysctl_put "$WMEM" "$W0"
	sysctl_put "$CC" "$C0"
}

problem() {
	status_json >/dev/null 2>&1
	json_get .daemon.state_problem
}

problem_has() {
	problem | grep -qi -- "$1"
}

no_problem() {
	[ "$(problem)" = null ]
}

true_originals() {
	status_json && key_value_is "$RMEM" original "$R0" &&
	    key_value_is "$WMEM" original "$W0" && key_value_is "$CC" original "$C0"
}

all_saved() {
	originals_file_ok "$1/originals" "$R0" "$W0" "$C0" >/dev/null &&
	    [ "$(grep -c '^original ' "$1/originals" 2>/dev/null)" = 3 ]
}

# ---- full

rel_begin
tmpfs "$T/full" size=16k
S=$T/full/state
mkdir -m 0700 "$S"
dd if=/dev/zero of="$T/full/filler" bs=4k count=64 2>/dev/null
df -k "$T/full" | tail -n 1 | sed 's/^/# /'
daemon_start full -f "$CONF" -s "$SOCK" -S "$S"
daemon_ready full || bail "tcptuned did not come up on a full state directory"
wait_until 3 tuned
report $? "state directory full: the config is still applied" "$(values)"
wait_until 3 problem_has "no space left"
report $? "status reports the full disk (state_problem)" "problem: $(problem)"
log_has full "No space left on device"
report $? "the log says so too"
ctl status
output_has "No space left"
report $? "tcptunectl status shows it on its state line" "$(grep -i state "$T/ctl.out")"
sysctl_put "$RMEM" "$R0"
wait_until 4 sysctl_is "$RMEM" "${RV[0]}"
report $? "with the disk full, drift is still corrected" "$(values)"
true_originals
report $? "the originals kept in memory are the true ones" \
    "$(jq -c '.keys[] | {name, original}' "$T/status.json")"
rm -f "$T/full/filler"
wait_until 5 no_problem
report $? "space freed: the originals are saved within a few checks, the problem cleared" \
    "problem: $(problem)"
all_saved "$S"
report $? "the file now holds the three true originals" "$(cat "$S/originals" 2>&1)"
kill -KILL "$(daemon_pid full)"
wait_until 3 daemon_exited full
start_ready full2 -f "$CONF" -s "$SOCK" -S "$S"
true_originals
report $? "kill -9 and restart: the true originals survive" \
    "$(jq -c '.keys[] | {name, original}' "$T/status.json")"
daemon_stop full2
rel_row "machine: state directory full" \
    "16 KiB tmpfs filled before start; space freed later; kill -9" \
    "kept enforcing, reported, originals saved once space returned"

# ---- read-only, with a good originals file

reset
tmpfs "$T/ro" size=1m
S=$T/ro/state
start_ready ro1 -f "$CONF" -s "$SOCK" -S "$S"
wait_until 3 all_saved "$S"
daemon_stop ro1
mount -o remount,ro "$T/ro" || bail "remount ro failed"
touch "$S/x" 2>/dev/null
check_eq "the state directory is read-only for root too (precondition)" 1 "$?"
daemon_start ro2 -f "$CONF" -s "$SOCK" -S "$S"
daemon_ready ro2
report $? "read-only state directory: the daemon starts" \
    "exit '$(daemon_exit_status ro2)'; $(tail -n 3 "$T/d.ro2.log")"
wait_until 3 all_in_force && tuned && true_originals
report $? "it enforces the config with the true originals from the file" "$(values)"
problem_has "not writable\|read-only"
report $? "status reports the read-only directory" "problem: $(problem)"
sysctl_put "$WMEM" "$W0"
wait_until 4 sysctl_is "$WMEM" "${WV[0]}"
report $? "drift is corrected" "$(values)"
ctl restore
rc=$CTL_RC
[ "$rc" -eq 0 ] && originals && problem_has "cannot save"
report $? "restore works (exit $rc) and the unsaved pause is reported" \
    "$(values); problem: $(problem)"
ctl resume
[ "$CTL_RC" -eq 0 ] && wait_until 3 tuned
report $? "resume works" "$(values)"
mount -o remount,rw "$T/ro" || bail "remount rw failed"
wait_until 5 no_problem
report $? "remounted read-write: the problem clears within a few checks" \
    "problem: $(problem)"
daemon_stop ro2

# ---- read-only and empty: no lock file, no originals file

reset
tmpfs "$T/ro0" size=1m,mode=0700
mount -o remount,ro "$T/ro0" || bail "remount ro failed"
daemon_start ro3 -f "$CONF" -s "$SOCK" -S "$T/ro0"
daemon_ready ro3
report $? "an empty read-only state directory (no lock file can be made): the daemon starts" \
    "exit '$(daemon_exit_status ro3)'; $(tail -n 3 "$T/d.ro3.log")"
log_has ro3 "going on without the lock"
report $? "it logs that it runs without the lock"
wait_until 3 tuned && true_originals && problem_has "read-only"
report $? "it enforces, with the true originals in memory, and reports the problem" \
    "$(values); problem: $(problem)"
daemon_stop ro3
rel_row "machine: state directory read-only" \
    "tmpfs remounted ro with a good originals file, and empty; restore and resume; remounted rw" \
    "kept enforcing, reported, saved after rw"

# ---- corrupt originals files

reset
GOOD=$T/good.originals
S=$T/state-c
start_ready c0 -f "$CONF" -s "$SOCK" -S "$S"
wait_until 3 all_saved "$S"
daemon_stop c0
cp "$S/originals" "$GOOD"

# corrupt KIND DIR: DIR/originals made corrupt in that way, claiming FAKE
# as rmem's original where the content is still readable.
corrupt() {
	local f=$2/originals
	rm -rf "$2"
	mkdir -m 0700 "$2"
	case $1 in
	changed) sed "s|^original $RMEM .*|original $RMEM $FAKE|" "$GOOD" >"$f" ;;
	flipped) python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 0x20
open(sys.argv[2], "wb").write(d)' "$GOOD" "$f" ;;
	truncated) head -c "$(($(wc -c <"$GOOD") / 2))" "$GOOD" >"$f" ;;
	checksum) sed 's/^checksum .*/checksum 0000000000000000/' "$GOOD" >"$f" ;;
	empty) : >"$f" ;;
	oversized) head -c 4000000 /dev/zero | tr '\0' 'x' >"$f" ;;
	directory) mkdir "$f" && cp "$GOOD" "$f/" ;;
	symlink) sed "s|^original $RMEM .*|original $RMEM $FAKE|" "$GOOD" >"$2/elsewhere" &&
		ln -s elsewhere "$f" ;;
	fifo) mkfifo "$f" ;;
	esac
}

KINDS="changed flipped truncated checksum empty oversized directory symlink fifo"
bad=0
for kind in $KINDS; do
	reset
	corrupt "$kind" "$S"
	daemon_start "c$kind" -f "$CONF" -s "$SOCK" -S "$S"
	if ! daemon_ready "c$kind"; then
		bad=$((bad + 1))
		diag "$kind: the daemon did not come up: $(tail -n 3 "$T/d.c$kind.log")"
		continue
	fi
	why=
	wait_until 3 tuned || why="$why not applied ($(values));"
	true_originals || why="$why originals not the true ones ($(key_field "$RMEM" original));"
	problem_has corrupt || why="$why no problem in status ($(problem));"
	log_has "c$kind" corrupt || why="$why not in the log;"
	[ "$(find "$S" -maxdepth 1 -name 'originals.corrupt.*' | wc -l)" = 1 ] ||
	    why="$why not set aside under a name of its own ($(ls "$S"));"
	ctl restore
	originals || why="$why restore did not put the true originals back ($(values));"
	daemon_stop "c$kind"
	[ -z "$why" ]
	report $? "corrupt originals ($kind): set aside, reported in status and log, never believed, enforcing" \
	    "$kind:$why" || bad=$((bad + 1))
done
check_eq "no corrupt originals file was believed or stopped the daemon" 0 "$bad"
rel_row "machine: corrupt originals file" \
    "bytes changed, a byte flipped, truncated, wrong checksum, empty, 4 MB, a directory, a symlink, a FIFO" \
    "set aside, reported, never believed; restore gives the true values"

# ---- a corrupt file that cannot be moved aside (read-only), then can

reset
tmpfs "$T/rod" size=1m
S=$T/rod/state
mkdir -m 0700 "$S"
sed "s|^original $RMEM .*|original $RMEM $FAKE|" "$GOOD" >"$S/originals"
sum=$(sha256sum <"$S/originals")
mount -o remount,ro "$T/rod" || bail "remount ro failed"
daemon_start crod -f "$CONF" -s "$SOCK" -S "$S"
daemon_ready crod
report $? "a corrupt file on a read-only state directory: the daemon starts" \
    "exit '$(daemon_exit_status crod)'; $(tail -n 3 "$T/d.crod.log")"
wait_until 3 tuned && true_originals && problem_has "cannot be moved aside"
report $? "it enforces with the current values as originals and reports the file left in place" \
    "$(values); problem: $(problem)"
mount -o remount,rw "$T/rod" || bail "remount rw failed"
set_aside_intact() {
	local f
	f=$(find "$S" -maxdepth 1 -name 'originals.corrupt.*' | head -n 1)
	[ -n "$f" ] && [ "$(sha256sum <"$f")" = "$sum" ] && all_saved "$S"
}
wait_until 5 set_aside_intact
report $? "remounted read-write: the corrupt file is set aside intact before the originals are saved" \
    "$(ls -l "$S"); $(cat "$S/originals" 2>&1)"
moved_reported() {
	problem_has "kept as $S/originals.corrupt." && ! problem_has "cannot"
}
wait_until 5 moved_reported
report $? "status now names the copy, and no save is refused" "problem: $(problem)"
daemon_stop crod
rel_row "machine: corrupt originals file on a full or read-only disk" \
    "a corrupt file that cannot be moved aside (read-only tmpfs), then can (remounted rw)" \
    "never written over; set aside intact once the disk allows, then the originals saved"

tap_end
