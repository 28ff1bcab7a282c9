#!/usr/bin/env bash
# Bad input: one-line errors naming the input, non-zero exit; bad lines
# are skipped, never fatal unless nothing is usable.
. "$(dirname "$0")/../lib/common.sh"
M=$MIXPROF
expect_fail() { # expected-stderr-line, command...
	local want=$1; shift
	if "$@" > "$TMPD/out" 2> "$TMPD/err"; then die "succeeded: $*"; fi
	[ "$(wc -l < "$TMPD/err")" -eq 1 ] || die "not one line: $(cat "$TMPD/err")"
	grep -qxF "$want" "$TMPD/err" || die "got '$(cat "$TMPD/err")', want '$want'"
}
expect_fail "mixprof: $TMPD/nope.folded: No such file or directory" \
	$M flamegraph "$TMPD/nope.folded"
printf 'a;b 1\n' > "$TMPD/ok.folded"
expect_fail "mixprof: $TMPD/nope.folded: No such file or directory" \
	$M flamegraph "$TMPD/ok.folded" "$TMPD/nope.folded"
printf 'garbage\nmore garbage\n' > "$TMPD/bad.folded"
if $M flamegraph "$TMPD/bad.folded" > /dev/null 2> "$TMPD/err"; then die "all-bad input accepted"; fi
grep -qx "mixprof: $TMPD/bad.folded: 2 lines skipped (no count, first at line 1)" "$TMPD/err" ||
	die "$(cat "$TMPD/err")"
grep -qx "mixprof: $TMPD/bad.folded: no usable folded lines" "$TMPD/err" || die "$(cat "$TMPD/err")"
: > "$TMPD/empty.folded"
expect_fail "mixprof: $TMPD/empty.folded: no samples" $M flamegraph "$TMPD/empty.folded"
expect_fail "mixprof: bad --width 'wide' (100 to 100000)" $M flamegraph --width wide "$TMPD/ok.folded"
expect_fail "mixprof: bad --minwidth 'x%' (pixels, or a percentage like 0.5%)" \
	$M flamegraph --minwidth x% "$TMPD/ok.folded"
expect_fail "mixprof: unknown --colors 'pink' (one of: java, hot, mem, io, red, green, blue, aqua, yellow, orange)" \
	$M flamegraph --colors pink "$TMPD/ok.folded"
expect_fail "mixprof: $TMPD/no/such/dir/out.svg: No such file or directory" \
	$M flamegraph -o "$TMPD/no/such/dir/out.svg" "$TMPD/ok.folded"
# a mixed file: bad lines skipped with one message, output still made
printf 'a;b 1\nzz\n' > "$TMPD/mixed.folded"
$M flamegraph "$TMPD/mixed.folded" > "$TMPD/mixed.svg" 2> "$TMPD/err" || die "mixed input failed"
grep -qx "mixprof: $TMPD/mixed.folded: 1 line skipped (no count, first at line 2)" "$TMPD/err" ||
	die "$(cat "$TMPD/err")"
xmllint --noout "$TMPD/mixed.svg"
# heat map and montage inputs
expect_fail "mixprof: $TMPD/nope.txt: No such file or directory" $M heatmap "$TMPD/nope.txt"
printf '# only a comment\n' > "$TMPD/t.txt"
expect_fail "mixprof: $TMPD/t.txt: no timed samples" $M heatmap "$TMPD/t.txt"
expect_fail "mixprof: $TMPD/slices.tsv: No such file or directory" $M montage "$TMPD"
printf '0\t1\t2\t3\n' > "$TMPD/slices.tsv"
expect_fail "mixprof: $TMPD/slices.tsv:1: fewer than 5 columns" $M montage "$TMPD"
printf '0\t1\t2\t3\tgone.folded\n' > "$TMPD/slices.tsv"
expect_fail "mixprof: $TMPD/gone.folded: No such file or directory" $M montage "$TMPD"
$M flamegraph --nope 2> /dev/null && die "unknown option accepted"
$M flamegraph --help | grep -q '^usage: mixprof flamegraph' || die "--help"
echo PASS
