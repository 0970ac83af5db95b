# bench/daemon/plot.gp: the daemon-cost plots, from the data run.sh writes.
#   gnuplot -e "out='OUTDIR'" bench/daemon/plot.gp
# OUTDIR/status-latency.dat: "clients p50_us p99_us" lines, in two blocks
# (two blank lines apart): connection kept, then a new one each request;
# OUTDIR/correction.dat: one correction latency (ms) a line.

set terminal pngcairo size 800,480 noenhanced font ",11"
set grid

set output out."/bench-status-latency.png"
set title "tcptuned: status round trip by number of concurrent clients"
set xlabel "concurrent clients (back to back)"
set ylabel "latency, ms"
set logscale x 2
set logscale y 10
set xtics (1, 16, 64)
set key top left
set xrange [0.8:80]
plot out."/status-latency.dat" index 0 using 1:($2/1000) \
	with linespoints lw 2 pt 7 title "p50, connection kept", \
     "" index 0 using 1:($3/1000) \
	with linespoints lw 2 pt 5 title "p99, connection kept", \
     "" index 1 using 1:($2/1000) \
	with linespoints lw 1 dt 2 pt 6 title "p50, new connection each", \
     "" index 1 using 1:($3/1000) \
	with linespoints lw 1 dt 2 pt 4 title "p99, new connection each", \
     1 with lines lc rgb "red" dt 3 title "target p99 at 64 clients: 1 ms"

unset logscale
unset xtics
set xtics auto
set output out."/bench-correction.png"
set title "tcptuned: drift correction latency, CheckInterval 1 s"
set xlabel "time from the outside write to the revert, ms"
set ylabel "samples"
set xrange [0:1100]
set yrange [0:*]
set style fill solid 0.6 border -1
binw = 50
bin(x) = binw * floor(x / binw) + binw / 2.0
set arrow from 1050, graph 0 to 1050, graph 1 nohead lc rgb "red" dt 3
set label "target 1050 ms" at 1040, graph 0.95 right textcolor rgb "red"
plot out."/correction.dat" using (bin($1)):(1.0) smooth frequency \
	with boxes lc rgb "#4477aa" title "samples (50 ms bins)"
