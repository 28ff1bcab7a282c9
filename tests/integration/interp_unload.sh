#!/usr/bin/env bash
# Interpreted frames and class unloading: Unload runs UnloadWorker00,
# 01... one per phase, each unloaded before the next, so the metadata of
# one phase's class (its Method*s) is freed and reused by the next. Under
# -Xint (all interpreted) and with a low compile threshold (interpreted
# first, then compiled: both naming paths in one phase). In every slice inside a phase (by the times Unload logs, the
# clock of slices.tsv), no frame may carry another phase's worker name;
# the phase's own worker must be named in enough samples. On every JDK.
# Compiled code is named by the JIT map's time rule, which is as fine as
# the map reads are close: a slice is checked only when it ends at least
# the longest gap between two reads (mixprof -v) plus the 10 ms slack
# before its phase does (the next phase's code cannot name it then).
# Runs of 5 phases of PHASE s each are made until, together, at least
# 5 slices lay inside a phase and 200 worker samples were in them (one
# run on a quiet machine; RUNS at most): every run must have its 5
# phases and every worker sample in it named right.
# runner: alone (every worker sample named right under timing: once, beside another test, 2 of 3,316 were not)
. "$(dirname "$0")/../lib/common.sh"

PHASE=0.6 RUNS=4

for jdk in $(jdks); do
for mode in -Xint "-XX:-TieredCompilation -XX:CompileThreshold=200"; do
	inside=0 all=0
	for run in $(seq $RUNS); do
		note "JDK $jdk, $mode, run $run"
		dir=$TMPD/unload-$(basename "$jdk")-${mode%% *}-$run
		# shellcheck disable=SC2086 # $mode is a list of JVM flags
		nice -n 5 "$MIXPROF" -v -F 999 -i 0.2 -o "$dir" -- \
			"$jdk/bin/java" $mode -cp "$SAMPLES" Unload 5 $PHASE \
			>"$TMPD/phases" 2>"$TMPD/err" ||
			die "mixprof failed: $(cat "$TMPD/err")"
		grep "interpreted frames" "$TMPD/err" || die "no interpreted frames"
		gap=$(sed -n 's/.*JIT maps read at most \([0-9]*\) ms apart.*/\1/p' "$TMPD/err")
		note "JIT map reads at most ${gap:-?} ms apart"
		cat "$TMPD/phases"
		grep -q '^done' "$TMPD/phases" || die "Unload did not finish"
		awk -v dir="$dir" -v gap="${gap:-0}" '
		FNR == NR { if ($1 == "phase") { name[$2] = $3; ps[$2] = $4; pe[$2] = $5; np++ } next }
		/^#/ { next }
		{
			split($0, t, "\t")
			margin = (gap + 10) * 1000000
			for (p in name) if (t[2] >= ps[p] && t[3] + margin <= pe[p]) break
			if (!(p in name) || t[2] < ps[p] || t[3] + margin > pe[p]) next
			inside++
			f = dir "/" t[5]
			while ((getline line < f) > 0) {
				k = split(line, w, " "); n = w[k]
				if (line ~ /(^|;)Interpreter(;| [0-9]+$)/) unnamed += n
				if (line !~ /UnloadWorker[0-9][0-9]\.[a-zA-Z]+_\[[01ji]\]/) continue
				all += n
				s = line; bad = 0
				while (match(s, /UnloadWorker[0-9][0-9]\./)) {
					if (substr(s, RSTART, RLENGTH - 1) != name[p]) bad = 1
					s = substr(s, RSTART + RLENGTH)
				}
				if (!bad) right += n
				else if (wrong++ < 3) print "slice " t[1] " (" name[p] "): " substr(line, 1, 400)
			}
			close(f)
		}
		END {
			printf "%d phases, %d slices inside one, %d of %d worker samples named right, %d with an unnamed Interpreter frame\n", np, inside, right, all, unnamed
			printf "%d %d\n", inside, all >"/dev/stderr"
			exit !(np == 5 && right == all)
		}' "$TMPD/phases" "$dir/slices.tsv" 2>"$TMPD/counts" ||
			die "worker names wrong on $jdk $mode"
		read -r i a <"$TMPD/counts"
		inside=$((inside + i)) all=$((all + a))
		[ $inside -lt 5 ] || [ $all -lt 200 ] || break
	done
	note "runs together: $inside slices inside a phase, $all worker samples"
	[ $inside -ge 5 ] && [ $all -ge 200 ] ||
		die "$jdk $mode: $inside slices, $all worker samples in $RUNS runs"
done
done
echo ok
