#!/usr/bin/env bash
# Deep stacks: Recurse spins 800 Java frames deep; every sample at the leaf
# must carry all 800 frames, and none of the worker's stacks may be cut
# ([truncated]). Other threads are not judged: glibc code without frame
# pointers (clone3 in a thread's first instants) can leave a garbage frame
# chain that the kernel follows to the depth limit; the summary counts it.
. "$(dirname "$0")/../lib/common.sh"

max_before=$(cat /proc/sys/kernel/perf_event_max_stack)
out=$TMPD/recurse.folded
"$MIXPROF" -F 499 --per-thread -o "$out" -- \
	java -cp "$SAMPLES" Recurse 6 800 2>"$TMPD/err"
cat "$TMPD/err"
[ "$(cat /proc/sys/kernel/perf_event_max_stack)" = "$max_before" ] ||
	die "perf_event_max_stack not restored"
grep ';recurse-worker \[' "$out" | grep -q '\[truncated\]' &&
	die "truncated worker stacks"
awk '
/;recurse-worker \[/ && /Recurse\.leaf_\[/ {
	n = $NF; leaf += n
	d = gsub(/Recurse\.down_\[/, "&")
	if (d >= 800) deep += n
	if (d > max) max = d
}
END {
	printf "leaf samples %d, %d with >= 800 frames of down (max %d)\n", leaf, deep, max
	exit !(leaf >= 500 && deep >= 0.95 * leaf)
}' "$out" || die "stacks are not whole"
echo ok
