#!/usr/bin/env bash
# Differential test of the HotSpot unwinder against ground truth: on a
# JVM started with -XX:+PreserveFramePointer, where the frame-pointer walk
# is right, MIXPROF_UNWIND=check walks every sample both ways in BPF and
# counts agreement; >= 99% of the samples must get the same frames, on
# every JDK we test. The same count on a JVM without the flag must be
# low (there the frame-pointer walk loses compiled callers): the
# comparison sees a difference when there is one.
. "$(dirname "$0")/../lib/common.sh"

# agreement JDK FLAGS...: the check line's percentage, as an integer x100
agreement() {
	local jdk=$1 pid pct
	shift
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" "$@" -cp "$SAMPLES" Recurse 12 300 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Recurse did not start"
	sleep 1
	MIXPROF_UNWIND=check "$MIXPROF" -F 499 -p "$pid" -o "$TMPD/c.folded" 4 \
		2>"$TMPD/err" || { cat "$TMPD/err" >&2; die "mixprof failed"; }
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep "check:" "$TMPD/err" >&2
	pct=$(sed -n 's/.*agree on \([0-9]*\) of \([0-9]*\) JVM samples.*/\1 \2/p' \
		"$TMPD/err")
	[ -n "$pct" ] || die "no check line in the summary"
	set -- $pct
	[ "$2" -ge 300 ] || die "only $2 JVM samples"
	echo $(($1 * 10000 / $2))
}

for jdk in $(jdks); do
	with=$(agreement "$jdk" -XX:+PreserveFramePointer)
	[ "$with" -ge 9900 ] ||
		die "$jdk: walks agree on $with/10000 with -XX:+PreserveFramePointer"
	without=$(agreement "$jdk")
	[ "$without" -lt 5000 ] ||
		die "$jdk: walks agree on $without/10000 without the flag: the check compares nothing"
done
echo ok
