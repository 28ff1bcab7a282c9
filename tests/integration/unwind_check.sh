#!/usr/bin/env bash
# Differential test of the HotSpot unwinder against ground truth: on a
# JVM started with -XX:+PreserveFramePointer, where the frame-pointer walk
# is right, MIXPROF_UNWIND=check walks every sample both ways in BPF and
# counts agreement; >= 99.5% of the samples must get the same frames but
# for the oracle's own blind spots (the summary's headline: a frame the
# frame-pointer walk cannot see, each such reason counted), on every JDK
# we test (measured 100%, 0-2 blind spots in 270-670 samples a run). The same count on a JVM without the flag must be
# low (there the frame-pointer walk loses compiled callers): the
# comparison sees a difference when there is one. Each share is of at
# least 1000 (300 without the flag) JVM samples: short runs on the same JVM, their counts summed,
# until there are (one run on a quiet machine; under load the worker gets
# less CPU: once 293 in a run of 4 s at 499 Hz).
. "$(dirname "$0")/../lib/common.sh"

# Samples wanted: with the flag, enough that one real difference stays
# under the 0.5% allowed; without it, a share under 50% needs few.
FLOOR_PFP=1000
FLOOR=300
RUNS=8 # at most, of 2 s at 999 Hz: one is enough when the worker gets half a CPU

# agreement FLOOR JDK FLAGS...: the check lines' agreement over the runs, as an
# integer x100, in $share (not printed for a $(...): the JVM must be in this
# shell's PIDS_TO_KILL, killed when a die ends the test)
agreement() {
	local floor=$1 jdk=$2 pid same=0 total=0 run
	shift 2
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	# an hour: the runs end it, and not ending is a hang the runner fails
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" "$@" -cp "$SAMPLES" Recurse 3600 300 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Recurse did not start"
	sleep 1 # Recurse compiled: the walks compare compiled frames too
	for run in $(seq $RUNS); do
		MIXPROF_UNWIND=check "$MIXPROF" -F 999 -p "$pid" -o "$TMPD/c.folded" 2 \
			2>"$TMPD/err" || { cat "$TMPD/err" >&2; die "mixprof failed"; }
		grep "check:" "$TMPD/err"
		set -- $(sed -n 's/.*agree on \([0-9]*\) of \([0-9]*\) JVM samples.*/\1 \2/p' \
			"$TMPD/err")
		[ $# -eq 2 ] || die "no check line in the summary"
		same=$((same + $1)) total=$((total + $2))
		[ "$total" -ge "$floor" ] && break
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ "$total" -ge "$floor" ] || die "only $total JVM samples in $RUNS runs"
	share=$((same * 10000 / total))
}

# check_jdk JDK: both comparisons on one JDK (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1 share
	agreement $FLOOR_PFP "$jdk" -XX:+PreserveFramePointer
	[ "$share" -ge 9950 ] ||
		die "$jdk: walks agree on $share/10000 with -XX:+PreserveFramePointer"
	agreement $FLOOR "$jdk"
	[ "$share" -lt 5000 ] ||
		die "$jdk: walks agree on $share/10000 without the flag: the check compares nothing"
}

each_jdk check_jdk
echo ok
