#!/usr/bin/env bash
# JFR output read by the JDK's own reader, on every JDK we test: Ratio
# (one/two/three at 1:2:3) profiled into -o r.jfr, with --heatmap beside
# it, whose samples.timed holds the same drained lines as folded text.
# That JDK's `jfr summary` must count the run's "N written"
# jdk.ExecutionSample events; `jfr print --json` must give, event by
# event, the very stacks of the folded lines (thread with its Java name,
# each frame's class, method and frame type as its suffix) with the same
# counts; the split of the worker's samples that `jfr print` shows must be
# within 2 points of the folded one. Then our reader draws our file and a
# recording the JDK made itself (-XX:StartFlightRecording), with the
# totals their `jfr summary` counts; off-CPU time as an event of our own;
# -i slices as one recording each, drawn by montage. Each Java frame of
# Ratio carries its bytecode index, on the line javap's LineNumberTable
# gives that index.
. "$(dirname "$0")/../lib/common.sh"

command -v jq >/dev/null || die "jq is needed to read jfr print --json"
SECS=2
# the jfr tool's own JVM with C1 alone (and javap's): its runs end
# before C2 would pay off (a third less CPU for the same output)
JFR_JVM=-J-XX:TieredStopAtLevel=1

# summary_count JDK FILE: jdk.ExecutionSample events, by `jfr summary`.
summary_count() {
	"$1/bin/jfr" $JFR_JVM summary "$2" >"$TMPD/summary" 2>&1 ||
		{ cat "$TMPD/summary"; die "$1: jfr summary $2 failed"; }
	awk '$1 == "jdk.ExecutionSample" { print $2 }' "$TMPD/summary"
}

# jdk_folded JDK FILE: each sample as the JDK reads it, as a folded line
# (process = thread group; "name [tid]"; frames root first with the
# suffix of their frame type), merged and counted, sorted.
jdk_folded() {
	"$1/bin/jfr" $JFR_JVM print --json --stack-depth 4096 \
		--events jdk.ExecutionSample "$2" >"$TMPD/print.json" ||
		die "$1: jfr print --json $2 failed"
	jq -r '
	def sfx: {"Interpreted": "_[0]", "JIT compiled": "_[j]",
		  "C1 compiled": "_[1]", "Inlined": "_[i]",
		  "Kernel": "_[k]"}[.] // "";
	def cls: if . == "" then "" else . + "." end;
	.recording.events[].values |
	.sampledThread.group.name + ";" +
	(.sampledThread.javaName // .sampledThread.osName) +
	" [" + (.sampledThread.osThreadId | tostring) + "]" +
	([.stackTrace.frames | reverse | .[] |
	  ";" + (.method.type.name | cls) + .method.name +
	  (if .lineNumber > 0 then ":" + (.lineNumber | tostring) else "" end) +
	  (.type | sfx)] |
	 join(""))' "$TMPD/print.json" |
		LC_ALL=C sort | uniq -c |
		awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print $0 " " c }' |
		LC_ALL=C sort
}

# timed_folded FILE: samples.timed's lines merged over its buckets.
timed_folded() {
	awk '/^#/ { next }
	{ c = $NF; l = substr($0, index($0, " ") + 1)
	  s[substr(l, 1, length(l) - length(c) - 1)] += c }
	END { for (l in s) print l " " s[l] }' "$1" | LC_ALL=C sort
}

# split: the worker's samples in one/two/three, in percent ("a b c").
split_folded() {
	awk '/;ratio-worker \[/ { if (/Ratio\.one(:[0-9]+)?_\[/) a += $NF
		else if (/Ratio\.two(:[0-9]+)?_\[/) b += $NF
		else if (/Ratio\.three(:[0-9]+)?_\[/) c += $NF }
	END { m = a + b + c; if (m) printf "%.1f %.1f %.1f\n", 100*a/m, 100*b/m, 100*c/m }' "$1"
}
# split_print: the same from jdk_folded's print.json (jfr print --json
# --events jdk.ExecutionSample): by the innermost of the three methods.
split_print() {
	jq -r '.recording.events[].values |
	select(.sampledThread.javaName == "ratio-worker") |
	[.stackTrace.frames[] | select(.method.type.name == "Ratio") |
	 .method.name | select(. == "one" or . == "two" or . == "three")] |
	first // empty' "$TMPD/print.json" |
	awk '{ n[$1]++ } END { m = n["one"] + n["two"] + n["three"]
		if (m) printf "%.1f %.1f %.1f\n", 100*n["one"]/m, 100*n["two"]/m, 100*n["three"]/m }'
}

for jdk in $(jdks); do
	note "JDK $jdk"
	"$MIXPROF" -F 999 -o "$TMPD/r.jfr" --heatmap "$TMPD/h" -- nice -n -15 \
		"$jdk/bin/java" -cp "$SAMPLES" Ratio $SECS >/dev/null 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof failed"; }
	written=$(sed -n 's/^mixprof: .* samples in .*, \([0-9]*\) written$/\1/p' "$TMPD/err")
	# the split is compared on the same samples: any number will do
	[ -n "$written" ] && [ "$written" -gt 100 ] ||
		{ cat "$TMPD/err"; die "too few samples: '$written'"; }
	got=$(summary_count "$jdk" "$TMPD/r.jfr")
	[ "$got" = "$written" ] ||
		{ cat "$TMPD/summary"; die "jfr summary counts $got samples, mixprof wrote $written"; }

	jdk_folded "$jdk" "$TMPD/r.jfr" >"$TMPD/jdk.folded"
	timed_folded "$TMPD/h/samples.timed" >"$TMPD/our.folded"
	[ -s "$TMPD/our.folded" ] || die "no folded lines in samples.timed"
	if ! cmp -s "$TMPD/jdk.folded" "$TMPD/our.folded"; then
		diff "$TMPD/our.folded" "$TMPD/jdk.folded" | head -10 | cut -c1-400
		die "jfr print's stacks differ from the folded lines"
	fi
	# threads by their Java names: the launcher's Java "main" thread
	# (comm "java", its root JavaMain) is "main" wherever it is named;
	# its samples taken before the JVM's tables were read keep its comm
	# (it idles in join once the worker starts: under CI load, once, all
	# of them); no thread with Java frames is "java"
	bad=$(grep ';JavaMain;' "$TMPD/our.folded" | grep -Ev '^java;(main|java) \[' | head -3) || true
	[ -z "$bad" ] || { echo "$bad" | cut -c1-300; die "the main thread misnamed"; }
	grep -q '^java;main \[' "$TMPD/our.folded" ||
		note "the main thread named in no sample (all before the JVM was read)"
	# (the main thread's unnamed samples above aside)
	! grep -E '^[^;]*;java \[[0-9]+\];.*_\[[01ji]\]' "$TMPD/our.folded" |
		grep -v ';JavaMain;' | head -3 | grep . ||
		die "a thread with Java frames is named by its comm"
	# a compiled frame: C2's "JIT compiled", or C1's (jmeta.c), all the
	# worker had once when a loaded machine's C2 did not compile Ratio's
	# methods within the run
	for t in '"(JIT|C1) compiled"' '"Interpreted"'; do
		grep -Eq "\"type\": $t" "$TMPD/print.json" && continue
		grep -Eo '"type": "[A-Za-z0-9 ]*"' "$TMPD/print.json" | sort | uniq -c
		grep -v '^#' "$TMPD/err" | sed -n '1,40p'
		awk '{ print $NF, $0 }' "$TMPD/our.folded" | sort -nr | sed -n '1,5p' | cut -c1-600
		die "no $t frame"
	done

	# bytecode indexes: Ratio's frames (jfr print's) against its
	# LineNumberTable (javap's: "METHOD START_BCI LINE" rows): a frame
	# with a line has a bci (both come from the same scope or frame),
	# the line of its bci; and they are many (a constant bci would be
	# wrong on most lines). A frame may have neither: its line unknown
	# (a launched JVM's first moments, before its tables were read).
	"$jdk/bin/javap" $JFR_JVM -c -l -p -cp "$SAMPLES" Ratio | awk '
		/^  [^ ].*\(/ { m = $0; sub(/\(.*/, "", m); sub(/.* /, "", m)
			       if (m == "Ratio") m = "<init>" }
		/^  static \{\};/ { m = "<clinit>" }
		/^ +line [0-9]+: [0-9]+$/ { l = $2; sub(/:/, "", l); print m, $3, l }' \
		>"$TMPD/lnt"
	jq -r '.recording.events[].values.stackTrace.frames[] |
		select(.method.type.name == "Ratio") |
		"\(.method.name) \(.bytecodeIndex) \(.lineNumber)"' \
		"$TMPD/print.json" >"$TMPD/bci"
	read -r frames ok bad distinct < <(awk '
		NR == FNR { k = ++n[$1]; at[$1, k] = $2; ln[$1, k] = $3; next }
		{ frames++; if ($3 <= 0) next
		  # -1: a compiled method entered (InvocationEntryBci), the
		  # line of its first bytecode
		  b = $2 == -1 ? 0 : $2; want = -1; best = -1
		  for (i = 1; i <= n[$1]; i++)
			if (at[$1, i] <= b && at[$1, i] > best) { best = at[$1, i]; want = ln[$1, i] }
		  if (b >= 0 && $3 == want) { ok++; seen[$1 " " $2] = 1 }
		  else if (bad++ < 3) print "  " $1 " bci " $2 ": line " $3 ", its table " want >"/dev/stderr" }
		END { for (s in seen) d++; print frames + 0, ok + 0, bad + 0, d + 0 }' \
		"$TMPD/lnt" "$TMPD/bci")
	note "bytecode indexes: $ok of $frames Ratio frames on their line, $distinct distinct, $bad not"
	[ "$bad" = 0 ] || die "$bad frames with a line have no bytecode index on it"
	# (a quarter: at load 30 half of a 2 s run's frames came before the
	# launched JVM's tables were read)
	[ $((ok * 4)) -ge "$frames" ] || die "only $ok of $frames Ratio frames have a line and bci"
	[ "$distinct" -ge 5 ] || die "only $distinct distinct (method, bci) pairs"

	ours=$(split_folded "$TMPD/our.folded")
	theirs=$(split_print)
	note "split one/two/three: folded $ours, jfr print $theirs ($written samples)"
	if [ -z "$theirs" ]; then
		awk '{ split($0, f, ";"); n[f[2]] += $NF } END { for (t in n) print n[t], t }' \
			"$TMPD/our.folded" | sort -nr | head -5
		die "jfr print shows no worker samples in one/two/three"
	fi
	awk -v a="$ours" -v b="$theirs" 'BEGIN { split(a, x); split(b, y)
		for (i = 1; i <= 3; i++) if (x[i] - y[i] > 2 || y[i] - x[i] > 2) exit 1 }' ||
		die "split differs by more than 2 points"

	"$MIXPROF" flamegraph "$TMPD/r.jfr" >"$TMPD/r.svg" || die "flamegraph of our JFR"
	grep -q "all ($written samples" "$TMPD/r.svg" || die "our reader's total differs"

	# a recording of the JDK's own: 1 s of Ratio's work at nice -15 (at
	# nice 0, 1 s left no sample of Ratio.three once, its worker starved
	# at load 20). The JDK's sampler takes 0 to ~40 of the worker's
	# stacks in such a run (it drops those it cannot walk): up to three
	# runs for one whose own reader shows a Ratio.three frame, which
	# ours must draw too.
	for try in 1 2 3; do
		nice -n -15 "$jdk/bin/java" -XX:StartFlightRecording=filename="$TMPD/jdk.jfr",settings=profile \
			-cp "$SAMPLES" Ratio 1 >/dev/null 2>&1 || die "java with JFR failed"
		n=$(summary_count "$jdk" "$TMPD/jdk.jfr")
		"$jdk/bin/jfr" $JFR_JVM print --events jdk.ExecutionSample \
			"$TMPD/jdk.jfr" >"$TMPD/jdk.txt" || die "jfr print of the JDK's recording"
		grep -q 'Ratio\.three(' "$TMPD/jdk.txt" && break
		note "the JDK's recording $try: $n samples, none in Ratio.three"
	done
	[ -n "$n" ] && [ "$n" -gt 0 ] || die "the JDK's recording has no samples"
	"$MIXPROF" flamegraph "$TMPD/jdk.jfr" >"$TMPD/jdk.svg" 2>"$TMPD/fg.err" ||
		{ cat "$TMPD/fg.err"; die "flamegraph of the JDK's recording"; }
	grep -q "all ($n samples" "$TMPD/jdk.svg" || die "JDK recording: not $n samples drawn"
	grep -q 'Ratio\.three_\[[j01i]\]' "$TMPD/jdk.svg" || die "JDK recording: no Ratio.three frame"
	note "JDK recording: $n samples drawn"
	rm -rf "$TMPD/h" "$TMPD"/*.jfr
done

# Off-CPU time, an event of our own: the JDK reads it by the metadata in
# the file, one event per folded line; our reader gets the time back.
jdk=$(jdks | sed -n 1p)
"$MIXPROF" --off-cpu -o "$TMPD/o.jfr" --heatmap "$TMPD/h" -- \
	"$jdk/bin/java" -cp "$SAMPLES" Ratio 1 >/dev/null 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "--off-cpu run failed"; }
timed_folded "$TMPD/h/samples.timed" >"$TMPD/off.folded"
lines=$(wc -l <"$TMPD/off.folded")
us=$(awk '{ t += $NF } END { print t }' "$TMPD/off.folded")
"$jdk/bin/jfr" $JFR_JVM print --json --events mixprof.OffCPU "$TMPD/o.jfr" >"$TMPD/off.json" ||
	die "jfr print of --off-cpu"
n=$(jq '[.recording.events[] | select(.values.duration != null)] | length' "$TMPD/off.json")
[ "$n" = "$lines" ] || die "mixprof.OffCPU: $n events with a duration, $lines folded lines"
"$MIXPROF" flamegraph "$TMPD/o.jfr" >"$TMPD/o.svg" || die "flamegraph of --off-cpu JFR"
grep -q "all ($us samples" "$TMPD/o.svg" || die "off-CPU: not $us us read back"
note "off-CPU: $n events, $us us"

# Slices: one recording per second, each drawn by montage with the
# samples slices.tsv gives it (the JVM's start and 1 s of Ratio: two).
"$MIXPROF" -F 199 -i 1 --format jfr -o "$TMPD/sl" -- \
	"$jdk/bin/java" -cp "$SAMPLES" Ratio 1 >/dev/null 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "sliced run failed"; }
"$MIXPROF" montage "$TMPD/sl" || die "montage of JFR slices"
n=0
while IFS=$'\t' read -r idx s e samples file partial; do
	[ "${idx:0:1}" = "#" ] && continue
	case $file in slice-*.jfr) ;; *) die "slice file '$file'" ;; esac
	[ "$samples" = 0 ] || grep -q "all ($samples samples" "$TMPD/sl/${file%.jfr}.svg" ||
		die "$file: montage did not draw its $samples samples"
	n=$((n + 1))
done <"$TMPD/sl/slices.tsv"
[ $n -ge 2 ] || die "only $n slices"
note "slices: $n recordings drawn by montage"
echo ok
