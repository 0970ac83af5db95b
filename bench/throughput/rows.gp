# One stream at the main round trip, median per row, with the link rate.
# Variables (gnuplot -e): dat ("label" mbit/s), out (PNG), link, rtt.
set terminal pngcairo size 800,420 font ",10"
set output out
set title sprintf("One TCP stream at %d ms, %d Mbit/s link (median)", rtt, link)
set ylabel "Mbit/s"
set xlabel "tcp_rmem / tcp_wmem ceilings (both ends)" noenhanced
set yrange [0:link * 1.1]
set style fill solid 0.7 border -1
set boxwidth 0.6
set grid ytics
set xtics nomirror
unset key
plot dat using 0:2:xtic(1) with boxes lc rgb "#1b9e77", \
     dat using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8, \
     link with lines dt 3 lc rgb "gray40"
