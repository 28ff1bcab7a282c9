#!/usr/bin/env bash
# make soak: mixprof's memory over a long run (not part of make bench or
# make test). Two runs at once, for SOAK_SECONDS (default 600):
#  (a) -p of a JVM that keeps compiling new code: samples/Unload loads a
#      fresh class every half second, runs it until compiled, unloads it
#      (its code freed, addresses reused: the JIT map keeps growing);
#  (b) the whole host while a loop starts short-lived processes (shells,
#      awk, sort, gzip: new pids, new mappings, new binaries' symbols).
# Prints each mixprof's VmRSS every SOAK_EVERY seconds (default 30), and
# its RssAnon (the heap: what the run holds; the rest is file pages of the
# ELF files it reads symbols from, which the kernel can drop), then the
# peaks. It measures and reports; it does not fail on a number.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
secs=${SOAK_SECONDS:-600}
every=${SOAK_EVERY:-30}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.bash"
soak_start
peak() { awk -v a="$1" -v p="$2" 'BEGIN { print (a != "-" && a > p ? a : p) }'; }

# process churn: every process lives well under a second
churn() {
	local i
	while :; do
		for i in 1 2 3 4; do
			sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done'
			seq 1 20000 | awk '{ s += $1 } END { print s }' >/dev/null
			seq 1 20000 | sort -r | gzip -1 >/dev/null
		done
		sleep 0.2
	done
}

java -XX:+PreserveFramePointer -cp "$BUILD/samples" Unload 1000000 0.5 \
	>"$tmp/unload.out" &
jvm=$!
pids+=($jvm)
for _ in $(seq 100); do
	grep -q '^phase' "$tmp/unload.out" 2>/dev/null && break
	sleep 0.1
done
churn &
pids+=($!)

# timeout: a run stuck on something another user planted must not hang us
timeout -k 5 $((secs + 60)) \
	"$BUILD/mixprof" -v -p "$jvm" -o "$tmp/jvm.folded" "$secs" 2>"$tmp/jvm.err" &
a=$!
timeout -k 5 $((secs + 60)) \
	"$BUILD/mixprof" -v -o "$tmp/host.folded" "$secs" 2>"$tmp/host.err" &
b=$!
pids+=($a $b)
ma=$(child_of $a) mb=$(child_of $b) # the mixprofs under timeout

echo "soak: ${secs} s; MB of mixprof -p JVM (a), host-wide (b)"
printf '%6s %8s %8s %8s %8s %8s\n' t_s a_rss a_anon b_rss b_anon phases
pa=0 pa_anon=0 pb=0 pb_anon=0
for ((t = every; t <= secs; t += every)); do
	sleep "$every"
	ra=$(rss_mb $ma VmRSS) raa=$(rss_mb $ma RssAnon)
	rb=$(rss_mb $mb VmRSS) rba=$(rss_mb $mb RssAnon)
	printf '%6d %8s %8s %8s %8s %8s\n' "$t" "$ra" "$raa" "$rb" "$rba" \
		"$(grep -c '^phase' "$tmp/unload.out")"
	pa=$(peak "$ra" "$pa") pa_anon=$(peak "$raa" "$pa_anon")
	pb=$(peak "$rb" "$pb") pb_anon=$(peak "$rba" "$pb_anon")
done
wait $a || echo "soak: mixprof -p ended with status $?"
wait $b || echo "soak: host mixprof ended with status $?"
echo "peak VmRSS (RssAnon): (a) $pa ($pa_anon) MB, (b) $pb ($pb_anon) MB"
for x in a:jvm b:host; do # the summary's totals and memory lines
	grep -E 'samples in|memory:' "$tmp/${x#*:}.err" | sed "s/^/(${x%:*}) /"
done
