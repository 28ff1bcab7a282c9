#!/usr/bin/env bash
# What --lock costs the contention it measures: LockHammer (four threads
# taking a monitor and a ReentrantLock around WORK_NS of spinning each)
# for SECS, alone and launched by `mixprof --lock`, on each JDK (the
# system's, or $MIXPROF_TEST_JDKS): the workload's own acquisitions per
# second both ways (the ratio), the waits mixprof counted and its CPU.
# Prints numbers; never fails on one.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-5}
WORK_NS=${WORK_NS:-20000}
JDKS=${MIXPROF_TEST_JDKS:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
. "$(dirname "$0")/common.bash"
bench_start

# run JDK [--lock]: "OPS_PER_S WAITS CPU_S" (the last two with --lock:
# launched by mixprof, whose probes are in from the JVM's first tick)
run() {
	local jdk=$1 waits=- cpu=-
	if [ "${2:-}" = --lock ]; then
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$BUILD/mixprof" --lock \
			-o "$tmp/l.folded" -- "$jdk/bin/java" -cp "$BUILD/samples" \
			LockHammer 4 "$SECS" "$WORK_NS" >"$tmp/out" 2>"$tmp/err" || true
		waits=$(sed -n 's/^mixprof: \([0-9]*\) lock waits begun.*/\1/p' "$tmp/err")
		cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/time")
	else
		"$jdk/bin/java" -cp "$BUILD/samples" LockHammer 4 "$SECS" "$WORK_NS" >"$tmp/out"
	fi
	echo "$(awk '/^ops/ { printf "%.0f", $2 / $3 }' "$tmp/out") $waits $cpu"
}

for jdk in $JDKS; do
	read -r base _ <<<"$(run "$jdk")"
	read -r lock waits cpu <<<"$(run "$jdk" --lock)"
	ns=$(awk '{ s += $NF } END { printf "%.3f", s / 1e9 }' "$tmp/l.folded")
	echo "$(basename "$jdk"): $base acquisitions/s alone, $lock under --lock" \
		"($(awk -v a="$lock" -v b="$base" 'BEGIN { printf "%.2f", b ? a / b : 0 }')x);" \
		"mixprof: $waits waits ($ns s waited) in $SECS s, its CPU $cpu s"
done
