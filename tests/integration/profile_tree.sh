#!/usr/bin/env bash
# Launch mode follows the process tree: a shell that starts java (in the
# background, so java is a new process, not an exec) is profiled with its
# JVM, whose JAVA_TOOL_OPTIONS stays the user's (no agent unless
# --agent, no -XX:+PreserveFramePointer: the HotSpot unwinder needs none,
# and compiled frames are named from the JVM's own metadata).
. "$(dirname "$0")/../lib/common.sh"

out=$TMPD/tree.folded
JAVA_TOOL_OPTIONS=-Dmixprof.test=1 "$MIXPROF" -F 499 -o "$out" -- \
	bash -c 'java -cp "$1" Ratio 3 & wait; echo "jto=$JAVA_TOOL_OPTIONS"' \
	_ "$SAMPLES" >"$TMPD/stdout" 2>"$TMPD/err"
cat "$TMPD/err" "$TMPD/stdout"
grep -qx 'jto=-Dmixprof.test=1' \
	"$TMPD/stdout" || die "JAVA_TOOL_OPTIONS not extended as expected"
java=$(awk '/^java;/ { n += $NF } END { print n + 0 }' "$out")
named=$(awk '/^java;.*Ratio\.(one|two|three)_\[[01ji]\]/ { n += $NF } END { print n + 0 }' "$out")
note "java samples $java, in Ratio methods $named"
# ~1,500 on a quiet host (3 s at 499 Hz, a busy worker); 231 at load 28
[ "$java" -gt 100 ] || die "the JVM started by the shell was not followed"
[ "$named" -gt $((java / 2)) ] || die "Java frames not named"
echo ok
