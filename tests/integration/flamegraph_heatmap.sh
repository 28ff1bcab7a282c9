#!/usr/bin/env bash
# mixprof heatmap: one self-contained page with the stacks and samples of
# the timed file, totals intact.
. "$(dirname "$0")/../lib/common.sh"
node "$TOP/tests/browser/fixtures.mjs" "$TMPD"
"$MIXPROF" heatmap --title 'Heat <T>' "$TMPD/timed.txt" > "$TMPD/heat.html" || die "heatmap failed"
grep -q '<title>Heat &lt;T&gt;</title>' "$TMPD/heat.html" || die "title"
grep -q '<script src\|<link ' "$TMPD/heat.html" && die "external resources"
want=$(awk '!/^#/ { s += $NF } END { print s }' "$TMPD/timed.txt")
grep -q "\"total\":$want," "$TMPD/heat.html" || die "total is not $want"
grep -q '"bucket_ms":10,"start_ns":5000000000' "$TMPD/heat.html" || die "header"
"$MIXPROF" heatmap - < "$TMPD/timed.txt" > "$TMPD/heat2.html"
cmp -s "$TMPD/heat.html" "$TMPD/heat2.html" && die "title option ignored?"
printf '10 a;b 1\nbad line\n' | "$MIXPROF" heatmap > /dev/null 2> "$TMPD/err" || die "one bad line is fatal"
grep -qx 'mixprof: <stdin>: 1 line skipped (bad offset, first at line 2)' "$TMPD/err" || die "$(cat "$TMPD/err")"
echo PASS
