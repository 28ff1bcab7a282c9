#!/usr/bin/env bash
# mixprof's accuracy on Ratio: the worker spends CPU in one/two/three at
# 1:2:3; the profile must say so within 4 percentage points, in launch
# mode and with -p, on every JDK we test, and its stacks must reach the
# thread's root.
# Ratio burns wall-clock time per method, which is CPU time at 1:2:3 only
# while its worker is not preempted, so the JVM runs at a high priority
# (nice -15), and a run whose worker got less than 70% of a CPU (the
# machine was busy: the truth itself is skewed) is repeated, twice at most.
# Until interpreted frames are named (interp_id), samples taken before the
# methods are compiled show as "Interpreter": up to 20% are allowed.
. "$(dirname "$0")/../lib/common.sh"

SECS=6 HZ=999

# check_ratio FILE: 0 ok, 1 wrong, 2 worker starved (run again).
check_ratio() {
	awk -v f="$1" -v want=$((SECS * HZ)) '
	/;ratio-worker \[/ {
		n = $NF; w += n
		if (/Ratio\.one_\[/) a += n
		else if (/Ratio\.two_\[/) b += n
		else if (/Ratio\.three_\[/) c += n
		if (/(start_thread|thread_native_entry|clone3?)(;|_\[)/) root += n
	}
	function bad(msg) { print f ": " msg; err = 1 }
	END {
		m = a + b + c
		if (w < 0.7 * want) { print f ": worker got " w " of " want " samples: starved"; exit 2 }
		if (m < 0.8 * w) bad("worker " w " samples, " m " in one/two/three")
		if (!m) exit 1
		printf "%s: one %.1f%% two %.1f%% three %.1f%% (of %d), rooted %.1f%%\n", f, 100*a/m, 100*b/m, 100*c/m, m, 100*root/w
		d1 = 100*a/m - 100/6; d2 = 100*b/m - 200/6; d3 = 100*c/m - 300/6
		if (d1 > 4 || d1 < -4 || d2 > 4 || d2 < -4 || d3 > 4 || d3 < -4) bad("ratio off")
		if (root < 0.95 * w) bad("stacks do not reach the thread root")
		exit err
	}' "$1"
}

launch_run() { # JDK OUT
	"$MIXPROF" -F $HZ --per-thread -o "$2" -- nice -n -15 \
		"$1/bin/java" -cp "$SAMPLES" Ratio $SECS 2>"$TMPD/err"
	cat "$TMPD/err"
	grep -q "exited with status 0" "$TMPD/err" || die "no exit status"
}

pid_run() { # JDK OUT
	local pid
	nice -n -15 "$1/bin/java" -agentpath:"$AGENT" \
		-XX:+PreserveFramePointer -cp "$SAMPLES" Ratio $((SECS + 6)) \
		>"$TMPD/ready" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 10 grep -qs ready "$TMPD/ready" || die "Ratio did not start"
	sleep 1	# let the JIT settle, as a user attaching later would
	"$MIXPROF" -F $HZ --per-thread -p "$pid" -o "$2" $SECS
	kill "$pid"; wait "$pid" || true
}

for jdk in $(jdks); do
	for mode in launch pid; do
		note "JDK $jdk: $mode mode"
		for try in 1 2 3; do
			${mode}_run "$jdk" "$TMPD/$mode.folded"
			rc=0; check_ratio "$TMPD/$mode.folded" || rc=$?
			[ $rc = 2 ] || break
		done
		[ $rc = 0 ] || die "$mode mode on $jdk"
	done
done
echo ok
