#!/usr/bin/env bash
# flamegraph.pl --color=java colours mixprof's default folded output
# right: every Java frame green or aqua, kernel frames orange. Two
# workloads whose classes lie outside the package prefixes that palette
# takes for Java: Ratio (the default package) under -Xint, every frame
# interpreted, and de.mixprof.sample.Spin with C1 only; with --tiers their
# frames end in _[0] and _[1], which the palette does not know: red.
#
# No package of Debian 12 or npm ships flamegraph.pl (npm's "flamegraph"
# is a JavaScript port with palettes of its own), so the palette is
# applied here as flamegraph.pl writes it (brendangregg/FlameGraph,
# flamegraph.pl, sub color, the "java" palette), its rules in its order,
# to each frame's name:
#   ends in _[j]                               green  (JIT annotation)
#   ends in _[i]                               aqua   (inline annotation)
#   starts with L?(java|javax|jdk|net|org|com|io|sun)/   green
#   holds ":::"                                green  (perf-map-agent's)
#   holds "::"                                 yellow (C++)
#   ends in _[k]                               orange (kernel annotation)
#   anything else                              red    (system)
# A Java frame is one mixprof suffixed as Java: _[j] _[i] _[0] _[1].
. "$(dirname "$0")/../lib/common.sh"

jdk=$(jdks | sed -n 1p)
out=$TMPD/c.folded
"$MIXPROF" -F 499 -o "$out" -- sh -c '
	"$1/bin/java" -Xint -cp "$2" Ratio 1.5 >/dev/null &
	"$1/bin/java" -XX:TieredStopAtLevel=1 -cp "$2" de.mixprof.sample.Spin 1.5 >/dev/null
	wait' _ "$jdk" "$SAMPLES" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }

awk '
function colour(f) {
	if (f ~ /_\[j\]$/) return "green"
	if (f ~ /_\[i\]$/) return "aqua"
	if (f ~ /^L?(java|javax|jdk|net|org|com|io|sun)\//) return "green"
	if (index(f, ":::")) return "green"
	if (index(f, "::")) return "yellow"
	if (f ~ /_\[k\]$/) return "orange"
	return "red"
}
{
	n = $NF; sub(/ [0-9]+$/, "")
	k = split($0, fr, ";")
	for (i = 2; i <= k; i++) {
		c = colour(fr[i])
		seen[c] += n
		if (fr[i] ~ /_\[[ji01]\]$/) {
			java += n
			if (c != "green" && c != "aqua") { bad += n; badf = fr[i] }
		}
		if (fr[i] ~ /_\[k\]$/ && c != "orange") { bad += n; badf = fr[i] }
		if (fr[i] ~ /^Ratio\.(one|two|three)_/) ratio += n
		if (fr[i] ~ /^de\/mixprof\/sample\/Spin\./) spin += n
	}
}
END {
	printf "# frames (sample-weighted): green %d aqua %d yellow %d orange %d red %d;", seen["green"], seen["aqua"], seen["yellow"], seen["orange"], seen["red"]
	printf " Java %d, not green or aqua %d; Ratio %d, de/ Spin %d\n", java, bad, ratio, spin
	if (bad) { print "FAIL: coloured wrong, e.g. " badf; exit 1 }
	if (ratio < 50 || spin < 50) { print "FAIL: too few samples of the workloads"; exit 1 }
}' "$out" || die "flamegraph.pl's java palette colours some frames wrong"
echo ok
