#!/usr/bin/env bash
# The cost of naming interpreted frames: mixprof -p on one JVM at 999 Hz,
# with the BPF frame-pointer walk for interpreted frames (the default) and
# without it (MIXPROF_NO_INTERP=1: the plain stack-map path), over two
# loads: Ratio under -Xint (every Java frame interpreted: the worst case)
# Warmup (a JVM warming up: some frames interpreted), and Recurse under
# -Xint (800 interpreted frames deep: the walk's upper bound).
# Prints, per load and mode: BPF run time per sample (run_time_ns /
# run_cnt of mixprof_sample, kernel.bpf_stats_enabled switched on for the
# run and restored after), mixprof's CPU time, and the share of samples
# with an unnamed "Interpreter" frame; then the with/without ratios.
# Goal: within 2x of the plain path.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-8}
HZ=${HZ:-999}
. "$(dirname "$0")/common.bash" # bench_start, prog_stats
bench_start


# run LOAD MODE: profile the load's JVM for SECS; append a result line
run() {
	local name=$1 mode=$2 env=()
	[ "$mode" = plain ] && env=(MIXPROF_NO_INTERP=1)
	bench_measure "${env[@]}" || return 1
	unnamed=$(awk '{ t += $NF; if (/(^|;)Interpreter(;| [0-9]+$)/) u += $NF }
		END { printf "%.2f", t ? 100 * u / t : 0 }' "$tmp/out.folded")
	echo "$name $mode $m_ns $m_cnt $m_user $m_sys $unnamed $m_smp" >>"$tmp/res"
}

start_load() { # ARGS...: a JVM with the agent, as a user would run it
	java -agentpath:"$BUILD/libjmap.so" -XX:+PreserveFramePointer \
		-cp "$BUILD/samples" "$@" >/dev/null &
	load=$!
	sleep 2 # past start-up
}

start_load -Xint Ratio $((SECS * 2 + 10))
run ratio-xint plain
run ratio-xint interp
kill "$load"; wait "$load" 2>/dev/null || true
start_load Warmup $((SECS * 2 + 10))
run warmup plain
run warmup interp
kill "$load"; wait "$load" 2>/dev/null || true
# the worst case: 800 interpreted frames per sample, 64 of them walked
# and named, the rest left as Interpreter
start_load -Xint Recurse $((SECS * 2 + 10)) 800
run recurse-xint plain
run recurse-xint interp
kill "$load"; wait "$load" 2>/dev/null || true
load=

awk -v secs="$SECS" -v hz="$HZ" '
{
	k = $1 " " $2; ns[k] = $4 ? $3 / $4 : 0; cnt[k] = $4
	cpu[k] = $5 + $6; un[k] = $7; loads[$1] = 1
	# all run time (other processes get only the pid filter)
	# charged to the JVM samples: an upper bound per sample
	nst[k] = $8 ? $3 / $8 : 0
}
END {
	printf "one JVM, mixprof -p, %d s at %d Hz\n", secs, hz
	for (l in loads) {
		for (m = 0; m < 2; m++) {
			k = l " " (m ? "interp" : "plain")
			printf "  %-11s %-6s bpf %5.0f ns/run (%d runs), %5.0f ns/JVM sample  mixprof cpu %5.2f s  unnamed Interpreter %6.2f%%\n", l, m ? "interp" : "plain", ns[k], cnt[k], nst[k], cpu[k], un[k]
		}
		p = l " plain"; i = l " interp"
		printf "  %-11s interp/plain: bpf %.2fx per run, %.2fx per JVM sample, mixprof cpu %.2fx (goal <= 2x)\n", l, ns[p] ? ns[i] / ns[p] : 0, nst[p] ? nst[i] / nst[p] : 0, cpu[p] ? cpu[i] / cpu[p] : 0
	}
}' "$tmp/res"
