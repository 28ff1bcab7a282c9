#!/usr/bin/env bash
# --lock on LockSplit (samples/LockSplit.java), a JVM without flags or
# agent, on every JDK we test (the first with -p, the next launched by
# mixprof, and so on; the waiter starts once the probes are in, so both
# cover the same waits): the nanoseconds mixprof counts for thread
# lock-waiter, split by the lock's class (the leaf: LockSplit$Alpha and
# $Beta, monitors; ReentrantLock$NonfairSync, a j.u.c. lock), must split
# as the thread's own System.nanoTime around each acquisition did, each
# class's share within 10% of its own; each of those stacks holds the
# method that acquires that lock (takeAlpha, takeBeta, takeGamma), and
# the owner under the lock is that lock's only other user, its holder
# thread, for >= 95% of the waited time. The JVM runs at nice -15: what
# the waiter's own clock counts and mixprof does not, the moments it is
# runnable but not running outside the wait (before it parks, after it
# has the lock), grew with the host's load (load 20 on 2 CPUs: the
# ReentrantLock's waits 10-12% short at nice 0, 6-7% at -15).
. "$(dirname "$0")/../lib/common.sh"

# check FOLDED ALPHA_NS BETA_NS GAMMA_NS: 0 ok, 1 wrong.
check() {
	awk -v f="$1" -v ta="$2" -v tb="$3" -v tg="$4" '
	function bad(msg) { print f ": " msg; err = 1 }
	/;lock-waiter \[/ {
		n = $NF
		nf = split(substr($0, 1, length($0) - length($NF) - 1), fr, ";")
		leaf = fr[nf]
		if (leaf == "[lock] LockSplit$Alpha") { k = "alpha"; m = "LockSplit.takeAlpha" }
		else if (leaf == "[lock] LockSplit$Beta") { k = "beta"; m = "LockSplit.takeBeta" }
		else if (leaf == "[lock] java/util/concurrent/locks/ReentrantLock$NonfairSync") { k = "gamma"; m = "LockSplit.takeGamma" }
		else { other += n; next }
		got[k] += n
		if (index($0, ";" m "_[") == 0) nomethod += n
		if (fr[nf - 1] ~ ("^\\[owner\\] holder-" k " \\[[0-9]+\\]$")) owned[k] += n
	}
	END {
		sum = got["alpha"] + got["beta"] + got["gamma"]
		if (sum < 0.5e9) { bad("only " sum " ns under the three locks"); exit 1 }
		truth["alpha"] = ta; truth["beta"] = tb; truth["gamma"] = tg
		tsum = ta + tb + tg
		for (k in truth) {
			share = got[k] / sum; want = truth[k] / tsum
			printf "%s: %s %.1f%% of %.3f s waited (own %.1f%%), owner holder-%s %.1f%%\n", f, k, 100 * share, sum / 1e9, 100 * want, k, got[k] ? 100 * owned[k] / got[k] : 0
			if (share > 1.1 * want || share < 0.9 * want) bad(k "'"'"'s share is off")
			if (owned[k] < 0.95 * got[k]) bad(k "'"'"'s owner is not its holder")
		}
		printf "%s: without the acquiring method %.2f%%, other lock leaves %.2f%%\n", f, 100 * nomethod / sum, 100 * other / (sum + other)
		if (nomethod > 0.02 * sum) bad("stacks without their acquiring method")
		exit err
	}' "$1"
}

SECS=2

i=0
for jdk in $(jdks); do
	note "JDK $jdk"
	: >"$TMPD/out"
	# the last JDK's error file gone: its lines would end the wait below
	rm -f "$TMPD/go" "$TMPD/err"
	if [ $((i++ % 2)) = 0 ]; then
		nice -n -15 "$jdk/bin/java" -cp "$SAMPLES" LockSplit $SECS "$TMPD/go" >"$TMPD/out" &
		pid=$!
		PIDS_TO_KILL+=($pid)
		wait_for 10 grep -qs ready "$TMPD/out" || die "LockSplit did not start"
		"$MIXPROF" --lock --per-thread -p "$pid" -o "$TMPD/l.folded" $((SECS + 2)) 2>"$TMPD/err" &
		mp=$!
		attached='profiling java'
	else
		"$MIXPROF" -v --lock --per-thread -o "$TMPD/l.folded" -- \
			nice -n -15 "$jdk/bin/java" -cp "$SAMPLES" LockSplit $SECS "$TMPD/go" >"$TMPD/out" 2>"$TMPD/err" &
		mp=$!
		pid=
		attached='lock probes attached'
	fi
	PIDS_TO_KILL+=($mp)
	wait_for 20 grep -qs "$attached" "$TMPD/err" || { cat "$TMPD/err"; die "mixprof --lock did not attach"; }
	touch "$TMPD/go"
	wait "$mp" || { cat "$TMPD/err"; die "mixprof --lock failed"; }
	[ -z "$pid" ] || wait "$pid" || die "LockSplit failed"
	grep -v '^libbpf:' "$TMPD/err"
	grep -q 'counts are nanoseconds' "$TMPD/err" || die "the summary does not name the unit"
	truth=$(awk '/^split/ { a = $2; b = $3; g = $4 } END { if (a + b + g) print a, b, g }' "$TMPD/out")
	[ -n "$truth" ] || die "no truth printed"
	# shellcheck disable=SC2086 # three numbers
	check "$TMPD/l.folded" $truth || die "JDK $jdk"
done
echo ok
