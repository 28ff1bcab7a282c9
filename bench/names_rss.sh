#!/usr/bin/env bash
# mixprof's memory while naming compiled Java frames from the JVM's
# metadata (issue 14) in a JVM holding ~100k compiled methods: NCLASS
# generated classes of NMETH small methods each (javac'd here), loaded
# COPIES times by class loaders of their own (samples/ManyMethods), run
# with -Xcomp (each method compiled at its first call) and -XX:-Inline
# (each stays an nmethod of its own), C1 only (fast compiles). The
# nmethod count comes from jcmd Compiler.codelist. Then mixprof -p at
# 999 Hz for SECS, by default and with --lines: its peak RSS (GNU time),
# CPU, samples and the distinct generated methods the output names as
# compiled frames ("_[1]"). (Each applyAsLong, 8 KB of bytecode, is over
# HugeMethodLimit and stays interpreted: the methods it calls are not.)
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-10}
HZ=${HZ:-999}
NCLASS=${NCLASS:-10}
NMETH=${NMETH:-1000}
COPIES=${COPIES:-10}
tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
load=
cleanup() {
	[ -n "$load" ] && kill "$load" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# class G<c>: static m0..m<NMETH-1> and applyAsLong calling each in turn
mkdir -p "$tmp/src" "$tmp/classes"
for ((c = 0; c < NCLASS; c++)); do
	awk -v c="$c" -v n="$NMETH" 'BEGIN {
		printf "public class G%d implements java.util.function.LongUnaryOperator {\n", c
		for (m = 0; m < n; m++)
			printf "\tstatic long m%d(long x) { for (int i = 0; i < 8; i++) x = x * 31 + %d; return x; }\n", m, m
		print "\tpublic long applyAsLong(long x) {"
		for (m = 0; m < n; m++)
			printf "\t\tx += m%d(x);\n", m
		print "\t\treturn x;\n\t}\n}"
	}' >"$tmp/src/G$c.java"
done
javac -d "$tmp/classes" "$tmp"/src/*.java

java -Xcomp -XX:TieredStopAtLevel=1 -XX:-Inline \
	-XX:ReservedCodeCacheSize=1g -cp "$BUILD/samples" \
	ManyMethods "$tmp/classes" "$COPIES" >"$tmp/jout" 2>&1 &
load=$!
for _ in $(seq 1800); do grep -qs ready "$tmp/jout" && break; sleep 0.1; done
grep -qs ready "$tmp/jout" || { echo "ManyMethods not ready: $(cat "$tmp/jout")" >&2; exit 1; }
nm=$(jcmd "$load" Compiler.codelist | grep -c '^[0-9]')
jrss=$(awk '/^VmRSS/ { print int($2 / 1024) }' /proc/"$load"/status)

echo "one JVM (ManyMethods: $((NCLASS * COPIES)) classes x $NMETH methods, -Xcomp, C1, no inlining): $nm nmethods, JVM RSS $jrss MB; mixprof -p, $SECS s at $HZ Hz"
# run MODE ARGS...: one profile, one result line
run() {
	local mode=$1 u s rss smp meth
	shift
	/usr/bin/time -o "$tmp/time" -f '%U %S %M' "$BUILD/mixprof" --tiers "$@" \
		-F "$HZ" -p "$load" -o "$tmp/out.folded" "$SECS" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; return 1; }
	read -r u s rss <"$tmp/time"
	smp=$(sed -n 's/^mixprof: \([0-9]*\) samples in.*/\1/p' "$tmp/err")
	meth=$(grep -oE 'G[0-9]+\.m[0-9]+(:[0-9]+)?_\[1\]' "$tmp/out.folded" |
		sed 's/[:_].*//' | sort -u | wc -l)
	printf '  %-8s peak RSS %5.1f MB  cpu %5.2f s  %6d samples  %5d distinct generated methods named, compiled\n' \
		"$mode" "$(echo "$rss / 1024" | bc -l)" "$(echo "$u + $s" | bc -l)" "${smp:-0}" "$meth"
}
run names
run lines --lines
