#!/usr/bin/env bash
# Two `mixprof attach` at once, 16 times, each time with no attach
# listener running (its socket removed: HotSpot then starts a new one at
# the next SIGQUIT): both succeed and the JVM prints no thread dump. A
# second SIGQUIT that arrived after the listener started would print one
# ("Full thread dump") on the JVM's stdout.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

PAIRS=16

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	start_java "$jdk/bin/java" "$TMPD/jvm.out" "$TMPD/jvm.err" \
		-cp "$SAMPLES" ProbedLoop 300
	wait_for 60 grep -q '^ready' "$TMPD/jvm.out" ||
		die "ProbedLoop not ready: $(cat "$TMPD/jvm.err")"
	for i in $(seq $PAIRS); do
		rm -f "/tmp/.java_pid$pid"
		"$MIXPROF" attach "$pid" >"$TMPD/a.out" 2>&1 & a=$!
		"$MIXPROF" attach "$pid" >"$TMPD/b.out" 2>&1 & b=$!
		wait "$a" || die "pair $i: attach failed: $(cat "$TMPD/a.out")"
		wait "$b" || die "pair $i: attach failed: $(cat "$TMPD/b.out")"
	done
	! grep -q 'Full thread dump' "$TMPD/jvm.out" ||
		die "the JVM printed $(grep -c 'Full thread dump' "$TMPD/jvm.out") thread dumps in $PAIRS pairs of attaches"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	# every attach but the first finds the agent active, and says so
	grep -v '^jmap: already active' "$TMPD/jvm.err" >"$TMPD/jvm.err2" || true
	no_jmap_lines "$TMPD/jvm.err2"
	note "$PAIRS pairs of concurrent attaches: no thread dump"
done
