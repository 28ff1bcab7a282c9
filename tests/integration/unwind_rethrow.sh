#!/usr/bin/env bash
# Exceptions through compiled code (samples/Rethrow, -XX:-Inline): C2's
# runtime stubs leave by tail jumps ("pop rbp; jmp REG", and "pop rdx;
# jmp REG" with the caller's pc in rdx) and the exception blob is entered
# and left with the caller's pc in rdx (jvm/blobkinds.h). On a JVM with
# -XX:+PreserveFramePointer, MIXPROF_UNWIND=check -p, in 2 s windows
# until there are >= 1500 JVM samples (a loaded machine gives the JVM a
# fraction of a CPU), on every JDK:
# - the HotSpot and frame-pointer walks agree on >= 99.8% of them but for
#   the oracle's blind spots (measured 99.98-100%; 99.10% on JDK 25
#   before the exception blob's edges and the oracle's "add rbp" were
#   known);
# - < 0.1% of the samples are walks that broke at a pc ([unwind: bad
#   pc]: 0.47% on JDK 25 before, the exception blob's leaves);
# - every sample's Rethrow frames are main, depth1, depth2, depth3 in
#   that order, a prefix of it (ground truth: the program's calls);
# - the rethrow stub and the exception blob are leaves in >= 10 samples
#   (~100 in 4,000).
# Then safepoints at polls (samples/Polls, -XX:-Inline, no flag, no
# check), in windows until >= 20 samples: main stops at its loop's and
# returns' polls in HotSpot's safepoint handler blobs, whose caller must
# be one of Polls' methods (the frame that polled), never another frame
# nor a break: 2-4 of 200-300 such samples a run broke or had the call
# stub for caller before the handler for polls in loops was known; and
# main's Polls frames are main, g, f in that order.
. "$(dirname "$0")/../lib/common.sh"

RUNS=6 # windows of 2 s at most

# start_java OUT JDK ARGS...: the JVM in the background, in $jpid (killed
# when a die ends the test: this shell's PIDS_TO_KILL)
start_java() {
	local out=$1 jdk=$2
	shift 2
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" "$@" >"$out" 2>&1 &
	jpid=$!
	PIDS_TO_KILL+=("$jpid")
	sleep 1 # compiled: the walks meet C2's code
}

stop_java() {
	kill "$jpid" 2>/dev/null || true
	wait "$jpid" 2>/dev/null || true
}

# rethrow JDK: the check mode windows, their folded lines in $T/rt.*
rethrow() {
	local jdk=$1 same=0 total=0 badpc=0 n=0 run
	start_java "$T/rt.out" "$jdk" -XX:+PreserveFramePointer -XX:-Inline \
		-cp "$SAMPLES" Rethrow 3600
	for run in $(seq $RUNS); do
		MIXPROF_UNWIND=check "$MIXPROF" -F 999 -p "$jpid" -o "$T/rt.$run" 2 \
			2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
		grep "check:\|differ:" "$TMPD/err" || true
		set -- $(sed -n 's/.*agree on \([0-9]*\) of \([0-9]*\) JVM samples.*/\1 \2/p' \
			"$TMPD/err") \
			$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$TMPD/err") \
			$(sed -n 's/^mixprof: *\([0-9]*\) \[unwind: bad pc\].*/\1/p' "$TMPD/err")
		[ $# -ge 3 ] || { cat "$TMPD/err"; die "no check line in the summary"; }
		same=$((same + $1)) total=$((total + $2)) n=$((n + $3))
		badpc=$((badpc + ${4:-0}))
		[ "$total" -ge 1500 ] && break
	done
	stop_java
	[ "$total" -ge 1500 ] || die "only $total JVM samples in $RUNS runs"
	[ $((same * 1000)) -ge $((total * 998)) ] ||
		die "walks agree on $same of $total"
	[ $((badpc * 1000)) -lt "$n" ] ||
		die "$badpc of $n walks broke at a pc they could not place"
	note "$jdk: $same of $total agree, $badpc of $n broke at a pc"
}

# in_order PREFIX METHOD...: the lines (of stdin) whose PREFIX.METHOD
# frames are not a prefix of METHOD... in that order (a walk that broke,
# marked, is counted above, not here)
in_order() {
	local cls=$1
	shift
	awk -v cls="$cls" -v want="$*" 'BEGIN { nw = split(want, w, " ") }
	/\[unwind: / { next }
	{ line = $0; sub(/ [0-9]+$/, "", line); k = split(line, f, ";"); j = 0
	  for (i = 1; i <= k; i++) {
		if (index(f[i], cls ".") != 1 || f[i] !~ /_\[[0-9a-z]\]$/) continue
		m = substr(f[i], length(cls) + 2); sub(/_\[.*/, "", m)
		if (m !~ /^[a-z0-9]+$/) continue # a lambda
		if (j >= nw || m != w[j + 1]) { print; break }
		j++
	  } }'
}

# check_jdk JDK: one JDK, its files in a directory of its own ($T). The
# JDKs one after the other: Polls keeps two CPUs busy (its loop and its
# dumper), and two at once starved the tests beside this one (class
# churn's naming fell behind its unloading)
check_jdk() {
	local jdk=$1 bad leaves run total=0
	T=$TMPD/$(basename "$jdk")
	mkdir -p "$T"
	rethrow "$jdk"
	bad=$(cat "$T"/rt.* | in_order Rethrow main depth1 depth2 depth3 | head -3)
	[ -z "$bad" ] || { echo "$bad" | cut -c1-400; die "Rethrow frames out of their call order"; }
	leaves=$(cat "$T"/rt.* | awk '{ c = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, f, ";"); leaf = f[k]
		if (leaf ~ /^\[check:/) leaf = f[k - 1]
		if (leaf == "_rethrow_Java" || leaf == "C2 Runtime rethrow" ||
		    leaf == "ExceptionBlob") s += c }
		END { print s + 0 }')
	note "$jdk: $leaves rethrow stub and exception blob leaves"
	[ "$leaves" -ge 10 ] || die "only $leaves leaves in the rethrow stub or exception blob"

	start_java "$T/po.out" "$jdk" -XX:-Inline -cp "$SAMPLES" Polls 3600
	for run in $(seq $RUNS); do
		"$MIXPROF" -F 999 -p "$jpid" -o "$T/po.$run" 2 2>"$TMPD/err" ||
			{ cat "$TMPD/err"; die "mixprof failed on Polls"; }
		total=$(cat "$T"/po.* | awk '{ c = $NF; if (/;SafepointBlob[; ]/) s += c }
			END { print s + 0 }')
		[ "$total" -ge 20 ] && break
	done
	stop_java
	set -- $(cat "$T"/po.* | awk '/;JavaMain;/ { c = $NF; line = $0
		sub(/ [0-9]+$/, "", line); k = split(line, f, ";")
		for (i = 2; i <= k; i++)
			if (f[i] == "SafepointBlob") {
				if (f[i - 1] ~ /^Polls\.[a-z]+_\[/) ok += c
				else { bad += c; if (!first) first = f[i - 1] }
			} }
		END { print ok + 0, bad + 0, first }')
	note "$jdk: Polls: $1 samples in the safepoint handlers under a Polls frame, $2 not ${3:-}"
	[ "$2" = 0 ] || die "the safepoint handler's caller not the frame that polled: $3"
	[ "$1" -ge 5 ] || die "only $1 samples in the safepoint handlers"
	bad=$(cat "$T"/po.* | grep ';JavaMain;' | in_order Polls main g f | head -3)
	[ -z "$bad" ] || { echo "$bad" | cut -c1-400; die "Polls frames out of their call order"; }
}

for jdk in $(jdks); do
	note "JDK $jdk"
	check_jdk "$jdk"
done
echo ok
