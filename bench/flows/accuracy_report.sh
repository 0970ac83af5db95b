#!/bin/bash
#
# bench/flows/accuracy_report.sh OUTDIR: the markdown section of
# bench/flows/accuracy.sh (which runs it) from OUTDIR/accuracy.dat and
# OUTDIR/accuracy-raw/, for docs/BENCHMARKS.md; run it alone to write the
# section again after a change to this text.

set -u
export LC_ALL=C
OUT=${1:?usage: accuracy_report.sh OUTDIR}
RAW=$OUT/accuracy-raw
DAT=$OUT/accuracy.dat
[ -s "$DAT" ] || { echo "accuracy_report: no $DAT" >&2; exit 1; }
# shellcheck source=/dev/null
. "$RAW/meta.sh"

load_of() {		# load_of COND: "A at the start, B at the end"
	awk -v c="$1" '$1 == c && $2 == "start" { s = $3 } $1 == c && $2 == "end" { e = $3 }
	    END { printf "%s at the start, %s at the end", s, e }' "$RAW/load.txt"
}

# label ID: the case in words
label() {
	case $1 in
	down*paced | up*paced) echo "paced at 100 Mbit/s, 64 MiB" ;;
	down*) echo "receive ceiling ${1#down} MiB" ;;
	up*) echo "send ceiling ${1#up} MiB" ;;
	esac
}

table() {		# table COND
	local id
	echo "| case | direction | truth | runs | verdicts | iperf3 rate (Mbit/s) | diagnose's rate (Mbit/s) | right |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for id in $(awk -v c="$1" '$1 == c && !s[$2]++ { print $2 }' "$DAT"); do
		awk -v c="$1" -v id="$id" -v l="$(label "$id")" '$1 == c && $2 == id {
		    n++; dir = $3; truth = $4; v[$6]++; rate = rate (n > 1 ? ", " : "") $7
		    drate = drate (n > 1 ? ", " : "") $8; if ($6 == $4) ok++ }
		    END { vs = ""; for (k in v) vs = vs (vs == "" ? "" : ", ") k " ×" v[k]
			printf "| %s | %s | %s | %d | %s | %s | %s | %s%d/%d%s |\n", l, dir, truth,
			    n, vs, rate, drate, ok == n ? "" : "**", ok, n, ok == n ? "" : "**" }' "$DAT"
	done
	echo
}

total() {		# total COND: "right/all"
	awk -v c="$1" '$1 == c { n++; if ($6 == $4) ok++ } END { printf "%d/%d", ok, n }' "$DAT"
}

echo "## Diagnose's accuracy on the emulated path (issue 42)"
echo
echo "Does \`tcptunectl diagnose\` name what held a transfer? One iperf3 transfer of"
echo "6 s at a time over the delay line (1 Gbit/s, 150 ms, queue of one BDP;"
echo "$EMU), the near end's tcptuned at CheckInterval 60, paused so that each"
echo "case's ceiling (set by sysctl in the near namespace) stays; the far end's"
echo "ceilings are 64 MiB. The verdict is the flow's \`held_by\` in \`tcptunectl"
echo "diagnose --json --all\` once the daemon saw the connection close. The truth:"
echo "a ceiling whose window is below one BDP of the link (Linux offers about 5/8"
echo "of tcp_rmem[2] as window and keeps about 5/6 of tcp_wmem[2] in flight, so"
echo "4, 8 and 16 MiB) holds the stream (receive-buffer, send-buffer); 64 MiB"
echo "passes the link's BDP, so the link holds it (network); a sender paced by"
echo "iperf3 at 100 Mbit/s (\`-b 100M\`) is application. $RUNS run(s) a case;"
echo "$START, took $ELAPSED s."
echo
echo "Command: \`sudo bench/flows/accuracy.sh --runs $RUNS OUTDIR\` (section written by"
echo "bench/flows/accuracy_report.sh; raw flows and iperf3 JSON in OUTDIR/accuracy-raw/)."
echo
for c in $(awk '!s[$1]++ { print $1 }' "$DAT"); do
	if [ "$c" = busy ]; then
		echo "### Busy: two busy loops on the two CPUs (load average $(load_of busy)): $(total busy) right"
		echo
		echo "Two \`sh -c 'while :; do :; done'\` started before the first transfer and"
		echo "stopped after the last, beside whatever else the shared machine ran."
	else
		echo "### No busy loops: the machine as it was (load average $(load_of quiet)): $(total quiet) right"
		echo
		echo "No load of this script's own. The machine is shared (other jobs, at times"
		echo "a \`make check\` with delay lines of its own), so this is the load above,"
		if awk '$1 == "quiet" && $3 + 0 > 1 { f = 1 } END { exit !f }' "$RAW/load.txt"; then
			echo "which was over one CPU's worth: not a quiet machine, a busy one."
		else
			echo "not an idle machine."
		fi
	fi
	echo
	table "$c"
done
# missed ID VERDICT: some run of case ID got VERDICT
missed() { awk -v id="$1" -v v="$2" '$2 == id && $6 == v { f = 1 } END { exit !f }' "$DAT"; }
any_miss=0
awk '$6 != $4 { f = 1 } END { exit !f }' "$DAT" && any_miss=1
[ "$any_miss" -eq 0 ] || { echo "#### The misses, and why"; echo; }
if missed up4 application || missed up8 application || missed up16 application; then
	echo "**An upload held by its send ceiling is called application.** The"
	echo "kernel's own count of send-buffer-limited time undercounts it: the"
	echo "TCP_CHRONO_SNDBUF_LIMITED clock starts only when the connection is not"
	echo "congestion-window limited (net/ipv4/tcp_output.c, tcp_cwnd_validate),"
	echo "and in slow start (a sender held by its buffer builds no queue, so no"
	echo "loss ends it) the window counts as limiting until it is twice what is in"
	echo "flight (tcp_is_cwnd_limited): that time is counted busy, and the"
	echo "sndbuf-limited time stays under the half of the busy time the rule asks"
	echo "for (daemon/flows/flows_verdict.c). The signs diagnose then reads as a slow writer are what a full"
	echo "send buffer shows too: its rate samples are application-limited"
	echo "(net/ipv4/tcp_rate.c, tcp_rate_check_app_limited: nothing unsent in the"
	echo "write queue, because the program waits for buffer space) and its"
	echo "congestion window, grown to twice the flight, looks spare. So diagnose"
	echo "also weighs what the program has queued (SK_MEMINFO_WMEM_QUEUED in"
	echo "sock_diag's meminfo: a sender held by its buffer keeps most of"
	echo "sk_sndbuf queued, a paced one about its flight): a miss here is an"
	echo "upload whose queue was under half its buffer at its fastest reading."
	echo
fi
if missed up64 peer-window; then
	echo "**The 64 MiB upload is called peer-window**, not network: in a 6 s"
	echo "transfer the far end's window, grown by receive autotuning once per"
	echo "round trip from what its program read (net/ipv4/tcp_input.c,"
	echo "tcp_rcv_space_adjust), trails a sender in slow start, and the sender's"
	echo "kernel counts that time as receive-window limited. That may well be the"
	echo "truth of so short a transfer; this table's \"network\" assumes a far end"
	echo "already grown."
	echo
fi
if missed downpaced network; then
	echo "**The paced download is called network.** The"
	echo "receiver sees bytes arrive slower than its window allows and no buffer"
	echo "of its own at a ceiling; what held the far end (its program's pacing, its"
	echo "congestion window after a loss, its send buffer) is in the far end's"
	echo "kernel. The rule considered, \"the window offered stays far above rate ×"
	echo "min RTT while the round trip does not grow, so the sender wrote slowly\","
	echo "is not sound on the receiver: a path that drops from a shallow queue"
	echo "keeps the far end's congestion window (and so the rate) below the offered"
	echo "window with no queue to grow the round trip, and reads the same; and the"
	echo "receiver's own figures follow the rate, not the path (tcpi_rcv_space is"
	echo "the most the program read in one round trip, net/ipv4/tcp_input.c"
	echo "tcp_rcv_space_adjust, and the window grows from it). So diagnose keeps"
	echo "\"network (the sender's side, which this end cannot see)\" for it; the"
	echo "paced upload, where the sending kernel's own counters are at hand"
	echo "(busy and application-limited times), is application."
	echo
fi
