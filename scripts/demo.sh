#!/usr/bin/env bash
# make demo: profile the Warmup sample from its first instruction and show
# where its time went. Writes build/demo/warmup.folded (folded stacks, ready
# for flamegraph.pl --color=java) and prints the hottest Java frames.
set -euo pipefail
BUILD=${BUILD:-build}
out=$BUILD/demo
mkdir -p "$out"
secs=${DEMO_SECONDS:-15}

echo "mixprof: profiling 'java Warmup $secs' from launch at 99 Hz..." >&2
"$BUILD/mixprof" -F 99 -o "$out/warmup.folded" -- \
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
echo "Java frames end in _[j] (compiled) or _[i] (inlined), kernel frames in _[k]."
echo "Render with: flamegraph.pl --color=java $out/warmup.folded > warmup.svg"
