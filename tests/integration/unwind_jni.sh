#!/usr/bin/env bash
# Native code entered from Java keeps its Java callers: Deflate compresses
# with java.util.zip.Deflater, its time in zlib (the system's libz, built
# without frame pointers, or a copy bundled in libzip.so). The frame-
# pointer chain from zlib does not lead back; the walk resumes at the
# thread's last Java frame from its frame anchor. On every JDK we test,
# on a JVM started with no flags and profiled with -p: >= 95% of the zlib
# samples carry Deflater's native method and reach the thread's root,
# of at least 200: runs of 2 s at 999 Hz on the same JVM, their stacks
# together, until there are (one run on a quiet machine).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/deflate.sh"

# check_jdk JDK: one JDK's zlib samples (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1 pid out run rc
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	# an hour: the runs end it, and not ending is a hang the runner fails
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Deflate 3600 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Deflate did not start"
	sleep 1
	out=$TMPD/deflate.folded
	: >"$out"
	for run in 1 2 3 4 5 6; do
		"$MIXPROF" -F 999 --per-thread -p "$pid" -o "$TMPD/run.folded" 2 \
			2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
		cat "$TMPD/err"
		cat "$TMPD/run.folded" >>"$out"
		rc=0
		deflate_whole "$out" 0.95 200 || rc=$?
		[ $rc = 2 ] || break
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ $rc = 0 ] || die "$jdk: zlib samples lost their Java callers (or too few in 6 runs)"
}

each_jdk check_jdk
echo ok
