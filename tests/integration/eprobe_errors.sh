#!/usr/bin/env bash
# mixprof -e's errors, one clear line each: bad pattern (exit 2), no
# matching method (1), a process that is no JVM (1), a JVM without the
# agent and --no-attach (1), options that do not go with -e (2).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

# expect STATUS REGEX ARGS...: mixprof ARGS exits STATUS with one stderr
# line matching REGEX.
expect() {
	local want=$1 re=$2 st=0; shift 2
	"$MIXPROF" "$@" >"$TMPD/e.out" 2>"$TMPD/e.err" || st=$?
	[ $st -eq "$want" ] || die "mixprof $*: exit $st, want $want: $(cat "$TMPD/e.err")"
	grep -v '^Picked up\|^mixprof: .* exited with\|^mixprof: -e: loading the map agent' "$TMPD/e.err" >"$TMPD/e.msg" || true
	[ "$(wc -l <"$TMPD/e.msg")" = 1 ] && grep -q "$re" "$TMPD/e.msg" ||
		die "mixprof $*: message: $(cat "$TMPD/e.err")"
	note "$(cat "$TMPD/e.msg")"
}

jdk=$(jdks | sed -n 1p)
expect 2 '^mixprof: --count needs -e' --count 1
expect 2 '^mixprof: -e needs -p PID or a command' -e 'java:A.b' 1
expect 2 '^mixprof: -F does not apply to -e' -F 99 -p 1 -e 'java:A.b'
sleep 30 & sl=$!
PIDS_TO_KILL+=("$sl")
expect 1 "^mixprof: -e: process $sl is not a JVM\$" -p "$sl" -e 'java:A.b' 1

jvm_start jvm "$jdk/bin/java" -XX:+PreserveFramePointer -cp "$PROBE_FIX" ProbeCalls
jvm_go 1
expect 1 "^mixprof: -e: JVM $pid has no probe control socket" \
	--no-attach -p "$pid" -e 'java:A.b' --count 1
expect 2 "^mixprof: -e 'java:Probe Calls.work': bad pattern: " \
	-p "$pid" -e 'java:Probe Calls.work' --count 1
expect 2 "^mixprof: -e 'java:ProbeCalls': bad pattern: " \
	-p "$pid" -e 'java:ProbeCalls' --count 1
expect 1 "^mixprof: -e 'java:ProbeCalls\$Target.nope': no loaded method matches (a class" \
	-p "$pid" -e 'java:ProbeCalls$Target.nope' 1
# the second pattern fails: the first one's probe goes too
expect 1 "^mixprof: -e 'java:No.such': no loaded method matches (a class is matched with its package: if it has one, try 'java:\*.No.such')\$" \
	-p "$pid" -e 'java:ProbeCalls$Target.work' -e 'java:No.such' 1
expect 1 "^mixprof: -e 'java:pkg.No.such': no loaded method matches\$" \
	-p "$pid" -e 'java:pkg.No.such' 1
agent_clean "$pid"
exec 7>&-
wait "$pid" || die "JVM failed"
no_jmap_lines "$TMPD/jvm.err"
