#!/usr/bin/env bash
# Native stacks without frame pointers, unwound in BPF by .eh_frame rows
# (unwind/): nofp (built -O2 -fomit-frame-pointer: main -> outer ->
# middle -> inner, and outer -> glibc's qsort -> by_value -> inner) must
# unwind whole to main in >= 99% of its samples, in launch mode, with -p
# and host-wide; the comparator keeps its callers through glibc. Samples
# the profiler counts as taken before the process's rows were loaded are
# left out of the share (they are reported, not hidden). Host-wide, no
# stack may be a chain of junk [unknown] frames, and the share of all
# samples that reach a root is reported.
. "$(dirname "$0")/../lib/common.sh"

NOFP=$BUILD/tests/fixtures/unwind/nofp
[ -x "$NOFP" ] || die "$NOFP not built (make)"
# run under a name of its own (a link: its process frame): host-wide,
# another test's nofp beside this one is not this one's
ln -s "$NOFP" "$TMPD/rnnofp"
NOFP=$TMPD/rnnofp

# check FOLDED ERR WHAT [launch]: nofp's samples whole to main (>= 99%),
# the comparator's under main;outer;qsort. Host-wide, the rows are loaded
# by the third second, checked from there: no sample is left out.
check() {
	local early
	early=$(sed -n 's/.*; \([0-9]*\) samples before the rows they needed.*/\1/p' "$2")
	[ -n "$early" ] || die "$3: no unwind rows line in the summary"
	[ "${4:-}" = counted ] || early=0
	awk -v what="$3" -v early="$early" '
	$1 ~ /^rnnofp;/ {
		n = $NF; t += n
		if ($1 ~ /^rnnofp;_start;[^ ]*;main;outer;/) whole += n
		if ($1 ~ /;by_value;/) {
			cmp += n
			if ($1 ~ /;main;outer;qsort[^;]*;/) cmpok += n
		}
	}
	END {
		if (t < 200) { print what ": only " t " samples of nofp"; exit 1 }
		if (early > t) early = t
		printf "%s: %.2f%% of %d nofp samples whole to main (%d before rows, left out); comparator %d of %d under main;outer;qsort\n",
			what, 100 * whole / t, t, early, cmpok, cmp
		if (whole < 0.99 * (t - early)) exit 1
		if (cmp < 50 || cmpok < 0.99 * cmp) exit 1
	}' "$1" || die "$3: stacks not whole"
}

# launch mode: 2 s at 999 Hz, as many samples as 4 s at 499 Hz gave
# (made once more when it fell short: at load ~16 nofp had 176 samples)
for try in 1 2; do
	"$MIXPROF" -F 999 -o "$TMPD/launch.folded" -- "$NOFP" 2 2>"$TMPD/launch.err" ||
		{ cat "$TMPD/launch.err"; die "mixprof (launch) failed"; }
	[ $try = 2 ] && break
	(check "$TMPD/launch.folded" "$TMPD/launch.err" launch counted) && break
done
check "$TMPD/launch.folded" "$TMPD/launch.err" launch counted

# -p: half a CPU at 999 Hz, as many samples as a whole one at 499 Hz
# (on a host loaded enough to give it less than half, twice as many);
# the same process runs on through the host-wide runs below
"$NOFP" 60 &
pid=$!
PIDS_TO_KILL+=("$pid")
cpu_cap "$pid" 50
sleep 0.5
"$MIXPROF" -F 999 -p "$pid" -o "$TMPD/p.folded" 3 2>"$TMPD/p.err" ||
	{ cat "$TMPD/p.err"; die "mixprof -p failed"; }
check "$TMPD/p.folded" "$TMPD/p.err" "-p" counted

# host-wide, nofp still running: one folded file a second; the rows of
# every running process load while sampling starts (up to seconds on a
# busy host), so nofp is checked from the third second on
# (a run whose nofp was not whole is made once more: another test's
# processes beside it can hold its rows back longer, once 98.81%)
for try in 1 2; do
	rm -rf "$TMPD/host"
	"$MIXPROF" -F 499 -i 1 -o "$TMPD/host" 5 2>"$TMPD/host.err" ||
		{ cat "$TMPD/host.err"; die "mixprof (host-wide) failed"; }
	ls "$TMPD"/host/slice-*.folded | tail -n +3 | xargs cat >"$TMPD/host.folded"
	[ $try = 2 ] && break
	(check "$TMPD/host.folded" "$TMPD/host.err" host-wide) && break
	note "host-wide: again"
done
check "$TMPD/host.folded" "$TMPD/host.err" host-wide
grep "whole stacks:\|unwind rows:" "$TMPD/host.err" || die "no root share host-wide"
cat "$TMPD"/host/slice-*.folded | awk '{
	if ($1 ~ /(\[unknown\];){4}/) { print "junk chain: " $0; bad = 1 }
} END { exit bad }' | head -5
[ "${PIPESTATUS[1]}" -eq 0 ] || die "host-wide: a stack of junk [unknown] frames"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
echo "PASS"
