# One stream vs round trip: medians and single runs of the kernel-default
# and tcptune rows, beside the window/RTT ceiling of each.
# Variables (gnuplot -e): dat (rtt default tuned), runs (rtt is_tuned
# mbit/s), out (PNG), link (Mbit/s), wdef, wtuned (window B offered,
# bytes), adef, atuned (window advise models, bytes).
set terminal pngcairo size 800,480 font ",10"
set output out
set title sprintf("One TCP stream, %d Mbit/s emulated link", link)
set xlabel "round trip (ms)"
set ylabel "Mbit/s"
set xrange [0:*]
set yrange [0:link * 1.1]
set key right center box opaque
set grid
set samples 400
wcap(w, r) = (w * 8 / (r / 1000.0) / 1e6 < link) ? w * 8 / (r / 1000.0) / 1e6 : link
plot link with lines dt 3 lc rgb "gray40" title "link rate", \
     wcap(wdef, x) with lines dt 2 lw 1.5 lc rgb "#d95f02" \
	title sprintf("ceiling, kernel default (window offered %.2f MiB)", wdef / 1048576.0), \
     wcap(adef, x) with lines dt 3 lw 1 lc rgb "#d95f02" \
	title sprintf("advise model, kernel default (%.1f MiB)", adef / 1048576.0), \
     wcap(wtuned, x) with lines dt 2 lw 1.5 lc rgb "#1b9e77" \
	title sprintf("ceiling, tcptune default (window offered %.0f MiB)", wtuned / 1048576.0), \
     runs using 1:($2 == 0 ? $3 : 1/0) with points pt 1 lc rgb "#d95f02" notitle, \
     runs using 1:($2 == 1 ? $3 : 1/0) with points pt 1 lc rgb "#1b9e77" notitle, \
     dat using 1:2 with linespoints pt 7 lw 2 lc rgb "#d95f02" \
	title "kernel default before 6.16 (median)", \
     dat using 1:3 with linespoints pt 7 lw 2 lc rgb "#1b9e77" \
	title "tcptune Linux default (median)"
