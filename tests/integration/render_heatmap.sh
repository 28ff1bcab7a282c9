#!/usr/bin/env bash
# mixprof --heatmap DIR: 10 ms buckets; DIR/samples.timed holds every
# sample of the run (the same stacks and counts as the folded output of
# the same run, which --tiers keeps tiered as the graphs are: folded
# text's default writes _[0]/_[1] as _[j]), each at its bucket's start
# in ms, and DIR/heatmap.html is one self-contained page holding those
# samples.
. "$(dirname "$0")/../lib/common.sh"

D=$TMPD/heat
"$MIXPROF" -F 499 --tiers --heatmap "$D" -o "$TMPD/run.folded" -- \
	java -cp "$SAMPLES" Warmup 3 > /dev/null 2> "$TMPD/err" ||
	die "$(cat "$TMPD/err")"
cat "$TMPD/err"
T=$D/samples.timed
head -1 "$T" | grep -Eq '^# mixprof-timed v1 bucket_ms=10 start_ns=[0-9]+$' ||
	die "header: $(head -1 "$T")"
awk '!/^#/ { if ($1 % 10) { print "offset " $1; bad = 1 }
	if ($1 > 30000) { print "offset " $1 " past the run"; bad = 1 } }
	END { exit bad }' "$T" || die "offsets are not bucket starts"
# the same stacks with the same counts as the folded output
awk '!/^#/ { $1 = ""; n = $NF; $NF = ""; sub(/^ /, ""); sub(/ $/, ""); s[$0] += n }
	END { for (k in s) print k " " s[k] }' "$T" | LC_ALL=C sort > "$TMPD/t.folded"
LC_ALL=C sort "$TMPD/run.folded" > "$TMPD/r.folded"
cmp -s "$TMPD/t.folded" "$TMPD/r.folded" ||
	die "timed stacks differ from the folded output: $(diff "$TMPD/t.folded" "$TMPD/r.folded" | head -5)"
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMPD/run.folded")
written=$(sed -n 's/.* \([0-9]*\) written$/\1/p' "$TMPD/err")
[ "$total" = "$written" ] && [ "$total" -gt 300 ] || die "$total samples, wrote $written"
# one line per (bucket, stack)
dups=$(awk '!/^#/ { $NF = ""; print }' "$T" | sort | uniq -d | wc -l)
[ "$dups" -eq 0 ] || die "$dups (bucket, stack) pairs on more than one line"

H=$D/heatmap.html
[ -s "$H" ] || die "no heatmap.html"
! grep -Eiq '<script[^>]* src=|<link |https?://|url\(' "$H" || die "heatmap.html is not self-contained"
node -e '
	const t = require("fs").readFileSync(process.argv[1], "utf8");
	const m = /<script type="application\/json" id="hm-data">([^]*?)<\/script>/.exec(t);
	const D = JSON.parse(m[1]);
	let s = 0;
	for (let i = 0; i < D.samples.length; i += 3) s += D.samples[i + 2];
	if (D.bucket_ms !== 10 || D.total !== +process.argv[2] || s !== D.total) {
		console.error("page: bucket_ms " + D.bucket_ms + ", total " + D.total + ", samples " + s);
		process.exit(1);
	}' "$H" "$total" || die "heatmap.html does not hold the run's samples"

# the heat map's buckets: slices must be multiples, --bucket-ms must agree
"$MIXPROF" --heatmap "$D" -i 0.015 -o "$TMPD/s" 1 2> "$TMPD/err2" &&
	die "-i 0.015 accepted with --heatmap"
grep -q 'multiple of the 10 ms buckets' "$TMPD/err2" || die "error: $(cat "$TMPD/err2")"
"$MIXPROF" --heatmap "$D" --bucket-ms 100 1 2> "$TMPD/err3" &&
	die "--bucket-ms 100 accepted with --heatmap"
grep -q -- '--heatmap counts in 10 ms buckets' "$TMPD/err3" || die "error: $(cat "$TMPD/err3")"
echo ok
