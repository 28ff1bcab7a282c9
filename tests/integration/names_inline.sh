#!/usr/bin/env bash
# Inlined frames named from the JVM's metadata against the agent's
# inline ranges, on the same samples: JNames (inlining) on a JVM started
# with the agent (-agentpath: every nmethod is in its map), profiled with
# -p and MIXPROF_NAMES_CHECK=1, which names each compiled frame both ways
# and counts whether the method chains agree: >= 99% must. Also
# --per-thread: JNames' workers are "mixprof-names-worker-N", whose
# first 15 characters (the kernel's comm) are the same; each must show
# under its whole name, and --thread matches whole names. On every JDK.
. "$(dirname "$0")/../lib/common.sh"

# check_jdk JDK: the names of one JDK's compiled frames (the JDKs run at
# the same time: each_jdk)
check_jdk() {
	local jdk=$1 pid try same total inl w
	note "JDK $jdk"
	: >"$TMPD/out" # a JVM before wrote "ready" in it
	"$jdk/bin/java" -agentpath:"$AGENT" -cp "$SAMPLES" JNames 4 \
		>"$TMPD/out" 2>"$TMPD/jvm.err" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 20 grep -qs '^ready' "$TMPD/out" || die "JNames not ready"
	sleep 1 # hot code compiled
	# a run that checked under 100 frames (the JVM starved or still
	# compiling on a loaded machine: once 23), or under 500 with more
	# than 1% differing, is made again, twice at most: JDK 25's runs
	# differ on 2 frames whatever their length (ArrayList.grow at a call
	# without debug info of its own: named by its method alone, README),
	# 2 of 184 in a fresh-clone run at load ~16
	for try in 1 2 3; do
		MIXPROF_NAMES_CHECK=1 "$MIXPROF" -p "$pid" -F 499 --per-thread \
			-o "$TMPD/n.folded" 4 2>"$TMPD/err" ||
			die "mixprof failed: $(cat "$TMPD/err")"
		grep "names check\|compiled Java" "$TMPD/err" || true
		read -r same total < <(sed -n 's/.*names check: \([0-9]*\) of \([0-9]*\) compiled.*/\1 \2/p' "$TMPD/err")
		[ -n "$total" ] && [ "$total" -ge 100 ] &&
			{ [ $((same * 100)) -ge $((total * 99)) ] || [ "$total" -ge 500 ]; } &&
			break
		note "${same:-no} of ${total:-no} frames checked the same: again"
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	[ -n "$total" ] && [ "$total" -ge 100 ] || die "too few frames checked (${total:-none})"
	[ $((same * 100)) -ge $((total * 99)) ] ||
		die "names differ from the agent's: $same of $total the same: $(grep 'names check:' "$TMPD/err" | head -5)"
	inl=$(awk '/JNames[^;]*_\[i\]/ { n += $NF } END { print n + 0 }' "$TMPD/n.folded")
	note "$same of $total compiled frames named as the agent names them; $inl samples with an inlined JNames frame"
	[ "$inl" -gt 0 ] || die "no inlined frame"
	for w in 1 3 4 10; do # (worker 2 is named 10)
		grep -q ";mixprof-names-worker-$w \[[0-9]*\];" "$TMPD/n.folded" ||
			die "no thread mixprof-names-worker-$w: $(cut -d';' -f2 "$TMPD/n.folded" | sort -u | head)"
	done
}

each_jdk check_jdk
jdk=$(jdks | tail -1)
# --thread matches the whole names: worker-1 alone, not worker-10
: >"$TMPD/out" # a JVM before wrote "ready" in it
"$jdk/bin/java" -cp "$SAMPLES" JNames 4 >"$TMPD/out" 2>"$TMPD/jvm.err" &
pid=$!
PIDS_TO_KILL+=($pid)
wait_for 20 grep -qs '^ready' "$TMPD/out" || die "JNames not ready"
"$MIXPROF" -p "$pid" -F 999 --thread 'worker-1$' -o "$TMPD/t.folded" 1.5 \
	2>"$TMPD/err" || die "mixprof --thread failed: $(cat "$TMPD/err")"
threads=$(cut -d';' -f2 "$TMPD/t.folded" | sed 's/ \[.*//' | sort -u)
note "--thread 'worker-1$': $threads"
[ "$threads" = mixprof-names-worker-1 ] || die "--thread kept: $threads"
echo ok
