#!/usr/bin/env bash
# mixprof flamegraph: every folded dialect renders to well-formed SVG and
# HTML whose frames hold exactly the input's counts (total and per frame),
# files merge, stdin works, options reach the output, and a 100k-line
# profile renders (its time is noted, never asserted).
. "$(dirname "$0")/../lib/common.sh"
node "$TOP/tests/browser/fixtures.mjs" "$TMPD"
check() { node "$TOP/tests/browser/check_counts.mjs" "$@" || die "counts: $*"; }

for f in mixprof asprof bcc perf; do
	"$MIXPROF" flamegraph --minwidth 0 "$TMPD/$f.folded" > "$TMPD/$f.svg" \
		2> "$TMPD/$f.err" || die "$f: flamegraph failed: $(cat "$TMPD/$f.err")"
	xmllint --noout "$TMPD/$f.svg" || die "$f.svg is not well-formed"
	check "$TMPD/$f.svg" "$TMPD/$f.folded"
	"$MIXPROF" flamegraph --html --minwidth 0 "$TMPD/$f.folded" \
		> "$TMPD/$f.html" 2>/dev/null || die "$f: --html failed"
	check "$TMPD/$f.html" "$TMPD/$f.folded"
done
# perf.folded has two bad lines: reported once, naming the file.
grep -qx "mixprof: $TMPD/perf.folded: 2 lines skipped (bad count, first at line 4)" \
	"$TMPD/perf.err" || die "skipped lines not reported: $(cat "$TMPD/perf.err")"
[ "$(wc -l < "$TMPD/perf.err")" -eq 1 ] || die "more than one line on stderr"

# Several files merge; stdin is read with - and with no file.
"$MIXPROF" flamegraph --minwidth 0 "$TMPD/mixprof.folded" "$TMPD/asprof.folded" \
	"$TMPD/bcc.folded" > "$TMPD/merged.svg"
check "$TMPD/merged.svg" "$TMPD/mixprof.folded" "$TMPD/asprof.folded" "$TMPD/bcc.folded"
"$MIXPROF" flamegraph --minwidth 0 < "$TMPD/mixprof.folded" > "$TMPD/stdin.svg"
check "$TMPD/stdin.svg" "$TMPD/mixprof.folded"
"$MIXPROF" flamegraph --minwidth 0 - < "$TMPD/asprof.folded" > "$TMPD/dash.svg"
check "$TMPD/dash.svg" "$TMPD/asprof.folded"

# Reversed stacks, icicle layout, titles, count name, palette.
"$MIXPROF" flamegraph --minwidth 0 --reverse "$TMPD/mixprof.folded" > "$TMPD/rev.svg"
REVERSE=1 check "$TMPD/rev.svg" "$TMPD/mixprof.folded"
"$MIXPROF" flamegraph --inverted --title 'T <1>' --subtitle S --countname ms \
	--width 800 -o "$TMPD/ice.svg" "$TMPD/mixprof.folded"
xmllint --noout "$TMPD/ice.svg"
grep -q '<text id="title" x="400" y="24">T &lt;1&gt;</text>' "$TMPD/ice.svg" || die "title"
grep -q '<text id="subtitle"' "$TMPD/ice.svg" || die "subtitle"
grep -q ' ms, ' "$TMPD/ice.svg" || die "countname"
grep -q 'width="800"' "$TMPD/ice.svg" || die "width"
# icicle: the root row (depth 0) is the top row
root_y=$(grep -o 'data-d="0"><title>[^<]*</title><rect x="[0-9.]*" y="[0-9]*"' "$TMPD/ice.svg" | sed 's/.*y="//; s/"//')
[ "$root_y" -eq 54 ] || die "icicle root at y=$root_y"
# java palette: JIT green, inlined aqua, kernel orange, C++ yellow
fill() { grep -o "<title>$1 ([^<]*</title><rect [^>]*fill=\"#[0-9a-f]*\"" "$TMPD/mixprof.svg" | head -1 | sed 's/.*fill="#//; s/"//'; }
for fr in 'com/acme/App.work_\[j\]:g' 'com/acme/App.hash_\[i\]:a' 'ksys_write_\[k\]:o' 'JavaThread::run:y' 'memcpy:r' '-:grey'; do
	c=$(fill "${fr%:*}"); r=$((16#${c:0:2})) g=$((16#${c:2:2})) b=$((16#${c:4:2}))
	case ${fr##*:} in
	g) [ $g -gt $r ] && [ $g -gt $b ] ;;
	a) [ $g -gt $r ] && [ $b -gt $r ] ;;
	o) [ $r -gt $g ] && [ $g -gt $b ] && [ $b -lt 30 ] ;;
	y) [ $r -gt $((b + 60)) ] && [ $g -gt $((b + 60)) ] ;;
	r) [ $r -gt $((g + 40)) ] && [ $r -gt $((b + 40)) ] ;;
	grey) [ $r -eq $g ] && [ $g -eq $b ] ;;
	esac || die "colour of ${fr%:*} is #$c"
done
"$MIXPROF" flamegraph --colors hot "$TMPD/mixprof.folded" > "$TMPD/hot.svg"
cmp -s "$TMPD/hot.svg" "$TMPD/mixprof.svg" && die "--colors hot changed nothing"
# minwidth leaves frames out (pixels and percent) but keeps the total
n0=$(grep -c 'class="f"' "$TMPD/mixprof.svg")
"$MIXPROF" flamegraph --minwidth 5% "$TMPD/mixprof.folded" > "$TMPD/mw.svg"
n1=$(grep -c 'class="f"' "$TMPD/mw.svg")
[ "$n1" -lt "$n0" ] || die "--minwidth 5% kept $n1 of $n0 frames"
grep -q 'data-total="133"' "$TMPD/mw.svg" || die "minwidth changed the total"

# 100k distinct stacks: well-formed; the first 20k exact with --minwidth 0
# (all 100k so is a 305 MB SVG: half a minute to check, the same check)
node "$TOP/tests/browser/gen_folded.mjs" 100000 > "$TMPD/big.folded"
start=$(date +%s%N)
"$MIXPROF" flamegraph "$TMPD/big.folded" > "$TMPD/big.svg"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
note "100k lines to SVG: $ms ms, $(stat -c %s "$TMPD/big.svg") bytes"
xmllint --noout "$TMPD/big.svg"
head -n 20000 "$TMPD/big.folded" > "$TMPD/20k.folded"
"$MIXPROF" flamegraph --minwidth 0 "$TMPD/20k.folded" > "$TMPD/20k.svg"
check "$TMPD/20k.svg" "$TMPD/20k.folded"
echo PASS
