#!/usr/bin/env bash
# mixprof flamegraph --diff: widths from AFTER, growth red, reduction
# blue, unchanged white, stronger with a bigger delta; also from one file
# of "stack BEFORE AFTER" lines, and --normalize.
. "$(dirname "$0")/../lib/common.sh"
node "$TOP/tests/browser/fixtures.mjs" "$TMPD"
"$MIXPROF" flamegraph --diff --minwidth 0 "$TMPD/before.folded" "$TMPD/after.folded" \
	> "$TMPD/diff.svg" || die "diff failed"
xmllint --noout "$TMPD/diff.svg"
node "$TOP/tests/browser/check_counts.mjs" "$TMPD/diff.svg" "$TMPD/after.folded" ||
	die "diff widths are not AFTER's counts"
grep -q 'Differential Flame Graph' "$TMPD/diff.svg" || die "title"
rgb() { grep -o "<title>$1 ([^<]*</title><rect [^>]*fill=\"#[0-9a-f]*\"" "$TMPD/$2" | sed 's/.*fill="#//; s/"//'; }
w=$(rgb 'work_\[j\]' diff.svg) h=$(rgb 'hash_\[j\]' diff.svg) i=$(rgb idle diff.svg) m=$(rgb 'main_\[j\]' diff.svg)
note "work #$w hash #$h idle #$i main #$m"
[ "${w:0:2}" = ff ] && [ $((16#${w:2:2})) -lt 60 ] || die "grown work is not strong red: #$w"
[ "${h:4:2}" = ff ] && [ $((16#${h:0:2})) -lt 160 ] || die "shrunk hash is not blue: #$h"
[ "$i" = ffffff ] || die "unchanged idle is not white: #$i"
# main grew by 10, less than work's 40: a paler red
[ "${m:0:2}" = ff ] && [ $((16#${m:2:2})) -gt $((16#${w:2:2})) ] || die "main #$m vs work #$w"
grep -q 'work_\[j\] (50 samples, 62.50%, +40)' "$TMPD/diff.svg" || die "tooltip delta"

# One file of two-count lines gives the same graph.
printf 'java;main_[j];work_[j] 10 50\njava;main_[j];hash_[j] 40 10\njava;idle 20 20\n' \
	> "$TMPD/two.folded"
"$MIXPROF" flamegraph --diff --minwidth 0 "$TMPD/two.folded" > "$TMPD/two.svg"
cmp "$TMPD/diff.svg" "$TMPD/two.svg" || die "two-count input differs"
# Normalised: BEFORE (70) scaled to AFTER (80); --html carries colours too.
"$MIXPROF" flamegraph --diff --normalize "$TMPD/before.folded" "$TMPD/after.folded" \
	> "$TMPD/norm.svg"
[ "$(rgb idle norm.svg)" != ffffff ] || die "normalised idle should have shrunk"
"$MIXPROF" flamegraph --diff --html "$TMPD/before.folded" "$TMPD/after.folded" \
	> "$TMPD/diff.html"
grep -q '"diff":1' "$TMPD/diff.html" && grep -q '"b":\[' "$TMPD/diff.html" || die "html diff"
"$MIXPROF" flamegraph --diff "$TMPD/before.folded" 2>/dev/null > /dev/null ||
	die "one-file diff failed"
"$MIXPROF" flamegraph --diff a b c 2> "$TMPD/err" && die "three files accepted"
grep -q 'BEFORE and AFTER' "$TMPD/err" || die "diff usage message"
echo PASS
