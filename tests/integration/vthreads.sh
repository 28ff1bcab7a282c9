#!/usr/bin/env bash
# Virtual threads whole (JDK 21+): VThreads runs tasks on virtual threads
# (a thread pool on JDK 17), each 200 frames deep, then CPU work between
# 1 ms sleeps, so its frames are frozen into heap stack chunks and thawed
# a few at a time (the lowest thawed frame returns into the continuation
# return barrier). Profiled with -p and no flags: no sample of the hot
# method may show a task frame right under Continuation.run, enterSpecial
# or the barrier's stub (a wrong caller), and >= 95% of them must hold the
# frames the task's own Thread.getStackTrace printed, in order, and
# reach the carrier thread's root; with --per-thread each names its
# virtual thread on its carrier ("virtual-ID on ForkJoinPool-1-worker-N").
# On every JDK: 17 (platform threads)
# the same, with no [frozen frames] at all. On 21+, once more without the
# chunk walk (MIXPROF_NO_VTHREAD_CHUNKS=1): no wrong caller either, the
# walk stopping at the barrier with a [frozen frames] mark.
. "$(dirname "$0")/../lib/common.sh"

# FILE STACK: the hot method's samples against STACK (innermost first)
check() {
	awk -v want="$2" '
	BEGIN { nw = split(want, W, ";") }
	/;VThreads\.work/ {
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";")
		for (i = 1; i <= k; i++) {
			sub(/_\[[^]]*\]$/, "", fr[i]); sub(/:[0-9]+$/, "", fr[i])
		}
		hot += n
		# the caller of the outermost task frame
		for (i = 1; i <= k && fr[i] !~ /^VThreads\./; i++)
			;
		if (fr[i - 1] == "[frozen frames]")
			frozen += n
		else if (fr[i - 1] ~ /Continuation|StubRoutines|enterSpecial/) {
			wrong += n
			if (!shown++) print "wrong caller: " line
		}
		j = nw
		for (i = 1; i <= k && j >= 1; i++)
			if (fr[i] == W[j])
				j--
		if (j == 0 && fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/)
			whole += n
		else if (!shown2++)
			print "not whole: " line
	}
	END {
		printf "%d samples in VThreads.work: %.1f%% whole to the carrier root, %d [frozen frames], %d wrong callers\n", hot, hot ? 100 * whole / hot : 0, frozen, wrong
		if (hot < 100) { print "too few samples"; exit 1 }
		exit !(wrong == 0 && whole >= 0.95 * hot)
	}' "$1"
}

n=0
for jdk in $(jdks); do
	n=$((n + 1))
	major=$(jdk_major "$jdk")
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" VThreads 30 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	# half a CPU (weighed as its two carriers) at 999 Hz: the samples
	# its whole CPUs gave at 499 Hz; so the run without chunks below
	cpu_cap "$pid" 50 2048
	wait_for 20 grep -q ready "$TMPD/java.out" || die "VThreads did not start"
	stack=$(sed -n 's/^stack: //p' "$TMPD/java.out")
	note "JDK $major: the task's own stack: $stack"
	out=$TMPD/vt-$n.folded
	"$MIXPROF" -F 999 --per-thread -p "$pid" -o "$out" 3 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	grep -E "whole stacks|frozen|chunk" "$TMPD/err" || true
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	check "$out" "$stack" || die "JDK $major: virtual thread stacks not whole"
	if [ "$major" -lt 21 ] && grep -q '\[frozen frames\]' "$out"; then
		die "JDK $major: [frozen frames] without virtual threads"
	fi
	# --per-thread: the hot samples name their virtual thread and carrier
	read -r virt hot < <(awk '/;VThreads\.work/ { n = $NF; hot += n
		split($0, fr, ";")
		if (fr[2] ~ /^virtual-[0-9]+ on ForkJoinPool-[0-9]+-worker-[0-9]+ \[/) virt += n }
		END { print virt + 0, hot + 0 }' "$out")
	note "JDK $major: $virt of $hot samples in VThreads.work named as a virtual thread on its carrier"
	if [ "$major" -ge 21 ]; then
		[ $((virt * 100)) -ge $((hot * 95)) ] ||
			die "JDK $major: virtual threads not named: $(cut -d';' -f2 "$out" | sort | uniq -c | sort -rn | head -5)"
	elif [ "$virt" -ne 0 ]; then
		die "JDK $major: virtual threads named without any"
	fi
	[ "$major" -ge 21 ] || continue
	# without the chunk walk: the walk stops at the barrier, marked
	: >"$TMPD/java.out"
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" VThreads 30 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	cpu_cap "$pid" 50 2048
	wait_for 20 grep -q ready "$TMPD/java.out" || die "VThreads did not start"
	MIXPROF_NO_VTHREAD_CHUNKS=1 "$MIXPROF" -F 999 --per-thread -p "$pid" \
		-o "$out.stop" 2 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	check "$out.stop" "$stack" | tee "$TMPD/stop" || true
	grep -q ' 0 wrong callers' "$TMPD/stop" ||
		die "JDK $major: a wrong caller without the chunk walk"
	if grep -q ' 0 \[frozen frames\]' "$TMPD/stop"; then
		die "JDK $major: no [frozen frames] mark without the chunk walk"
	fi
done
echo ok
