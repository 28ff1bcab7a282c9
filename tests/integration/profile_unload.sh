#!/usr/bin/env bash
# Time-aware names: Unload runs UnloadWorker00, 01... one per phase, each
# unloaded before the next, so compiled code addresses get reused. Each
# slice that lies inside a phase (by the times Unload logs, the same clock
# as slices.tsv) must name that phase's worker in >= 99% of its samples in
# compiled worker code.
. "$(dirname "$0")/../lib/common.sh"

dir=$TMPD/unload
"$MIXPROF" -F 999 -i 0.2 -o "$dir" -- \
	java -cp "$SAMPLES" Unload 8 1.5 >"$TMPD/phases" 2>"$TMPD/err" ||
	die "mixprof failed: $(cat "$TMPD/err")"
cat "$TMPD/err" "$TMPD/phases"
grep -q '^done' "$TMPD/phases" || die "Unload did not finish"
awk -v dir="$dir" '
FNR == NR { if ($1 == "phase") { name[$2] = $3; ps[$2] = $4; pe[$2] = $5; np++ } next }
/^#/ { next }
{
	split($0, t, "\t")
	for (p in name) if (t[2] >= ps[p] && t[3] <= pe[p]) break
	if (!(p in name) || t[2] < ps[p] || t[3] > pe[p]) next
	inside++
	f = dir "/" t[5]
	while ((getline line < f) > 0) {
		k = split(line, w, " "); n = w[k]
		if (line !~ /UnloadWorker[0-9][0-9]\.[a-zA-Z]+_\[[01ji]\]/) continue
		all += n
		if (index(line, name[p] ".")) right += n
		else if (wrong++ < 3) print "slice " t[1] " (" name[p] "): " substr(line, 1, 300)
	}
	close(f)
}
END {
	printf "%d phases, %d slices inside one, %d of %d worker samples named right\n", np, inside, right, all
	exit !(np == 8 && inside >= 8 && all >= 2000 && right >= 0.99 * all)
}' "$TMPD/phases" "$dir/slices.tsv" || die "worker names wrong"
echo ok
