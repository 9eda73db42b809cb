#!/bin/bash
# bench/plot.sh DAT PNG [SUBTITLE] -- the results plot: speed relative to heap,
# one cluster of bars a measurement (report.sh writes DAT; rerun by hand to
# redraw a committed result).
set -uo pipefail
dat=$1 png=$2 sub=${3:-}
gnuplot <<GP
set terminal pngcairo size 1100,600 font "sans,10"
set output "$png"
set title "labelheap and RLS, speed relative to heap (1 = heap; higher is better)\\n$sub"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set datafile missing "-"
set datafile separator "\t"
set yrange [0:1.5]
set ytics 0.25
set grid ytics
set key top right
set bmargin 8
set xtics rotate by -20 noenhanced
set arrow from graph 0, first 0.95 to graph 1, first 0.95 nohead dt 2 lc rgb "red"
set label "0.95" at graph 1.01, first 0.95
plot for [c=2:5] "$dat" using c:xtic(1) title columnheader(c)
GP
