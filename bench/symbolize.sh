#!/usr/bin/env bash
# Symbolizer speed: name 1,000,000 random addresses of a live JVM (its
# libraries, libjvm.so and its JIT map, dumped with jcmd Compiler.perfmap)
# and of the kernel, and print frames per second. Measures; never fails
# on a number. The bench program is $BUILD/bench/sym_bench (bench/sym_bench.c).
set -u
BUILD=${BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
bin=$BUILD/bench/sym_bench
[ -x "$bin" ] || { echo "missing $bin: run make"; exit 1; }
[ -f "$BUILD/samples/Warmup.class" ] || { echo "missing samples: run make"; exit 1; }

out=$(mktemp)
java -cp "$BUILD/samples" Warmup 30 >"$out" 2>&1 &
jvm=$!
trap 'kill $jvm 2>/dev/null; wait $jvm 2>/dev/null; rm -f "$out" /tmp/perf-$jvm.map' EXIT
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.1; done
sleep 3	# let the JIT compile the hot paths
jcmd $jvm Compiler.perfmap >/dev/null 2>&1 || echo "jcmd Compiler.perfmap failed: no JIT names"
echo "JVM $jvm: $(wc -l </tmp/perf-$jvm.map 2>/dev/null || echo 0) JIT map lines"
"$bin" $jvm 1000000
