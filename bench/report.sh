# bench/report.sh (sourced by run.sh) -- $RAW (part, measurement, variant, value,
# kind) into $BENCH_OUT/results.md (medians, ratios against heap, machine
# and settings, notes) and $BENCH_OUT/results.png (the ratios, gnuplot).
# kind: "higher"/"lower" is better (ratios are speed relative to heap, so
# > 1 is faster for both), "info" is a plain figure.

# medians: measurement \t variant \t kind \t median \t samples
awk -F'\t' '
	{ k = $2 "\t" $3; if (!(k in kind)) { order[++n] = k; kind[k] = $5 } v[k] = v[k] " " $4 }
	END { for (i = 1; i <= n; i++) { k = order[i]; print k "\t" kind[k] "\t" v[k] } }' "$RAW" |
while IFS=$'\t' read -r m var kind vals; do
	printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$var" "$kind" "$(median $vals)" "$(echo $vals)"
done >"$WORK/medians.tsv"

target() {	# measurement variant (issue 13's targets)
	case "$2:$1" in
	heap:*|*:"rows visible"*|*", pages"|*", blocks read"|*", WAL (MB)") ;;
	labelheap:pgbench*|labelheap-half:pgbench*) echo "≥ 0.97" ;;
	labelheap:count*) echo "≥ 0.97" ;;
	labelheap:*"index lookups"*) echo "≥ 0.95" ;;
	labelheap:COPY*) echo "≥ 0.93" ;;
	labelheap:UPDATE*) echo "≥ 0.90" ;;
	esac
}
# paired_rounds RAW: measurement \t variant \t per-round ratios \t their
# median, for every variant and measurement heap has as many runs of
paired_rounds() {
	awk -F'\t' '$5 != "info" {
		k = $2 SUBSEP $3; n[k]++; v[k, n[k]] = $4; kind[$2] = $5
		if (!(k in seen)) { seen[k] = 1; order[++o] = k }
	}
	END {
		for (i = 1; i <= o; i++) {
			split(order[i], mv, SUBSEP); m = mv[1]; var = mv[2]; h = m SUBSEP "heap"
			if (var == "heap" || !(h in n) || n[h] != n[order[i]] || n[h] < 2) continue
			list = ""; c = 0
			for (j = 1; j <= n[h]; j++) {
				if (v[h, j] <= 0 || v[order[i], j] <= 0) { c = 0; break }
				r[++c] = (kind[m] == "higher") ? v[order[i], j] / v[h, j] : v[h, j] / v[order[i], j]
				list = list sprintf("%s%.3f", (j > 1) ? " " : "", r[c])
			}
			if (c == 0) continue
			for (a = 2; a <= c; a++) for (b = a; b > 1 && r[b - 1] > r[b]; b--) { t = r[b]; r[b] = r[b - 1]; r[b - 1] = t }
			printf "%s\t%s\t%s\t%.3f\n", m, var, list, (c % 2) ? r[(c + 1) / 2] : (r[c / 2] + r[c / 2 + 1]) / 2
		}
	}' "$1"
}
fmt() { awk -v x="$1" 'BEGIN { if (x >= 100) printf "%.0f", x; else if (x >= 1) printf "%.2f", x; else printf "%.3f", x }'; }

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
{
	echo "### labelheap against heap and RLS ($(date -u '+%Y-%m-%d %H:%M UTC'))"
	echo
	echo "Machine: $(nproc) cores ($cpu), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start ${LOAD_START:-?}, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work)."
	echo "PostgreSQL $("$PGBIN/postgres" -V | awk '{print $3}'), labelam $(git -C "$LABELAM_TOP" rev-parse --short HEAD 2>/dev/null)$(git -C "$LABELAM_TOP" diff --quiet HEAD 2>/dev/null || echo '+changes'); one throwaway cluster for every variant:"
	echo "$(printf '%s, ' "${BENCH_CONF[@]}" | sed 's/, $//')."
	echo "pgbench: scale $BENCH_SCALE, $BENCH_CLIENTS clients, $BENCH_SECONDS s a run; scans: $BENCH_ROWS rows, 64 labels; each figure the median of $BENCH_ROUNDS runs, variants alternating. Whole run: $((ELAPSED / 60)) min $((ELAPSED % 60)) s."
	echo
	echo "| measurement | variant | median | × heap | target | runs |"
	echo "|---|---|---|---|---|---|"
	while IFS=$'\t' read -r m var kind med vals; do
		h=$(awk -F'\t' -v m="$m" '$1 == m && $2 == "heap" {print $4}' "$WORK/medians.tsv")
		r=
		# a -half variant reads other rows than heap: its blocks and WAL
		# are no bound on its speed, so they get no ratio
		case "$var:$m" in *-half:*", blocks read"|*-half:*", WAL (MB)") h= ;; esac
		if [ -n "$h" ] && [ "$kind" != info ] && [ "$var" != heap ] && [ "$med" != 0 ]; then
			r=$(awk -v h="$h" -v x="$med" -v k="$kind" 'BEGIN { printf "%.3f", (k == "higher") ? x / h : h / x }')
		fi
		echo "| $m | $var | $(fmt "$med") | $r | $(target "$m" "$var") | $vals |"
	done <"$WORK/medians.tsv"
	echo
	# the filtered scan against RLS doing the same job (target: ≥ 2x)
	awk -F'\t' '$2 == "labelheap-half" && $3 != "info" && $1 !~ /, (pages|blocks read|WAL \(MB\))$/ {lh[$1] = $4; k[$1] = $3}
		$2 == "rls-half" {rls[$1] = $4}
		END { for (m in lh) if (m in rls) printf "- %s: labelheap-half is %.2f× as fast as rls-half%s\n", m,
			(k[m] == "higher") ? lh[m] / rls[m] : rls[m] / lh[m], (m ~ /^count/) ? " (target ≥ 3)" : "" }' "$WORK/medians.tsv" | sort
	# label summaries (parts/skip.sh): clustered against RLS and against
	# reading every block, interleaved against reading every block
	awk -F'\t' '$1 ~ /^1%-readable/ {t[$1 "|" $2] = $4; ms[$1] = 1}
		END { for (m in ms) {
			c = t[m "|clustered"]; i = t[m "|interleaved"]
			if (c > 0) printf "- %s: clustered is %.1f× as fast as rls-func (target ≥ 20), %.1f× rls-plain (≥ 20), %.1f× clustered-noskip (≥ 10)\n", m,
				t[m "|rls-func"] / c, t[m "|rls-plain"] / c, t[m "|clustered-noskip"] / c
			if (i > 0) printf "- %s: interleaved takes %.3f× the time of interleaved-noskip (target ≤ 1.02), %.3f× clustered-noskip (≤ 1.05)\n", m,
				i / t[m "|interleaved-noskip"], i / t[m "|clustered-noskip"]
		} }' "$WORK/medians.tsv" | sort
	awk -F'\t' '$1 ~ /^COPY of .* rows/ && $2 ~ /^copy-/ {t[$1 "|" $2] = $4; ms[$1] = 1}
		END { for (m in ms) if (t[m "|copy-plain"] > 0)
			printf "- %s: with a label summary %.3f× %s without\n", m, t[m "|copy-summary"] / t[m "|copy-plain"],
				(m ~ /WAL/) ? "the WAL" : (m ~ /CPU/) ? "the CPU" : "the time" }' "$WORK/medians.tsv" | sort
	# labelheap against heap whose rows are as wide (parts/scan.sh): what
	# labelam costs beyond its 8 bytes a row
	awk -F'\t' '($2 == "labelheap" || $2 == "heap-wide") && $1 !~ /, (pages|blocks read|WAL \(MB\))$/ { if ($3 != "info") { t[$1 "|" $2] = $4; k[$1] = $3 } }
		END { for (m in k) if ((m "|labelheap") in t && (m "|heap-wide") in t && t[m "|labelheap"] > 0 && t[m "|heap-wide"] > 0)
			printf "- %s: labelheap is %.3f× as fast as heap-wide (heap, rows as wide as labelheap'"'"'s)\n", m,
				(k[m] == "higher") ? t[m "|labelheap"] / t[m "|heap-wide"] : t[m "|heap-wide"] / t[m "|labelheap"] }' "$WORK/medians.tsv" | sort
	# round by round: each run of a variant against heap's run of the same
	# round (variants alternate within a round, so a pair shares the
	# machine's state of that minute): drift in the neighbours' load cancels
	# out of these, which the ratio of medians above does not
	paired_rounds "$RAW" | while IFS=$'\t' read -r m var ratios med; do
		t=$(target "$m" "$var")
		[ -n "$t" ] && echo "- $m, $var round by round: × heap $ratios (median $med; target $t)"
	done
	echo
	echo "Variants: *heap* plain tables; *heap-wide* heap whose rows carry 8 more bytes (an int8 column), as wide as labelheap's; *labelheap* every row labeled, the session may read all of them;"
	echo "*-half* the session may read about half the rows (Debian's MLS policy: rows above its level are hidden);"
	echo "*labelheap-nosum* the labelheap table read without its label summary (\`labelam.skip_ranges\` and \`labelam.pass_ranges\` off: every row's label is read);"
	echo "*rls* heap with a label column (secid) and row-level security policies calling \`labelam.check_row_access(secid, perms)\`."
	echo "\"× heap\" is speed relative to heap (tps ratio, or heap's time / the variant's time): above 1 is faster."
	echo "\"..., pages\": the workload's table (main fork and TOAST) after loading; its \"× heap\" is heap's pages / the variant's, the bound 8 label bytes a row set where bytes written or read dominate."
	echo "\"..., blocks read\": blocks of the table and its indexes one run read from outside shared buffers (the OS cache, here); \"..., WAL (MB)\": WAL one run wrote; \"..., backend CPU (s)\": CPU time of the run's backend (/proc), which neighbours disturb less than wall clock."
	[ -s "$NOTES" ] && { echo; echo "Notes:"; echo; cat "$NOTES"; }
} >"$BENCH_OUT/results.md"

# the plot: speed relative to heap, one cluster of bars a measurement
awk -F'\t' -v OFS='\t' '
	$3 == "info" || $1 ~ /, (pages|blocks read|WAL \(MB\))$/ { next }
	$2 == "heap" { heap[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; ms[++n] = $1 } next }
	{ val[$1, $2] = $4; kind[$1] = $3; vs[$2] = 1 }
	END {
		split("labelheap labelheap-half rls rls-half", V, " ")
		printf "measurement"; for (j = 1; j <= 4; j++) printf "\t%s", V[j]; print ""
		for (i = 1; i <= n; i++) {
			m = ms[i]; name = m; sub(/ \(.*$/, "", name); gsub(/ /, "_", name)
			printf "%s", name
			for (j = 1; j <= 4; j++) {
				x = val[m, V[j]]
				if (x == "") printf "\t-"; else printf "\t%.3f", (kind[m] == "higher") ? x / heap[m] : heap[m] / x
			}
			print ""
		}
	}' "$WORK/medians.tsv" >"$BENCH_OUT/results.dat"
"$BENCH_DIR/plot.sh" "$BENCH_OUT/results.dat" "$BENCH_OUT/results.png" \
	"$(date -u +%Y-%m-%d), $(nproc) cores, median of $BENCH_ROUNDS" 2>"$WORK/gnuplot.log" ||
	note "gnuplot failed: $(head -3 "$WORK/gnuplot.log")"
cat "$BENCH_OUT/results.md"
