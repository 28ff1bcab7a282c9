#!/usr/bin/env bash
# The BPF cost of virtual threads' frozen frames (issue 25): VThreads (four
# tasks on virtual threads, 200 frames deep, CPU work between 1 ms sleeps)
# on the newest JDK 21+ beside the system one, profiled with -p at 999 Hz
# twice: MIXPROF_NO_VTHREAD_CHUNKS=1 (the walk stops at the continuation
# return barrier with [frozen frames]) and the default (it goes on through
# the stack chunks to the carrier's root). Prints, per mode: BPF run time
# per sample, mixprof's CPU per sample, its peak RSS, the share of
# VThreads.work's samples that reach the carrier's root; then the ratios;
# then, with --off-cpu, the BPF time of a virtual thread's unmount and
# mount (its waits' uprobes).
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-8}
HZ=${HZ:-999}
. "$(dirname "$0")/common.bash" # bench_start, bench_run
bench_start

# the newest JDK of major 21 or later beside the system one
jdk=
best=0
sys=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
for j in "$(dirname "$sys")"/*/; do
	v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$j/release" 2>/dev/null || true)
	[ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best" ] && best=$v && jdk=${j%/}
done
[ -n "$jdk" ] || { echo "no JDK 21 or later: nothing to measure"; exit 0; }

"$jdk/bin/java" -cp "$BUILD/samples" VThreads $((SECS * 2 + 20)) >"$tmp/jout" &
load=$!
for _ in $(seq 100); do grep -qs ready "$tmp/jout" && break; sleep 0.1; done
sleep 2 # past start-up
whole() { # the share of VThreads.work's samples whose line reaches a root
	awk '/;VThreads\.work/ { n = $NF; hot += n
		if ($0 ~ /^[^;]*;(start_thread|(__)?clone3?|thread_native_entry);/) w += n }
		END { printf "%.1f", hot ? 100 * w / hot : 0 }' "$tmp/out.folded"
}
bench_run stop MIXPROF_NO_VTHREAD_CHUNKS=1
echo "stop $(whole)" >>"$tmp/whole"
bench_run chunks
echo "chunks $(whole)" >>"$tmp/whole"
# --off-cpu: a virtual thread's unmount (its stack walked at the freeze)
# and mount (the thaw), read while it runs
"$BUILD/mixprof" --off-cpu -p "$load" -o "$tmp/off.folded" "$SECS" 2>"$tmp/offerr" &
mp=$!
f="0 0" t="0 0"
while kill -0 "$mp" 2>/dev/null; do
	s=$(prog_stats "$mp" mixprof_vt_freeze || true)
	[ -n "$s" ] && f=$s
	s=$(prog_stats "$mp" mixprof_vt_thaw || true)
	[ -n "$s" ] && t=$s
	sleep 0.5
done
wait "$mp" || { cat "$tmp/offerr" >&2; exit 1; }
echo "waits $f $t" >>"$tmp/whole"
kill "$load"; wait "$load" 2>/dev/null || true
load=

awk -v secs="$SECS" -v hz="$HZ" -v jdk="$best" '
FILENAME ~ /whole$/ && $1 == "waits" { fns = $2; fn = $3; tns = $4; tn = $5; next }
FILENAME ~ /whole$/ { whole[$1] = $2; next }
{
	m = $1; ns[m] = $3 ? $2 / $3 : 0; cnt[m] = $3
	cpu[m] = $4 + $5; rss[m] = $6; smp[m] = $7
}
END {
	printf "one JVM (VThreads, JDK %d), mixprof -p, %d s at %d Hz\n", jdk, secs, hz
	for (i = 0; i < 2; i++) {
		m = i ? "chunks" : "stop"
		printf "  %-6s bpf %6.0f ns/sample (%d runs)  mixprof cpu %5.2f s = %5.1f us/sample (%d samples)  peak RSS %d MB  VThreads.work whole %s%%\n", m, ns[m], cnt[m], cpu[m], smp[m] ? 1e6 * cpu[m] / smp[m] : 0, smp[m], rss[m] / 1024, whole[m]
	}
	printf "  chunks/stop: bpf %.2fx per sample, mixprof cpu per sample %.2fx\n", ns["stop"] ? ns["chunks"] / ns["stop"] : 0, (cpu["stop"] && smp["chunks"]) ? (cpu["chunks"] / smp["chunks"]) / (cpu["stop"] / smp["stop"]) : 0
	printf "  --off-cpu, %d s: bpf %.0f ns per unmount (freeze: the stack walked, %d), %.0f ns per mount (thaw, %d)\n", secs, fn ? fns / fn : 0, fn, tn ? tns / tn : 0, tn
}' "$tmp/whole" "$tmp/res"
