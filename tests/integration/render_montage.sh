#!/usr/bin/env bash
# mixprof -i 1 --montage DIR -p PID 3.5: the slices tile the run (four,
# the last 0.5 s one partial), each has its folded file and flame graph,
# and DIR/index.html lists them in time order with their labels, samples
# and links, under the --title given.
. "$(dirname "$0")/../lib/common.sh"

D=$TMPD/warm
java -XX:+PreserveFramePointer -cp "$SAMPLES" Warmup 30 > /dev/null &
PIDS_TO_KILL+=($!)
jpid=$!
sleep 1
"$MIXPROF" -F 499 -i 1 --montage "$D" --title 'warmup <test>' -p "$jpid" 3.5 \
	2> "$TMPD/err" || die "$(cat "$TMPD/err")"
cat "$TMPD/err"
cat "$D/slices.tsv"
written=$(sed -n 's/.* \([0-9]*\) written$/\1/p' "$TMPD/err")
awk -F'\t' -v dir="$D" -v total="$written" '
/^#/ { next }
{
	if ($1 != n) { print "index " $1 " want " n; bad = 1 }
	if (n && $2 != prev) { print "slice " n " does not start where " n - 1 " ended"; bad = 1 }
	want = n < 3 ? 1000000000 : 500000000
	if (n < 3 && $3 - $2 != want) { print "slice " n " is " $3 - $2 " ns"; bad = 1 }
	# the last: from 3 s to the stop, which comes at 3.5 s or after it
	# (how late depends on the load: once 214 ms), shorter than a slice
	if (n == 3 && ($3 - $2 < want || $3 - $2 >= 1000000000)) { print "last slice is " $3 - $2 " ns"; bad = 1 }
	if ($6 != (n == 3)) { print "slice " n " partial=" $6; bad = 1 }
	s = 0
	f = dir "/" $5
	while ((getline line < f) > 0) { k = split(line, w, " "); s += w[k] }
	close(f)
	if (s != $4) { print f ": " s " samples, tsv says " $4; bad = 1 }
	prev = $3; sum += $4; n++
}
END {
	if (n != 4) { print n " slices, want 4"; bad = 1 }
	if (sum != total) { print "slices hold " sum ", run wrote " total; bad = 1 }
	exit bad
}' "$D/slices.tsv" || die "slices do not tile the run"
[ "$written" -gt 300 ] || die "only $written samples"

idx=$D/index.html
for i in 0 1 2 3; do
	xmllint --noout "$D/slice-000$i.svg" || die "slice $i svg"
	grep -q "<text id=\"subtitle\"[^>]*>slice $i: " "$D/slice-000$i.svg" ||
		die "slice $i subtitle"
	grep -q '<text id="title"[^>]*>warmup &lt;test&gt;<' "$D/slice-000$i.svg" ||
		die "slice $i title"
done
labels=$(grep -o '<h2>[^<]*' "$idx" | sed 's/<h2>//' | tr '\n' '|')
[[ "$labels" =~ ^0-1\ s\|1-2\ s\|2-3\ s\|3-3\.[5-7][0-9]?\ s\ \|$ ]] || die "labels: $labels"
grep -q '<span class="mt-partial">(partial)</span>' "$idx" || die "partial mark"
links=$(grep -o 'class="mt-thumb" href="[^"]*"' "$idx" | sed 's/.*href="//; s/"//' | tr '\n' ' ')
[ "$links" = "slice-0000.svg slice-0001.svg slice-0002.svg slice-0003.svg " ] ||
	die "links: $links"
cards=$(grep -o 'data-samples="[0-9]*"' "$idx" | tr -dc '0-9\n' | tr '\n' ' ')
tsv=$(awk -F'\t' '!/^#/ { printf "%s ", $4 }' "$D/slices.tsv")
[ "$cards" = "$tsv" ] || die "card samples '$cards', slices '$tsv'"
grep -q '<h1>Warmup montage: warmup &lt;test&gt;</h1>' "$idx" || die "index title"
! grep -q 'heatmap.html' "$idx" || die "links a heat map that was not asked for"

# --montage takes no -o; a clear error, before profiling
if "$MIXPROF" --montage "$D" -o "$TMPD/x" 1 2> "$TMPD/err2"; then
	die "--montage with -o accepted"
fi
grep -q 'leave out -o' "$TMPD/err2" || die "error: $(cat "$TMPD/err2")"
echo ok
