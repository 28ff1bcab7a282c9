#!/usr/bin/env bash
# mixprof attach refuses clearly, with one line and exit 1 or 2, and
# without harming the process: no such process, a process that is not a
# JVM (it must survive: SIGQUIT would kill it), a JVM whose attach is
# disabled, a non-root caller against another user's JVM, a bad command
# line. A JVM run with -Xrs (no SIGQUIT handler, listener started at
# launch) is attached without any signal.
source "$(dirname "$0")/attach_workload.sh"
attach_workload_build

# no such process (pid_max is at most 2^22)
expect_fail 1 "^mixprof: no process 99999999$" "$MIXPROF" attach 99999999

# not a JVM: named, and left alone
sleep 300 &
sleeper=$!
PIDS_TO_KILL+=("$sleeper")
# until the child has exec'd, it is still a copy of this shell
wait_for 5 grep -qx sleep "/proc/$sleeper/comm" || die "sleep did not start"
expect_fail 1 "^mixprof: process $sleeper \\(sleep\\) is not a Java VM$" \
	"$MIXPROF" attach "$sleeper"
sleep 0.5
kill -0 "$sleeper" || die "the sleep process was killed"
grep -q '^State:[[:space:]]*S' "/proc/$sleeper/status" ||
	die "sleep is not sleeping: $(grep State "/proc/$sleeper/status")"

# the command line
expect_fail 2 "missing PID" "$MIXPROF" attach
expect_fail 2 "bad PID 'abc'" "$MIXPROF" attach abc
expect_fail 2 "unexpected argument 'c'" "$MIXPROF" attach 1 b c
expect_fail 2 "bad --timeout" "$MIXPROF" attach 1 --timeout -1
expect_fail 2 "^mixprof: agent /nonexistent/libjmap.so: " \
	"$MIXPROF" attach "$sleeper" --agent /nonexistent/libjmap.so
"$MIXPROF" attach --help | grep -q '^usage: mixprof attach PID' ||
	die "attach --help"
"$MIXPROF" attach 1 help | grep -q 'dotted' || die "attach PID help"

for jdk in $(jdks); do
	v=$(basename "$jdk")
	note "== $v"

	# attach disabled on the command line: refused at once, no signal
	start_jvm "$v-disabled" "$jdk" -XX:+DisableAttachMechanism
	expect_fail 1 "^mixprof: JVM $JVM_PID runs with -XX:\\+DisableAttachMechanism$" \
		"$MIXPROF" attach "$JVM_PID"
	jvm_works "$JVM_PID" "$JVM_LOG"
	! grep -q 'Full thread dump' "$JVM_LOG" || die "SIGQUIT sent anyway"
	kill "$JVM_PID"

	# same through JAVA_TOOL_OPTIONS, without hsperfdata: from environ
	JAVA_TOOL_OPTIONS=-XX:+DisableAttachMechanism \
		start_jvm "$v-disabled-env" "$jdk" -XX:-UsePerfData
	expect_fail 1 "^mixprof: JVM $JVM_PID runs with -XX:\\+DisableAttachMechanism$" \
		"$MIXPROF" attach "$JVM_PID"
	kill "$JVM_PID"

	# -Xrs: no SIGQUIT handler, but HotSpot then starts its listener
	# at launch, so the attach needs no signal and works
	start_jvm "$v-xrs" "$jdk" -Xrs
	"$MIXPROF" attach "$JVM_PID" >/dev/null || die "-Xrs JVM: attach failed"
	[ -s "/tmp/perf-$JVM_PID.map" ] || die "-Xrs JVM: no map"
	jvm_works "$JVM_PID" "$JVM_LOG"
	kill "$JVM_PID"

	# a caller that is neither root nor the JVM's user: refused up front
	start_jvm "$v-root" "$jdk"
	expect_fail 1 "^mixprof: process $JVM_PID \\(java\\) runs as uid 0: attach as that user or as root$" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$MIXPROF" attach "$JVM_PID" --agent "$AGENT"
	jvm_works "$JVM_PID" "$JVM_LOG"
	kill "$JVM_PID"
done
note "attach_errors: ok"
