#!/usr/bin/env bash
# Native code entered from Java keeps its Java callers: Deflate compresses
# with java.util.zip.Deflater, its time in zlib (the system's libz, built
# without frame pointers, or a copy bundled in libzip.so). The frame-
# pointer chain from zlib does not lead back; the walk resumes at the
# thread's last Java frame from its frame anchor. On every JDK we test,
# on a JVM started with no flags and profiled with -p: >= 95% of the zlib
# samples carry Deflater's native method and reach the thread's root.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/deflate.sh"

n=0
for jdk in $(jdks); do
	n=$((n + 1))
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Deflate 14 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Deflate did not start"
	sleep 1
	out=$TMPD/deflate-$n.folded
	"$MIXPROF" -F 499 --per-thread -p "$pid" -o "$out" 5 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	cat "$TMPD/err"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	deflate_whole "$out" 0.95 200 || die "$jdk: zlib samples lost their Java callers"
done
echo ok
