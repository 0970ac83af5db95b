#!/bin/bash
#
# bench/daemon/report.sh OUTDIR QUICK: daemon.md from the figures that
# run.sh and tuned.sh left in OUTDIR (daemon.vars, tuned.vars,
# status-latency.txt).  Markdown on stdout.

OUT=${1:?usage: report.sh OUTDIR QUICK}
QUICK=${2:-0}
VARS=$OUT/daemon.vars
TVARS=$OUT/tuned.vars

get() {
	sed -n "s/^$1=//p" "$VARS" | tail -n 1
}

tget() {
	[ -e "$TVARS" ] && sed -n "s/^$1=//p" "$TVARS" | tail -n 1
}

# kv LINE KEY: KEY=VALUE out of a line of figures.
kv() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# yes_if AWK-CONDITION: "yes" or "**no**".
yes_if() {
	if awk "BEGIN { exit !($1) }"; then echo yes; else echo '**no**'; fi
}

ms() {
	awk -v v="$1" 'BEGIN { printf "%.2f ms", v / 1000 }'
}

lat_line() {
	grep -E "^clients=$1 .* reconnect=$2 pause_us=0" "$OUT/status-latency.txt" | tail -n 1
}

num() {
	printf '%s' "$1" | sed -e ':a' -e 's/^\([0-9]\+\)\([0-9]\{3\}\)/\1,\2/; ta'
}

# spread WORD LIST: the least, median or most of the numbers in LIST.
spread() {
	tr ' ' '\n' <<<"$2" | grep . | sort -n | awk -v w="$1" '{ v[NR] = $1 }
	    END { if (w == "min") print v[1]; else if (w == "max") print v[NR];
	          else print v[int((NR + 1) / 2)] }'
}

# mem_map_section: the default-profile daemon per mapping (run.sh's
# mem-map.start and mem-map.round2) and what moves its biggest part.
mem_map_section() {
	local s=$OUT/mem-map.start r=$OUT/mem-map.round2 sr sl
	[ -e "$s" ] && [ -e "$r" ] || return 0
	sr=$(get spread_rss) sl=$(get spread_libc) sa=$(get spread_anon)
	cat <<EOT

What the default-profile daemon's resident set is made of, per mapping,
in KiB (each file's code, its r-xp segment, apart from its other
segments: headers, symbol tables, read-only and writable data):

| mapping | after the first apply | after $(num "$(get mem_checks)") cycles and 20,000 requests |
| --- | --- | --- |
EOT
	awk -F'\t' 'NR == FNR { a[$1] = $2; next }
	    { printf "| %s | %s | %s |\n", $1, ($1 in a) ? a[$1] : 0, $2 }' "$s" "$r"
	cat <<EOT

Start-up touches nearly every page counted here: loading, the config
read through tcptune-parse, the first apply, the control socket.  The
timescale shim's pages (\`timescale.so\`) are the benchmark's, not in a
user's daemon.  Most of the file-backed part is libc's code, and its size
is set less by how much of libc the daemon calls than by the kernel's
fault-around: a page fault on a file mapping also maps the neighbouring
pages already in the page cache, up to \`fault_around_bytes\` (64 KiB, a
debugfs setting), in a window aligned on the virtual address and clamped
to the mapping (\`do_fault_around()\` in Linux's mm/memory.c,
https://github.com/torvalds/linux/blob/master/mm/memory.c).  libc is in
the page cache of every running system, so one call into a 64 KiB stretch
of its code maps the whole stretch, and which stretches the daemon's calls
fall into depends on where ASLR loaded libc.
EOT
	[ -n "$sr" ] || return 0
	cat <<EOT
The same binary on the same config, started $(get spread_n) times without the
shim, each read once it had answered a status request and, after its
first diagnose pass, a diagnose request: VmRSS $(spread min "$sr") to $(spread max "$sr") KiB (median $(spread med "$sr")), of which
libc's code $(spread min "$sl") to $(spread max "$sl") KiB and anonymous memory $(spread min "$sa") to $(spread max "$sa") KiB.  One
run's VmRSS is one draw from that range.
EOT
}

# shared_libs: what the daemon's resident set shares with other
# processes, from ldd of this build: libc and the loader alone since the
# config is parsed in tcptune-parse (issue 25), libxml2 and its own
# libraries in a build from before.
shared_libs() {
	local libs
	libs=$(ldd "${top_builddir:-.}/tcptuned" 2>/dev/null | awk '$1 ~ /^lib/ && $1 !~ /^libc\.so/ { sub(/\.so.*/, "", $1); printf "%s%s", sep, $1; sep = ", " }')
	if [ -n "$libs" ]; then
		printf 'libc, and %s' "$libs"
	else
		printf 'libc and the dynamic loader, the only libraries it links (the\nconfig is parsed by the separate helper tcptune-parse, which links\nlibxml2 and exits)'
	fi
}

# flow_const NAME: a constant of daemon/flows/flows.h, as the daemon has it.
flow_const() {
	sed -n "s/^#define $1[[:space:]]*\\([0-9]*\\).*/\\1/p" \
	    "${top_srcdir:-.}/daemon/flows/flows.h"
}

# flows_busy: what the pass above costs a busy machine, by the rule of
# daemon/flows/diagnose.c (no pass before FLOW_CPU_SHARE times the last one's
# CPU time), from this run's CPU time per pass.
flows_busy() {
	local cpu share tick quiet
	cpu=$(get flows | sed -n 's|.*median [0-9.]* ms wall / \([0-9.]*\) ms CPU.*|\1|p' | head -n 1)
	share=$(flow_const FLOW_CPU_SHARE) tick=$(flow_const FLOW_TICK_MS)
	quiet=$(flow_const FLOW_QUIET_MAX_MS)
	[ -n "$cpu" ] && [ -n "$share" ] && [ -n "$tick" ] || return 0
	awk -v c="$cpu" -v s="$share" -v t="$tick" -v q="$quiet" \
	    -v z="$(flow_const FLOW_SLEEP_MAX_MS)" 'BEGIN {
	    gap = c * s > t ? c * s : t
	    printf "Passes run on diagnose'"'"'s own tick (%d ms, `FLOW_TICK_MS`) while the\n", t
	    printf "machine moves TCP segments, not once a check, and none starts before\n"
	    printf "%d times the CPU time of the last one has gone by (`FLOW_CPU_SHARE`,\n", s
	    printf "daemon/flows/flows.h): at most %g %% of one CPU.  With the %s ms of CPU a pass\n", 100 / s, c
	    printf "above, that is at most a pass every %.1f s while busy, %.0f ms of CPU a\n", gap / 1000, c * 60000 / gap
	    printf "minute.  A quiet machine costs a read of `/proc/net/snmp` a tick,\n"
	    printf "the tick sleeping twice as long each time up to %d s\n", z / 1000
	    printf "(`FLOW_SLEEP_MAX_MS`), and a pass every %d s (`FLOW_QUIET_MAX_MS`).\n", q / 1000 }'
}

# diagnose's tick, idle and with a transfer (bench/flows/idle.sh's table,
# run.sh's idle section); nothing from a run without it.
idle_section() {
	[ -s "$OUT/idle.md" ] || return 0
	cat <<EOF

### Diagnose's tick: idle and with a transfer

$(cat "$OUT/idle.md")

Two daemons side by side in one private network namespace, CheckInterval
60 and 1 (4 keys each on a sysctl root), whose only TCP traffic is the
transfer.  Idle: once both say their tick sleeps its longest
(\`diagnose --json\`, \`tick_now_ms\` 60000), the wake-ups as the
voluntary context switches over a window and, over a second one, the
returns from \`epoll_wait\` counted by strace; the CPU time is the
daemon's \`se.sum_exec_runtime\` (/proc/PID/sched).  With a paced
iperf3 on lo running, once both ticks are back to a second: a pass a
second while segments move, whatever the CheckInterval (at most 1 % of a
CPU, \`FLOW_CPU_SHARE\`); the loopback connections are read but are no
evidence.  A pass costs some 4 ms of CPU however few the connections:
the kernel's dump walks every bucket of its established hash, whatever
the namespace (daemon/flows/flows.h), so the idle CheckInterval 60 row
is about one pass a minute, the transfer rows a pass a second (under
0.5 % of a CPU).  Before issue 42 an idle daemon ticked every second:
61 wake-ups a minute at CheckInterval 60.
EOF
}

# Wake-ups a minute of diagnose's tick on an idle machine, whatever the
# CheckInterval: it sleeps FLOW_SLEEP_MAX_MS while nothing moves
# (daemon/flows/diagnose.c; run.sh measures once it does).
TICKS_MIN=$(( 60000 / $(flow_const FLOW_SLEEP_MAX_MS) ))

# wake_met WAKEUPS TIMER_WAKEUPS AWK-CONDITION: yes, or why not when
# diagnose's tick accounts for the rest (within 10 %).
wake_met() {
	local verdict
	verdict=$(yes_if "$3")
	if [ "$verdict" != yes ] && awk -v w="$1" -v t="$(awk "BEGIN { print $2 }")" \
	    -v k="$TICKS_MIN" -v win="$win" 'BEGIN { e = t + k * win / 60
	    exit !(w >= 0.9 * e && w <= 1.1 * e) }'; then
		verdict="$verdict: diagnose's tick adds $TICKS_MIN a minute (below)"
	fi
	printf '%s' "$verdict"
}

rss=$(get rss_round2) uss=$(get uss_round2)
grow1=$(( $(get rss_status) - $(get rss_start) ))
grow2=$(( $(get rss_round2) - $(get rss_status) ))
l64=$(lat_line 64 0) paced=$(get paced) drift=$(get drift)
p99_64=$(kv "$l64" p99_us) p99_paced=$(kv "$paced" p99_us)
dmax=$(kv "$drift" max_ms) dp95=$(kv "$drift" p95_ms)
w1=$(get wake1_min) w60=$(get wake60_min) win=$(get wake_window)
if [ "$(get wake_method)" = strace ]; then
	# shellcheck disable=SC2016 # backquotes for markdown
	wake_how='the returns from its one `epoll_wait` that brought events,
counted by `strace -e trace=epoll_wait -p PID`; and, in a window of the
same length before it (strace'"'"'s ptrace stops would add some), its
voluntary context switches (/proc/PID/status), which also count any sleep
on a page fault or a disk read on a busy machine'
else
	# shellcheck disable=SC2016 # backquotes for markdown
	wake_how='its voluntary context switches (/proc/PID/status: strace was
not there to count the returns from `epoll_wait`), which also count any
sleep on a page fault or a disk read on a busy machine'
fi

# CPU a request at 64 clients back to back (the l64 line: tcptuned's
# daemon_cpu_us, the client threads' client_cpu_us), as "D C P B": the
# two, the interval at which the cores can finish requests, (D + C) /
# cores, and the most CPU a request may take for 64 of them to fit in
# 1 ms.  Nothing from a run without the two figures.
cpu_split() {
	local d c
	d=$(kv "$l64" daemon_cpu_us) c=$(kv "$l64" client_cpu_us)
	[ -n "$d" ] && [ -n "$c" ] || return 0
	awk -v d="$d" -v c="$c" -v n="$(nproc)" 'BEGIN {
	    printf "%s %s %.1f %.1f\n", d, c, (d + c) / n, n * 1000 / 64 }'
}

# p99_64_verdict: the target's verdict, and why when the CPU a request
# takes, the daemon's and its client's, is more than 1 ms allows.
p99_64_verdict() {
	local verdict d c b
	verdict=$(yes_if "$p99_64 <= 1000")
	read -r d c _ b <<<"$split"
	if [ "$verdict" != yes ] && [ -n "$split" ] &&
	    awk -v d="$d" -v c="$c" -v b="$b" 'BEGIN { exit !(d + c > b) }'; then
		verdict="$verdict: 64 requests, daemon and clients, take more CPU than $(nproc) cores give in 1 ms (below)"
	fi
	printf '%s' "$verdict"
}

# What of the CPU 1 ms allows a request the clients leave the daemon.
daemon_share() {
	awk -v d="$1" -v c="$2" -v b="$3" 'BEGIN {
	    if (c >= b)
		printf "the client threads alone take more, so on this machine\nno daemon could meet it with these clients"
	    else
		printf "the client threads leave the daemon %.1f µs of it\n(it took %s)", b - c, d }'
}

# Where the time of a status request goes at 64 clients (cpu_split).
status_cpu() {
	local d c p b
	[ -n "$split" ] || return 0
	read -r d c p b <<<"$split"
	cat <<-EOT
	Where the time goes at 64 clients back to back: tcptuned used $d µs
	of CPU a request (user and system, from \`/proc/PID/stat\` around the
	run) and the 64 client threads $c µs (\`client_cpu_us\`, statusbench's
	\`getrusage\`), all on the same $(nproc) cores.  So the cores finish a
	request every ($d + $c) ÷ $(nproc) = $p µs at best, and a request that
	waits behind the other 63 waits about 64 × $p µs = $(ms "$(awk -v p="$p" 'BEGIN { print 64 * p }')")
	(this run's mean: $(ms "$(kv "$l64" mean_us)")).  A p99 of 1 ms needs the
	CPU of a request, the daemon's and its client's, under $(nproc) × 1000 ÷ 64
	= $b µs: $(daemon_share "$d" "$c" "$b").
	EOT
}

split=$(cpu_split)

# The status run at 64 clients against the same 64 threads reading the
# keys' /proc/sys files themselves (run.sh's status_vs_proc).
status_vs_proc() {
	local st pr nk
	st=$(get vsproc_status) pr=$(get vsproc_proc)
	if [ -z "$pr" ]; then
		echo "Status against reading /proc/sys directly: not measured in this run."
		return 0
	fi
	nk=$(kv "$pr" keys)
	cat <<-EOT
	#### Status against reading /proc/sys directly, 64 clients

	| 64 clients, back to back | p50 | p90 | p99 | max | mean | rounds/s |
	| --- | --- | --- | --- | --- | --- | --- |
	| status request to tcptuned, connection kept | $(ms "$(kv "$st" p50_us)") | $(ms "$(kv "$st" p90_us)") | $(ms "$(kv "$st" p99_us)") | $(ms "$(kv "$st" max_us)") | $(ms "$(kv "$st" mean_us)") | $(kv "$st" rps) |
	| each thread reads the $nk keys' /proc/sys files itself | $(ms "$(kv "$pr" p50_us)") | $(ms "$(kv "$pr" p90_us)") | $(ms "$(kv "$pr" p99_us)") | $(ms "$(kv "$pr" max_us)") | $(ms "$(kv "$pr" mean_us)") | $(kv "$pr" rps) |
	| **ratio, status ÷ /proc** | **$(get ratio_proc_p50)×** | | **$(get ratio_proc_p99)×** | | | |

	Commands, one right after the other against the same daemon:
	\`statusbench -s S -c 64 -n $(( $(kv "$st" requests) / 64 ))\` and
	\`statusbench -P -s S -c 64 -n $(( $(kv "$pr" requests) / 64 ))\`.
	With \`-P\` the same program takes the key list from one status
	reply, then starts the same 64 threads behind the same barrier; each
	"request" is one round of open, read and close of every key's file
	under /proc/sys ($nk keys$( [ "$(get vsproc_unreadable)" -gt 0 ] 2>/dev/null && printf ', of which %s cannot be read in a network namespace and are tried every round all the same, as the daemon tries them' "$(get vsproc_unreadable)")),
	timed as one, with the same percentiles.  That is what a status reply
	tells a client that could read the kernel itself.

	Why this is the comparison, and not status latency against one
	\`cat\`: this machine has $(nproc) cores, so 64 threads wait for a
	core whichever way they get the values, and a single reader would
	not wait at all.  Both rows put 64 threads on the same cores at the
	same moment and time the same unit (every key's value, for one client),
	so the wait for a CPU weighs on both, and the ratio is what going
	through the daemon adds: a round trip on a Unix socket, the daemon
	answering one request at a time (a request waits behind the others in
	its queue), and a reply of $((nk + 3)) messages, $nk of them of 3,496
	bytes (\`struct msg_key_status\`).  The daemon reads the keys at most
	once per turn of its event loop, for every request of that turn,
	where each /proc reader reads every file itself.

	How to read the two rows: a /proc reader never gives up its core of
	its own accord, so it runs many rounds in one time slice and then
	waits, maybe milliseconds, for a core again; most rounds fall inside a
	slice (a small p50) and the few that span a wait make the max and the
	mean.  A status request always gives up the core (the client blocks on
	the socket) and waits for the daemon's turn, so every one of them pays
	a switch.  The p50 and p99 ratios are the figures asked for; the mean
	and the rate say how far both ways are bound by the same $(nproc) cores
	over the whole run.  The machine is shared with other work, so both
	rows are noisy; they were taken back to back so that the same load
	weighs on both.
	EOT
}

# lean.sh's text as it printed it (run.sh runs it after the other sections).
lean_section() {
	echo "### Issue 25's figures side by side (lean.sh)"
	echo
	if [ -e "$OUT/lean.failed" ] || [ ! -s "$OUT/lean.txt" ]; then
		printf 'Not measured in this run%s.\n' \
		    "$( [ -e "$OUT/lean.failed" ] && printf ': %s (its log: bench-results/daemon/lean.log)' "$(cat "$OUT/lean.failed")")"
		return 0
	fi
	cat <<-EOT
	Each figure printed beside what it is compared with, from one run of
	\`bench/daemon/lean.sh$( [ "$QUICK" = 1 ] && printf ' --quick')\` (run by \`bench/daemon/run.sh\`, in the
	same network namespace, on a sysctl root of the shipped Linux
	config's keys: no sysctl of the machine is written).  Alone, as root
	from a build tree: \`top_builddir=. bash bench/daemon/lean.sh
	[--quick]\`; with \`TT_BASE_BUILDDIR=DIR\` in the environment (of
	\`make bench\` too) it also measures the build of an earlier commit in
	DIR.  Wall and CPU times on a shared machine are noisy.

	\`\`\`
	EOT
	grep -v '^# ' "$OUT/lean.txt"	# its TAP diagnostics (temp dir)
	echo '```'
}

cat <<EOF
## The daemon's own cost

What a resident tcptuned costs, measured by \`bench/daemon/run.sh\` (run
by \`make bench\`) in one run on the machine described above$( [ "$QUICK" = 1 ] && printf ' (**quick mode**: shorter windows and fewer samples)').  Every
process that writes sysctls ran in a private network namespace (\`unshare
-n\`) or on a sysctl root directory (\`tcptuned -r DIR\`): the host's
sysctls were never touched.  The daemon is the unmodified \`tcptuned\`
binary of this build; where a benchmark needed many check cycles in little
time, an \`LD_PRELOAD\` shim (\`bench/daemon/timescale.so\`) divided its
check timer's period, and nothing else.

### Targets

| figure | measured | target | met? |
| --- | --- | --- | --- |
| resident set (VmRSS) after $(num "$(get mem_checks)") check cycles and 20,000 status requests | $rss KiB | ≤ 2048 KiB | $(yes_if "$rss <= 2048") |
| memory of its own (USS: private pages, libraries not counted) | $uss KiB | ≤ 2048 KiB | $(yes_if "$uss <= 2048") |
| RSS growth, second 10,000 cycles + 10,000 status requests | $grow2 KiB | 0 (noise: ±8 KiB) | $(yes_if "$grow2 <= 8 && $grow2 >= -8") |
| user-space instructions per check, shell way ÷ tcptuned, default profile, all keys in force | $(get ratio_root)× | ≥ 100× | $(yes_if "$(get ratio_root) >= 100") |
| the same in a network namespace (2 global keys refused, retried after 1, 2, 4... checks) | $(get ratio_def)× | ≥ 100× | $(yes_if "$(get ratio_def) >= 100") |
| the same for 100 keys | $(get ratio_100)× | ≥ 100× | $(yes_if "$(get ratio_100) >= 100") |
| status round trip p99, 64 clients back to back | $(ms "$p99_64") | ≤ 1 ms | $(p99_64_verdict) |
| status round trip p99, 64 clients, each one request per 10 ms | $(ms "$p99_paced") | ≤ 1 ms | $(yes_if "$p99_paced <= 1000") |
| drift correction, slowest of $(kv "$drift" samples) (p95 $(kv "$drift" p95_ms) ms), CheckInterval 1 | $dmax ms | ≤ 1050 ms | $(yes_if "$dmax <= 1050") |
| wake-ups per minute at CheckInterval 1 | $w1 | 60 (the timer) | $(wake_met "$(get wake1)" "$win" "$(get wake1) >= $win - 2 && $(get wake1) <= $win + 2") |
| wake-ups per minute at CheckInterval 60 | $w60 | ≤ 2 (the timer, diagnose's tick: issue 42) | $(yes_if "$(get wake60) <= 2 * $win / 60 + 1") |

### Memory

| process, moment | VmRSS KiB | anonymous KiB | file-backed KiB | PSS KiB | USS KiB |
| --- | --- | --- | --- | --- | --- |
EOF
for t in start:"default profile, after the first apply" \
    cycles:"default profile, after 10,000 check cycles" \
    status:"... and 10,000 status requests" \
    round2:"... and 10,000 more cycles, 10,000 more requests" \
    lat:"default profile, after the status runs (up to 64 clients at once)" \
    k100start:"100 keys (sysctl root), after the first apply" \
    k100end:"100 keys, after 10,000 cycles and 10,000 requests"; do
	tag=${t%%:*}
	echo "| tcptuned, ${t#*:} | $(get "rss_$tag") | $(get "anon_$tag") | $(get "filerss_$tag") | $(get "pss_$tag") | $(get "uss_$tag") |"
done
cat <<EOF

Every figure is from the tcptuned process itself (\`/proc/PID/status\`
and \`/proc/PID/smaps_rollup\`), peak VmHWM $(get hwm) KiB.  Most of
its resident set is shared libraries, counted in full by VmRSS although
other processes share them: $(shared_libs); PSS
divides each page among its users and USS counts only the daemon's own
pages (both depend on what else maps the same libraries at that moment,
hence their spread between rows).  Growth from the first apply to after 10,000 cycles and 10,000
requests: $grow1 KiB; over the second round: $grow2 KiB.  After the
status runs with up to 64 clients at once (below) the daemon held
$(( $(get anon_lat) - $(get anon_round2) )) KiB more anonymous memory than the one-client daemon: each
connected client has a 16 KiB input buffer and an output queue, freed when
it leaves, and the C library's allocator need not give freed memory back
to the kernel.
$(mem_map_section)

Command: \`LD_PRELOAD=bench/daemon/timescale.so TT_TIMESCALE=1000 tcptuned
-d -f mem.conf -s S -S DIR\` in \`unshare -n\`, mem.conf being
\`etc/tcptune.conf.linux\` ($(get nkeys_default) keys, of which the two
global \`net.core\` keys are refused inside a namespace and retried after
1, 2, 4... checks) with CheckInterval 1, so one check per millisecond; cycles counted
by the daemon (\`tcptunectl status --json\` .daemon.checks, $(num "$(get mem_checks)")
at the end), then \`bench/daemon/statusbench -s S -c 1 -n 10000\`.  The
100-key daemon: \`tcptuned -r ROOT\` on 100 files of Linux layout (half
integers, half \`tcp_rmem\`-like vectors).

### CPU per check cycle

| check of | tcptuned, instructions per cycle | shell way, instructions | ratio |
| --- | --- | --- | --- |
| default profile, $(get nkeys_default) keys, all in force (sysctl root) | $(num "$(get ir_cgroot | cut -d. -f1)") | $(num "$(get irsh_root)") ($(get shprocs_root) processes) | $(get ratio_root)× |
| default profile in a network namespace: 2 keys refused, retried after 1, 2, 4... checks | $(num "$(get ir_cgdef | cut -d. -f1)") | $(num "$(get irsh_def)") ($(get shprocs_def) processes) | $(get ratio_def)× |
| 100 keys | $(num "$(get ir_cg100 | cut -d. -f1)") | $(num "$(get irsh_k100_scaled | cut -d. -f1)")$( [ "$(get shell_keys)" != 100 ] && printf ' (%s keys measured, scaled to 100)' "$(get shell_keys)") | $(get ratio_100)× |

tcptuned: \`valgrind --tool=callgrind --toggle-collect=engine_check\` on
the daemon (check timer divided by 50), the instructions counted inside
\`engine_check\` and everything it calls, divided by its calls
($(get ircalls_cgroot), $(get ircalls_cgdef) and $(get ircalls_cg100)).  In the namespace a refused
key is not read between its retries, so a check there costs less than
with all keys in force, and its ratio is the higher one.
Shell way: a script with one \`v=\$(sysctl -n KEY)\` per key compared with
the wanted value, as a cron or launchd job does it, under \`valgrind
--tool=callgrind --trace-children=yes\`, summing the instructions of every
process (the shell and each \`sysctl\`), in the C locale as cron runs
jobs (with a UTF-8 locale each \`sysctl\` also loads locale data, about
50 % more); on a sysctl root it reads the same files, bind-mounted over
/proc/sys in a private mount namespace.  Instruction counts hardly
change from run to run: they follow the code, not the machine's load.  Both count
user-space instructions only: the shell way's fork, exec and page faults
in the kernel come on top, so the ratio understates its cost.  In CPU time
with the kernel included: tcptuned used $(get cpu_us_per_check) µs per
cycle (user + system time of the 10,000-cycle run above, from
\`/proc/PID/stat\`, its timer wake-up included) against $(get cpu_sh_def) µs
for one run of the shell way (bash \`times\` over 20 runs), a ratio of
$(get cpu_ratio_def)× (both in the namespace).

Where tcptuned's instructions go, 100 keys (\`callgrind_annotate
--inclusive=no\`, self cost):

\`\`\`
$(cat "$OUT/cg100-top.txt" 2>/dev/null)
\`\`\`

### Idle wake-ups

| CheckInterval | window | wake-ups | per minute | the check timer alone | with diagnose's tick | voluntary context switches |
| --- | --- | --- | --- | --- | --- | --- |
| 1 s | $win s | $(get wake1) | $w1 | 60 | $((60 + TICKS_MIN)) | $(get ctx1) |
| 60 s | $win s | $(get wake60) | $w60 | 1 | $((1 + TICKS_MIN)) | $(get ctx60) |

Two daemons side by side (\`tcptuned -r ROOT\`, 4 keys each, no shim),
nobody talking to them, over the window (from $(get wake_date)): $wake_how.  Nothing polls: the loop sleeps until the check
timer, diagnose's tick, a signal, a client or an inotify event.  The
tick reads the machine's TCP segment count to sample connections while
a transfer runs, whatever the CheckInterval: every \`FLOW_TICK_MS\`
while segments move, and while none do twice as long at each tick, up
to \`FLOW_SLEEP_MAX_MS\` (daemon/flows/flows.h: $((60000 / TICKS_MIN)) ms); the window starts
once both daemons say so (\`diagnose --json\`, \`tick_now_ms\`): $TICKS_MIN
wake-up a minute on top of the check timer's.  With a transfer running,
bench/flows/idle.sh (below).

### Status latency

| clients | connection | p50 | p90 | p99 | max | requests/s |
| --- | --- | --- | --- | --- | --- | --- |
EOF
while read -r line; do
	conn="kept"
	[ "$(kv "$line" reconnect)" = 1 ] && conn="new each request"
	[ "$(kv "$line" pause_us)" != 0 ] && conn="kept, 10 ms pause between requests"
	echo "| $(kv "$line" clients) | $conn | $(ms "$(kv "$line" p50_us)") | $(ms "$(kv "$line" p90_us)") | $(ms "$(kv "$line" p99_us)") | $(ms "$(kv "$line" max_us)") | $(kv "$line" rps) |"
done <"$OUT/status-latency.txt"
cat <<EOF

![status round trip p50 and p99 by number of clients](bench-status-latency.png)

Command: \`bench/daemon/statusbench -s S -c N -n $(kv "$l64" requests | awk -v c=64 '{ print $1 / c }')\`
(\`-C\`: a new connection per request, as \`tcptunectl status\` does;
\`-p 10000\`: a 10 ms pause between a client's requests) against tcptuned
on the default profile in \`unshare -n\`; each client is a thread with its
own connection, all start together, and each request is timed from its
send to the end of its reply ($(kv "$l64" keys) keys, each read live).
The daemon answers one request at a time, so with N clients sending back
to back a request waits behind the others: the p50 grows with N as N ×
the service time (at most $(awk -v r="$(kv "$l64" rps)" 'BEGIN { printf "%.0f", 1e6 / r }') µs a request at 64 clients: one over the rate), and on this
$(nproc)-core machine the $(kv "$l64" clients) client threads also compete
with the daemon for the CPU.  The paced run is closer to real use (many
clients that each ask now and then).

$(status_cpu)

$(status_vs_proc)

### Drift correction

Outside writes to keys tcptuned enforces at CheckInterval 1, at random
moments (a random wait of 50 to 1050 ms before each), each timed until
the daemon had put the value back (polled every millisecond):
$(kv "$drift" samples) samples, p50 $(kv "$drift" p50_ms) ms, p95
$dp95 ms, max $dmax ms, min $(kv "$drift" min_ms) ms, $(kv "$drift" timeouts)
not reverted within 5 s.  The daemon counted $(get drift_corrections)
corrections; $(get drift_contested) keys ended contested.

![drift correction latency](bench-correction.png)

Command: \`bench/daemon/driftbench -n $(kv "$drift" samples) -t 5000 KEYS\`
in \`unshare -n\`, KEYS being $(get drift_keys) integer \`net.ipv4\` keys of
the namespace (each checked to take another value and put back first),
all enforced at their current values; the samples take the keys in turn,
so that no key is corrected 3 times within 5 minutes and becomes
*contested*, which would slow its corrections on purpose.  The latency is
the wait for the next tick of the check timer (uniform over the
interval) plus the check itself.

### Diagnose: one sampling pass

What each check cycle adds for \`tcptunectl diagnose\` (one sock_diag dump
of every TCP socket with tcp_info and skmem, into the bounded history),
with 10 000 sockets open over loopback, $((256 + 44)) of them having moved
128 KiB.  A connection with both ends on this machine never enters the
history (\`flows_local_pair()\` in daemon/flows/flows.c: no evidence of a path),
so these loopback ones do not: the pass measures the dump and that
filter, not the history filling and evicting:

    $(get flows)

Command: \`bench/flows/run.sh 10000\` (\`flowbench\` in \`unshare -n\`).  The
CPU time is the process's, the kernel's dump included; the wall time also
holds the waits for a CPU on a loaded machine.

$(flows_busy)
EOF
idle_section
echo
lean_section
echo
# tuned.sh's text when it measured tuned; why not, from its figures, else.
if [ -s "$OUT/tuned.md" ] && [ -z "$(tget tuned_error)" ]; then
	cat "$OUT/tuned.md"
else
	printf '### A resident peer: tuned\n\nNot measured in this run%s.\n' \
	    "$( [ -n "$(tget tuned_error)" ] && printf ': %s' "$(tget tuned_error)")"
fi
