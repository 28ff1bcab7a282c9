#!/usr/bin/env bash
# (not alone: the check that no mixprof BPF program is left tells its own
# runs' programs from those of another run beside it, by session)
# mixprof -p PID -e ... (stack mode) on a JVM started with the agent: the
# folded total is exactly the number of calls, the probed method is the
# leaf (no probe frames) under its caller, annotated _[j]; a JDK method
# too; --svg renders it. Runs end by SIGINT/SIGTERM once the JVM's run is
# done (a duration could end them first on a loaded machine); afterwards
# the agent has no probe and no BPF program is left.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

for jdk in $(eprobe_jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT" \
		-XX:+PreserveFramePointer -cp "$PROBE_FIX" ProbeCalls
	jvm_go 1
	eprobe_start "$TMPD/s.out" "$TMPD/s.err" -p "$pid" \
		-e 'java:ProbeCalls$Target.work' -o "$TMPD/work.folded" \
		--svg "$TMPD/work.svg"
	jvm_go 2
	eprobe_end INT
	cat "$TMPD/s.err"
	f=$TMPD/work.folded
	[ "$(total "$f")" = 12345 ] || { cat "$f"; die "total $(total "$f"), want 12345"; }
	! grep -q 'mixprof/jmap/Probe\|libjmap' "$f" || die "probe frames left: $(cat "$f")"
	n=$(total_of 'ProbeCalls\.main_\[[01j]\];ProbeCalls\$Target\.work_\[[01j]\] [0-9]*$' "$f")
	[ "$n" = 12345 ] || { cat "$f"; die "leaf under its caller: $n of 12345"; }
	grep -q '^mixprof: 12345 calls in .*12345 written' "$TMPD/s.err" ||
		die "summary: $(cat "$TMPD/s.err")"
	grep -q '<svg' "$TMPD/work.svg" || die "no flame graph"
	agent_clean "$pid"
	wait_for 10 no_probe_bpf || die "after SIGINT: $probe_left"

	# a JDK method; only main's own calls are known exactly
	eprobe_start "$TMPD/a.out" "$TMPD/a.err" -p "$pid" \
		-e 'java:java/util/ArrayList.add(Ljava/lang/Object;)Z'
	jvm_go 3
	eprobe_end TERM
	n=$(total_of 'ProbeCalls\.main_\[[01j]\];java/util/ArrayList\.add_\[[01j]\] [0-9]*$' "$TMPD/a.out")
	[ "$n" = 12345 ] || { cat "$TMPD/a.out"; die "ArrayList.add from main: $n"; }
	agent_clean "$pid"
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "stacks: total = calls (12345), leaf under main_[j], JDK method, removed"
done
