#!/usr/bin/env bash
# Another user pre-creates the agent's files for a root JVM's pid
# (/tmp/perf-PID.map, /tmp/.mixprof-jmap-PID; any user may write /tmp).
# The agent refuses them, rightly; mixprof must say which file, whose,
# and what to do, and once the file is gone a new run works (the agent
# already loaded binds its control socket when loaded again).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

SQ=mpsq$$ # a throwaway system user, no home
add_user "$SQ" || die "useradd $SQ"
trap 'userdel "$SQ" 2>/dev/null; cleanup_common' EXIT
as_sq() { setpriv --reuid="$SQ" --regid="$SQ" --clear-groups "$@"; }
sq_uid=$(id -u "$SQ")
CALLEE='java:ProbedLoop$Callee.tiny'

# check_jdk JDK: squatted files named on one JDK (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $(jdk_name "$jdk")"
	start_java "$jdk/bin/java" "$TMPD/jvm.out" "$TMPD/jvm.err" \
		-cp "$SAMPLES" ProbedLoop 120
	# 30% of a CPU: its loop need only call tiny while the runs
	# below attach, not spin a whole CPU through the test
	cpu_cap "$pid" 30
	map=/tmp/perf-$pid.map sock=/tmp/.mixprof-jmap-$pid
	as_sq touch "$map" "$sock" || die "$SQ cannot create files in /tmp"
	wait_for 60 grep -q '^ready' "$TMPD/jvm.out" ||
		die "ProbedLoop not ready: $(cat "$TMPD/jvm.err")"

	# a CPU profile with the agent: the squatted map is named, with its owner
	"$MIXPROF" -p "$pid" --agent 1 >/dev/null 2>"$TMPD/p.err" ||
		die "mixprof -p failed: $(cat "$TMPD/p.err")"
	grep -q "^mixprof: $pid: $map belongs to uid $sq_uid ($SQ), not to the JVM's user uid 0 (root): .*\[unknown\]; remove it" \
		"$TMPD/p.err" || die "squatted map not named: $(cat "$TMPD/p.err")"

	# probes: the squatted socket is named (the map, gone, is fine)
	rm -f "$map"
	st=0
	"$MIXPROF" -p "$pid" -e "$CALLEE" --count 1 >/dev/null 2>"$TMPD/e.err" || st=$?
	[ $st -ne 0 ] || die "mixprof -e succeeded without a socket"
	grep -q "^mixprof: -e: JVM $pid: $sock belongs to uid $sq_uid ($SQ), not to the JVM's user uid 0 (root): .*remove it" \
		"$TMPD/e.err" || die "squatted socket not named: $(cat "$TMPD/e.err")"
	grep -q 'exists and is not our socket' "$TMPD/jvm.err" ||
		die "the agent did not refuse $sock: $(cat "$TMPD/jvm.err")"

	# the advice works: without the file, the next run probes
	rm -f "$sock"
	"$MIXPROF" -p "$pid" -e "$CALLEE" --count 1 >"$TMPD/c.out" 2>"$TMPD/c.err" ||
		die "mixprof -e after the removal: $(cat "$TMPD/c.err")"
	grep -q '^ProbedLoop\$Callee.tiny(I)I  *[1-9]' "$TMPD/c.out" ||
		die "not counted after the removal: $(cat "$TMPD/c.out")"
	[ -S "$sock" ] && [ "$(stat -c %u "$sock")" = 0 ] || die "$sock not the agent's"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	note "squatted map and socket named with their owner; a run after their removal works"
}

each_jdk check_jdk
