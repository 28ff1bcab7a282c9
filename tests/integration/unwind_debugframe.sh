#!/usr/bin/env bash
# Native code whose CFI is only in .debug_frame: nofp built -O2
# -fomit-frame-pointer -fno-asynchronous-unwind-tables -g (its .eh_frame
# holds only the C runtime's _start and the PLT), launched (its own
# .debug_frame), and the same stripped of its debug sections, which
# objcopy split into nofp_split.debug next to it (.gnu_debuglink), with
# -p. Ground truth: every sample of the workload is under main -> outer,
# and the comparator under main -> outer -> qsort; >= 99% of them must
# unwind whole to main (samples counted as taken before the process's
# rows were loaded are left out: reported, not hidden), and the summary
# must say a file got its rows from .debug_frame.
. "$(dirname "$0")/../lib/common.sh"

FIX=$BUILD/tests/fixtures/unwind
for f in nofp_df nofp_split nofp_split.debug; do
	[ -f "$FIX/$f" ] || die "$FIX/$f not built (make)"
done

# check NAME FOLDED ERR WHAT
check() {
	local early
	grep "whole stacks:\|unwind rows:" "$3"
	early=$(sed -n 's/.*; \([0-9]*\) samples before the rows they needed.*/\1/p' "$3")
	[ -n "$early" ] || die "$4: no unwind rows line in the summary"
	grep -q "unwind rows: .*, [1-9][0-9]* by .debug_frame[,;)]" "$3" ||
		die "$4: no file's rows from .debug_frame"
	awk -v name="$1" -v what="$4" -v early="$early" '
	$1 ~ "^" name ";" {
		n = $NF; t += n
		if ($1 ~ "^" name ";_start;[^ ]*;main;outer;") whole += n
		if ($1 ~ /;by_value;/) {
			cmp += n
			if ($1 ~ /;main;outer;qsort[^;]*;/) cmpok += n
		}
	}
	END {
		if (t < 200) { print what ": only " t " samples of " name; exit 1 }
		if (early > t) early = t
		printf "%s: %.2f%% of %d %s samples whole to main (%d before rows, left out); comparator %d of %d under main;outer;qsort\n",
			what, 100 * whole / t, t, name, early, cmpok, cmp
		if (whole < 0.99 * (t - early)) exit 1
		if (cmp < 30 || cmpok < 0.99 * cmp) exit 1
	}' "$2" || die "$4: stacks not whole"
}

# launch: the binary's own .debug_frame
"$MIXPROF" -F 999 -o "$TMPD/df.folded" -- "$FIX/nofp_df" 3 2>"$TMPD/df.err" ||
	{ cat "$TMPD/df.err"; die "mixprof (launch) failed"; }
check nofp_df "$TMPD/df.folded" "$TMPD/df.err" "launch, own .debug_frame"

# -p: the separate debug file's
"$FIX/nofp_split" 12 &
pid=$!
PIDS_TO_KILL+=("$pid")
sleep 0.5
"$MIXPROF" -F 999 -p "$pid" -o "$TMPD/split.folded" 3 2>"$TMPD/split.err" ||
	{ cat "$TMPD/split.err"; die "mixprof -p failed"; }
check nofp_split "$TMPD/split.folded" "$TMPD/split.err" \
	"-p, .debug_frame of nofp_split.debug"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
echo PASS
