#!/usr/bin/env bash
# The HotSpot unwinder on a JVM started with no flags at all (no
# -XX:+PreserveFramePointer, no agent) and profiled with -p after it
# started, on every JDK we test: >= 99% of the busy worker's samples
# reach its thread's root, and the helper that Callers calls from a, b
# and c for 1:2:3 of the worker's CPU time shows that split within 3
# points (a frame-pointer walk loses the callers: 0% reach the root).
# Callers splits the worker's own CPU time, so the split holds on a busy
# machine; a run whose worker got too few samples is repeated once. 999 Hz:
# about 2,500 worker samples, so the 3-point window is about 4 sigma wide.
. "$(dirname "$0")/../lib/common.sh"

SECS=5 HZ=999

# check FILE: 0 ok, 1 wrong, 2 worker starved.
check() {
	awk -v f="$1" '
	/;callers-worker \[/ {
		n = $NF; w += n
		split($0, fr, ";")
		if (fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/) root += n
		if (!/Callers\.helper_\[/) next
		if (/Callers\.a_\[/) a += n
		else if (/Callers\.b_\[/) b += n
		else if (/Callers\.c_\[/) c += n
		else lost += n
	}
	END {
		m = a + b + c
		if (w < 300) { print f ": worker got " w " samples: starved"; exit 2 }
		printf "%s: root %.2f%% of %d; helper under a %.1f%% b %.1f%% c %.1f%% (of %d, %d without a caller)\n", f, 100*root/w, w, 100*a/m, 100*b/m, 100*c/m, m, lost
		if (root < 0.99 * w) { print f ": stacks do not reach the root"; exit 1 }
		d1 = 100*a/m - 100/6; d2 = 100*b/m - 200/6; d3 = 100*c/m - 300/6
		if (d1 > 3 || d1 < -3 || d2 > 3 || d2 < -3 || d3 > 3 || d3 < -3) { print f ": split off"; exit 1 }
	}' "$1"
}

run() { # JDK OUT
	local pid
	: >"$TMPD/java.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$1/bin/java" -cp "$SAMPLES" Callers $((SECS + 8)) \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Callers did not start"
	sleep 1
	"$MIXPROF" -F $HZ --per-thread -p "$pid" -o "$2" $SECS 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	cat "$TMPD/err"
	grep -q "whole stacks: " "$TMPD/err" || die "no whole-stack share in the summary"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# check_jdk JDK: one JDK's callers (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1 try out rc
	for try in 1 2; do
		out=$TMPD/callers-$try.folded
		run "$jdk" "$out"
		rc=0
		check "$out" || rc=$?
		[ $rc = 0 ] && break
		[ $rc = 2 ] && [ $try = 1 ] && continue
		die "$jdk: unwinding is wrong"
	done
}

each_jdk check_jdk
echo ok
