# shellcheck shell=bash
#
# The markdown section and the plots of bench/throughput/run.sh, from
# $RAW/runs.dat ("rtt row parallel run mbps retransmits snd_wnd"),
# $RAW/rtt.dat and $RAW/counters.txt.  Sourced by run.sh, which sets
# RAW OUT LINK MTU CC RUNS MAIN_RTT SWEEP ROWS PAR QUICK TB_EMU ELAPSED
# START here and the row helpers.

: "${here:?}"
LINK_MBPS=$((LINK / 1000000))

# runs_of RTT ROW PAR: the rates of the runs, space separated.
runs_of() {
	awk -v r="$1" -v id="$2" -v p="$3" \
	    '$1 == r && $2 == id && $3 == p { printf "%s%s", s, $5; s = " " }' \
	    "$RAW/runs.dat"
}

# median_of RTT ROW PAR [COLUMN]: median of a column (5: rate) over runs.
median_of() {
	awk -v r="$1" -v id="$2" -v p="$3" -v c="${4:-5}" \
	    '$1 == r && $2 == id && $3 == p { v[n++] = $c + 0 }
	    END { if (n == 0) { print "nan"; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
		    if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		m = n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
		printf "%.1f\n", m }' "$RAW/runs.dat"
}

# ss_stat RTT ROW PAR WHAT: median over the runs of one figure from the
# sender's ss sample of the data connection (bytes_sent > 1 MB: not the
# control connection): wnd (window B offers, bytes), rwnd / sndbuf (% of
# the time limited by the receive window / the send buffer), inflight
# (unacked segments x mss, bytes).
ss_stat() {
	local f
	for f in "$RAW/$1-$2-P$3-"*.ss.txt; do
		[ -e "$f" ] || continue
		awk -v what="$4" '{ b = 0; r = 0; s = 0; w = 0; u = 0; m = 0
		    for (i = 1; i <= NF; i++) {
			split($i, kv, ":")
			if (kv[1] == "bytes_sent") b = kv[2] + 0
			if (kv[1] == "snd_wnd") w = kv[2] + 0
			if (kv[1] == "mss") m = kv[2] + 0
			if (kv[1] == "unacked") u = kv[2] + 0
			if (kv[1] == "rwnd_limited") { sub(/.*\(/, "", $i); r = $i + 0 }
			if (kv[1] == "sndbuf_limited") { sub(/.*\(/, "", $i); s = $i + 0 } }
		    if (b > 1000000) {
			v = what == "wnd" ? w : what == "rwnd" ? r : what == "sndbuf" ? s : u * m
			print v; exit } }' "$f"
	done | sort -n | awk '{ v[n++] = $1 } END { if (n == 0) print "nan"; else print (n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2) }'
}

pct() {			# pct A B: A as a % of B
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b + 0 == 0) print "nan"; else printf "%.1f\n", a * 100 / b }'
}

mib() {			# the last number of a vector, in MiB
	awk -v v="$1" 'BEGIN { n = split(v, f, " "); printf "%g\n", f[n] / 1048576 }'
}

# How close advise must come to the measured rate, in %, on every row
# (issue 46).
ADVISE_TOL=10

# advise_json ROW RTT: tcptunectl advise on this row's values, with this
# host's kernel release and its (global) net.core ceilings, as the
# namespaces see them.
advise_json() {
	"$TB_TCPTUNECTL" advise --json --platform linux --rate "${LINK}bit" \
	    --rtt "${2}ms" --set "net.ipv4.tcp_rmem=$(row_rmem "$1")" \
	    --set "net.ipv4.tcp_wmem=$(row_wmem "$1")" \
	    --set "net.core.rmem_max=$(sysctl -n net.core.rmem_max)" \
	    --set "net.core.wmem_max=$(sysctl -n net.core.wmem_max)" \
	    --set "kernel.osrelease=$(uname -r)"
}

# advise_ratio FIELD: advise's window per buffer byte (.platform's
# receive_window_per_buffer_byte or send_window_per_buffer_byte), the same
# for every row.
advise_ratio() {
	advise_json default "$MAIN_RTT" | jq -r ".platform.$1"
}

# advise_model_words: how advise's model window is made, from its own
# ratios, for the text.
advise_model_words() {
	printf 'the smaller of %.3f of tcp_rmem[2] and %.3f of tcp_wmem[2]' \
	    "$(advise_ratio receive_window_per_buffer_byte)" \
	    "$(advise_ratio send_window_per_buffer_byte)"
}

# predicted ROW RTT -> "Mbit/s window_bytes limited_by": one stream A -> B
# is held by the smaller of B's receive and A's send side.
predicted() {
	advise_json "$1" "$2" | jq -r '[.now.receive, .now.send] |
	    min_by(.rate_bps) | "\(.rate_bps / 1e5 | round / 10) \(.window_bytes) \(.limited_by // "none")"'
}

row_label() {
	printf '%s\n' "$ROWS_FULL" | awk -F'|' -v id="$1" '$1 == id { print $2 }'
}

section_rows() {
	local id label med p4 target wnd
	p4=$(median_of "$MAIN_RTT" 4m 1)
	echo "### One stream at $MAIN_RTT ms"
	echo
	echo "| row | tcp_rmem / tcp_wmem max | runs (Mbit/s) | median | % of link | retransmits | window B offers | time limited by rwnd / sndbuf | target |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	while IFS='|' read -r id label _ <&3; do
		med=$(median_of "$MAIN_RTT" "$id" 1)
		wnd=$(ss_stat "$MAIN_RTT" "$id" 1 wnd)
		target=-
		[ "$id" = tuned ] && target=$(tuned_target "$med" "$p4")
		printf '| %s | %s / %s MiB | %s | **%s** | %s %% | %.0f | %s MiB | %s %% / %s %% | %s |\n' \
		    "$label" "$(mib "$(row_rmem "$id")")" "$(mib "$(row_wmem "$id")")" \
		    "$(runs_of "$MAIN_RTT" "$id" 1 | sed 's/ /, /g')" "$med" \
		    "$(pct "$med" "$LINK_MBPS")" "$(median_of "$MAIN_RTT" "$id" 1 6)" \
		    "$(awk -v w="$wnd" 'BEGIN { printf "%.1f", w / 1048576 }')" \
		    "$(ss_stat "$MAIN_RTT" "$id" 1 rwnd)" "$(ss_stat "$MAIN_RTT" "$id" 1 sndbuf)" "$target"
	done 3<<EOF
$ROWS
EOF
	echo
	echo "Retransmits: iperf3's count per run (median). Window B offers: \`snd_wnd\` in the sender's \`ss -ti\` sample of the data"
	echo "connection, 70 % into each run; time limited: ss's \`rwnd_limited\` and"
	echo "\`sndbuf_limited\` as a share of the connection's busy time (medians over runs)."
	echo "The 4 and 8 MiB rows give Linux the ceilings a stock Mac allows; a Mac"
	echo "offers its whole buffer as window where Linux offers tcp_rmem[2] ×"
	echo "scaling_ratio / 256 of it, so a Mac at the same ceiling does better than"
	echo "these rows (\`tcptunectl advise\` models both: tcptunectl(8), EXAMPLES)."
	echo
	if [ -s "$RAW/tuned-status-$MAIN_RTT.txt" ]; then
		echo "\`tcptunectl status\` in namespace A once both keys were in force, before"
		echo "the tuned runs (the global net.core keys are refused in a namespace):"
		echo
		echo '```'
		sed -n '/^KEY/,$p' "$RAW/tuned-status-$MAIN_RTT.txt"
		echo '```'
		echo
	fi
}

# tuned_target MEDIAN MEDIAN_4MIB: the issue's two targets, met or not.
tuned_target() {
	awk -v t="$1" -v f="$2" -v l="$LINK_MBPS" 'BEGIN {
	    a = t >= 0.9 * l ? "met" : "NOT met"
	    printf ">= 90 %% of link: %s", a
	    if (f != "nan" && f > 0) {
		printf "; %.1fx the 4 MiB row (>= 5x): %s", t / f, (t >= 5 * f ? "met" : "NOT met") }
	}'
}

# tun_note: a sentence for the summary when the TUN device dropped
# packets, the loss one stream feels on a busy machine.
tun_note() {
	local d
	d=$(tun_drops)
	[ -n "$d" ] && [ "$d" -gt 0 ] 2>/dev/null || return 0
	printf ' But the TUN device dropped %s packets at this RTT before the emulator read them (the machine was busy: load average in the header), which one stream feels as loss (retransmits in the table below).' "$d"
}

# others_advise: advise's error on the rows that are no target, in one
# line, so that the list above does not read as advise's error on all.
others_advise() {
	local id label pred med list=
	while IFS='|' read -r id label _ <&3; do
		case $id in 4m | 8m | tuned) continue ;; esac
		read -r pred _ <<<"$(predicted "$id" "$MAIN_RTT")"
		med=$(median_of "$MAIN_RTT" "$id" 1)
		list="$list$(awk -v l="$label" -v p="$pred" -v m="$med" 'BEGIN {
		    if (m + 0 == 0) exit
		    printf "; %s: predicted %s, measured %s (%+.1f %%)", l, p, m, (p - m) * 100 / m }')"
	done 3<<EOF
$ROWS
EOF
	[ -z "$list" ] ||
	    echo "- advise on the other rows (no target): ${list#; } (Mbit/s; why, where it is off by more than $ADVISE_TOL %: under the advise table below)."
}

# The issue's targets first, met or not, and the emulator's evidence.
section_summary() {
	local t f p8 id pred med
	t=$(median_of "$MAIN_RTT" tuned 1)
	f=$(median_of "$MAIN_RTT" 4m 1)
	p8=$(median_of "$MAIN_RTT" default 8)
	echo "**Results at $MAIN_RTT ms** (targets of the issue):"
	echo
	echo "- tcptune's shipped Linux default, applied by tcptuned: one stream $t Mbit/s,"
	echo "  $(pct "$t" "$LINK_MBPS") % of the link; $(tuned_target "$t" "$f")."
	for id in 4m 8m tuned; do
		grep -q "^$id|" <<<"$ROWS" || continue
		read -r pred _ <<<"$(predicted "$id" "$MAIN_RTT")"
		med=$(median_of "$MAIN_RTT" "$id" 1)
		awk -v l="$(row_label "$id")" -v p="$pred" -v m="$med" -v tol="$ADVISE_TOL" 'BEGIN {
		    d = (p - m) * 100 / m
		    printf "- advise, %s: predicted %s Mbit/s, measured %s (%+.1f %%): %s\n", l, p, m, d,
			(d <= tol && d >= -tol) ? "within " tol " %, met" : "off by more than " tol " %, NOT met (see below)" }'
	done
	others_advise
	[ "$p8" = nan ] || echo "- The emulator is not the bottleneck: 8 parallel streams at default buffers carry $p8 Mbit/s ($(pct "$p8" "$LINK_MBPS") % of the link) and the tuned single stream $t Mbit/s; the goodput ceiling of a $MTU-byte packet link is $(awk -v l="$LINK_MBPS" -v m="$MTU" 'BEGIN { printf "%.0f", l * (m - 52) / m }') Mbit/s.$(tun_note)"
	echo
}

section_parallel() {
	local id par med
	echo "### Parallel streams: is the emulator the bottleneck?"
	echo
	echo "| row | streams | runs (Mbit/s, total) | median | % of link |"
	echo "| --- | --- | --- | --- | --- |"
	while IFS='|' read -r id par <&3; do
		med=$(median_of "$MAIN_RTT" "$id" "$par")
		printf '| %s | %s | %s | **%s** | %s %% |\n' "$(row_label "$id")" \
		    "$par" "$(runs_of "$MAIN_RTT" "$id" "$par" | sed 's/ /, /g')" \
		    "$med" "$(pct "$med" "$LINK_MBPS")"
	done 3<<EOF
$PAR
EOF
	echo
	echo "The goodput ceiling of the link is $(awk -v l="$LINK_MBPS" -v m="$MTU" \
	    'BEGIN { printf "%.0f", l * (m - 52) / m }') Mbit/s: TCP payload of $((MTU - 52)) bytes"
	echo "(MSS with timestamps) per $MTU-byte IP packet, which is what the emulator"
	echo "serialises (the TUN device carries no link-layer header)."
	echo "The emulator's counters for the $MAIN_RTT ms link, over all the runs on it"
	echo "(drops are drop-tail at the 1-BDP queue, which only fills when the link"
	echo "itself is saturated):"
	echo
	echo '```'
	awk -v r="rtt $MAIN_RTT:" '$0 == r { p = 1; next } /^rtt / { p = 0 } p' "$RAW/counters.txt"
	echo '```'
	echo
}

section_advise() {
	local id label pred pw lim med diff
	echo "### \`tcptunectl advise\` against the measurement ($MAIN_RTT ms)"
	echo
	echo "Predicted: \`tcptunectl advise --json --platform linux --rate ${LINK}bit --rtt ${MAIN_RTT}ms"
	echo "--set net.ipv4.tcp_rmem=... --set net.ipv4.tcp_wmem=... --set net.core.rmem_max=$(sysctl -n net.core.rmem_max)"
	echo "--set net.core.wmem_max=$(sysctl -n net.core.wmem_max) --set kernel.osrelease=$(uname -r)\`, the smaller of"
	echo "\`.now.receive.rate_bps\` and \`.now.send.rate_bps\` (one stream from A to B is"
	echo "held by B's receive side or A's send side, whichever is smaller). The"
	echo "target (issue 46): within $ADVISE_TOL % on every row. advise's receive ratio"
	echo "160/256 was fitted on the 16 MiB row of an earlier run (557.4 Mbit/s,"
	echo "tools/advise/advise_model.c), so that row does not test it; the others do."
	echo "The send share 5/6 is derived from the kernel (the writer is woken once a"
	echo "third of the buffer is free, so the queue runs from 2/3 of the cap to all"
	echo "of it), not fitted."
	echo
	: >"$RAW/advise.dat"
	echo "| row | predicted (Mbit/s) | predicted window, held by | measured median | difference | within $ADVISE_TOL % |"
	echo "| --- | --- | --- | --- | --- | --- |"
	while IFS='|' read -r id label _ <&3; do
		read -r pred pw lim <<EOF2
$(predicted "$id" "$MAIN_RTT")
EOF2
		med=$(median_of "$MAIN_RTT" "$id" 1)
		diff=$(awk -v p="$pred" -v m="$med" 'BEGIN { if (m + 0 == 0) print "nan"; else printf "%+.1f", (p - m) * 100 / m }')
		printf '| %s | %s | %.1f MiB, %s | %s | %s %% | %s |\n' "$label" "$pred" \
		    "$(awk -v w="$pw" 'BEGIN { print w / 1048576 }')" "$lim" "$med" "$diff" \
		    "$(awk -v d="$diff" -v tol="$ADVISE_TOL" 'BEGIN { print (d != "nan" && d <= tol && d >= -tol) ? "yes" : "**no**" }')"
		echo "$id $pred $pw $med $diff $lim" >>"$RAW/advise.dat"
	done 3<<EOF
$ROWS
EOF
	echo
}

# gp_num VALUE: VALUE for gnuplot -e, where a figure no run gave ("nan",
# or nothing: no data connection in the ss sample of a run the busy
# machine slowed) is gnuplot's own NaN, not an undefined variable.
gp_num() {
	case $1 in
	''|nan) echo NaN ;;
	*) echo "$1" ;;
	esac
}

# The sweep: medians per RTT beside two window/RTT ceilings per row: the
# window B offered at the main RTT (ss snd_wnd, = tcp_rmem[2] x
# scaling_ratio / 256) and advise's model window (advise_model_words).
section_sweep() {
	local r wd wt od ot wl
	wd=$(predicted default 100 | awk '{ print $2 }')
	wl=$(predicted default 100 | awk '{ print $3 }')
	wt=$(predicted tuned 100 | awk '{ print $2 }')
	od=$(ss_stat "$MAIN_RTT" default 1 wnd)
	ot=$(ss_stat "$MAIN_RTT" tuned 1 wnd)
	: >"$RAW/sweep.dat"
	for r in $SWEEP; do
		echo "$r $(median_of "$r" default 1) $(median_of "$r" tuned 1)" >>"$RAW/sweep.dat"
	done
	awk '$3 == 1 && ($2 == "default" || $2 == "tuned") { print $1, ($2 == "tuned"), $5 }' \
	    "$RAW/runs.dat" >"$RAW/sweep-runs.dat"
	gnuplot -e "dat='$RAW/sweep.dat'; runs='$RAW/sweep-runs.dat'; out='$OUT/throughput-sweep.png'; link=$LINK_MBPS; wdef=$(gp_num "$od"); wtuned=$(gp_num "$ot"); adef=$(gp_num "$wd"); atuned=$(gp_num "$wt")" \
	    "$here/sweep.gp" || return 1
	echo "### Round-trip sweep"
	echo
	echo "![one stream vs round trip](throughput-sweep.png)"
	echo
	echo "| RTT (ms) | measured RTT | kernel default before 6.16: median | ceiling | advise | tcptune default: median | ceiling | advise | tuned runs (retransmits) |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	while read -r r dm tm <&3; do
		printf '| %s | %s ms | %s | %s | %s | %s | %s | %s | %s |\n' "$r" \
		    "$(awk -v r="$r" '$1 == r { print $2 }' "$RAW/rtt.dat" | head -n 1)" \
		    "$dm" "$(ceiling "$od" "$r")" "$(ceiling "$wd" "$r")" \
		    "$tm" "$(ceiling "$ot" "$r")" "$(ceiling "$wt" "$r")" \
		    "$(awk -v r="$r" '$1 == r && $2 == "tuned" && $3 == 1 { printf "%s%s (%s)", s, $5, $6; s = ", " }' "$RAW/runs.dat")"
	done 3<"$RAW/sweep.dat"
	echo
	awk -v od="$od" -v ot="$ot" -v wd="$wd" -v wt="$wt" \
	    -v fly="$(in_flight k616)" -v wl="$wl" -v model="$(advise_model_words)" \
	    -v rd="$(row_rmem default | awk '{ print $NF }')" \
	    -v rt="$(row_rmem tuned | awk '{ print $NF }')" 'BEGIN { M = 1048576
	    print "Ceiling: min(link, window × 8 / RTT) in Mbit/s, for the window B really"
	    printf "offered at %s ms (`ss` snd_wnd): %.2f MiB for the kernel default, %.1f MiB\n", '"$MAIN_RTT"', od / M, ot / M
	    printf "tuned, that is tcp_rmem[2] × scaling_ratio / 256 with scaling_ratio %.0f/256\n", od / rd * 256
	    printf "(%.0f/256 tuned): Linux 6.6+ measures it per connection from the\n", ot / rt * 256
	    print "payload-to-truesize ratio of the packets it receives. \"advise\": the same for"
	    printf "the window advise models, %s\n", model
	    printf "(%.2f MiB, held by %s; %.0f MiB tuned).\n", wd / M, wl, wt / M
	    print "The default row sits a little below its ceiling"
	    if (fly != "")
		printf "because the sender, with tcp_wmem[2] = 4 MiB, keeps about %.1f MiB in flight\n", fly / M
	    print "(see the \"kernel default from 6.16\" row, which is held by that alone)."
	    print "Where the tuned window is larger than the path holds (BDP plus the"
	    print "1-BDP queue: 5 MB at 20 ms, 20 MB at 80 ms), cubic grows until the"
	    print "queue overflows and backs off: the retransmits in the last column."
	    print "Retransmits"
	    print "with no drop in the emulator queue (OUTDIR/throughput-raw/counters.txt)"
	    print "come from losses before it, in the TUN device queue (\"tun tx_dropped\","
	    print "where recorded), or are spurious, while the shared CPUs were busy."
	}'
	echo
}

in_flight() {		# in_flight ROW: bytes in flight at the main RTT (rate x RTT)
	local med
	med=$(median_of "$MAIN_RTT" "$1" 1)
	[ "$med" = nan ] && return 0
	awk -v m="$med" -v r="$MAIN_RTT" 'BEGIN { print m * 1e6 / 8 * r / 1000 }'
}

# tun_drops: packets the TUN device in A dropped on the main RTT's link
# before the emulator read them (counters.txt), empty where not recorded.
tun_drops() {
	awk -v r="rtt $MAIN_RTT:" '$0 == r { p = 1; next } /^rtt / { p = 0 }
	    p && /^tun tx_dropped:/ { sub(/,/, "", $4); print $4 }' "$RAW/counters.txt"
}

# emu_drops: drop-tail drops in the emulator's queue, A to B, main RTT.
emu_drops() {
	awk -v r="rtt $MAIN_RTT:" '$0 == r { p = 1; next } /^rtt / { p = 0 }
	    p && /^delayline a>b:/ { for (i = 1; i < NF; i++) if ($i == "drops") print $(i + 1) }' \
	    "$RAW/counters.txt"
}

ceiling() {		# ceiling WINDOW_BYTES RTT_MS
	awk -v w="$1" -v r="$2" -v l="$LINK_MBPS" 'BEGIN { c = w * 8 / (r / 1000) / 1e6; if (c > l) c = l; printf "%.0f\n", c }'
}

short_label() {		# for the x axis of the rows plot
	case $1 in
	default) echo "default <6.16" ;;
	k616) echo "default 6.16+" ;;
	tuned) echo "tcptune" ;;
	*) echo "${1%m} MiB" ;;
	esac
}

section_plot_rows() {
	local id label
	: >"$RAW/rows.dat"
	while IFS='|' read -r id label _ <&3; do
		printf '"%s" %s\n' "$(short_label "$id")" "$(median_of "$MAIN_RTT" "$id" 1)" >>"$RAW/rows.dat"
	done 3<<EOF
$ROWS
EOF
	gnuplot -e "dat='$RAW/rows.dat'; out='$OUT/throughput-rows.png'; link=$LINK_MBPS; rtt=$MAIN_RTT" \
	    "$here/rows.gp" || return 1
	echo "![one stream at $MAIN_RTT ms, per row](throughput-rows.png)"
	echo
}

report() {
	echo "## Throughput: one TCP stream on an emulated long fat path"
	echo
	echo "Two network namespaces joined by an emulated link of $LINK_MBPS Mbit/s with a"
	echo "$MAIN_RTT ms round trip and a drop-tail queue of one bandwidth-delay product"
	echo "($((LINK * MAIN_RTT / 8000)) bytes), iperf3 from A to B, congestion control $CC."
	[ "$QUICK" -eq 1 ] && echo "**Quick run (--quick): one short run per row, not a measurement.**"
	echo
	section_summary
	emulator_text
	echo
	section_rows
	section_plot_rows
	section_parallel
	section_advise
	advise_why
	section_sweep || return 1
	# measure_iperf.sh's table, where the run made one (not --quick)
	[ ! -s "$OUT/measure-iperf.md" ] || cat "$OUT/measure-iperf.md"
	machine_text
}

emulator_text() {
	if [ "$TB_EMU" = netem ]; then
		echo "Emulator: \`tc netem\` on a veth pair (delay RTT/2, rate and queue limit each way)."
		return
	fi
	echo "Emulator: this kernel has no \`sch_netem\`, so the link is"
	echo "\`bench/throughput/delayline\`: one process holding a TUN device in each"
	echo "namespace, forwarding each direction through a FIFO with a one-way delay of"
	echo "RTT/2, a serialisation rate (departure = max(now, last departure) + length"
	echo "× 8 / rate) and a drop-tail byte limit of one BDP. MTU $MTU (real-size"
	echo "packets: the emulator keeps up, see the parallel streams below)."
	echo "Buffers are set in both namespaces (\`ip netns exec NS sysctl -w"
	echo "net.ipv4.tcp_rmem/tcp_wmem\`; per namespace since Linux 4.15); the"
	echo "\"kernel default before 6.16\" row sets the documented defaults explicitly"
	echo "(tcp_rmem 4096 131072 6291456, tcp_wmem 4096 16384 4194304), since a new"
	echo "namespace copies the host's values and this kernel ($(uname -r)) ships"
	echo "tcp_rmem[2] = 32 MiB. The tuned row is the real tcptuned started in both"
	echo "namespaces on \`etc/tcptune.conf.linux\`; the run waits until"
	echo "\`tcptunectl status\` shows both net.ipv4 keys in force. net.core.rmem_max and"
	echo "wmem_max are global and refused inside a namespace (reported by tcptuned, as"
	echo "expected); they do not bound autotuned buffers."
}

# Why a prediction is off by more than ADVISE_TOL %: advise gives one stream a
# window of a share of each buffer (advise_model_words, from
# tools/advise/advise_model.c); set that against what the kernel did, from
# the sender's ss samples.
advise_why() {
	local id pred pw med diff lim any=0
	while read -r id pred pw med diff lim <&3; do
		awk -v d="$diff" -v tol="$ADVISE_TOL" 'BEGIN { exit !(d == "nan" || d > tol || d < -tol) }' || continue
		[ "$any" -eq 1 ] || { echo "Where the prediction is off by more than $ADVISE_TOL %:"; echo; any=1; }
		why_row "$id" "$pred" "$pw" "$med" "$diff" "$lim"
	done 3<"$RAW/advise.dat"
	[ "$any" -eq 0 ] || echo
}

why_row() {		# why_row ID PRED WINDOW MEDIAN DIFF LIMITED_BY
	local rmem wmem wnd fly
	rmem=$(row_rmem "$1" | awk '{ print $NF }')
	wmem=$(row_wmem "$1" | awk '{ print $NF }')
	wnd=$(ss_stat "$MAIN_RTT" "$1" 1 wnd)
	fly=$(awk -v m="$4" -v r="$MAIN_RTT" 'BEGIN { print m * 1e6 / 8 * r / 1000 }')
	awk -v label="$(row_label "$1")" -v pred="$2" -v pw="$3" -v med="$4" \
	    -v diff="$5" -v lim="$6" -v rmem="$rmem" -v wmem="$wmem" -v wnd="$wnd" \
	    -v fly="$fly" -v rw="$(ss_stat "$MAIN_RTT" "$1" 1 rwnd)" \
	    -v rtx="$(median_of "$MAIN_RTT" "$1" 1 6)" -v qd="$(emu_drops)" \
	    -v td="$(tun_drops)" \
	    -v model="$(advise_model_words)" \
	    -v rr="$(advise_ratio receive_window_per_buffer_byte)" \
	    -v sr="$(advise_ratio send_window_per_buffer_byte)" \
	    -v p4="$(median_of "$MAIN_RTT" default 4)" \
	    -v sb="$(ss_stat "$MAIN_RTT" "$1" 1 sndbuf)" 'BEGIN { M = 1048576
	    printf "- %s: predicted %s Mbit/s, measured %s (%s %%). ", label, pred, med, diff
	    printf "advise gives one stream %.2f MiB (%s, held by %s); ", pw / M, model, lim
	    printf "the measured stream kept %.2f MiB in flight (median rate x RTT), B offered %.2f MiB ", fly / M, wnd / M
	    printf "(%.3f of tcp_rmem[2]), and ss shows it limited by the receive window %s %% ", wnd / rmem, rw
	    printf "and by the send buffer %s %% of the time. ", sb
	    if (lim == "net.ipv4.tcp_wmem")
		printf "The assumption that fails is on the send side: advise expects tcp_wmem[2] x %.3f = %.1f MiB in flight (a send buffer held at its ceiling: the writer is woken once a third of it is free, so 2/3 to all of it is queued, 5/6 on average), but this kernel kept %.2f of tcp_wmem[2] in flight.", sr, wmem * sr / M, fly / wmem
	    else if (lim == "net.ipv4.tcp_rmem" && wnd / rmem - rr < 0.02 && rr - wnd / rmem < 0.02)
		printf "The window matched the model (%.3f of tcp_rmem[2] offered, %.3f planned); the stream did not fill it: %.2f MiB in flight of %.2f offered, on a path where four parallel streams carried %s Mbit/s in this run (the delay line, a user-space process, on the busy machine): the window held it only part of the time (above), the path the rest.", wnd / rmem, rr, fly / M, wnd / M, p4
	    else if (lim == "net.ipv4.tcp_rmem")
		printf "The assumption that fails is on the receive side: advise plans for %.3f of tcp_rmem[2] as window, the kernel offered %.3f of it (scaling_ratio %.0f/256).", rr, wnd / rmem, wnd / rmem * 256
	    else
		printf "No buffer holds this row, so advise predicts the link; what held the stream was loss: %s retransmits (median of the runs), with %s drops in the emulator'"'"'s queue and %s packets dropped by the TUN device before the emulator read them (counters above, all runs at this RTT), while the shared CPUs were busy.", rtx, qd == "" ? "no count of" : qd, td == "" ? "no count of" : td
	    print "" }'
}

machine_text() {
	echo "### How this was measured"
	echo
	echo "- Machine: $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), Linux $(uname -r), shared with other jobs; $START; run took ${ELAPSED} s."
	[ -z "${LOADS:-}" ] || echo "- Load average (1 min) while it ran: $LOADS."
	echo "- Emulator: $TB_EMU; link $LINK_MBPS Mbit/s, MTU $MTU, queue 1 BDP per RTT; round trip measured by TCP connects (\`tcptunectl advise --host\`)."
	echo "- iperf3 $(iperf3 --version | awk 'NR == 1 { print $2 }'), client in A, one server in B for all runs of a link; $RUNS run(s) per row, median; \`-t\` / \`-O\` (omitted slow start) by RTT: $(for r in $SWEEP; do printf '%s ms %s; ' "$r" "$(iperf_times "$r" | awk '{ print "-t " $1 " -O " $2 }')"; done)congestion control \`$CC\` (\`-C\`; the host's own is $(sysctl -n net.ipv4.tcp_congestion_control))."
	echo "- Command: \`sudo bench/throughput/run.sh$([ "$QUICK" -eq 1 ] && echo ' --quick') OUTDIR\` (as \`make bench\` runs it); raw iperf3 JSON, ss samples, tcptuned logs and emulator counters in OUTDIR/throughput-raw/."
	echo
}
