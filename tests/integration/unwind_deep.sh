#!/usr/bin/env bash
# Deep stacks are ours to walk: Recurse 2,000 frames deep, compiled and
# under -Xint (every frame interpreted), launched through mixprof with
# --stack-depth 4096, on every JDK we test. >= 95% of the worker's leaf
# samples carry all 2,000 frames of Recurse.down, named (interpreted
# frames beyond the first 64 too), and reach the thread's root; none is
# cut ([truncated]). The shares are of at least 200 leaf samples: the
# launches' folded stacks together until there are (one launch on a quiet
# machine; under load the worker gets less CPU: once 121 under -Xint in
# a launch of 4 s at 499 Hz, as many as one of 2 s at 999 Hz gives).
. "$(dirname "$0")/../lib/common.sh"

FLOOR=200
RUNS=5 # launches at most, for one JDK and mode

# check FOLDED: 0 when the leaf samples are whole, 1 when they are not or
# one is cut, 2 when they are too few to tell
check() {
	awk -v f="$1" -v floor=$FLOOR '
	/;recurse-worker \[/ && /Recurse\.leaf_\[/ {
		n = $NF; leaf += n
		if (/\[truncated\]/) cut += n
		split($0, fr, ";")
		deep = gsub(/Recurse\.down_\[/, "&") >= 2000
		root = fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/
		if (deep && root)
			whole += n
		else if (!deep)
			short += n
		else
			rootless += n
	}
	END {
		printf "%s: %d of %d leaf samples whole, %d truncated; not whole: %d with fewer than 2000 Recurse.down, %d not from the root\n",
			f, whole, leaf, cut, short, rootless
		if (cut)
			exit 1
		if (leaf < floor)
			exit 2
		exit whole < 0.95 * leaf
	}' "$1"
}

# check_jdk JDK: both modes on one JDK (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1 mode all run rc
	for mode in -Xmixed -Xint; do
		all=$TMPD/deep$mode.folded
		: >"$all"
		for run in $(seq $RUNS); do
			env -u JAVA_TOOL_OPTIONS "$MIXPROF" -F 999 --per-thread \
				--stack-depth 4096 -o "$TMPD/run.folded" -- \
				"$jdk/bin/java" $mode -cp "$SAMPLES" Recurse 2 2000 \
				2>"$TMPD/err" >/dev/null || { cat "$TMPD/err"; die "mixprof failed"; }
			# and why walks broke: a failure shows its reasons
			grep "whole stacks\|interpreted frames\|lost chunks\|\[unwind: " "$TMPD/err"
			cat "$TMPD/run.folded" >>"$all"
			rc=0
			check "$all" || rc=$?
			[ $rc = 2 ] || break
		done
		[ $rc = 0 ] || die "$jdk $mode: deep stacks not whole (or too few in $RUNS launches)"
	done
}

each_jdk check_jdk
echo ok
