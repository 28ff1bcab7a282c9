#!/usr/bin/env bash
# runner: alone (it checks that a killed JVM's socket stays until the next agent starts: another test's agent starting beside it would remove it first)
# Whatever ends mixprof -e, the instrumentation goes with it: after
# SIGKILL (stack mode: BPF attached, probes armed) the agent has no probe,
# later calls reach no removed site, no BPF program is left, and the next
# mixprof -e gets the probes and counts exactly again. A JVM killed
# during a run cannot remove its control socket: mixprof does, on its way
# out; one killed with no mixprof around leaves it until the next agent
# of the same user starts, which removes it.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

for jdk in $(eprobe_jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -XX:+PreserveFramePointer \
		-cp "$PROBE_FIX" ProbeCalls
	jvm_go 1
	eprobe_start "$TMPD/k.out" "$TMPD/k.err" -p "$pid" \
		-e 'java:ProbeCalls$Target.work' -e 'java:java.util.ArrayList.add'
	jvm_go 2
	eprobe_end KILL
	wait_for 10 no_probe_bpf || die "BPF left after SIGKILL: $probe_left"
	agent_clean "$pid"
	jvm_go 3
	agent_clean "$pid" # no stray calls: the original classes run
	eprobe_start "$TMPD/c.out" "$TMPD/c.err" -p "$pid" --count \
		-e 'java:ProbeCalls$Target.work'
	jvm_go 4
	eprobe_end INT
	n=$(awk '$1 == "ProbeCalls$Target.work(I)I" { print $2 }' "$TMPD/c.out")
	[ "$n" = 12345 ] || die "after SIGKILL, next run counted '$n'"
	agent_clean "$pid"
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "SIGKILL: probes and BPF gone; next run exact"

	jvm_start jvm "$jdk/bin/java" -cp "$PROBE_FIX" ProbeCalls
	jvm_go 1
	sock=/tmp/.mixprof-jmap-$pid
	eprobe_start "$TMPD/j.out" "$TMPD/j.err" -p "$pid" --count \
		-e 'java:ProbeCalls$Target.work'
	[ -S "$sock" ] || die "no agent socket $sock"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	wait "$mp" || die "mixprof failed when the JVM was killed: $(cat "$TMPD/j.err")"
	exec 7>&-
	[ ! -e "$sock" ] || die "$sock left after the JVM was killed"
	note "JVM killed during a run: its socket removed"

	jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT" -cp "$PROBE_FIX" ProbeCalls
	dead=$pid
	wait_for 30 test -S "/tmp/.mixprof-jmap-$dead" || die "no agent socket"
	kill -9 "$dead"
	wait "$dead" 2>/dev/null || true
	exec 7>&-
	[ -S "/tmp/.mixprof-jmap-$dead" ] || die "the killed JVM removed its socket?"
	jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT" -cp "$PROBE_FIX" ProbeCalls
	wait_for 30 test -S "/tmp/.mixprof-jmap-$pid" || die "no agent socket"
	wait_for 10 test ! -e "/tmp/.mixprof-jmap-$dead" ||
		die "the next agent left the dead JVM's socket"
	jvm_go 1
	exec 7>&-
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	note "JVM killed alone: the next agent removed its socket"
done
