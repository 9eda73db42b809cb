# report.sh (sourced by run.sh) -- $RAW (part, measurement, variant, value,
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
	heap:*|*:"rows visible"*|*", pages") ;;
	labelheap:pgbench*|labelheap-half:pgbench*) echo "≥ 0.97" ;;
	labelheap:count*) echo "≥ 0.97" ;;
	labelheap:*"index lookups"*) echo "≥ 0.95" ;;
	labelheap:COPY*) echo "≥ 0.93" ;;
	labelheap:UPDATE*) echo "≥ 0.90" ;;
	esac
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
		if [ -n "$h" ] && [ "$kind" != info ] && [ "$var" != heap ]; then
			r=$(awk -v h="$h" -v x="$med" -v k="$kind" 'BEGIN { printf "%.3f", (k == "higher") ? x / h : h / x }')
		fi
		echo "| $m | $var | $(fmt "$med") | $r | $(target "$m" "$var") | $vals |"
	done <"$WORK/medians.tsv"
	echo
	# the filtered scan against RLS doing the same job (target: ≥ 2x)
	awk -F'\t' '$2 == "labelheap-half" && $3 != "info" && $1 !~ /, pages$/ {lh[$1] = $4; k[$1] = $3}
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
			printf "- %s: with a label summary %.3f× the time without\n", m, t[m "|copy-summary"] / t[m "|copy-plain"] }' "$WORK/medians.tsv" | sort
	echo
	echo "Variants: *heap* plain tables; *labelheap* every row labeled, the session may read all of them;"
	echo "*-half* the session may read about half the rows (Debian's MLS policy: rows above its level are hidden);"
	echo "*labelheap-nosum* the labelheap table read without its label summary (\`labelam.skip_ranges\` and \`labelam.pass_ranges\` off: every row's label is read);"
	echo "*rls* heap with a label column (secid) and row-level security policies calling \`labelam.check_row_access(secid, perms)\`."
	echo "\"× heap\" is speed relative to heap (tps ratio, or heap's time / the variant's time): above 1 is faster."
	echo "\"..., pages\": the workload's table (main fork and TOAST) after loading; its \"× heap\" is heap's pages / the variant's, the bound 8 label bytes a row set where bytes written or read dominate."
	[ -s "$NOTES" ] && { echo; echo "Notes:"; echo; cat "$NOTES"; }
} >"$BENCH_OUT/results.md"

# the plot: speed relative to heap, one cluster of bars a measurement
awk -F'\t' -v OFS='\t' '
	$3 == "info" || $1 ~ /, pages$/ { next }
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
