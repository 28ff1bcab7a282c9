#!/usr/bin/env bash
# Host-wide, processes of our own whose stacks are known end to end:
# nofp (its .eh_frame), the same stripped of every symbol (its _start has
# no name: the walk ends at the CFI's outermost row, which must count as
# the root) and nofp_split (CFI in a separate debug file's .debug_frame);
# a shell loop (a copy of bash) runs too, not checked: a frame-pointer
# walk of bash before its rows may end unbroken short of the root, and
# such a sample cannot be told apart in the output. Ground
# truth: each spends all its time under _start -> __libc_start_main ->
# __libc_start_call_main -> main; >= 95% of each one's samples must be
# whole to there and unbroken once its rows are loaded (the rows of the
# host's processes load while sampling goes on: seconds on a busy host;
# a walk that broke before they were is marked [unwind: no rows yet]). Over the whole run: no stack of junk [unknown] frames, and the
# summary reports the root share of the processes with unwind rows.
. "$(dirname "$0")/../lib/common.sh"

FIX=$BUILD/tests/fixtures/unwind
for f in nofp nofp_split nofp_split.debug; do
	[ -f "$FIX/$f" ] || die "$FIX/$f not built (make)"
done
# each under a name of its own (its process frame; links but for the
# stripped copy): host-wide, another test's nofp is not one of these
cp "$FIX/nofp" "$TMPD/uhnofp_strip"
strip "$TMPD/uhnofp_strip" || die "strip failed"
cp "$(command -v bash)" "$TMPD/busyloop"
ln -s "$FIX/nofp" "$TMPD/uhnofp"
ln -s "$FIX/nofp_split" "$TMPD/uhnofp_split"

# Each capped at a tenth of a CPU (cpu_cap): uncapped the four took
# both CPUs from the rest of the suite for the whole run, and each needs
# 30 samples once its rows are loaded, not thousands (a tenth: ~100 a
# second at 999 Hz; a host loaded enough to hold its rows back for
# seconds gives each less than a tenth anyway).
"$TMPD/uhnofp" 16 &
PIDS_TO_KILL+=($!)
cpu_cap $! 10
"$TMPD/uhnofp_strip" 16 &
PIDS_TO_KILL+=($!)
cpu_cap $! 10
"$TMPD/uhnofp_split" 16 &
PIDS_TO_KILL+=($!)
cpu_cap $! 10
"$TMPD/busyloop" -c 'while :; do :; done' &
PIDS_TO_KILL+=($!)
cpu_cap $! 10
sleep 0.3
# at a higher priority: the rows' load time is the CPU the loader gets
# (10-17 s for a whole host at load average 20-30 on 2 CPUs at nice 0;
# bench/rows.sh measures it); our processes, running, are loaded first.
# A busy host's distinct stacks overflow the default stack storage.
nice -n -10 "$MIXPROF" -F 999 -i 1 --stack-storage-size 262144 \
	-o "$TMPD/host" 12 2>"$TMPD/err" &
mp=$!
PIDS_TO_KILL+=("$mp")
wait "$mp" || { cat "$TMPD/err"; die "mixprof (host-wide) failed"; }
grep "whole stacks:\|unwind rows:\|processes with unwind rows:" "$TMPD/err"
grep -q "processes with unwind rows: [1-9][0-9]* of" "$TMPD/err" ||
	die "no root share of the processes with unwind rows"
# per process, its samples but those walked before its rows were loaded
# (a broken walk of such a sample ends with [unwind: no rows yet]; when,
# depends on the host's load)
cat "$TMPD"/host/slice-*.folded >"$TMPD/all.folded"
for c in uhnofp uhnofp_strip uhnofp_split; do
	awk -v c="$c" '
	$1 ~ "^" c ";" {
		n = $NF
		if ($0 ~ /\[unwind: no rows yet\]/) { early += n; next }
		t += n
		if ($1 ~ "^" c ";[^;]+;__libc_start_main[^;]*;__libc_start_call_main;" &&
		    $1 !~ /\[unwind:/)
			w += n
	}
	END {
		if (t < 30) { print c ": only " t " samples with rows (" early " before)"; exit 1 }
		printf "%s: %.2f%% of %d samples whole to main (%d before its rows, left out)\n",
			c, 100 * w / t, t, early
		exit !(w >= 0.95 * t)
	}' "$TMPD/all.folded" || die "$c: stacks not whole host-wide"
done
cat "$TMPD"/host/slice-*.folded | awk '{
	if ($1 ~ /(\[unknown\];){4}/) { print "junk chain: " $0; bad = 1 }
} END { exit bad }' | head -5
[ "${PIPESTATUS[1]}" -eq 0 ] || die "a stack of junk [unknown] frames"
echo PASS
