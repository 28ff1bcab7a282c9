#!/usr/bin/env bash
# Deep stacks: Recurse spins 800 Java frames deep; every sample at the leaf
# must carry all 800 frames, and nothing may be cut ([truncated]).
. "$(dirname "$0")/../lib/common.sh"

max_before=$(cat /proc/sys/kernel/perf_event_max_stack)
out=$TMPD/recurse.folded
"$MIXPROF" -F 499 --per-thread -o "$out" -- \
	java -cp "$SAMPLES" Recurse 6 800 2>"$TMPD/err"
cat "$TMPD/err"
[ "$(cat /proc/sys/kernel/perf_event_max_stack)" = "$max_before" ] ||
	die "perf_event_max_stack not restored"
grep -q '\[truncated\]' "$out" && die "truncated stacks"
grep -q 'truncated' "$TMPD/err" && die "summary reports truncation"
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
