#!/usr/bin/env bash
# The cost of profiling the whole host for 10 s at 999 Hz with call stacks:
# mixprof (BPF counting in the kernel, symbolized folded output) against
# perf's pipeline (perf record -a -g, then perf script to get text), over
# the same load: the Warmup demo JVM (four busy threads, agent and frame
# pointers), one per four CPUs.
# Prints CPU time (user+sys) and peak RSS of each, the median of RUNS
# runs (3) each, taken in turn, and the ratios.
# Goal: mixprof >= 10x less CPU than perf, < 30 MB peak memory.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-10}
HZ=${HZ:-999}
RUNS=${RUNS:-3}
tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
load=()
cleanup() {
	local p
	for p in "${load[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

ncpu=$(nproc)
for ((i = 0; i < (ncpu + 3) / 4; i++)); do
	java -agentpath:"$BUILD/libjmap.so" -XX:+PreserveFramePointer \
		-cp "$BUILD/samples" Warmup $((SECS * 3 * RUNS + 20)) >/dev/null &
	load+=($!)
done
sleep 3	# past JIT warm-up

# measure NAME CMD...: append "NAME cpu_seconds peak_kb" to $tmp/res
measure() {
	local name=$1; shift
	/usr/bin/time -o "$tmp/t" -f '%U %S %M' "$@" >/dev/null 2>"$tmp/$name.err" ||
		{ cat "$tmp/$name.err" >&2; return 1; }
	awk -v n="$name" '{ printf "%s %.2f %d\n", n, $1 + $2, $3 }' "$tmp/t" >>"$tmp/res"
}

for ((r = 0; r < RUNS; r++)); do
	measure mixprof "$BUILD/mixprof" -F "$HZ" -o "$tmp/mixprof.folded" "$SECS"
	measure record perf record -F "$HZ" -a -g -o "$tmp/perf.data" -- sleep "$SECS"
	measure script sh -c "perf script -i '$tmp/perf.data' > '$tmp/perf.txt'"
done

# the median run of mixprof, perf record and perf script, with its memory
sort -k2,2n "$tmp/res" | awk -v runs="$RUNS" -v secs="$SECS" -v hz="$HZ" '
{ n[$1]++; if (n[$1] == int((runs + 1) / 2)) { cpu[$1] = $2; rss[$1] = $3 } }
END {
	pcpu = cpu["record"] + cpu["script"]
	prss = rss["record"] > rss["script"] ? rss["record"] : rss["script"]
	printf "whole host, %d s at %d Hz, Warmup JVM load\n", secs, hz
	printf "  mixprof            cpu %6.2f s   peak rss %7.1f MB\n", cpu["mixprof"], rss["mixprof"] / 1024
	printf "  perf record+script cpu %6.2f s   peak rss %7.1f MB  (record %.2f s, script %.2f s)\n", pcpu, prss / 1024, cpu["record"], cpu["script"]
	printf "  perf/mixprof cpu ratio %.1fx (goal >= 10x); mixprof peak rss %.1f MB (goal < 30 MB)\n", (cpu["mixprof"] > 0 ? pcpu / cpu["mixprof"] : 0), rss["mixprof"] / 1024
	printf "  (medians of %d runs each; all runs, by cpu: %s)\n", runs, all
}
{ all = all (all ? ", " : "") $1 " " $2 }'
grep -h '^mixprof: [0-9]* samples' "$tmp/mixprof.err" | sed 's/^/  /'
echo "  perf: $(grep -c '^$' "$tmp/perf.txt" || true) samples in perf script output"
