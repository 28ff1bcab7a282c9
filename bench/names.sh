#!/usr/bin/env bash
# The cost of naming compiled Java frames from the JVM's metadata (issue
# 14) against the perf-map path, on the same JVM: JNames (inlining, four
# workers) started with the agent, so its map is whole, profiled with -p
# at 999 Hz twice: MIXPROF_NO_JNAMES=1 (the map names compiled frames, as
# before) and the default (BPF lists each compiled frame's nmethod,
# jnamer reads its debug data). Prints, per mode: BPF run time per sample
# (run_time_ns / run_cnt of mixprof_sample, kernel.bpf_stats_enabled on
# for the run and restored after), mixprof's CPU time per sample, its
# peak RSS; then the names/map ratios.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-8}
HZ=${HZ:-999}
. "$(dirname "$0")/common.bash" # bench_start, bench_run
bench_start


java -agentpath:"$BUILD/libjmap.so" -cp "$BUILD/samples" JNames 4 >"$tmp/jout" &
load=$!
for _ in $(seq 100); do grep -qs ready "$tmp/jout" && break; sleep 0.1; done
sleep 2 # past start-up
bench_run map MIXPROF_NO_JNAMES=1
bench_run names
kill "$load"; wait "$load" 2>/dev/null || true
load=

awk -v secs="$SECS" -v hz="$HZ" '
{
	m = $1; ns[m] = $3 ? $2 / $3 : 0; cnt[m] = $3
	cpu[m] = $4 + $5; rss[m] = $6; smp[m] = $7
}
END {
	printf "one JVM (JNames, agent loaded), mixprof -p, %d s at %d Hz\n", secs, hz
	for (i = 0; i < 2; i++) {
		m = i ? "names" : "map"
		printf "  %-5s bpf %6.0f ns/sample (%d runs)  mixprof cpu %5.2f s = %5.1f us/sample (%d samples)  peak RSS %d MB\n", m, ns[m], cnt[m], cpu[m], smp[m] ? 1e6 * cpu[m] / smp[m] : 0, smp[m], rss[m] / 1024
	}
	printf "  names/map: bpf %.2fx per sample, mixprof cpu per sample %.2fx\n", ns["map"] ? ns["names"] / ns["map"] : 0, (cpu["map"] && smp["names"]) ? (cpu["names"] / smp["names"]) / (cpu["map"] / smp["map"]) : 0
}' "$tmp/res"
