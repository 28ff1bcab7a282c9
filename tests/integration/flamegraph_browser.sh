#!/usr/bin/env bash
# The pages in headless chromium (tests/browser/*.mjs through
# playwright-core): zoom, reset, search, montage navigation, heat map
# selection, and 100k-line graphs that load and zoom (their times are
# printed, never asserted). Screenshots go to
# $BUILD/screenshots/ for a human to look at.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/browser.sh"
node "$B/fixtures.mjs" "$TMPD"
M=$MIXPROF
$M flamegraph "$TMPD/mixprof.folded" > "$TMPD/g.svg" 2>/dev/null
$M flamegraph --html "$TMPD/mixprof.folded" > "$TMPD/g.html" 2>/dev/null
node "$B/gen_folded.mjs" 100000 > "$TMPD/big.folded"
$M flamegraph --html "$TMPD/big.folded" > "$TMPD/100k.html"
$M flamegraph --html --minwidth 0 "$TMPD/big.folded" > "$TMPD/100k-all.html"
$M flamegraph "$TMPD/big.folded" > "$TMPD/100k.svg"
$M montage "$TMPD/slices"
$M heatmap "$TMPD/timed.txt" > "$TMPD/heat.html"
# a hand-made file with an absurd offset: the page must survive it
printf '0 main;a 5\n1500 main;b 3\n18446744073709551000 main;c 7\n' \
	> "$TMPD/absurd.txt"
$M heatmap "$TMPD/absurd.txt" > "$TMPD/absurd.html" ||
	die "heatmap refused the absurd offset"
status=0
# one chromium for every page: a start of it costs seconds
node "$B/pages.mjs" flame_svg.mjs "$TMPD/g.svg" \
	-- flame_html.mjs "$TMPD/g.html" "$TMPD/100k.html" "$TMPD/100k-all.html" "$TMPD/100k.svg" \
	-- montage.mjs "$TMPD/slices/index.html" \
	-- heatmap.mjs "$TMPD/heat.html" "$TMPD/timed.txt" \
	-- heatmap_absurd.mjs "$TMPD/absurd.html" || status=1
note "screenshots in $BUILD/screenshots"
[ $status -eq 0 ] || die "browser checks failed"
echo PASS
