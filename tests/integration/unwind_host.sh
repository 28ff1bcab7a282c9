#!/usr/bin/env bash
# Host-wide, processes of our own whose stacks are known end to end:
# nofp (its .eh_frame), the same stripped of every symbol (its _start has
# no name: the walk ends at the CFI's outermost row, which must count as
# the root), nofp_split (CFI in a separate debug file's .debug_frame) and
# a shell loop (a copy of bash, built without frame pointers). Ground
# truth: each spends all its time under _start -> __libc_start_main ->
# __libc_start_call_main -> main; >= 95% of each one's samples must be
# whole to there and unbroken, from the 5th second on (rows of the
# host's running processes load while sampling starts: seconds on a busy
# host). Over the whole run: no stack of junk [unknown] frames, and the
# summary reports the root share of the processes with unwind rows.
. "$(dirname "$0")/../lib/common.sh"

FIX=$BUILD/tests/fixtures/unwind
for f in nofp nofp_split nofp_split.debug; do
	[ -f "$FIX/$f" ] || die "$FIX/$f not built (make)"
done
cp "$FIX/nofp" "$TMPD/nofp_strip"
strip "$TMPD/nofp_strip" || die "strip failed"
cp "$(command -v bash)" "$TMPD/busyloop"

"$FIX/nofp" 20 &
PIDS_TO_KILL+=($!)
"$TMPD/nofp_strip" 20 &
PIDS_TO_KILL+=($!)
"$FIX/nofp_split" 20 &
PIDS_TO_KILL+=($!)
"$TMPD/busyloop" -c 'while :; do :; done' &
PIDS_TO_KILL+=($!)
sleep 0.3

"$MIXPROF" -F 499 -i 1 -o "$TMPD/host" 10 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "mixprof (host-wide) failed"; }
grep "whole stacks:\|unwind rows:\|processes with unwind rows:" "$TMPD/err"
grep -q "processes with unwind rows: [1-9][0-9]* of" "$TMPD/err" ||
	die "no root share of the processes with unwind rows"
ls "$TMPD"/host/slice-*.folded | tail -n +5 | xargs cat >"$TMPD/late.folded"
for c in nofp nofp_strip nofp_split busyloop; do
	awk -v c="$c" '
	$1 ~ "^" c ";" {
		n = $NF; t += n
		if ($1 ~ "^" c ";[^;]+;__libc_start_main[^;]*;__libc_start_call_main;" &&
		    $1 !~ /\[unwind:/)
			w += n
	}
	END {
		if (t < 50) { print c ": only " t " samples"; exit 1 }
		printf "%s: %.2f%% of %d samples whole to main\n", c, 100 * w / t, t
		exit !(w >= 0.95 * t)
	}' "$TMPD/late.folded" || die "$c: stacks not whole host-wide"
done
cat "$TMPD"/host/slice-*.folded | awk '{
	if ($1 ~ /(\[unknown\];){4}/) { print "junk chain: " $0; bad = 1 }
} END { exit bad }' | head -5
[ "${PIPESTATUS[1]}" -eq 0 ] || die "a stack of junk [unknown] frames"
echo PASS
