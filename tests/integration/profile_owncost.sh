#!/usr/bin/env bash
# -v's "its own cost" is mixprof's alone: its CPU agrees with what
# time(1) gives the whole run less what mixprof's summary gives the
# launched command (wait4's rusage of each), its peak RSS is no more than
# time(1)'s (the largest of mixprof and its children), and its per-sample
# figure is its CPU over the run's samples. A command that burns ~2 s of
# CPU while mixprof samples it at 999 Hz: a figure that counted the
# command would be seconds off, one that missed mixprof's threads tenths.
. "$(dirname "$0")/../lib/common.sh"

/usr/bin/time -f '%U %S %M' -o "$TMPD/time" "$MIXPROF" -v -F 999 \
	-o "$TMPD/own.folded" -- sh -c 'i=0; end=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt $end ]; do i=$((i+1)); done' \
	2>"$TMPD/err" || die "mixprof failed: $(tail -5 "$TMPD/err")"
line=$(grep 'its own cost:' "$TMPD/err") || die "no own cost line: $(grep -v '^libbpf' "$TMPD/err" | tail -5)"
echo "$line"
read -r tu ts tm <"$TMPD/time"
child=$(sed -n 's/.*exited with status 0; CPU \([0-9.]*\) s user, \([0-9.]*\) s system$/\1 \2/p' "$TMPD/err")
[ -n "$child" ] || die "no CPU times of the command in the summary"
samples=$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$TMPD/err")
echo "time(1): $tu s user, $ts s system, $tm KB; the command: $child; $samples samples"
awk -v line="$line" -v tu="$tu" -v ts="$ts" -v tm="$tm" -v child="$child" -v n="$samples" 'BEGIN {
	if (!match(line, /its own cost: [0-9.]+ s of CPU \([0-9.]+ user, [0-9.]+ system\), [0-9.]+ us a sample, peak RSS [0-9.]+ MB/)) {
		print "FAIL: the line is not as documented"; exit 1
	}
	split(substr(line, RSTART, RLENGTH), w, /[ (),]+/)
	# its own cost: CPU s of CPU user user, sys system, us us a sample, peak RSS mb MB
	cpu = w[4]; per = w[12]; mb = w[18]
	split(child, c, " ")
	want = tu + ts - c[1] - c[2]
	printf "mixprof: %.2f s reported, %.2f s by time(1) less the command; %.1f us a sample; %.1f MB of %.1f\n", cpu, want, per, mb, tm / 1024
	if (cpu <= 0 || cpu - want > 0.05 + 0.25 * want || want - cpu > 0.05 + 0.25 * want) {
		print "FAIL: mixprof CPU " cpu " s against " want " s"; exit 1
	}
	if (n <= 0 || per * n / 1e6 - cpu > 0.01 + 0.01 * cpu || cpu - per * n / 1e6 > 0.01 + 0.01 * cpu) {
		print "FAIL: " per " us a sample over " n " samples is not " cpu " s"; exit 1
	}
	if (mb <= 1 || mb * 1024 > tm * 1.01 + 1024) {
		print "FAIL: peak RSS " mb " MB against time(1)s " tm " KB"; exit 1
	}
}' || die "own cost off"
echo ok
