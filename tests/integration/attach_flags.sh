#!/usr/bin/env bash
# attach_flags__jvm_flag() against real JVMs: what the profiler uses to warn
# about -XX:-PreserveFramePointer. Read from hsperfdata (every option the
# JVM parsed, last one wins), or from environ and cmdline without it.
# Driven through the unit test binary's "PID FLAG" mode; -2 is -ENOENT
# (not set: HotSpot's default).
source "$(dirname "$0")/attach_workload.sh"
attach_workload_build
probe=$BUILD/tests/unit/test_attach_flags
FP=PreserveFramePointer

# expect_flag WANT NAME JDK [JAVA OPTIONS...] (environment via env)
expect_flag() {
	local want=$1 name=$2 jdk=$3 got; shift 3
	start_jvm "$name" "$jdk" "$@"
	got=$("$probe" "$JVM_PID" "$FP")
	[ "$got" = "$want" ] || die "$name: $FP = $got, want $want"
	kill "$JVM_PID"
	note "$name: $FP = $got"
}

for jdk in $(jdks); do
	v=$(basename "$jdk")
	expect_flag -2 "$v-default" "$jdk"
	expect_flag 1 "$v-on" "$jdk" -XX:+$FP
	expect_flag 0 "$v-off" "$jdk" -XX:+$FP -Xss1m -XX:-$FP
	JAVA_TOOL_OPTIONS=-XX:+$FP expect_flag 0 "$v-tool-off" "$jdk" -XX:-$FP
	JAVA_TOOL_OPTIONS=-XX:+$FP expect_flag 1 "$v-tool-noperf" "$jdk" \
		-XX:-UsePerfData
	JDK_JAVA_OPTIONS=-XX:+$FP expect_flag 1 "$v-jdkopts" "$jdk"
	expect_flag -2 "$v-noperf" "$jdk" -XX:-UsePerfData
done
note "attach_flags: ok"
