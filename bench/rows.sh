#!/usr/bin/env bash
# The cost of native unwind rows (unwind/). 1) BPF run time per sample of
# the rows walk (MIXPROF_UNWIND unset) against the frame-pointer walk
# (MIXPROF_UNWIND=fp) on nofp's source built WITH frame pointers, mixprof
# -p at 999 Hz; per sample and per user frame, with the share reaching
# main: first stacks both walk whole (main -> middle -> inner; goal: rows
# <= 3x fp per sample), then through glibc's qsort (no frame pointers),
# where fp stops and rows go on to main.
# 2) A whole-host profile of HOST_SECS (60) on a host kept busy (Warmup,
# programs without frame pointers, a shell loop): mixprof's maximum RSS
# (goal < 64 MB), CPU, the rows' start-up cost and size, the share of
# samples reaching a root (goal >= 95% for processes with rows), junk
# [unknown] chains (goal none) and Warmup's zlib stacks.
# 3) Making rows: libjvm's (the biggest file a profile meets) by our
# own CFA reader and by libdw's CFI interface (tests/tools/rowsoracle,
# which checks they are equal), CPU time per row, the least of 5 runs.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
SECS=${SECS:-6}
HOST_SECS=${HOST_SECS:-60}
HZ=${HZ:-999}
. "$(dirname "$0")/common.bash" # bench_start, prog_stats
bench_start


# run MODE: profile the load for SECS; print "mode ns/sample frames/sample main%"
run() {
	local mode=$1 tp mp last="0 0" s
	env MIXPROF_UNWIND="$mode" "$BUILD/mixprof" -F "$HZ" -p "$load" \
		-o "$tmp/out.folded" "$SECS" 2>"$tmp/err" &
	tp=$!
	mp=$tp
	while kill -0 "$tp" 2>/dev/null; do
		s=$(prog_stats "$mp" || true)
		[ -n "$s" ] && last=$s
		sleep 0.5
	done
	wait "$tp" || { cat "$tmp/err" >&2; return 1; }
	read -r ns cnt <<<"$last"
	awk -v mode="$mode" -v ns="$ns" -v cnt="$cnt" '
	{
		n = $NF; t += n
		line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";"); u = 0
		for (i = 2; i <= k; i++) if (fr[i] !~ /_\[k\]$/) u++
		frames += n * u
		if (line ~ /;main;(outer|middle);/) whole += n
	}
	END {
		printf "  %-8s bpf %6.0f ns/sample (%d runs), %5.1f user frames/sample, %6.0f ns/frame; %.1f%% reach main\n",
			mode == "hotspot" ? "rows" : mode, cnt ? ns / cnt : 0, cnt, t ? frames / t : 0,
			(cnt && frames) ? ns / cnt / (frames / t) : 0, t ? 100 * whole / t : 0
	}' "$tmp/out.folded"
}

jvm=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/server/libjvm.so
echo "rows of the JDK on PATH's libjvm, made by our CFA reader and by libdw"
"$BUILD/tests/rowsoracle" -r 5 "$jvm" | sed 's/^[^:]*: /  libjvm: /' || true

cc -O2 -fno-omit-frame-pointer -o "$tmp/withfp" "$TOP/tests/fixtures/unwind/nofp.c"
# ratio NAME: rows/fp per sample and per frame of the last two runs
ratio() {
	awk '{ sub(/.*bpf */, ""); print $1, $8 }' "$tmp/fp" "$tmp/rows" | paste -sd' ' |
		awk -v n="$1" '{ printf "  rows/fp (%s): bpf %.2fx per sample, %.2fx per frame\n",
			n, $1 ? $3 / $1 : 0, $2 ? $4 / $2 : 0 }'
}
# the same stacks both ways (main -> middle -> inner, no glibc frame):
# the cost of a frame by rows against one by frame pointer
"$tmp/withfp" $((SECS * 2 + 6)) noqsort &
load=$!
sleep 1
echo "one native process (frame pointers in all its frames), mixprof -p, $SECS s at $HZ Hz"
run fp | tee "$tmp/fp"
run hotspot | tee "$tmp/rows"
ratio "same stacks, goal <= 3x per sample"
kill "$load"; wait "$load" 2>/dev/null || true
# through glibc's qsort (no frame pointers): frame pointers stop there,
# rows walk on to main, so a sample costs more frames
"$tmp/withfp" $((SECS * 2 + 6)) &
load=$!
sleep 1
echo "the same with glibc's qsort calling back (glibc has no frame pointers)"
run fp | tee "$tmp/fp"
run hotspot | tee "$tmp/rows"
ratio "rows walk the frames fp cannot"
kill "$load"; wait "$load" 2>/dev/null || true
load=

# A busy host of our own making: the demo's Warmup (Java: zlib, glibc),
# two programs without frame pointers (one stripped: its _start has no
# name) and a shell loop, beside whatever else runs.
cc -O2 -fomit-frame-pointer -fno-inline -o "$tmp/nofp" "$TOP/tests/fixtures/unwind/nofp.c"
cp "$tmp/nofp" "$tmp/nofp_strip"
strip "$tmp/nofp_strip"
pids=()
env -u JAVA_TOOL_OPTIONS java -cp "$BUILD/samples" Warmup $((HOST_SECS + 20)) \
	>/dev/null 2>&1 &
pids+=($!)
"$tmp/nofp" $((HOST_SECS + 20)) &
pids+=($!)
"$tmp/nofp_strip" $((HOST_SECS + 20)) &
pids+=($!)
bash -c 'while :; do :; done' &
pids+=($!)
load="${pids[*]}"
sleep 3

echo "whole host, $HOST_SECS s at $HZ Hz (Warmup, nofp, a stripped nofp, a shell loop and the rest of the host)"
/usr/bin/time -o "$tmp/time" -f '%M %U %S %e' \
	"$BUILD/mixprof" -F "$HZ" -o "$tmp/host.folded" "$HOST_SECS" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }
read -r rss u s e <"$tmp/time"
grep -h "unwind rows:\|whole stacks:\|processes with unwind rows:" "$tmp/err" |
	sed 's/^mixprof: */  /'
printf "  mixprof max RSS %.1f MB (goal < 64 MB), cpu %.2f s, wall %.1f s for a %d s profile\n" \
	"$(echo "$rss / 1024" | bc -l)" "$(echo "$u + $s" | bc -l)" "$e" "$HOST_SECS"
awk '
	# the stack is the line less its count: frames may hold spaces
	# ("StubRoutines (1)"), so not $1
	{ n = $NF; s = substr($0, 1, length($0) - length($NF) - 1); t += n
	  if (s ~ /(\[unknown\];){4}/) junk += n }
	s ~ /^java;/ && s ~ /;(\[libz\.so[^;]*\]|deflate|deflate_slow|longest_match|fill_window|adler32_z|crc32_z|compress_block|_tr_[a-z_]+)$/ {
		z += n
		if (s ~ /;Java_java_util_zip_Deflater_deflateBytes[A-Za-z]*;/ &&
		    s ~ /^java;(start_thread|__clone3);/) zw += n
	}
	END {
		printf "  %d samples in stacks of 4+ [unknown] frames in a row; Warmup: %.1f%% of %d zlib-leaf samples whole through Deflater'"'"'s JNI function to the thread root\n",
			junk, z ? 100 * zw / z : 0, z
	}' "$tmp/host.folded"
kill ${pids[*]} 2>/dev/null || true
load=
