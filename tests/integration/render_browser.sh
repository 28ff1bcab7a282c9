#!/usr/bin/env bash
# The pages of a real run in headless chromium (tests/browser/run_pages.mjs):
# mixprof -i 1 --montage DIR --heatmap DIR -- java Warmup; a thumbnail
# click opens its slice's graph, and a range dragged on the heat map draws
# exactly the selected cells' samples. Screenshots: $BUILD/screenshots/.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/browser.sh"
D=$TMPD/run
"$MIXPROF" -F 499 -i 1 --montage "$D" --heatmap "$D" -- \
	java -cp "$SAMPLES" Warmup 3 > /dev/null 2> "$TMPD/err" ||
	die "$(cat "$TMPD/err")"
cat "$TMPD/err"
grep -q 'href="heatmap.html"' "$D/index.html" || die "the montage does not link the heat map"
node "$B/run_pages.mjs" "$D" || die "browser checks failed"
note "screenshots in $BUILD/screenshots (run-*.png)"
echo PASS
