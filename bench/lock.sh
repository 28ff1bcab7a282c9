#!/usr/bin/env bash
# What --lock costs the contention it measures: LockHammer (four threads
# taking a monitor and a ReentrantLock around WORK_NS of spinning each)
# for SECS, alone and launched by `mixprof --lock`, on each JDK (the
# system's, or $MIXPROF_TEST_JDKS): the workload's own acquisitions per
# second both ways (the ratio), the waits mixprof counted and its CPU.
# With ASPROF_LIB=PATH of a libasyncProfiler.so (the user's own
# build; none comes with mixprof), a third run under its agent with
# event=lock, the alternative measured on the same machine in the same
# run. Prints numbers; never fails on one.
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
		# time(1) counts the JVM too (mixprof's child, waited for):
		# less the command's own, which mixprof's summary prints
		cpu=$(sed -n 's/.*exited with status [0-9]*; CPU \([0-9.]*\) s user, \([0-9.]*\) s system$/\1 \2/p' \
			"$tmp/err" | awk -v t="$(cat "$tmp/time")" \
			'{ split(t, a, " "); printf "%.2f", a[1] + a[2] - $1 - $2 }')
	elif [ "${2:-}" = --ap ]; then
		"$jdk/bin/java" -agentpath:"$ASPROF_LIB=start,event=lock,collapsed,file=$tmp/ap.collapsed" \
			-cp "$BUILD/samples" LockHammer 4 "$SECS" "$WORK_NS" >"$tmp/out" 2>"$tmp/err" || true
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
	[ -n "${ASPROF_LIB:-}" ] || continue
	read -r ap _ <<<"$(run "$jdk" --ap)"
	echo "$(basename "$jdk"): $ap acquisitions/s under async-profiler's event=lock" \
		"($(awk -v a="$ap" -v b="$base" 'BEGIN { printf "%.2f", b ? a / b : 0 }')x);" \
		"--lock/async-profiler $(awk -v a="$lock" -v b="$ap" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
done
