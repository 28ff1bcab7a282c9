#!/usr/bin/env bash
# The agent's cost: a fixed amount of Java work (many distinct methods,
# so the JIT compiles a lot) timed from JVM start to exit, without the
# agent and with it in several configurations; each round runs them all in
# a rotated order so drift and position hit every configuration alike.
# Prints median wall and CPU times with ratios to the baseline, JIT
# compiles per run (from -Xlog:jit+compilation) and the map's size, which
# shows what inlined sub-ranges cost.
# Measures and reports; never fails on a number.
set -euo pipefail
BUILD=${BUILD:?} TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
AGENT=$BUILD/libjmap.so
RUNS=${RUNS:-7}
[ -f "$AGENT" ] || { echo "no $AGENT: run make build"; exit 1; }
work=$(mktemp -d /tmp/mixprof-bench-agent.XXXXXX)
trap 'rm -rf "$work"' EXIT
java=$(command -v java)

cat >"$work/Churn.java" <<'JAVA'
import java.math.BigInteger;
import java.util.*;
import java.util.regex.*;
import java.util.stream.*;

/* Fixed work touching many library paths, so the JIT compiles a lot. */
public class Churn {
	static long sink;

	public static void main(String[] a) {
		Pattern p = Pattern.compile("(\\w+)=(\\d+)");
		Random r = new Random(1);
		for (int round = 0; round < 1500; round++) {
			Map<String, Integer> m = new HashMap<>();
			StringBuilder sb = new StringBuilder();
			for (int i = 0; i < 200; i++)
				sb.append("k").append(r.nextInt(64)).append('=')
					.append(i).append(' ');
			Matcher x = p.matcher(sb);
			while (x.find())
				m.merge(x.group(1), Integer.parseInt(x.group(2)),
					Integer::sum);
			List<String> keys = new ArrayList<>(m.keySet());
			Collections.sort(keys);
			sink += keys.stream().filter(k -> k.length() > 2)
				.mapToInt(String::hashCode).sum();
			sink += IntStream.range(0, 500).boxed()
				.collect(Collectors.groupingBy(i -> i % 7)).size();
			sink += BigInteger.valueOf(round).pow(40)
				.mod(BigInteger.valueOf(1000003)).longValue();
			sink += String.format("%d-%s-%.2f", round, keys.get(0),
				round / 3.0).length();
			TreeMap<Integer, String> t = new TreeMap<>();
			for (int i = 0; i < 300; i++)
				t.put(r.nextInt(1000), Integer.toHexString(i));
			sink += t.headMap(500).size();
		}
		System.out.println(sink);
	}
}
JAVA
javac -d "$work" "$work/Churn.java"

configs=(none "" noinline "lines,sig")
label() { [ "$1" = none ] && echo "no agent" || echo "agent${1:+ ($1)}"; }

# run CONFIG I: one timed JVM run; appends to res.I the line
# "wall_ms cpu_ms compiles map_bytes map_lines".
run() {
	local cfg=$1 i=$2 agent=() t map TIMEFORMAT='%R %U %S'
	mkdir -p "$work/$i"
	[ "$cfg" != none ] &&
		agent=(-agentpath:"$AGENT=dir=$work/$i${cfg:+,$cfg}")
	t=$( { time "$java" "${agent[@]}" \
		-Xlog:jit+compilation=debug:file="$work/c.log" \
		-cp "$work" Churn >/dev/null 2>"$work/err"; } 2>&1 )
	map=$(ls "$work/$i"/perf-*.map 2>/dev/null || true)
	echo "$t" | awk -v c="$(wc -l <"$work/c.log")" \
		-v b="$( [ -n "$map" ] && stat -c %s "$map" || echo 0)" \
		-v l="$( [ -n "$map" ] && wc -l <"$map" || echo 0)" \
		'{ printf "%d %d %d %d %d\n", $1 * 1000, ($2 + $3) * 1000, c, b, l }' \
		>>"$work/res.$i"
	rm -f "$work/$i"/perf-*.map
}

echo "agent cost: $RUNS rounds of a fixed workload, configurations rotated"
echo "($("$java" -version 2>&1 | head -1);" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg))"
n=${#configs[@]}
for r in $(seq 0 $((RUNS - 1))); do
	for k in $(seq 0 $((n - 1))); do
		i=$(( (r + k) % n ))
		run "${configs[$i]}" "$i"
	done
done

# col I N: median of column N of res.I
col() { cut -d' ' -f"$2" "$work/res.$1" | sort -n |
	awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
range() { cut -d' ' -f"$2" "$work/res.$1" | sort -n |
	awk 'NR==1 {lo=$1} {hi=$1} END {print lo "-" hi}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
fmt='%-20s %8s %6s %8s %6s %11s %8s %10s %6s\n'
printf "$fmt" config "wall ms" ratio "cpu ms" ratio "cpu range" compiles \
	"map bytes" lines
for i in "${!configs[@]}"; do
	printf "$fmt" "$(label "${configs[$i]}")" \
		"$(col "$i" 1)" "$(ratio "$(col "$i" 1)" "$(col 0 1)")" \
		"$(col "$i" 2)" "$(ratio "$(col "$i" 2)" "$(col 0 2)")" \
		"$(range "$i" 2)" "$(col "$i" 3)" "$(col "$i" 4)" "$(col "$i" 5)"
done
echo "medians; wall time suffers from other load, cpu time (user+sys of"
echo "the JVM, compiler threads and agent callbacks included) less so."
