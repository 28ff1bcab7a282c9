#!/usr/bin/env bash
# Native frames under Java keep their callers by unwind rows, not by a
# jump to the thread's frame anchor: Deflate's time in zlib (the system's
# libz, built without frame pointers) must show the JNI function
# (Java_java_util_zip_Deflater_deflateBytes*, libzip.so) right under
# Deflater's native method (its compiled wrapper, _[j], or the
# interpreter's native entry, _[0], on a JVM that has not compiled it
# yet) and reach the thread's root, in >= 95% of the
# zlib samples, on every JDK we test, with -p on an unflagged JVM. The
# frame-anchor walk skips the JNI function (ground truth: it is what
# calls zlib, so a whole native chain has it).
. "$(dirname "$0")/../lib/common.sh"

check() {
	awk -v f="$1" '
	/;deflate-worker \[/ {
		n = $NF
		line = $0; sub(/ [0-9]+$/, "", line)
		if (line !~ /;(deflate|deflate_slow|deflate_fast|deflate_stored|longest_match|fill_window|adler32|adler32_z|crc32|crc32_z|compress_block|slide_hash|build_tree|pqdownheap|send_tree|_tr_[a-z_]+)(;|$)/)
			next
		z += n
		split(line, fr, ";")
		if (fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/ &&
		    line ~ /java\/util\/zip\/Deflater\.deflateBytes[A-Za-z]*_\[[j0]\];Java_java_util_zip_Deflater_deflateBytes[A-Za-z]*;/)
			whole += n
	}
	END {
		if (z < 200) { print f ": only " z " zlib samples"; exit 1 }
		printf "%s: %.2f%% of %d zlib samples whole through the JNI function to the root\n", f, 100*whole/z, z
		exit !(whole >= 0.95 * z)
	}' "$1"
}

n=0
for jdk in $(jdks); do
	n=$((n + 1))
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Deflate 10 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	# half a CPU at 999 Hz: the samples a whole one gave at 499 Hz (on
	# a host loaded enough to give it less than half, twice as many)
	cpu_cap "$pid" 50
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Deflate did not start"
	sleep 1
	out=$TMPD/deflate-$n.folded
	"$MIXPROF" -F 999 --per-thread -p "$pid" -o "$out" 4 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	grep "whole stacks\|unwind rows" "$TMPD/err"
	check "$out" || die "$jdk: zlib frames lost their native callers"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
done
echo PASS
