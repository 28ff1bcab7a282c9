#!/usr/bin/env bash
# --alloc on Alloc (samples/Alloc.java), a running JVM without flags, on
# every JDK we test: the bytes mixprof counts under Alloc.big and
# Alloc.small must split as the thread's own allocated bytes
# (ThreadMXBean.getThreadAllocatedBytes around each method) did, within
# 5 points, with the allocated class as the leaf (byte[] under big,
# long[] under small), named from the Klass* through VMStructs.
. "$(dirname "$0")/../lib/common.sh"

SECS=3

# check FOLDED BIG_SHARE: 0 ok, 1 wrong.
check() {
	awk -v f="$1" -v truth="$2" '
	/;alloc-worker \[/ {
		n = $NF
		if (/Alloc\.big_\[/) { b += n; if ($(NF - 1) !~ /;byte\[\]$/) wrong += n }
		else if (/Alloc\.small_\[/) { s += n; if ($(NF - 1) !~ /;long\[\]$/) wrong += n }
	}
	function bad(msg) { print f ": " msg; err = 1 }
	END {
		if (b + s < 100e6) { bad("only " b + s " bytes in big/small"); exit 1 }
		got = 100 * b / (b + s)
		printf "%s: big %.1f%% of %.0f bytes, truth %.1f%%; wrong leaf %.2f%%\n", f, got, b + s, truth, 100 * wrong / (b + s)
		if (got - truth > 5 || truth - got > 5) bad("split off")
		if (wrong > 0.01 * (b + s)) bad("leaf is not the class")
		exit err
	}' "$1"
}

for jdk in $(jdks); do
	note "JDK $jdk"
	: >"$TMPD/out" # a JVM before wrote "ready" in it
	# an hour: alive through the run (mixprof names its classes from
	# the live JVM at the end), then killed; it prints its split every
	# second, the same in any window of its run: the last one is the truth
	"$jdk/bin/java" -cp "$SAMPLES" Alloc 3600 >"$TMPD/out" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 10 grep -qs ready "$TMPD/out" || die "Alloc did not start"
	sleep 1
	"$MIXPROF" --alloc --per-thread -p "$pid" -o "$TMPD/a.folded" $SECS 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof --alloc failed"; }
	cat "$TMPD/err"
	grep -q 'counts are bytes' "$TMPD/err" || die "the summary does not name the unit"
	kill -0 "$pid" 2>/dev/null || die "Alloc ended before it was killed"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	truth=$(awk '/^split/ { b = $2; s = $3 } END { if (b + s) printf "%.2f", 100 * b / (b + s) }' "$TMPD/out")
	[ -n "$truth" ] || die "no truth printed"
	check "$TMPD/a.folded" "$truth" || die "JDK $jdk"
done
echo ok
