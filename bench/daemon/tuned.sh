#!/bin/bash
#
# bench/daemon/tuned.sh [--quick] OUTDIR: Red Hat's tuned as a resident
# peer of tcptuned: its memory, whether it applies a profile of the same
# two TCP sysctls, and whether it reverts an outside write.  Writes
# OUTDIR/tuned.md and OUTDIR/tuned.vars.
#
# tuned must never change this machine.  By default it re-applies the
# system's sysctl.d files (reapply_sysctl) and its plugins reach global
# settings (CPU governor, vm.*, kernel.*).  So it runs:
#   - in a private network namespace (tests/system/lib.sh re-executes
#     this script in `unshare -n`): net.ipv4.* are that namespace's own;
#   - in a private mount namespace (`unshare -m`) where a private copy of
#     /etc/tuned (tuned-main.conf with reapply_sysctl 0, dynamic_tuning 0;
#     one profile with only a [sysctl] section) is bind-mounted over
#     /etc/tuned, tmpfs over /run and /var/lib/tuned, and /proc/sys and
#     /sys are read-only bind mounts except /proc/sys/net.
# Before tuned starts, the sandbox is verified: writing vm.swappiness (its
# own current value, so even a failure of the check changes nothing) must
# fail, writing net.ipv4.tcp_rmem (likewise) must work.  If any step fails,
# tuned is not started and the report says why.

QUICK=0
if [ "${1:-}" = --quick ]; then QUICK=1; shift; fi
if [ "${1:-}" = --inside ]; then
	INSIDE=1
	shift
fi
OUT=${1:?usage: tuned.sh [--quick] OUTDIR}
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
export top_srcdir

# shellcheck source=lib.sh
. "$top_srcdir/bench/daemon/lib.sh"

RMEM_WANT="4096 131072 67108864"
WMEM_WANT="4096 16384 67108864"
RMEM_KEY=/proc/sys/net/ipv4/tcp_rmem
# The program, not tests/system/lib.sh's shell function of the same name.
TUNED_BIN=$(type -P tuned)

tv() {
	printf '%s=%s\n' "$1" "$2" >>"$OUT/tuned.vars"
}

# ---- inside the mount namespace: build the sandbox, verify it, run tuned

# same_value_write FILE: write FILE's own value back; true if allowed.
same_value_write() {
	local v
	v=$(cat "$1") || return 1
	{ printf '%s\n' "$v" >"$1"; } 2>/dev/null
}

sandbox() {
	local td=$TD
	mount --make-rprivate / &&
	    mount --bind "$td/etc" /etc/tuned &&
	    mount -t tmpfs tmpfs /run &&
	    { [ ! -d /var/lib/tuned ] || mount -t tmpfs tmpfs /var/lib/tuned; } &&
	    mount --bind /proc/sys /proc/sys &&
	    mount -o remount,bind,ro /proc/sys &&
	    mount --bind /proc/sys/net /proc/sys/net &&
	    mount -o remount,bind,rw /proc/sys/net &&
	    mount --bind /sys /sys &&
	    mount -o remount,bind,ro /sys
}

sandbox_ok() {
	assert_private_netns
	if same_value_write /proc/sys/vm/swappiness; then
		echo "vm.swappiness is writable inside the sandbox"
		return 1
	fi
	if same_value_write /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null; then
		echo "kernel.* is writable inside the sandbox"
		return 1
	fi
	if ! same_value_write "$RMEM_KEY"; then
		echo "net.ipv4.tcp_rmem is not writable inside the sandbox"
		return 1
	fi
	if [ "$(cat /etc/tuned/tuned-main.conf)" != "$(cat "$TD/etc/tuned-main.conf")" ]; then
		echo "the private /etc/tuned is not in place"
		return 1
	fi
	return 0
}

folded() {
	tr -s ' \t\n' '   ' <"$1" | sed 's/ $//'
}

rmem_is_wanted() {
	[ "$(folded "$RMEM_KEY")" = "$RMEM_WANT" ]
}

# tuned's RSS: the python process and its threads share one address space.
tuned_rss() {
	proc_field "$1" VmRSS
}

tuned_wakeups() {
	local t s=0
	for t in /proc/"$1"/task/*/status; do
		s=$((s + $(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "$t")))
	done
	echo "$s"
}

inside() {
	local why pid end w0 t0 rev=no revms=
	if ! sandbox 2>"$TD/sandbox.err"; then
		tv tuned_error "the sandbox could not be set up: $(tr '\n' ' ' <"$TD/sandbox.err")"
		return 1
	fi
	if ! why=$(sandbox_ok); then
		tv tuned_error "sandbox check failed, tuned not started: $why"
		return 1
	fi
	tv sandbox verified
	# Earlier benchmarks in this namespace may have left the wanted value:
	# start from another, so that "applied" means tuned wrote it.
	assert_private_netns
	printf '%s\n' "4096 131072 6291456" >"$RMEM_KEY"
	"$TUNED_BIN" --no-dbus --profile tcptune-bench --log "$TD/tuned.log" \
	    --pid "$TD/tuned.pid" >"$TD/tuned.out" 2>&1 &
	pid=$!
	tv tuned_version "$("$TUNED_BIN" --version 2>&1 | head -n 1)"
	if ! wait_until 60 rmem_is_wanted; then
		tv applied no
		tv tuned_error "tuned did not apply tcp_rmem within 60 s: $(tail -n 3 "$TD/tuned.log" "$TD/tuned.out" 2>/dev/null | tr '\n' ' ')"
		kill -TERM "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 1
	fi
	tv applied yes
	sleep 5		# let it settle after the apply
	tv rss_applied "$(tuned_rss "$pid")"
	tv threads "$(find /proc/"$pid"/task -mindepth 1 -maxdepth 1 | wc -l)"
	assert_private_netns
	printf '%s\n' "4096 131072 7340032" >"$RMEM_KEY"
	t0=$(now_ms)
	w0=$(tuned_wakeups "$pid")
	end=$((t0 + REVERT_WAIT * 1000))
	while [ "$(now_ms)" -lt "$end" ]; do
		if [ "$(folded "$RMEM_KEY")" = "$RMEM_WANT" ]; then
			rev=yes
			revms=$(( $(now_ms) - t0 ))
			break
		fi
		sleep 0.2
	done
	tv reverted "$rev"
	tv revert_ms "$revms"
	tv revert_wait "$REVERT_WAIT"
	tv wake_per_min "$(( ($(tuned_wakeups "$pid") - w0) * 60000 / ($(now_ms) - t0) ))"
	tv value_after "$(folded "$RMEM_KEY")"
	tv rss_end "$(tuned_rss "$pid")"
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# ---- outside: the private /etc/tuned, then the sandbox in unshare -m

make_etc() {
	mkdir -p "$TD/etc/tcptune-bench" || return 1
	cat >"$TD/etc/tuned-main.conf" <<-'EOF'
	# tcptune bench: no sysctl.d re-application, no dynamic tuning.
	daemon = 1
	dynamic_tuning = 0
	sleep_interval = 1
	update_interval = 10
	recommend_command = 0
	reapply_sysctl = 0
	EOF
	cat >"$TD/etc/tcptune-bench/tuned.conf" <<-EOF
	[main]
	summary=tcptune bench: the TCP buffer sysctls only

	[sysctl]
	net.ipv4.tcp_rmem=$RMEM_WANT
	net.ipv4.tcp_wmem=$WMEM_WANT
	EOF
	echo tcptune-bench >"$TD/etc/active_profile"
	echo manual >"$TD/etc/profile_mode"
}

report_md() {
	local v=$OUT/tuned.vars
	g() { sed -n "s/^$1=//p" "$v" | tail -n 1; }
	echo "### A resident peer: tuned"
	echo
	if [ -n "$(g tuned_error)" ]; then
		echo "tuned$( [ -n "$(g tuned_version)" ] && printf ' (%s)' "$(g tuned_version)") was not measured: $(g tuned_error)."
		return 0
	fi
	cat <<-EOF
	$(g tuned_version), Red Hat's tuning daemon (Debian package \`tuned\`,
	Python), run in the same benchmark: \`tuned --no-dbus --profile
	tcptune-bench\` with a profile of only \`[sysctl]\` \`net.ipv4.tcp_rmem\`
	and \`tcp_wmem\` (the values tcptuned's default profile sets) and
	\`tuned-main.conf\` with \`reapply_sysctl = 0\`, \`dynamic_tuning = 0\`.
	It ran in a private network namespace and a private mount namespace
	where /proc/sys (except /proc/sys/net) and /sys were read-only; that a
	write to \`vm.swappiness\` failed there was checked before it started.

	| | tuned | tcptuned |
	| --- | --- | --- |
	| resident set (VmRSS), after applying | $(g rss_applied) KiB ($(g threads) threads) | $(get_d rss_start) KiB |
	| resident set at the end | $(g rss_end) KiB | $(get_d rss_round2) KiB |
	| applied the profile | $(g applied) | yes |
	| reverted an outside write of \`tcp_rmem\` | $(g reverted)$( [ "$(g reverted)" = yes ] && printf ', after %s ms' "$(g revert_ms)") (waited $(g revert_wait) s) | yes, within CheckInterval (above) |
	| wake-ups per minute while idle (voluntary context switches) | $(g wake_per_min) (all threads) | $(get_d wake60_min) at CheckInterval 60 |

	After the wait the key read \`$(g value_after)\`: tuned's sysctl
	plugin set the values when the profile was loaded and did not look at
	them again within the wait.  Its resident set is the Python
	interpreter's; its wake-ups come from its own threads while no
	dynamic tuning was asked for.
	EOF
}

get_d() {
	sed -n "s/^$1=//p" "$OUT/daemon.vars" 2>/dev/null | tail -n 1
}

if [ -n "${INSIDE:-}" ]; then
	TD=${2:?}
	REVERT_WAIT=${3:?}
	assert_private_netns
	inside
	exit $?
fi

case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
export OUT
if [ "$QUICK" -eq 1 ]; then set -- --quick "$OUT"; else set -- "$OUT"; fi
tt_init "$@"
: >"$OUT/tuned.vars"
if [ -z "$TUNED_BIN" ]; then
	tv tuned_error "tuned is not installed (scripts/deps.sh bench installs it without starting it)"
elif [ ! -d /etc/tuned ]; then
	tv tuned_error "/etc/tuned does not exist to mount the private copy over"
else
	TD=$T/tuned
	make_etc || bail "cannot write $TD/etc"
	REVERT_WAIT=120
	[ "$QUICK" -eq 1 ] && REVERT_WAIT=${TUNED_WAIT:-20}
	diag "tuned: sandbox in $TD, waiting up to $REVERT_WAIT s for a revert"
	unshare -m bash "$0" --inside "$OUT" "$TD" "$REVERT_WAIT" ||
	    diag "tuned: inside run failed: $(grep tuned_error "$OUT/tuned.vars")"
fi
report_md >"$OUT/tuned.md"
