#!/usr/bin/env bash
# A launched JVM is walked as a JVM from its first Java frames: its pid is
# known, so mixprof reads its tables as soon as libjvm.so has them (looked
# at every few ms in its first seconds), not on the drain tick that first
# sees its samples (up to 200 ms later, seconds under load). -v says when
# it was read; at most 5% of the run's samples may end "[unwind: not
# identified yet]" (up to 11% of a 6 s run under load before; what is
# left are samples of its first few ms in libjvm.so, before the mapping
# is in its unwind table), on every JDK we test.
. "$(dirname "$0")/../lib/common.sh"

for jdk in $(jdks); do
	note "JDK $jdk"
	"$MIXPROF" -v -F 999 -o "$TMPD/launch.folded" -- \
		"$jdk/bin/java" -cp "$SAMPLES" Ratio 2 >/dev/null 2>"$TMPD/err"
	grep -q "exited with status 0" "$TMPD/err" ||
		{ cat "$TMPD/err"; die "java failed"; }
	grep "launched JVM\|not identified yet\|samples in" "$TMPD/err"
	grep -q "launched JVM (pid [0-9]*) read at [0-9]* ms" "$TMPD/err" ||
		die "$jdk: the launched JVM was not read at its start"
	total=$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$TMPD/err")
	early=$(sed -n 's/^mixprof: *\([0-9]*\) \[unwind: not identified yet\].*/\1/p' "$TMPD/err")
	[ -n "$total" ] && [ "$total" -ge 200 ] || die "$jdk: too few samples ($total)"
	[ $((${early:-0} * 20)) -le "$total" ] ||
		die "$jdk: $early of $total samples not identified yet"
done
echo ok
