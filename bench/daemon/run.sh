#!/bin/bash
#
# bench/daemon/run.sh [--quick] OUTDIR: what tcptuned itself costs.
#
# Writes OUTDIR/daemon.md (figures, the command behind each, a targets
# table) and OUTDIR/bench-*.png.  Needs root: it re-executes itself in a
# private network namespace (tests/system/lib.sh), where every sysctl it
# or a daemon writes belongs to that namespace alone; other benchmarks use
# a sysctl root directory (tcptuned -r).  Needs valgrind (callgrind), jq;
# gnuplot for the plots.  --quick: shorter windows and fewer samples.
#
# Sections: memory, instructions per check against the shell way, idle
# wake-ups (and diagnose's tick with a transfer running: bench/flows/
# idle.sh), status latency (and against reading /proc/sys directly),
# drift-correction latency, tuned(8) as a resident peer (tuned.sh), and
# issue 25's side-by-side figures (lean.sh; BENCH_SKIP_LEAN=1 skips it,
# as BENCH_SKIP_TUNED=1 skips tuned.sh).

# DPID_* (bd_start) and F_* (fig) are assigned through eval:
# shellcheck disable=SC2154
# Single quotes keep $ for the shell scripts and awk programs they hold:
# shellcheck disable=SC2016

# The C locale, as cron and launchd run jobs: with a UTF-8 locale each
# sysctl(8) of the shell way also loads locale data (about 50 % more
# instructions), which would flatter tcptuned.
export LC_ALL=C

QUICK=0
if [ "${1:-}" = --quick ]; then QUICK=1; shift; fi
OUT=${1:?usage: run.sh [--quick] OUTDIR}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
mkdir -p "$OUT" || exit 1
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
export top_srcdir OUT

# shellcheck source=lib.sh
. "$top_srcdir/bench/daemon/lib.sh"
if [ "$QUICK" -eq 1 ]; then set -- --quick "$OUT"; else set -- "$OUT"; fi
bd_init "$@"
command -v valgrind >/dev/null || bail "valgrind not found (apt-get install -y valgrind)"

QUICK_FLAG=
[ "$QUICK" -eq 1 ] && QUICK_FLAG=--quick
# WAKE_WINDOW in full: two minutes, a whole number of the idle timers'
# periods (the check and diagnose's sleeping tick, 60 s each), which in
# 90 s fire 2 to 4 times as their phases fall.
if [ "$QUICK" -eq 1 ]; then
	CYCLES=10000 CG_CHECKS=60 WAKE_WINDOW=15 LAT_N=300 PACED_N=50
	IDLE_WINDOW=15 IDLE_TRANSFER=10
	DRIFT_N=12 SHELL_KEYS=10 SPREAD_N=4
else
	CYCLES=10000 CG_CHECKS=300 WAKE_WINDOW=120 LAT_N=2000 PACED_N=300
	IDLE_WINDOW=60 IDLE_TRANSFER=30
	DRIFT_N=100 SHELL_KEYS=100 SPREAD_N=16
fi
VARS=$OUT/daemon.vars
: >"$VARS"
: >"$OUT/daemon-body.md"

# fig NAME VALUE: one figure, for the tables at the end.
fig() {
	printf '%s=%s\n' "$1" "$2" >>"$VARS"
	eval "F_$1=\$2"
}

md() {
	printf '%s\n' "$@" >>"$OUT/daemon-body.md"
}

# calc EXPR: awk arithmetic, printed with up to 1 decimal.
calc() {
	awk "BEGIN { v = $1; if (v == int(v)) printf \"%d\", v; else printf \"%.1f\", v }"
}

# The shipped Linux profile with another CheckInterval.
profile_conf() {
	awk -v ci="$2" '
	    /<key>CheckInterval<\/key>/ { print; want = 1; next }
	    want && /<integer>/ { sub(/<integer>[0-9]+</, "<integer>" ci "<"); want = 0 }
	    { print }' "$top_srcdir/etc/tcptune.conf.linux" | write_config "$1"
	grep -q "<integer>$2</integer>" "$1" || bail "cannot set CheckInterval in $1"
}

mem_figures() {
	local pid=$1 tag=$2
	fig "rss_${tag}" "$(proc_field "$pid" VmRSS)"
	fig "anon_${tag}" "$(proc_field "$pid" RssAnon)"
	fig "filerss_${tag}" "$(proc_field "$pid" RssFile)"
	# Pss shares each library page among the processes that map it;
	# Private_* are the pages this process alone holds (its USS).
	fig "pss_${tag}" "$(awk '$1 == "Pss:" { print $2 }' "/proc/$pid/smaps_rollup")"
	fig "uss_${tag}" "$(awk '$1 ~ /^Private_(Clean|Dirty):$/ { s += $2 } END { print s }' "/proc/$pid/smaps_rollup")"
}

# mem_map_of PID: "MAPPING<TAB>KiB" resident, a line per mapping, each
# file's code (its r-xp segment) apart from its other segments, since
# the code is where fault-around (report.sh) makes the figure move.
mem_map_of() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / {
		n = $6; if (n == "") n = "[anonymous]"; sub(/.*\//, "", n)
		if (n !~ /^\[/) n = n ($2 ~ /x/ ? " code" : " other segments")
	}
	/^Rss:/ { r[n] += $2 }
	END { for (n in r) if (r[n] > 0) printf "%s\t%d\n", n, r[n] }' \
	    "/proc/$1/smaps"
}

# mem_map PID TAG: mem_map_of PID, largest first, into OUT/mem-map.TAG.
mem_map() {
	mem_map_of "$1" | sort -t "$(printf '\t')" -k2,2nr >"$OUT/mem-map.$2"
}

# run_cycles ID N: wait for N more check cycles of daemon ID.
run_cycles() {
	local c0
	c0=$(bd_checks "$1")
	wait_until 600 checks_at_least "$1" $((c0 + $2)) ||
	    bail "daemon $1 did not run $2 check cycles"
}

status_load() {
	"$STATUSBENCH" -s "$T/$1.sock" -c 1 -n "$2" >"$T/load.out" ||
	    bail "statusbench failed: $(cat "$T/load.out")"
}

# ---- memory: the real daemon, check timer divided by 1000 (timescale.so)

# libc_code_rss PID: KiB resident of libc's code (mem_map_of's line).
libc_code_rss() {
	mem_map_of "$1" | awk -F '\t' '$1 ~ /^libc\.so.* code$/ { s += $2 }
	    END { print s + 0 }'
}

# diagnose_passed ID: daemon ID has made its first diagnose pass.
diagnose_passed() {
	"$TCPTUNECTL" -s "$T/$1.sock" diagnose --json 2>/dev/null |
	    jq -e '.last_pass != null' >/dev/null
}

# mem_spread CONF: VmRSS of SPREAD_N fresh daemons, no shim, each read
# once it has answered a status request and, after its first diagnose
# pass, a diagnose request (the paths a daemon at rest runs, and one it
# serves), then stopped: the same binary on the
# same config, only where ASLR placed the libraries and stack differs.
mem_spread() {
	local i pid rss=() libc=() anon=()
	for i in $(seq "$SPREAD_N"); do
		bd_start "spread$i" "$1"
		wait_until 2 diagnose_passed "spread$i" ||
		    bail "daemon spread$i made no diagnose pass"
		pid=$(daemon_pid "spread$i")
		rss+=("$(proc_field "$pid" VmRSS)")
		anon+=("$(proc_field "$pid" RssAnon)")
		libc+=("$(libc_code_rss "$pid")")
		bd_stop "spread$i"
	done
	fig spread_n "$SPREAD_N"
	fig spread_rss "${rss[*]}"
	fig spread_anon "${anon[*]}"
	fig spread_libc "${libc[*]}"
}

bench_memory() {
	local pid t0 t1 c0 c1
	profile_conf "$T/mem.conf" 1
	bd_start mem "$T/mem.conf" LD_PRELOAD="$TIMESCALE" TT_TIMESCALE=1000
	pid=$DPID_mem
	mem_figures "$pid" start
	mem_map "$pid" start
	c0=$(bd_checks mem) t0=$(cpu_ticks "$pid")
	run_cycles mem "$CYCLES"
	c1=$(bd_checks mem) t1=$(cpu_ticks "$pid")
	mem_figures "$pid" cycles
	status_load mem 10000
	mem_figures "$pid" status
	run_cycles mem "$CYCLES"
	status_load mem 10000
	mem_figures "$pid" round2
	mem_map "$pid" round2
	fig hwm "$(proc_field "$pid" VmHWM)"
	fig mem_checks "$(bd_checks mem)"
	fig cpu_us_per_check "$(calc "($t1 - $t0) * 1000000 / $(getconf CLK_TCK) / ($c1 - $c0)")"
	bd_stop mem

	mem_spread "$T/mem.conf"

	make_root "$T/root100" 100 >"$T/keys100"
	mapfile -t K100 <"$T/keys100"
	conf_keys "$T/k100.conf" 1 "${K100[@]}"
	bd_start k100 "$T/k100.conf" LD_PRELOAD="$TIMESCALE" TT_TIMESCALE=1000 \
	    -- -- -r "$T/root100"
	mem_figures "$DPID_k100" k100start
	run_cycles k100 "$CYCLES"
	status_load k100 10000
	mem_figures "$DPID_k100" k100end
	bd_stop k100
}

# ---- instructions per check cycle (callgrind) against the shell way

# cg_parse FILE: "CALLS TOTAL" of engine_check in a callgrind file.
cg_parse() {
	awk '
	/^c?fn=\(/ {
		split($0, a, /[()]/); cur = a[2]
		if ($2 == "engine_check") id = cur
		incall = ($0 ~ /^cfn=/); next
	}
	/^calls=/ { if (incall && cur == id) { split($1, b, "="); n += b[2] }
		incall = 0; next }
	/^totals:/ { tot = $2 }
	{ incall = 0 }
	END { print n + 0, tot + 0 }' "$1"
}

# cg_daemon ID CONF [tcptuned args]: Ir per engine_check.
cg_daemon() {
	local id=$1 conf=$2 calls tot
	shift 2
	bd_start "$id" "$conf" LD_PRELOAD="$TIMESCALE" TT_TIMESCALE=50 -- \
	    valgrind -q --tool=callgrind --toggle-collect=engine_check \
	    "--callgrind-out-file=$T/cg.$id" -- "$@"
	run_cycles "$id" "$CG_CHECKS"
	bd_stop "$id"
	read -r calls tot < <(cg_parse "$T/cg.$id")
	[ "$calls" -gt 0 ] || bail "callgrind saw no engine_check in $T/cg.$id"
	fig "ir_$id" "$(calc "$tot / $calls")"
	fig "ircalls_$id" "$calls"
}

# shell_script FILE NAME=VALUE...: the check a cron or launchd script
# does: one `sysctl -n` process per key, compared with white space folded.
shell_script() {
	local f=$1 spec
	shift
	{
		echo '#!/bin/sh'
		echo 'check() { v=$(sysctl -n "$1") || return; k=$1 w=$2; set -- $v; [ "$*" = "$w" ] || echo "$k drifted"; }'
		for spec in "$@"; do
			printf 'check %s "%s"\n' "${spec%%=*}" "${spec#*=}"
		done
	} >"$f"
}

# cg_shell ID SCRIPT [MOUNTROOT]: user-space instructions of every process
# of one run (sh and each sysctl), summed.  With MOUNTROOT the script runs
# in a private mount namespace with that directory over /proc/sys.
cg_shell() {
	local id=$1 script=$2 root=${3:-}
	mkdir -p "$T/cgsh.$id"
	if [ -n "$root" ]; then
		unshare -m sh -c 'mount --bind "$1" /proc/sys && shift && exec "$@"' \
		    cg "$root" valgrind -q --tool=callgrind --trace-children=yes \
		    "--callgrind-out-file=$T/cgsh.$id/cg.%p.%n" sh "$script" \
		    >"$T/cgsh.$id.out" 2>&1
	else
		valgrind -q --tool=callgrind --trace-children=yes \
		    "--callgrind-out-file=$T/cgsh.$id/cg.%p.%n" sh "$script" \
		    >"$T/cgsh.$id.out" 2>&1
	fi
	fig "shprocs_$id" "$(find "$T/cgsh.$id" -name 'cg.*' | wc -l)"
	fig "irsh_$id" "$(cat "$T/cgsh.$id"/cg.* | awk '/^totals:/ { s += $2 } END { print s + 0 }')"
}

# cpu_shell SCRIPT RUNS [MOUNTROOT]: user+sys seconds per run, kernel work
# (fork, exec, page faults) included.
cpu_shell() {
	local cmd='for i in $(seq '"$2"'); do sh "$0" >/dev/null; done; times'
	if [ -n "${3:-}" ]; then
		unshare -m sh -c 'mount --bind "$1" /proc/sys && shift && exec "$@"' \
		    cpu "$3" bash -c "$cmd" "$1"
	else
		bash -c "$cmd" "$1"
	fi | tail -n 1 | awk -v n="$2" '
	    { split($1, u, /[ms]/); split($2, s, /[ms]/)
	      printf "%.1f", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1e6 / n }'
}

# root_of DIR NAME=VALUE...: a sysctl root holding these keys at these values.
root_of() {
	local dir=$1 spec f
	shift
	for spec in "$@"; do
		f=$dir/$(printf '%s' "${spec%%=*}" | tr . /)
		{ mkdir -p "${f%/*}" && printf '%s\n' "${spec#*=}" >"$f"; } ||
		    bail "cannot write $f"
	done
}

bench_cpu() {
	local specs=() sub=()
	mapfile -t specs < <(awk '/<key>[a-z]+\.[a-z0-9_.]+<\/key>/ {
	    gsub(/.*<key>|<\/key>.*/, ""); k = $0; getline
	    gsub(/.*<(integer|string)>|<\/(integer|string)>.*/, ""); print k "=" $0 }' \
	    "$top_srcdir/etc/tcptune.conf.linux")
	[ "${#specs[@]}" -gt 0 ] || bail "no keys found in etc/tcptune.conf.linux"
	fig nkeys_default "${#specs[@]}"
	# In this namespace the global net.core keys are refused (and retried
	# after 1, 2, 4... checks); on a host all are in force: a sysctl root
	# shows that.
	profile_conf "$T/cg.conf" 1
	cg_daemon cgdef "$T/cg.conf"
	root_of "$T/rootdef" "${specs[@]}"
	cg_daemon cgroot "$T/cg.conf" -r "$T/rootdef"
	cg_daemon cg100 "$T/k100.conf" -r "$T/root100"
	callgrind_annotate --inclusive=no "$T/cg.cg100" 2>/dev/null |
	    awk '/^-+$/ { sep++ } sep >= 4 && /[0-9]/ && n < 6 { n++; print }' |
	    sed -e 's/ \[[^]]*\]$//' -e "s|$top_srcdir/||" -e 's|\./[a-z]*/\./[a-z]*/||' \
	    >"$OUT/cg100-top.txt"
	shell_script "$T/shdef.sh" "${specs[@]}"
	cg_shell def "$T/shdef.sh"
	cg_shell root "$T/shdef.sh" "$T/rootdef"
	fig ratio_root "$(calc "int($F_irsh_root / $F_ir_cgroot)")"
	sub=("${K100[@]:0:$SHELL_KEYS}")
	shell_script "$T/sh100.sh" "${sub[@]}"
	cg_shell k100 "$T/sh100.sh" "$T/root100"
	fig shell_keys "$SHELL_KEYS"
	fig irsh_k100_scaled "$(calc "$F_irsh_k100 * 100 / $SHELL_KEYS")"
	fig ratio_def "$(calc "int($F_irsh_def / $F_ir_cgdef)")"
	fig ratio_100 "$(calc "int($F_irsh_k100_scaled / $F_ir_cg100)")"
	fig cpu_sh_def "$(cpu_shell "$T/shdef.sh" 20)"
	fig cpu_ratio_def "$(calc "int($F_cpu_sh_def / $F_cpu_us_per_check)")"
}

# ---- idle wake-ups: two daemons side by side, nobody talks to them

# epoll_returns FILE: the returns with events in an strace -e epoll_wait log.
epoll_returns() {
	grep -c 'epoll_wait(.*) = [1-9]' "$1"
}

# ticks_asleep ID: diagnose's tick sleeps its longest (60 s).
ticks_asleep() {
	[ "$("$TCPTUNECTL" -s "$T/$1.sock" diagnose --json 2>/dev/null |
	    jq -r '.tick_now_ms // empty')" = 60000 ]
}

bench_wakeups() {
	local a60 a1 s60='' s1='' end
	make_root "$T/rootw60" 4 >"$T/keysw"
	make_root "$T/rootw1" 4 >/dev/null
	mapfile -t KW <"$T/keysw"
	# Each config alone in its directory: tcptuned watches the directory
	# (to see editors replace the file), so any file written beside it,
	# such as a log, would wake it.
	mkdir -p "$T/cfg60" "$T/cfg1"
	conf_keys "$T/cfg60/w60.conf" 60 "${KW[@]}"
	conf_keys "$T/cfg1/w1.conf" 1 "${KW[@]}"
	bd_start w60 "$T/cfg60/w60.conf" -- -- -r "$T/rootw60"
	bd_start w1 "$T/cfg1/w1.conf" -- -- -r "$T/rootw1"
	# Idle: once diagnose's tick sleeps its longest (FLOW_SLEEP_MAX_MS),
	# some 63 s of ticks after the start; asked once a second.
	end=$(( $(now_ms) + $(tt_wait_seconds 90) * 1000 ))
	until ticks_asleep w60 && ticks_asleep w1; do
		[ "$(now_ms)" -lt "$end" ] || bail "diagnose's ticks did not stretch"
		sleep 1
	done
	sleep 2		# the daemons have read the last request's close
	# First the voluntary context switches, untouched; then, in a second
	# window, the returns from epoll_wait counted by strace (its ptrace
	# stops would inflate the switches, hence two windows).  Switches also
	# count any sleep on a page fault or I/O on a busy machine.
	a60=$(wakeups "$DPID_w60") a1=$(wakeups "$DPID_w1")
	sleep "$WAKE_WINDOW"
	fig ctx60 $(( $(wakeups "$DPID_w60") - a60 ))
	fig ctx1 $(( $(wakeups "$DPID_w1") - a1 ))
	fig wake_window "$WAKE_WINDOW"
	fig wake_date "$(date -u '+%Y-%m-%d %H:%M UTC')"
	fig wake_method ctxt
	fig wake60 "$F_ctx60"
	fig wake1 "$F_ctx1"
	if command -v strace >/dev/null 2>&1; then
		timeout "$WAKE_WINDOW" strace -q -e trace=epoll_wait \
		    -o "$T/strace.w60" -p "$DPID_w60" 2>/dev/null &
		s60=$!
		timeout "$WAKE_WINDOW" strace -q -e trace=epoll_wait \
		    -o "$T/strace.w1" -p "$DPID_w1" 2>/dev/null &
		s1=$!
		wait "$s60" "$s1"
		fig wake_method strace
		fig wake60 "$(epoll_returns "$T/strace.w60")"
		fig wake1 "$(epoll_returns "$T/strace.w1")"
	fi
	fig wake60_min "$(calc "$F_wake60 * 60 / $WAKE_WINDOW")"
	fig wake1_min "$(calc "$F_wake1 * 60 / $WAKE_WINDOW")"
	bd_stop w60
	bd_stop w1
}

# ---- status latency: the default profile, real keys of this namespace

# ratio A B: A / B with one decimal ("n/a" for a B of 0: too fast to time).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'
}

# status_vs_proc: 64 clients asking the daemon for status against the same
# 64 threads reading the /proc/sys files of the keys it reports (statusbench
# -P, the key list from one status reply), one run right after the other
# on the same daemon, so that both meet the same load on the machine.
status_vs_proc() {
	local st pr
	st=$("$STATUSBENCH" -s "$T/lat.sock" -c 64 -n "$LAT_N") ||
	    bail "statusbench -c 64 (against -P) failed"
	pr=$("$STATUSBENCH" -P -s "$T/lat.sock" -c 64 -n "$LAT_N" \
	    2>"$T/proc.err") || bail "statusbench -P failed: $(cat "$T/proc.err")"
	printf '%s\n%s\n' "$st" "$pr" >"$OUT/status-proc.txt"
	fig vsproc_status "$st"
	fig vsproc_proc "$pr"
	fig vsproc_unreadable "$(grep -c 'tried every round' "$T/proc.err")"
	fig ratio_proc_p50 "$(ratio "$(kv "$st" p50_us)" "$(kv "$pr" p50_us)")"
	fig ratio_proc_p99 "$(ratio "$(kv "$st" p99_us)" "$(kv "$pr" p99_us)")"
}

# with_daemon_cpu LINE T0 T1: statusbench's LINE with daemon_cpu_us
# added, tcptuned's CPU time per request from its clock ticks T0 and T1
# (cpu_ticks) around the run: a tick is 1/CLK_TCK s (10 ms at 100), so
# only the runs of seconds (64 clients) have it to a few per cent.
with_daemon_cpu() {
	printf '%s daemon_cpu_us=%s\n' "$1" "$(awk -v a="$2" -v b="$3" \
	    -v hz="$(getconf CLK_TCK)" -v n="$(kv "$1" requests)" \
	    'BEGIN { printf "%.1f", (b - a) * 1e6 / hz / n }')"
}

bench_status() {
	local c line t0
	profile_conf "$T/lat.conf" 60
	bd_start lat "$T/lat.conf"
	: >"$T/lat.keep"
	: >"$T/lat.-C"
	for c in 1 16 64; do
		for mode in keep -C; do
			t0=$(cpu_ticks "$DPID_lat")
			line=$("$STATUSBENCH" ${mode#keep} -s "$T/lat.sock" \
			    -c "$c" -n "$LAT_N") ||
			    bail "statusbench -c $c $mode failed"
			line=$(with_daemon_cpu "$line" "$t0" \
			    "$(cpu_ticks "$DPID_lat")")
			echo "$line" >>"$T/lat.txt"
			printf '%s %s %s\n' "$c" "$(kv "$line" p50_us)" \
			    "$(kv "$line" p99_us)" >>"$T/lat.$mode"
		done
	done
	{ cat "$T/lat.keep"; printf '\n\n'; cat "$T/lat.-C"; } \
	    >"$OUT/status-latency.dat"
	status_vs_proc
	line=$("$STATUSBENCH" -p 10000 -s "$T/lat.sock" -c 64 -n "$PACED_N") ||
	    bail "statusbench -p failed"
	echo "$line" >>"$T/lat.txt"
	fig paced "$line"
	mem_figures "$DPID_lat" lat
	bd_stop lat
}

# ---- drift correction: outside writes to real keys, CheckInterval 1

# drift_keys N: per-namespace integer keys that take another value, as
# "PATH<TAB>VALUE<TAB>OTHER" lines; each is tried and put back first.
drift_keys() {
	local f v alt n=0
	assert_private_netns
	for f in /proc/sys/net/ipv4/tcp_* /proc/sys/net/ipv4/ip_* \
	    /proc/sys/net/ipv4/icmp_*; do
		[ "$n" -lt "$1" ] || break
		[ "$(stat -c %a "$f")" = 644 ] || continue
		v=$(cat "$f" 2>/dev/null) || continue
		case $v in '' | *[!0-9]*) continue ;; esac
		for alt in $((v + 1)) $((v - 1)); do
			[ "$alt" -ge 0 ] || continue
			echo "$alt" >"$f" 2>/dev/null || continue
			if [ "$(cat "$f")" = "$alt" ]; then
				echo "$v" >"$f"
				[ "$(cat "$f")" = "$v" ] || bail "cannot put $f back to $v"
				printf '%s\t%s\t%s\n' "$f" "$v" "$alt"
				n=$((n + 1))
				break
			fi
		done
	done
}

# drift_specs: NAME=VALUE of each line of $T/drift.keys.
drift_specs() {
	awk -F'\t' '{ sub("/proc/sys/", "", $1); gsub("/", ".", $1);
	    print $1 "=" $2 }' "$T/drift.keys"
}

bench_drift() {
	local specs=() line
	drift_keys 50 >"$T/drift.keys"
	mapfile -t specs < <(drift_specs)
	conf_keys "$T/drift.conf" 1 "${specs[@]}"
	# The kernel may have keys tcptuned's catalogue does not hold
	# (tcp_dsack and tcp_fack on 6.18): the daemon refuses a config that
	# names one, so those are left out.
	"$TCPTUNED" -n -P "$top_builddir/tcptune-parse" -f "$T/drift.conf" 2>&1 |
	    sed -n 's/.*: \(net\.[a-z0-9_.]*\) is not a Linux key.*/\1/p' |
	    tr . / | sed 's|^|/proc/sys/|' >"$T/drift.unknown"
	if [ -s "$T/drift.unknown" ]; then
		diag "drift: not in the catalogue: $(tr '\n' ' ' <"$T/drift.unknown")"
		awk -F'\t' 'NR == FNR { skip[$0] = 1; next } !skip[$1]' \
		    "$T/drift.unknown" "$T/drift.keys" >"$T/drift.known" &&
		    mv "$T/drift.known" "$T/drift.keys"
		mapfile -t specs < <(drift_specs)
		conf_keys "$T/drift.conf" 1 "${specs[@]}"
	fi
	[ "${#specs[@]}" -ge 10 ] || bail "only ${#specs[@]} keys to drift"
	bd_start drift "$T/drift.conf"
	line=$("$DRIFTBENCH" -n "$DRIFT_N" -t 5000 -o "$OUT/correction.dat" \
	    "$T/drift.keys") || bail "driftbench failed: $line"
	fig drift "$line"
	fig drift_keys "${#specs[@]}"
	fig drift_corrections "$("$TCPTUNECTL" -s "$T/drift.sock" status --json |
	    jq '[.keys[].corrections] | add')"
	fig drift_contested "$("$TCPTUNECTL" -s "$T/drift.sock" status --json |
	    jq '[.keys[] | select(.state == "contested")] | length')"
	bd_stop drift
}

# One diagnose sampling pass with 10 000 sockets open (bench/flows/run.sh,
# its own namespace).
bench_flows() {
	local line
	line=$(top_builddir=$top_builddir bash "$top_srcdir/bench/flows/run.sh" \
	    10000) || bail "flowbench failed: $line"
	fig flows "$line"
}

# diagnose's tick idle and with a transfer, CheckInterval 60 and 1
# (bench/flows/idle.sh, in this namespace): its table, as printed.
bench_idle() {
	top_builddir=$top_builddir bash "$top_srcdir/bench/flows/idle.sh" \
	    "$IDLE_WINDOW" "$IDLE_TRANSFER" >"$OUT/idle.md" 2>"$OUT/idle.log" ||
	    bail "bench/flows/idle.sh failed: $(tail -n 3 "$OUT/idle.log")"
}

plots() {
	command -v gnuplot >/dev/null 2>&1 || { fig plots no; return 0; }
	gnuplot -e "out='$OUT'" "$top_srcdir/bench/daemon/plot.gp" \
	    >"$T/gnuplot.log" 2>&1 || { diag_file gnuplot "$T/gnuplot.log"; fig plots no; return 0; }
	fig plots yes
}

diag "quick=$QUICK cycles=$CYCLES out=$OUT"
# BENCH_SECTIONS: a subset, for work on one of them (cpu needs memory).
for section in ${BENCH_SECTIONS:-memory cpu wakeups status drift flows idle}; do
	diag "$(date +%T) $section"
	"bench_$section"
done
if [ -z "${BENCH_SKIP_TUNED:-}" ]; then
	bash "$top_srcdir/bench/daemon/tuned.sh" ${QUICK_FLAG:-} "$OUT" ||
	    echo "tuned_error=tuned.sh exited $?" >>"$OUT/tuned.vars"
fi
# Issue 25's figures side by side (lean.sh, its own sysctl root in this
# namespace): its text goes into the report as it printed it.
if [ -z "${BENCH_SKIP_LEAN:-}" ]; then
	diag "$(date +%T) lean"
	bash "$top_srcdir/bench/daemon/lean.sh" ${QUICK_FLAG:-} \
	    >"$OUT/lean.txt" 2>"$OUT/lean.log" ||
	    echo "lean.sh exited $?" >"$OUT/lean.failed"
fi
plots
cp "$T/lat.txt" "$OUT/status-latency.txt"
bash "$top_srcdir/bench/daemon/report.sh" "$OUT" "$QUICK" >"$OUT/daemon.md" ||
    bail "report.sh failed"
diag "wrote $OUT/daemon.md"
