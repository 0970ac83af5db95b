#!/bin/bash
#
# bench/run.sh [--quick] [--only daemon|throughput|accuracy] [--report-only]:
# `make bench`.
#
# Runs the daemon-cost benchmarks (bench/daemon/run.sh), the throughput
# benchmarks (bench/throughput/run.sh) and diagnose's accuracy
# (bench/flows/accuracy.sh), then writes docs/BENCHMARKS.md in
# the source tree: a header with the machine and the commands, each half's
# section, and their plots copied to docs/bench-*.png.  A half that fails
# is reported in the document (its last good results, marked so, or the
# end of its log), and the script exits 1.  Each half's results are kept in $top_builddir/bench-results/
# (logs and raw data too): with --only, the other half's section comes
# from its last successful run there, with its date; --report-only runs
# nothing and writes the document again from those results (after a fix
# to a report script).  Needs root (network namespaces); writes no sysctl
# of the host.
#
# Environment: top_srcdir, top_builddir (make sets both; by default the
# tree this script is in and the current directory).

set -u
export LC_ALL=C

QUICK=
ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=--quick ;;
	--only) ONLY=${2:?--only needs daemon, throughput or accuracy}; shift ;;
	--report-only) ONLY=none ;;
	*) echo "usage: bench/run.sh [--quick] [--only daemon|throughput|accuracy] [--report-only]" >&2
	   exit 64 ;;
	esac
	shift
done
case $ONLY in '' | daemon | throughput | accuracy | none) ;; *)
	echo "bench/run.sh: --only daemon, throughput or accuracy, not '$ONLY'" >&2
	exit 64 ;;
esac

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
if [ "$(id -u)" -ne 0 ]; then
	echo "bench/run.sh: needs root (each benchmark runs in its own network namespace)" >&2
	exit 1
fi
[ -x "$top_builddir/tcptuned" ] || {
	echo "bench/run.sh: no tcptuned in $top_builddir: build first (make)" >&2
	exit 1
}

DOCS=$top_srcdir/docs
RES=$top_builddir/bench-results
mkdir -p "$DOCS" "$RES" || exit 1
START=$(date -u '+%Y-%m-%d %H:%M UTC')
LOAD0=$(cut -d' ' -f1 /proc/loadavg)
FAILED=0
RAN=

say() {
	printf 'bench: %s\n' "$*" >&2
}

# The load while a half runs, not only at its ends: the 1-minute load
# average every 30 s into $LOADS, kept per half as "min median max N"
# (load_of), for the header, also of a --report-only document.
LOADS=$RES/load.samples
SAMPLER=
start_sampler() {
	: >"$LOADS"
	while :; do cut -d' ' -f1 /proc/loadavg >>"$LOADS"; sleep 30; done &
	SAMPLER=$!
	trap 'kill "$SAMPLER" 2>/dev/null' EXIT
}

# load_of FROM: "min median max N" of the samples after line FROM.
load_of() {
	tail -n +"$(( $1 + 1 ))" "$LOADS" | sort -n | awk '{ v[n++] = $1 }
	    END { if (n) printf "%s %s %s %d\n", v[0], v[int(n / 2)], v[n - 1], n }'
}

# load_text NAME: the kept load of a half, in words.
load_text() {
	local min med max n
	read -r min med max n 2>/dev/null <"$RES/$1/load" || { echo "not kept"; return 0; }
	echo "$min to $max, median $med ($n samples, one every 30 s)"
}

# half NAME SCRIPT: run one half into $RES/NAME.new, its log beside it;
# on success it replaces $RES/NAME.
half() {
	local name=$1 script=$2 t0 rc l0
	t0=$(date +%s)
	l0=$(wc -l <"$LOADS")
	RAN="$RAN $name"
	rm -rf "$RES/$name.new" "$RES/$name.failed"
	say "$name: $script $QUICK (log $RES/$name.log)"
	bash "$script" $QUICK "$RES/$name.new" >"$RES/$name.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || grep -q '^Bail out!' "$RES/$name.log"; then
		say "$name: FAILED (exit $rc); the end of its log:"
		tail -n 15 "$RES/$name.log" >&2
		: >"$RES/$name.failed"
		FAILED=1
		return 1
	fi
	echo "$(( $(date +%s) - t0 ))" >"$RES/$name.new/seconds"
	echo "$START${QUICK:+, quick}" >"$RES/$name.new/date"
	load_of "$l0" >"$RES/$name.new/load"
	git -C "$top_srcdir" rev-parse --short HEAD >"$RES/$name.new/commit" 2>/dev/null
	rm -rf "${RES:?}/$name" && mv "$RES/$name.new" "$RES/$name"
	say "$name: done in $(cat "$RES/$name/seconds") s"
}

# when NAME: "this run, N s" or "the run of DATE, N s" for a half's figures.
when() {
	[ -e "$RES/$1/date" ] || { echo "not measured"; return 0; }
	case " $RAN " in
	*" $1 "*) echo "this run, $(cat "$RES/$1/seconds") s" ;;
	*) echo "kept from the run of $(cat "$RES/$1/date"), $(cat "$RES/$1/seconds") s" ;;
	esac
}

# measured_at: for --report-only, the commit each half measured (kept
# since this was), which the report's HEAD need not be.
measured_at() {
	local h c
	printf ' (this report)'
	for h in daemon throughput accuracy; do
		c=$(cat "$RES/$h/commit" 2>/dev/null) || c="a commit not kept"
		printf '; the %s figures measured at %s' "$h" "$c"
	done
}

machine() {
	local model mem os virt commit
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
	virt=$(systemd-detect-virt 2>/dev/null || true)
	commit=$(git -C "$top_srcdir" rev-parse --short HEAD 2>/dev/null || true)
	cat <<-EOF
	| | |
	| --- | --- |
	| written | $START$( [ "$ONLY" = none ] && echo " (from kept results: \`--report-only\`)") |
	| CPU | ${model:-unknown}, $(nproc) logical CPUs |
	| memory | $mem |
	| kernel | $(uname -sr) ($(uname -m)) |
	| system | ${os:-unknown}${virt:+, virtualization: $virt} |
	| tcptune | $("$top_builddir/tcptuned" -V 2>&1 | head -n 1)${commit:+, commit $commit}$( [ "$ONLY" = none ] && printf '%s' "$(measured_at)") |
	| mode | $( [ "$ONLY" = none ] && echo "as each run's date below says" || { [ -n "$QUICK" ] && echo "quick (\`--quick\`: short windows, few samples)"; } || echo full) |
	| load average (1 min) | $( [ "$ONLY" = none ] || echo "$LOAD0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end; ")while the daemon figures were measured, $(load_text daemon); while the throughput figures were, $(load_text throughput); while diagnose's accuracy was, $(load_text accuracy) |
	EOF
}

# section NAME FILE TITLE: the half's markdown, or why it is missing.
section() {
	local name=$1 md=$RES/$1/$2 note=
	if [ -s "$md" ] && [ -e "$RES/$name.failed" ]; then
		note="*(This run of it failed (\`bench-results/$name.log\`): the figures are from the run of $(cat "$RES/$name/date").)*"
	elif [ -s "$md" ]; then
		case " $RAN " in
		*" $name "*) ;;
		*) [ "$ONLY" = none ] ||
		    note="*(Figures from the run of $(cat "$RES/$name/date"), kept in bench-results/ while other parts ran since.)*" ;;
		esac
	fi
	if [ -s "$md" ]; then
		# Plots are copied as docs/bench-*.png: name the links so.  The
		# note goes under the section's heading.
		sed -E 's/\]\((bench-)?([A-Za-z0-9_.-]+\.png)\)/](bench-\2)/g' "$md" |
		    awk -v note="$note" 'NR == 1 && note != "" { print; print ""; print note; next } { print }'
		return 0
	fi
	printf '## %s\n\nNot measured' "$3"
	if [ -e "$RES/$name.failed" ]; then
		printf ' in this run: the benchmark failed. The end of its log:\n\n```\n'
		tail -n 15 "$RES/$name.log"
		printf '```\n'
	else
		printf " yet (\`make bench\`).\n"
	fi
}

copy_plots() {
	local f base
	for f in "$RES"/daemon/*.png "$RES"/throughput/*.png; do
		[ -e "$f" ] || continue
		base=${f##*/}
		base=bench-${base#bench-}
		cp "$f" "$DOCS/$base" || return 1
	done
}

# report_only: each half's report again, from its kept results.
report_only() {
	local quick=0
	if [ -s "$RES/daemon/daemon.vars" ]; then
		grep -q quick "$RES/daemon/date" 2>/dev/null && quick=1
		bash "$top_srcdir/bench/daemon/report.sh" "$RES/daemon" "$quick" \
		    >"$RES/daemon/daemon.md.new" &&
		    mv "$RES/daemon/daemon.md.new" "$RES/daemon/daemon.md"
	fi
	if [ -d "$RES/throughput" ]; then
		bash "$top_srcdir/bench/throughput/run.sh" --report-only \
		    "$RES/throughput" >"$RES/throughput-report.log" 2>&1 ||
		    say "throughput --report-only failed: see $RES/throughput-report.log"
	fi
	if [ -s "$RES/accuracy/accuracy.dat" ]; then
		bash "$top_srcdir/bench/flows/accuracy_report.sh" "$RES/accuracy" \
		    >"$RES/accuracy/accuracy.md.new" &&
		    mv "$RES/accuracy/accuracy.md.new" "$RES/accuracy/accuracy.md"
	fi
}

if [ "$ONLY" = none ]; then
	report_only
else
	start_sampler
fi
if [ "$ONLY" = daemon ] || [ -z "$ONLY" ]; then
	half daemon "$top_srcdir/bench/daemon/run.sh"
fi
if [ "$ONLY" = throughput ] || [ -z "$ONLY" ]; then
	if [ -f "$top_srcdir/bench/throughput/run.sh" ]; then
		half throughput "$top_srcdir/bench/throughput/run.sh"
	else
		say "throughput: bench/throughput/run.sh is missing"
		FAILED=1
	fi
fi
if [ "$ONLY" = accuracy ] || [ -z "$ONLY" ]; then
	half accuracy "$top_srcdir/bench/flows/accuracy.sh"
fi

{
	cat <<-EOF
	# Benchmarks

	Generated by \`make bench\` (\`bench/run.sh\`); do not edit by hand, run
	it again.  Two questions: what does a resident tcptuned cost, next to a
	one-shot script or another tuning daemon, and how much does the tuning
	lift one TCP stream on a long, fast path.  The machines these runs use
	are shared and noisy: where it matters the figures are medians, and
	comparisons are ratios measured in the same run.

	## Machine and run

	$(machine)

	To reproduce, as root, from a build tree:

	\`\`\`sh
	make bench                        # everything, writes docs/BENCHMARKS.md
	make bench BENCH_FLAGS=--quick    # a short run
	make bench-daemon                 # the daemon's own cost only
	make bench-report                 # this file again from bench-results/
	bench/daemon/run.sh [--quick] OUTDIR       # one half, into OUTDIR
	bench/throughput/run.sh [--quick] OUTDIR
	bench/flows/accuracy.sh [--quick] [--runs N] OUTDIR
	\`\`\`

	Each figure below names the command that produced it.  The daemon
	figures: $(when daemon); the throughput figures: $(when throughput);
	diagnose's accuracy: $(when accuracy).

	EOF
	section daemon daemon.md "The daemon's own cost"
	echo
	section throughput throughput.md "Throughput"
	echo
	section accuracy accuracy.md "Diagnose's accuracy on the emulated path"
} >"$RES/BENCHMARKS.md"

copy_plots || { say "cannot copy the plots to $DOCS"; FAILED=1; }
if ! cp "$RES/BENCHMARKS.md" "$DOCS/BENCHMARKS.md.tmp" ||
    ! mv "$DOCS/BENCHMARKS.md.tmp" "$DOCS/BENCHMARKS.md"; then
	say "cannot write $DOCS/BENCHMARKS.md"
	exit 1
fi
say "wrote $DOCS/BENCHMARKS.md (logs and raw results in $RES)"
exit "$FAILED"
