#!/usr/bin/env bash
# What a count probe does to a never-ending loop that calls the probed
# method (samples/ProbedLoop: OSR code, the call inlined), in calls/s of
# the loop: before, with the probe (mixprof -p PID --count), within
# seconds after mixprof ends normally, and after mixprof is killed
# (kill -9). Cases: "callee" probes ProbedLoop$Callee.tiny (another class
# than the loop's), "glob" probes 'ProbedLoop*.tiny' (whose class part
# also names the loop's class, which declares no tiny), "local" probes
# ProbedLoop.local (in the loop's own class: HotSpot leaves the loop
# interpreted for good). Medians of 4 rates (500 ms each).
# JAVAS="java /path/to/jdk/bin/java" picks the JVMs. Measures and
# reports; never fails on a number.
set -euo pipefail
BUILD=${BUILD:?} TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
MIXPROF=$BUILD/mixprof SAMPLES=$BUILD/samples
[ -f "$SAMPLES/ProbedLoop.class" ] || { echo "build first: make build"; exit 1; }
work=$(mktemp -d /tmp/mixprof-bench-osr.XXXXXX)
jvm=
trap '[ -z "$jvm" ] || kill -9 "$jvm" 2>/dev/null; rm -rf "$work"' EXIT

rates() { grep -c '^rate ' "$work/out" 2>/dev/null || true; }

# median N: the median of the loop's next N rates, in M calls/s.
median() {
	local from
	from=$(rates)
	while [ "$(rates)" -lt $((from + $1)) ]; do sleep 0.1; done
	sed -n 's/^rate //p' "$work/out" | sed -n "$((from + 1)),$((from + $1))p" |
		sort -n | sed -n "$((($1 + 1) / 2))p" | awk '{ printf "%.0f", $1 / 1e6 }'
}

# one JAVA CASE: a line of the table.
one() {
	local java=$1 case=$2 mode=callee pat before during after killed mp
	case $case in
	callee) pat='java:ProbedLoop$Callee.tiny' ;;
	glob) pat='java:ProbedLoop*.tiny' ;;
	local) pat='java:ProbedLoop.local' mode=local ;;
	esac
	"$java" -cp "$SAMPLES" ProbedLoop 120 $mode >"$work/out" 2>&1 &
	jvm=$!
	until grep -qs '^ready' "$work/out"; do sleep 0.1; done
	before=$(median 4)
	"$MIXPROF" -p "$jvm" --count -e "$pat" 3 >/dev/null 2>"$work/err" &
	mp=$!
	sleep 0.8
	during=$(median 3)
	wait "$mp"
	median 4 >/dev/null
	after=$(median 4)
	"$MIXPROF" -p "$jvm" --count -e "$pat" >/dev/null 2>&1 &
	mp=$!
	sleep 2
	kill -9 "$mp"
	wait "$mp" 2>/dev/null || true
	median 4 >/dev/null
	killed=$(median 4)
	kill -9 "$jvm"
	wait "$jvm" 2>/dev/null || true
	jvm=
	printf '%-8s %-7s %8s %8s %8s %8s\n' "$("$java" -version 2>&1 |
		sed -n '1s/[^"]*"\([0-9]*\).*/\1/p')" "$case" "$before" "$during" \
		"$after" "$killed"
}

printf '%-8s %-7s %8s %8s %8s %8s\n' JDK case before probe after killed
for java in ${JAVAS:-java}; do
	for c in callee glob local; do
		one "$java" "$c"
	done
done
echo "(M calls/s of the loop)"
