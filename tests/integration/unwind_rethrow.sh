#!/usr/bin/env bash
# Exceptions through compiled code (samples/Rethrow, -XX:-Inline): C2's
# runtime stubs leave by tail jumps ("pop rbp; jmp REG", and "pop rdx;
# jmp REG" with the caller's pc in rdx) and the exception blob is entered
# and left with the caller's pc in rdx (jvm/blobkinds.h). Launched with
# -XX:+PreserveFramePointer under MIXPROF_UNWIND=check on every JDK:
# - the HotSpot and frame-pointer walks agree on >= 99.8% of the JVM
#   samples but for the oracle's blind spots (measured 99.98-99.99%;
#   99.10% on JDK 25 before the exception blob's edges and the oracle's
#   "add rbp" were known);
# - < 0.1% of the samples are walks that broke at a pc ([unwind: bad
#   pc]: 0.47% on JDK 25 before, the exception blob's leaves);
# - every sample's Rethrow frames are main, depth1, depth2, depth3 in
#   that order, a prefix of it (ground truth: the program's calls);
# - the rethrow stub and the exception blob are leaves in >= 10 samples
#   (the run exercised them: ~100 in 4 s).
# Then safepoints at polls (samples/Polls, -XX:-Inline, no flag, no
# check): main stops at its loop's and returns' polls in HotSpot's
# safepoint handler blobs, whose caller must be one of Polls' methods
# (the frame that polled), never another frame nor a break: 2-4 of
# 200-300 such samples a run broke or had the call stub for caller
# before the handler for polls in loops was known; and main's Polls
# frames are main, g, f in that order.
. "$(dirname "$0")/../lib/common.sh"

SECS=4

# check_jdk JDK: one JDK (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1 f=$TMPD/rt.folded same total badpc n bad leaves
	MIXPROF_UNWIND=check "$MIXPROF" -F 999 -o "$f" -- env -u JAVA_TOOL_OPTIONS \
		"$jdk/bin/java" -XX:+PreserveFramePointer -XX:-Inline -cp "$SAMPLES" \
		Rethrow $SECS >/dev/null 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	grep "check:\|differ:\|walks broke" "$TMPD/err" || true
	set -- $(sed -n 's/.*agree on \([0-9]*\) of \([0-9]*\) JVM samples.*/\1 \2/p' "$TMPD/err")
	[ $# -eq 2 ] || { cat "$TMPD/err"; die "no check line in the summary"; }
	same=$1 total=$2
	[ "$total" -ge 1000 ] || die "only $total JVM samples"
	[ $((same * 1000)) -ge $((total * 998)) ] ||
		die "walks agree on $same of $total"
	n=$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$TMPD/err")
	badpc=$(sed -n 's/^mixprof: *\([0-9]*\) \[unwind: bad pc\].*/\1/p' "$TMPD/err")
	[ -n "$n" ] && [ $((${badpc:-0} * 1000)) -lt "$n" ] ||
		die "${badpc:-0} of $n walks broke at a pc they could not place"
	bad=$(awk '{ line = $0; sub(/ [0-9]+$/, "", line); k = split(line, f, ";")
		want[0] = "main"; want[1] = "depth1"; want[2] = "depth2"; want[3] = "depth3"
		j = 0
		for (i = 1; i <= k; i++) {
			if (f[i] !~ /^Rethrow\.[a-z0-9]+_\[/) continue
			m = f[i]; sub(/^Rethrow\./, "", m); sub(/_\[.*/, "", m)
			if (m != want[j]) { print; break }
			j++
		} }' "$f" | head -3)
	[ -z "$bad" ] || { echo "$bad" | cut -c1-400; die "Rethrow frames out of their call order"; }
	leaves=$(awk '{ c = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, f, ";"); leaf = f[k]
		if (leaf ~ /^\[check:/) leaf = f[k - 1]
		if (leaf == "_rethrow_Java" || leaf == "C2 Runtime rethrow" ||
		    leaf == "ExceptionBlob") s += c }
		END { print s + 0 }' "$f")
	note "$jdk: $same of $total agree, ${badpc:-0} of $n broke at a pc, $leaves rethrow stub and exception blob leaves"
	[ "$leaves" -ge 10 ] || die "only $leaves leaves in the rethrow stub or exception blob"

	"$MIXPROF" -F 999 -o "$f" -- env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" \
		-XX:-Inline -cp "$SAMPLES" Polls 3 >/dev/null 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed on Polls"; }
	set -- $(awk '/;JavaMain;/ { c = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, f, ";"); j = 0
		want[0] = "main"; want[1] = "g"; want[2] = "f"
		for (i = 2; i <= k; i++) {
			if (f[i] == "SafepointBlob") {
				if (f[i - 1] ~ /^Polls\.[a-z]+_\[/) ok += c
				else { bad += c; if (!first) first = f[i - 1] }
			}
			if (f[i] !~ /^Polls\.[a-z]+_\[/) continue
			m = f[i]; sub(/^Polls\./, "", m); sub(/_\[.*/, "", m)
			if (m != want[j]) { order += c; break }
			j++
		} }
		END { print ok + 0, bad + 0, order + 0, first }' "$f")
	note "$jdk: Polls: $1 samples in the safepoint handlers under a Polls frame, $2 not (${4:-}), $3 out of call order"
	[ "$2" = 0 ] || die "the safepoint handler's caller not the frame that polled: $4"
	[ "$3" = 0 ] || die "Polls frames out of their call order"
	[ "$1" -ge 10 ] || die "only $1 samples in the safepoint handlers"
}

each_jdk check_jdk
echo ok
