#!/usr/bin/env bash
# -i cuts the run into slices that tile its time: consecutive, absolute
# CLOCK_MONOTONIC bounds, every sample in exactly one slice, the last one
# marked partial when the run ends inside it.
. "$(dirname "$0")/../lib/common.sh"

dir=$TMPD/slices
sh -c 'while :; do :; done' &	# some load; killed on exit
PIDS_TO_KILL+=($!)
t0=$(awk '{ print int($1 * 1e9) }' /proc/uptime)	# only a sanity bound
"$MIXPROF" -F 499 -i 0.5 -o "$dir" 3 2>"$TMPD/err" || die "$(cat "$TMPD/err")"
cat "$TMPD/err"
cat "$dir/slices.tsv"
total=$(sed -n 's/.* \([0-9]*\) written$/\1/p' "$TMPD/err")
# how long the run took by its own clock (0.1 s): 3 s asked, more on a
# loaded machine; the slices must cover that, whatever it was
secs=$(sed -n 's/.* samples in \([0-9.]*\) s .*/\1/p' "$TMPD/err")
[ -n "$secs" ] || die "no run length in the summary"
awk -F'\t' -v dir="$dir" -v total="$total" -v secs="$secs" '
/^#/ { next }
{
	if ($1 != n) { print "index " $1 " want " n; bad = 1 }
	if (n && $2 != prev) { print "slice " n " starts at " $2 ", previous ended at " prev; bad = 1 }
	if ($3 <= $2) { print "empty slice " n; bad = 1 }
	if ($6 == 1) partial++
	len[n + 0] = $3 - $2
	prev = $3; sum += $4; n++
	f = dir "/" $5
	s = 0
	while ((getline line < f) > 0) { k = split(line, w, " "); s += w[k] }
	close(f)
	if (s != $4) { print f ": " s " samples, tsv says " $4; bad = 1 }
}
function ceil(x) { return x == int(x) ? x : int(x) + 1 }
END {
	for (i = 0; i < n - 1; i++)
		if (len[i] != 500000000) { print "slice " i " is " len[i] " ns"; bad = 1 }
	lo = ceil((secs - 0.05) * 2); hi = ceil((secs + 0.05) * 2)
	if (n < lo || n > hi) { print n " slices for " secs " s"; bad = 1 }
	if (partial > 1) { print partial " partial slices"; bad = 1 }
	if (sum != total) { print "slices hold " sum " samples, run wrote " total; bad = 1 }
	printf "%d slices, %d samples\n", n, sum
	exit bad
}' "$dir/slices.tsv" || die "slices do not tile the run"
[ "$total" -gt 1000 ] || die "only $total samples"
echo ok
