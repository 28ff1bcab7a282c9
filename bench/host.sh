#!/usr/bin/env bash
# The cost of profiling the whole host (issue 23): SECS (8) at HZ (999)
# with call stacks, under two busy JVMs (Warmup: four threads of
# parsing, maps, sorting, regular expressions and zlib), one on the JDK
# on PATH and one on the newest other JDK, started without any agent or
# flag. Side by side, RUNS (2) rounds, each in turn on the same load:
#   mixprof cold: a fresh row cache (MIXPROF_CACHE_DIR), every file's
#     unwind rows built on demand;
#   mixprof warm: the same again, the cache the cold run filled;
#   perf record -F HZ -a -g, then perf script (text, as mixprof prints).
#   with BASE_BUILD=dir, another build's mixprof cold and warm too, in
#   the same rounds (what a change did, on the same load).
# Prints each one's CPU (user + sys, GNU time) and peak RSS, the medians,
# the ratios, and mixprof's share of whole stacks (reaching their
# thread's root) over the run's first second: in all the processes with
# unwind rows (the summary's "processes with unwind rows" line: on a
# shared host, others' short-lived processes too), and in the java
# processes (the first 1 s slice, -i 1: lines of "java" whose outermost
# frame is a thread's root: start_thread, JavaMain...).
# Goals: perf/mixprof CPU >= 10x, peak RSS <= 30 MB, warm cheaper than
# cold, >= 95% whole in the first second.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-8}
HZ=${HZ:-999}
RUNS=${RUNS:-2}
tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
load=()
cleanup() {
	local p
	for p in "${load[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# the JDK on PATH and the newest other one (vthreads.sh's search)
sys=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
jdks=("$sys")
best=0 other=
for j in "$(dirname "$sys")"/*/; do
	j=${j%/}
	[ "$(readlink -f "$j")" = "$sys" ] && continue
	v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$j/release" 2>/dev/null || true)
	[ -n "$v" ] && [ "$v" -gt "$best" ] && best=$v && other=$j
done
[ -n "$other" ] && jdks+=("$other") || jdks+=("$sys")
for j in "${jdks[@]}"; do
	"$j/bin/java" -cp "$BUILD/samples" Warmup $(((SECS + 10) * 6 * RUNS + 60)) \
		>/dev/null 2>&1 &
	load+=($!)
done
sleep 5 # past the JVMs' start and first compilations

# measure NAME CMD...: append "NAME cpu_seconds peak_kb" to $tmp/res
measure() {
	local name=$1
	shift
	/usr/bin/time -o "$tmp/t" -f '%U %S %M' "$@" >/dev/null 2>"$tmp/$name.err" ||
		{ cat "$tmp/$name.err" >&2; return 1; }
	awk -v n="$name" '{ printf "%s %.2f %d\n", n, $1 + $2, $3 }' "$tmp/t" >>"$tmp/res"
}

# mixprof NAME CACHE [BUILD]: a host-wide run with the row cache in
# $tmp/CACHE (a link would not be used); its first-second shares and
# samples appended to $tmp/first, $tmp/java, $tmp/samples
mixprof() {
	rm -rf "$tmp/$1.d"
	measure "$1" env MIXPROF_CACHE_DIR="$tmp/$2" \
		"${3:-$BUILD}/mixprof" -F "$HZ" -i 1 -o "$tmp/$1.d" "$SECS" || return 1
	awk -v n="$1" -F';' '
		$1 == "java" && $2 !~ /_\[k\]( [0-9]+)?$/ {
			c = $NF; sub(/.* /, "", c); t += c
			if ($2 ~ /^(start_thread|clone|clone3|__clone|__clone3|_start|thread_native_entry|JavaMain|__libc_start_main|__libc_start_call_main)$/) w += c
		}
		END { printf "%s %.1f%% of %d\n", n, t ? 100 * w / t : 0, t }' \
		"$tmp/$1.d/slice-0000.folded" >>"$tmp/java" 2>/dev/null || true
	sed -n 's/.*processes with unwind rows: \([0-9]*\) of \([0-9]*\);.*, \([0-9.]*\)% of the \([0-9]*\) of the first second/\1 \2 \3 \4/p' \
		"$tmp/$1.err" | awk -v n="$1" '{ print n, $0 }' >>"$tmp/first"
	sed -n 's/^mixprof: \([0-9]*\) samples in.*/\1/p' "$tmp/$1.err" |
		awk -v n="$1" '{ print n, $1 }' >>"$tmp/samples"
	grep -h "unwind rows:" "$tmp/$1.err" | sed "s/^mixprof: */    $1 round $r: /" >>"$tmp/rows"
}

for ((r = 0; r < RUNS; r++)); do
	mkdir "$tmp/cache.$r" "$tmp/cache.base.$r"
	mixprof cold "cache.$r"
	mixprof warm "cache.$r"
	if [ -n "${BASE_BUILD:-}" ]; then
		mixprof base_cold "cache.base.$r" "$BASE_BUILD"
		mixprof base_warm "cache.base.$r" "$BASE_BUILD"
	fi
	measure record perf record -F "$HZ" -a -g -o "$tmp/perf.data" -- sleep "$SECS"
	measure script sh -c "perf script -i '$tmp/perf.data' > '$tmp/perf.txt'"
	echo "perf $(grep -c '^$' "$tmp/perf.txt" || true)" >>"$tmp/samples"
done

echo "whole host, $SECS s at $HZ Hz, two busy Warmup JVMs ($(for j in "${jdks[@]}"; do
	sed -n 's/^JAVA_VERSION="\([^"]*\)"/JDK \1/p' "$j/release"; done | paste -sd, -)), $RUNS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
# the median of each (the lower middle for an even count), and all runs
awk -v runs="$RUNS" '
FILENAME ~ /res$/ { cpu[$1, ++n[$1]] = $2; rss[$1, n[$1]] = $3; next }
FILENAME ~ /first$/ { fs[$1] = fs[$1] (fs[$1] ? ", " : "") $4 "% of " $5 " (" $2 " of " $3 " processes)"; next }
FILENAME ~ /java$/ { js[$1] = js[$1] (js[$1] ? ", " : "") $2 " of " $4; next }
{ smp[$1] = smp[$1] (smp[$1] ? ", " : "") $2 }
function med(a, name, k, i, j, v, t) {
	k = n[name]
	for (i = 1; i <= k; i++) v[i] = a[name, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return v[int((k + 1) / 2)]
}
function all(a, name, i, s) {
	for (i = 1; i <= n[name]; i++) s = s (i > 1 ? ", " : "") a[name, i]
	return s
}
END {
	for (i = 1; i <= n["record"]; i++) {
		pc[i] = cpu["record", i] + cpu["script", i]
		pr[i] = rss["record", i] > rss["script", i] ? rss["record", i] : rss["script", i]
		cpu["perf", i] = pc[i]; rss["perf", i] = pr[i]
	}
	n["perf"] = n["record"]
	nw = split(n["base_cold"] ? "cold warm base_cold base_warm perf" : "cold warm perf", w, " ")
	for (i = 1; i <= nw; i++) {
		c[w[i]] = med(cpu, w[i]); m[w[i]] = med(rss, w[i])
		printf "  %-17s cpu %5.2f s (%s)  peak rss %5.1f MB (%s KB)  samples %s\n",
			w[i] == "perf" ? "perf -g+script" : "mixprof " w[i], c[w[i]], all(cpu, w[i]),
			m[w[i]] / 1024, all(rss, w[i]), smp[w[i]]
	}
	printf "  perf record %s s, perf script %s s\n", all(cpu, "record"), all(cpu, "script")
	printf "  perf/mixprof cpu: cold %.1fx, warm %.1fx (goal >= 10x); warm/cold %.2fx (goal < 1)\n",
		c["cold"] ? c["perf"] / c["cold"] : 0, c["warm"] ? c["perf"] / c["warm"] : 0,
		c["cold"] ? c["warm"] / c["cold"] : 0
	printf "  mixprof peak rss: cold %.1f MB, warm %.1f MB (goal <= 30 MB)\n", m["cold"] / 1024, m["warm"] / 1024
	printf "  whole stacks in the first second (goal >= 95%%), all processes with rows / java processes:\n"
	for (i = 1; i < nw; i++)
		printf "    %-9s %s / %s\n", w[i], fs[w[i]], js[w[i]]
}' "$tmp/res" "$tmp/first" "$tmp/java" "$tmp/samples"
cat "$tmp/rows"
