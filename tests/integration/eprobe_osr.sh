#!/usr/bin/env bash
# runner: alone (it compares the loop's speeds before and after the probes)
# A count probe on a method a never-ending loop calls (the loop runs in
# OSR code with the call inlined): within a few seconds of the probes'
# removal the loop is back at (at least half) its speed before them,
# after a normal end and after mixprof is killed. samples/ProbedLoop
# prints the loop's calls/s every 250 ms; speeds are compared with the
# same loop's own, never with a fixed time. The pattern's class part also
# names the loop's class, which declares no matching method and must not
# be retransformed: HotSpot never compiles a replaced method again, so
# that would leave the loop interpreted for good. That is what happens
# when the probed method is in the loop's own class (no fix is possible):
# then mixprof names the loop and its thread.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

PAT='java:ProbedLoop*.tiny'
PERIOD=250 # ms per rate: the medians and bests below are of 4 (1 s)

# rates: how many "rate" lines the loop has printed so far.
rates() {
	grep -c '^rate ' "$TMPD/jvm.out" || true
}

# speed N [best]: the median (or the best) of the loop's next N rates.
# Other processes share the CPUs: the best rate after the probes is
# compared with the median before (interpreted code is 20-30x slower, so
# noise cannot pass for recovery).
speed() {
	local from pick=$((($1 + 1) / 2))
	[ "${2:-}" != best ] || pick=$1
	from=$(rates)
	wait_for 30 lines_ge "$TMPD/jvm.out" '^rate ' $((from + $1)) ||
		die "ProbedLoop stopped reporting: $(cat "$TMPD/jvm.err")"
	sed -n 's/^rate //p' "$TMPD/jvm.out" | sed -n "$((from + 1)),$((from + $1))p" |
		sort -n | sed -n "${pick}p"
}

# strays: "0 0 STRAYS" when the agent has no probe left (STRAYS: calls
# that reached a removed site; a call in flight at the removal may).
strays() {
	printf 'status\n' | "$PROBE_CLI" "$pid" 2>&1 | sed -n 's/^ok \(0 0 [0-9]*\)$/\1/p'
}

# recovered BEFORE AFTER WHAT: AFTER is at least half of BEFORE.
recovered() {
	[ "$2" -ge $(($1 / 2)) ] ||
		die "$3: the loop ran $2 calls/s after the probes, $1 before"
}

# check_jdk JDK: the probes on one JDK's loop. The JDKs run at the same
# time (each_jdk: eprobe_jdks are all of them), one loop per CPU (the
# test runs alone); to fail, the best rate after the probes must fall
# under half the median before, where interpreted code is 20-30x slower.
check_jdk() {
	local jdk=$1
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -cp "$SAMPLES" ProbedLoop 120 callee $PERIOD
	wait_for 60 grep -q '^ready' "$TMPD/jvm.out" ||
		die "ProbedLoop not ready: $(cat "$TMPD/jvm.err")"
	before=$(speed 4)

	# a normal end: the probes leave when mixprof does
	eprobe_start "$TMPD/c.out" "$TMPD/c.err" -p "$pid" --count -e "$PAT" 2
	during=$(speed 2)
	wait "$mp" || die "mixprof failed: $(cat "$TMPD/c.err")"
	grep -q '^ProbedLoop\$Callee.tiny(I)I  *[1-9]' "$TMPD/c.out" ||
		die "tiny not counted: $(cat "$TMPD/c.out")"
	! grep -q 'in thread' "$TMPD/c.err" ||
		die "calls named as left in replaced code: $(cat "$TMPD/c.err")"
	s1=$(strays)
	[ -n "$s1" ] || die "probes left after a normal end: $(strays)"
	speed 4 >/dev/null # settle (1 s, as with 2 rates of 500 ms): recompiles
	after=$(speed 4 best)
	recovered "$before" "$after" "normal end"
	[ "$(strays)" = "$s1" ] || die "instrumented code still runs: $s1, then $(strays)"

	# mixprof killed: the agent removes the probes when the socket closes
	eprobe_start "$TMPD/k.out" "$TMPD/k.err" -p "$pid" --count -e "$PAT"
	speed 2 >/dev/null
	eprobe_end KILL
	wait_for 10 grep -q . <(strays) || die "probes left after kill -9"
	speed 4 >/dev/null # settle
	killed=$(speed 4 best)
	recovered "$before" "$killed" "kill -9"

	kill "$pid"
	wait "$pid" 2>/dev/null || true
	exec 7>&-
	no_jmap_lines "$TMPD/jvm.err"
	note "calls/s: $before before, $during with the probe," \
		"$after after it, $killed after kill -9 of mixprof"

	# the loop in the probed class: it stays interpreted, and is named
	jvm_start jvm "$jdk/bin/java" -cp "$SAMPLES" ProbedLoop 120 local $PERIOD
	wait_for 60 grep -q '^ready' "$TMPD/jvm.out" ||
		die "ProbedLoop not ready: $(cat "$TMPD/jvm.err")"
	before=$(speed 2)
	"$MIXPROF" -p "$pid" --count -e 'java:ProbedLoop.local' 1 \
		>"$TMPD/l.out" 2>"$TMPD/l.err" || die "mixprof failed: $(cat "$TMPD/l.err")"
	grep -q "^mixprof:   ProbedLoop.loopLocal in thread 'probed-loop'$" "$TMPD/l.err" ||
		die "the loop left interpreted is not named: $(cat "$TMPD/l.err")"
	after=$(speed 2)
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	exec 7>&-
	note "loop in the probed class: $before calls/s before, $after after; named"
}

each_jdk check_jdk
