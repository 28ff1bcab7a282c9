#!/usr/bin/env bash
# Counts stay exact with many threads: 300 at once (more than the
# helper's 256 counter slots, so some count through the shared atomic
# path), new ones every run while the last ones have ended (their slots
# are handed on at the next read and their counts kept).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

THREADS=300 CALLS=2000
M='ProbeThreads$Target.work(I)I'

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD" \
		-cp "$PROBE_FIX" ProbeThreads $THREADS $CALLS
	jvm_go 1 # loads Target
	cli_start "$pid"
	cli "probe java:$M" | grep -q '^ok 1 1$' || die "probe refused"
	for run in 1 2 3; do
		jvm_go $((run + 1))
		n=$(count "$M")
		[ "$n" = $((run * THREADS * CALLS)) ] ||
			die "run $run: $n calls, want $((run * THREADS * CALLS))"
	done
	cli_close
	cli_none_left "$pid"
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "$THREADS threads a run, 3 runs: exact ($n)"
done
