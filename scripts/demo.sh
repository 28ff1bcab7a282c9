#!/usr/bin/env bash
# make demo: profile the Warmup sample from its first instruction and show
# where its time went. Writes build/demo/warmup.folded (folded stacks, for
# any flame graph tool) and build/demo/warmup.svg (our interactive flame
# graph), and prints the hottest frames.
set -euo pipefail
BUILD=${BUILD:-build}
out=$BUILD/demo
mkdir -p "$out"
secs=${DEMO_SECONDS:-15}

echo "mixprof: profiling 'java Warmup $secs' from launch at 99 Hz..." >&2
"$BUILD/mixprof" -F 99 -o "$out/warmup.folded" --svg "$out/warmup.svg" -- \
	java -cp "$BUILD/samples" Warmup "$secs"

total=$(awk '{ n += $NF } END { print n + 0 }' "$out/warmup.folded")
echo
echo "Wrote $out/warmup.folded: $(wc -l <"$out/warmup.folded") stacks, $total samples."
echo "Hottest leaf frames:"
awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); leaf = f[k]; sub(/ +$/, "", leaf);
       c[leaf] += n; t += n }
     END { for (l in c) printf "%6.1f%%  %s\n", 100 * c[l] / t, l }' \
	"$out/warmup.folded" | sort -rn | head -15
echo
echo "Java frames end in _[j] (compiled or interpreted) or _[i] (inlined),"
echo "kernel frames in _[k]. Open $out/warmup.svg in a browser: click a frame"
echo "to zoom, Ctrl-F to search."
