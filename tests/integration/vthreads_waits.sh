#!/usr/bin/env bash
# Virtual threads' waits under --off-cpu (issue 25): VWaits runs four
# tasks on virtual threads (JDK 21+; a thread pool on 17) that, once the
# trigger file exists, do CPU work between 20 ms sleeps in VWaits.nap for
# SECS, each measured with System.nanoTime (the truth it prints). A
# virtual thread unmounts for each sleep: no kernel thread waits for it,
# its carrier runs other work or parks. Profiled with -p, --off-cpu,
# --per-thread from before the trigger to after the last nap: the
# microseconds under VWaits.nap must be within 5% of the truth; on 21+
# the heaviest nap stack must be the virtual thread's own (through
# VirtualThread.run to the carrier's root, named "virtual-ID on
# ForkJoinPool-1-worker-N"), and the summary must count its waits; on 17
# the same total through the switch-out program, as before.
. "$(dirname "$0")/../lib/common.sh"

SECS=2

for jdk in $(jdks); do
	major=$(jdk_major "$jdk")
	note "JDK $major"
	rm -f "$TMPD/go"
	: >"$TMPD/out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" VWaits \
		"$TMPD/go" $SECS >"$TMPD/out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -qs ready "$TMPD/out" || die "VWaits did not start"
	# the last JDK's mixprof wrote the line waited for below in it, and
	# the redirection empties it only once the job starts (seen: the
	# wait found the old line, the grep after it the emptied file)
	rm -f "$TMPD/err"
	# -v: it says when its virtual threads' probes are in (or why not)
	"$MIXPROF" -v --off-cpu --per-thread -p "$pid" -o "$TMPD/vw.folded" \
		60 2>"$TMPD/err" &
	mp=$!
	PIDS_TO_KILL+=("$mp")
	wait_for 30 grep -qs "virtual threads' waits" "$TMPD/err" ||
		die "mixprof did not try the virtual threads' probes"
	grep "virtual threads' waits" "$TMPD/err"
	touch "$TMPD/go"
	wait_for $((SECS + 60)) grep -qs done "$TMPD/out" ||
		die "VWaits did not finish"
	kill -INT "$mp"
	wait "$mp" || { grep -v '^libbpf' "$TMPD/err"; die "mixprof failed"; }
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep -E "switches out|virtual threads' waits counted" "$TMPD/err"
	truth=$(awk '/^slept / { printf "%d", $2 / 1000 }' "$TMPD/out")
	[ -n "$truth" ] && [ "$truth" -gt 0 ] || die "no truth: $(cat "$TMPD/out")"
	awk -v truth="$truth" -v major="$major" '
	/;VWaits\.nap_/ {
		got += $NF
		if ($NF > top) { top = $NF; stack = $0 }
	}
	END {
		d = 100 * (got - truth) / truth
		printf "JDK %d: %d us under VWaits.nap, truth %d us (%+.1f%%)\n", major, got, truth, d
		if (d > 5 || d < -5) { print "off by more than 5%"; err = 1 }
		if (major >= 21) {
			if (stack !~ /^[^;]*;virtual-[0-9]+ on ForkJoinPool-[0-9]+-worker-[0-9]+ \[[0-9]+\];/) {
				print "heaviest nap stack not named as a virtual thread"; err = 1
			}
			if (stack !~ /;(start_thread|__clone3?);.*;java\/lang\/VirtualThread\.run_\[.\];.*;VWaits\.task_\[.\];VWaits\.nap_\[.\];java\/lang\/Thread\.sleep_/) {
				print "heaviest nap stack not whole to the carrier root"; err = 1
			}
		}
		if (err) print "heaviest: " stack
		exit err
	}' "$TMPD/vw.folded" || die "JDK $major: virtual threads' waits"
	if [ "$major" -ge 21 ]; then
		grep -qE " [1-9][0-9]* virtual threads' waits counted" "$TMPD/err" ||
			die "JDK $major: the summary counts no virtual thread waits"
	fi
done
echo ok
