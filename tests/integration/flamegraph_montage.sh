#!/usr/bin/env bash
# mixprof montage DIR: one graph per slice, index.html in time order with
# relative labels, the partial slice marked, samples and top self frames.
. "$(dirname "$0")/../lib/common.sh"
node "$TOP/tests/browser/fixtures.mjs" "$TMPD"
D=$TMPD/slices
"$MIXPROF" montage "$D" || die "montage failed"
for i in 0 1 2; do
	xmllint --noout "$D/slice-000$i.svg" || die "slice $i svg"
	node "$TOP/tests/browser/check_counts.mjs" "$D/slice-000$i.svg" "$D/slice-000$i.folded" ||
		die "slice $i counts"
done
idx=$D/index.html
labels=$(grep -o '<h2>[^<]*' "$idx" | sed 's/<h2>//' | tr '\n' '|')
[ "$labels" = "0-30 s|30-60 s|60-72.5 s |" ] || die "labels: $labels"
grep -q '60-72.5 s <span class="mt-partial">(partial)</span>' "$idx" || die "partial mark"
grep -q 'href="slice-0001.svg"' "$idx" || die "link to slice 1"
grep -q 'data-samples="150"' "$idx" || die "samples of slice 0"
grep -q '>60.0% Interpreter<' "$idx" || die "top frame of slice 0"
grep -q '>88.9% hash<' "$idx" || die "top frame of slice 2"
# same frame, same colour in every slice
cols=$(grep -o '<title>work_\[j\] ([^<]*</title><rect [^>]*fill="#[0-9a-f]*"' "$D"/slice-000[12].svg |
	sed 's/.*fill="//' | sort -u | wc -l)
[ "$cols" -eq 1 ] || die "work_[j] has $cols colours across slices"
# slices out of order in the table still come out in time order
( head -1 "$D/slices.tsv"; tail -n +2 "$D/slices.tsv" | tac ) > "$TMPD/t" && mv "$TMPD/t" "$D/slices.tsv"
"$MIXPROF" montage --html "$D"
[ -s "$D/slice-0000.html" ] || die "--html slices"
labels2=$(grep -o '<h2>[^<]*' "$idx" | sed 's/<h2>//' | tr '\n' '|')
[ "$labels2" = "$labels" ] || die "order: $labels2"
# an idle slice the profiler wrote no file for: an empty card, not an error
printf '3\t77500000000\t80000000000\t0\tslice-0003.folded\t0\n' >> "$D/slices.tsv"
"$MIXPROF" montage "$D" || die "0-sample slice without a file"
grep -q '<h2>72.5-75 s</h2>' "$idx" && grep -q 'data-samples="0"' "$idx" || die "empty slice card"
echo PASS
