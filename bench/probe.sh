#!/usr/bin/env bash
# The cost of a Java method entry probe on call-heavy workloads (JDK 17):
# calls per second of the probed method with no agent, with the agent but
# no probe, with a count probe, with a stacks probe (USDT armed, no
# tracer attached), with mixprof -e listening (stack mode: the USDT
# program counts every call's stack; "mixprof"), after a probe was added
# and removed again, and under -XX:+ExtendedDTraceProbes (HotSpot's own
# method__entry, the flag alone, no tracer), as ratios to no agent.
# Workloads (tests/fixtures/probe/ProbeBench.java): tiny (a few arithmetic
# ops: the worst case) and mixed (a HashMap get and a StringBuilder append).
# Also JVM startup with the agent's probe support on and off.
# Measures and reports; never fails on a number.
set -euo pipefail
BUILD=${BUILD:?} TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
AGENT=$BUILD/libjmap.so CLI=$BUILD/tests/probe_cli MIXPROF=$BUILD/mixprof
FIX=$BUILD/tests/fixtures/probe
RUNS=${RUNS:-3} SECS=${SECS:-3} # also WORKLOADS="tiny mixed", MODES
[ -x "$CLI" ] && [ -f "$FIX/ProbeBench.class" ] ||
	{ echo "build first: make build"; exit 1; }
work=$(mktemp -d /tmp/mixprof-bench-probe.XXXXXX)
trap 'rm -rf "$work"' EXIT
java=$(command -v java)

# one WORKLOAD MODE: print the calls/s of one run.
one() {
	local w=$1 mode=$2 pid cli flag=""
	case $mode in
	none) "$java" -cp "$FIX" ProbeBench "$w" "$SECS" ;;
	agent) "$java" -agentpath:"$AGENT=dir=$work" -cp "$FIX" ProbeBench "$w" "$SECS" ;;
	mixprof) # launched: the JVM is held until the probe is in
		"$MIXPROF" -e "java:ProbeBench\$Work.$w" -o "$work/m.folded" \
			-- "$java" -cp "$FIX" ProbeBench "$w" "$SECS" 2>"$work/m.err" ;;
	dtrace) "$java" -XX:+UnlockDiagnosticVMOptions -XX:+ExtendedDTraceProbes \
		-cp "$FIX" ProbeBench "$w" "$SECS" ;;
	count | stacks | removed)
		[ "$mode" = stacks ] && flag=" stacks"
		rm -f "$work/j.in" "$work/c.in"; mkfifo "$work/j.in" "$work/c.in"
		"$java" -agentpath:"$AGENT=dir=$work" -cp "$FIX" ProbeBench \
			"$w" "$SECS" wait <"$work/j.in" >"$work/j.out" &
		pid=$!
		exec 7>"$work/j.in"
		"$CLI" "$pid" "$work" <"$work/c.in" >"$work/c.out" &
		cli=$!
		exec 8>"$work/c.in"
		echo "probe java:ProbeBench\$Work.$w wait$flag" >&8
		until grep -q '^ok' "$work/c.out"; do sleep 0.05; done
		if [ "$mode" = removed ]; then
			exec 8>&-
			wait "$cli"
		fi
		echo go >&7
		wait "$pid"
		exec 7>&- 8>&-
		wait "$cli" 2>/dev/null || true
		cat "$work/j.out" ;;
	esac | sed -n 's/^rate //p'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for w in ${WORKLOADS:-tiny mixed}; do
	echo "workload $w: median of $RUNS runs of ${SECS}s, calls/s"
	base=
	for mode in ${MODES:-none agent count stacks mixprof removed dtrace}; do
		for r in $(seq "$RUNS"); do one "$w" "$mode"; done >"$work/rates"
		m=$(median <"$work/rates")
		[ -z "$base" ] && base=$m
		awk -v n="$mode" -v m="$m" -v b="$base" 'BEGIN {
			printf "  %-7s %12.0f  %5.2fx slower\n", n, m, b / m }'
	done
done

echo "startup: java -version, median of 9 runs, ms"
for mode in none probes=off probes=on; do
	for r in $(seq 9); do
		s=$(date +%s%N)
		case $mode in
		none) "$java" -version 2>/dev/null ;;
		*) "$java" -agentpath:"$AGENT=dir=$work,$mode" -version 2>/dev/null ;;
		esac
		echo $((($(date +%s%N) - s) / 1000000))
	done | median | awk -v n="$mode" '{ printf "  %-10s %5d\n", n, $1 }'
done
