#!/usr/bin/env bash
# The cost of native unwind rows (unwind/). 1) BPF run time per sample of
# the rows walk (MIXPROF_UNWIND unset) against the frame-pointer walk
# (MIXPROF_UNWIND=fp) on one workload both can walk: nofp's source built
# WITH frame pointers (main -> outer -> middle -> inner, and glibc's
# qsort, which has none, calling back), mixprof -p at 999 Hz; per sample
# and per user frame, with the share reaching main (goal: rows <= 3x fp).
# 2) A whole-host profile: mixprof's maximum RSS (goal < 64 MB), CPU,
# and the rows' start-up cost and size from its summary.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
SECS=${SECS:-6}
HZ=${HZ:-999}
tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
load=
cleanup() {
	[ -n "$load" ] && kill "$load" 2>/dev/null || true
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	rm -rf "$tmp"
}
trap cleanup EXIT
sysctl -qw kernel.bpf_stats_enabled=1

. "$(dirname "$0")/common.bash" # prog_stats

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
		if (line ~ /;main;outer;/) whole += n
	}
	END {
		printf "  %-8s bpf %6.0f ns/sample (%d runs), %5.1f user frames/sample, %6.0f ns/frame; %.1f%% reach main\n",
			mode == "hotspot" ? "rows" : mode, cnt ? ns / cnt : 0, cnt, t ? frames / t : 0,
			(cnt && frames) ? ns / cnt / (frames / t) : 0, t ? 100 * whole / t : 0
	}' "$tmp/out.folded"
}

cc -O2 -fno-omit-frame-pointer -o "$tmp/withfp" "$TOP/tests/fixtures/unwind/nofp.c"
"$tmp/withfp" $((SECS * 2 + 6)) &
load=$!
sleep 1
echo "one native process (frame pointers in its own code), mixprof -p, $SECS s at $HZ Hz"
run fp | tee "$tmp/fp"
run hotspot | tee "$tmp/rows"
awk '{ sub(/.*bpf */, ""); print $1 }' "$tmp/fp" "$tmp/rows" | paste -sd' ' |
	awk '{ printf "  rows/fp: bpf %.2fx per sample (goal <= 3x)\n", $1 ? $2 / $1 : 0 }'
kill "$load"; wait "$load" 2>/dev/null || true
load=

echo "whole host, $SECS s at $HZ Hz"
/usr/bin/time -o "$tmp/time" -f '%M %U %S %e' \
	"$BUILD/mixprof" -F "$HZ" -o "$tmp/host.folded" "$SECS" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }
read -r rss u s e <"$tmp/time"
grep -h "unwind rows:\|whole stacks:" "$tmp/err" | sed 's/^mixprof: */  /'
printf "  mixprof max RSS %.1f MB (goal < 64 MB), cpu %.2f s, wall %.1f s for a %d s profile\n" \
	"$(echo "$rss / 1024" | bc -l)" "$(echo "$u + $s" | bc -l)" "$e" "$SECS"
