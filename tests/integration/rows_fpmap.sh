#!/usr/bin/env bash
# The frame-record bitmap (unwind/fpmap.h): a rows step whose address is
# in a block of frame-record code takes that row without looking it up,
# so it must be the row the lookup gives. With MIXPROF_ROWS_VERIFY set,
# every such step is also stepped by its looked-up row and counted where
# that row is not the frame record (a wrong caller without the check):
# none may be, on nofp_fp (nofp.c with frame pointers: its own code's
# rows are the frame record, glibc's qsort between them has rows of
# other shapes) and on a JVM of each JDK (libjvm, built with frame
# pointers: its compiler and GC threads' C++ frames). And with the
# bitmap taken as it is, nofp_fp's stacks go whole to main through
# qsort, as by rows alone.
. "$(dirname "$0")/../lib/common.sh"

NOFP=$BUILD/tests/fixtures/unwind/nofp_fp
[ -x "$NOFP" ] || die "$NOFP not built (make)"

# verified ERR WHAT MIN: the verify line of ERR says at least MIN steps
# were checked and none differed
verified() {
	local line n d
	line=$(grep 'rows steps in frame-record blocks' "$1") ||
		{ cat "$1"; die "$2: no frame-record steps counted"; }
	echo "$2: ${line#mixprof: }"
	n=$(sed -n 's/.*blocks: \([0-9]*\),.*/\1/p' <<<"$line")
	d=$(sed -n 's/.*rows: \([0-9]*\) differ.*/\1/p' <<<"$line")
	[ "$n" -ge "$3" ] || die "$2: only $n frame-record steps"
	[ "$d" = 0 ] || die "$2: $d frame-record steps whose row is not the record"
}

# whole FOLDED ERR WHAT: >= 99% of nofp_fp's samples whole to main, and
# the comparator's under main;outer;qsort (samples before the rows were
# loaded left out)
whole() {
	local early
	early=$(sed -n 's/.*; \([0-9]*\) samples before the rows they needed.*/\1/p' "$2")
	awk -v what="$3" -v early="${early:-0}" '
	$1 ~ /^nofp_fp;/ {
		n = $NF; t += n
		if ($1 ~ /^nofp_fp;_start;[^ ]*;main;outer;/) ok += n
		if ($1 ~ /;by_value;/) {
			cmp += n
			if ($1 ~ /;main;outer;qsort[^;]*;/) cmpok += n
		}
	}
	END {
		if (t < 200) { print what ": only " t " samples"; exit 1 }
		if (early > t) early = t
		printf "%s: %.2f%% of %d samples whole to main; comparator %d of %d under main;outer;qsort\n",
			what, 100 * ok / t, t, cmpok, cmp
		exit !(ok >= 0.99 * (t - early) && cmp >= 50 && cmpok >= 0.99 * cmp)
	}' "$1" || die "$3: stacks not whole"
}

for mode in bitmap verify; do
	v=
	[ $mode = verify ] && v=1
	env ${v:+MIXPROF_ROWS_VERIFY=1} "$MIXPROF" -F 999 \
		-o "$TMPD/$mode.folded" -- "$NOFP" 3 2>"$TMPD/$mode.err" || { cat "$TMPD/$mode.err"; die "mixprof failed"; }
	whole "$TMPD/$mode.folded" "$TMPD/$mode.err" "nofp_fp, $mode"
done
verified "$TMPD/verify.err" "nofp_fp" 500

# a JVM starting and warming up: libjvm's compiler threads, its GC
jvm() {
	local jdk=$1
	MIXPROF_ROWS_VERIFY=1 "$MIXPROF" -F 999 -o "$TMPD/jvm.folded" -- \
		"$jdk/bin/java" -cp "$SAMPLES" Warmup 2 >"$TMPD/out" 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	verified "$TMPD/err" "$jdk" 200
}
each_jdk jvm
echo PASS
