#!/usr/bin/env bash
# mixprof -p PID -e ... --count on a JVM started without the agent
# (mixprof attaches it): exact per-method totals, a JDK method too, the
# table sorted by total; after Ctrl-C the agent has no probe left and
# further calls reach no instrumentation.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

for jdk in $(eprobe_jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -XX:+PreserveFramePointer \
		-cp "$PROBE_FIX" ProbeCalls
	jvm_go 1 # loads ProbeCalls$Target
	eprobe_start "$TMPD/c.out" "$TMPD/c.err" -p "$pid" --count \
		-e 'java:ProbeCalls$Target.work' \
		-e 'java:java.util.ArrayList.add(Ljava/lang/Object;)Z'
	jvm_go 2
	jvm_go 3
	eprobe_end INT
	cat "$TMPD/c.out"
	head -1 "$TMPD/c.out" | grep -q '^METHOD  *TOTAL  *CALLS_PER_S$' ||
		die "no table header"
	n=$(awk '$1 == "ProbeCalls$Target.work(I)I" { print $2 }' "$TMPD/c.out")
	[ "$n" = $((2 * 12345)) ] || die "Target.work counted '$n', want 24690"
	n=$(awk '$1 == "java/util/ArrayList.add(Ljava/lang/Object;)Z" { print $2 }' "$TMPD/c.out")
	[ -n "$n" ] && [ "$n" -ge $((2 * 12345)) ] || die "ArrayList.add counted '$n'"
	awk 'NR > 1 { if (NR > 2 && $2 > p) exit 1; p = $2 }' "$TMPD/c.out" ||
		die "table not sorted by total"
	grep -q '^mixprof: .* calls of 2 methods in' "$TMPD/c.err" ||
		die "summary: $(cat "$TMPD/c.err")"
	grep -q 'mixprof/jmap\|libjmap' "/proc/$pid/maps" || die "agent not attached"
	agent_clean "$pid"
	jvm_go 4
	agent_clean "$pid" # still nothing: the classes are restored
	# ended by its duration, no call meanwhile: a zero row, exit 0
	"$MIXPROF" -p "$pid" --count -e 'java:ProbeCalls$Target.work' 1 \
		>"$TMPD/d.out" 2>"$TMPD/d.err" || die "duration run: $(cat "$TMPD/d.err")"
	grep -q '^ProbeCalls\$Target.work(I)I  *0  *0.0$' "$TMPD/d.out" ||
		die "duration run: $(cat "$TMPD/d.out")"
	agent_clean "$pid"
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "--count: exact totals (24690), JDK method, removed after Ctrl-C"
done
