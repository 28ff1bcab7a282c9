#!/usr/bin/env bash
# The cost of the HotSpot unwinder against the frame-pointer walk, on the
# same JVM (run with -XX:+PreserveFramePointer, so both walks are whole):
# mixprof -p at 999 Hz with MIXPROF_UNWIND=fp and =hotspot, over Callers
# (compiled code, a JNI call per loop), Recurse (300 compiled frames deep)
# and Deflate (zlib under Java: the frame anchor).
# Prints, per load and mode: BPF run time per sample (run_time_ns /
# run_cnt of mixprof_sample, kernel.bpf_stats_enabled switched on for the
# run and restored after), mixprof's CPU time, the share of samples
# reaching their thread's root; then the hotspot/fp ratios (goal <= 2x).
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-8}
HZ=${HZ:-999}
. "$(dirname "$0")/common.bash" # bench_start, prog_stats
bench_start


# run LOAD MODE: profile the load's JVM for SECS; append a result line
run() {
	local name=$1 mode=$2 env=()
	env=(MIXPROF_UNWIND="$mode")
	bench_measure "${env[@]}" || return 1
	unnamed=$(sed -n 's/.*whole stacks: \([0-9.]*\)%.*/\1/p' "$tmp/err")
	echo "$name $mode $m_ns $m_cnt $m_user $m_sys ${unnamed:-0} $m_smp" >>"$tmp/res"
}

start_load() { # ARGS...: a JVM whose frame pointers both walks can use
	java -agentpath:"$BUILD/libjmap.so" -XX:+PreserveFramePointer \
		-cp "$BUILD/samples" "$@" >/dev/null &
	load=$!
	sleep 2 # past start-up
}

for l in "Callers" "Recurse 0 300" "Deflate"; do
	set -- $l
	name=$(echo "$1" | tr A-Z a-z)
	start_load "$1" $((SECS * 2 + 10)) ${3:-}
	run "$name" fp
	run "$name" hotspot
	kill "$load"; wait "$load" 2>/dev/null || true
done
load=

awk -v secs="$SECS" -v hz="$HZ" '
{
	k = $1 " " $2; ns[k] = $4 ? $3 / $4 : 0; cnt[k] = $4
	cpu[k] = $5 + $6; root[k] = $7; loads[$1] = 1
}
END {
	printf "one JVM, mixprof -p, %d s at %d Hz\n", secs, hz
	for (l in loads) {
		for (m = 0; m < 2; m++) {
			k = l " " (m ? "hotspot" : "fp")
			printf "  %-8s %-7s bpf %6.0f ns/sample (%d runs)  mixprof cpu %5.2f s  reach the root %6.2f%%\n", l, m ? "hotspot" : "fp", ns[k], cnt[k], cpu[k], root[k]
		}
		p = l " fp"; i = l " hotspot"
		printf "  %-8s hotspot/fp: bpf %.2fx per sample, mixprof cpu %.2fx (goal <= 2x)\n", l, ns[p] ? ns[i] / ns[p] : 0, cpu[p] ? cpu[i] / cpu[p] : 0
	}
}' "$tmp/res"
