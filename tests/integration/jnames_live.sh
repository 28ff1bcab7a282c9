#!/usr/bin/env bash
# The agentless Java namer (jvm/nmethod.c, jlines.c, jthreads.c)
# on live JVMs, against ground truth, on every JDK:
#  - JNames (inlining-heavy code, threads named "mixprof-names-worker-1"
#    and "-10": one comm) under the agent: tests/jvmnames compares each
#    compiled method's name and the inlined chain at the start, middle
#    and end of every inline range with the agent's map (>= 99%), and
#    finds both threads by their whole names;
#  - the source lines it reads for JNames' frames equal what javap says
#    the class files' line tables give at those bcis;
#  - Unload (classes loaded, run, unloaded, code freed and reused): code
#    recorded live, named 200 ms later, is either found gone or named as
#    the agent named it, never by another method.
. "$(dirname "$0")/../lib/common.sh"

JVMNAMES=$BUILD/tests/jvmnames

# javap's line tables as "Class.method bci line", one per entry.
javap_lines() {
	"$1/bin/javap" -c -l -p -cp "$SAMPLES" JNames 'JNames$Point' | awk '
	/^[a-z].*class [^ ]+ / {
		for (i = 1; i <= NF; i++) if ($i == "class") cls = $(i + 1)
		next
	}
	/^  static \{\};/ { name = "<clinit>"; next }
	/^  [^ ].*\(.*\)/ {
		m = $0; sub(/\(.*/, "", m); n = split(m, w, " ")
		name = w[n] == cls ? "<init>" : w[n]
		next
	}
	/^ +line [0-9]+: [0-9]+$/ {
		l = $2; sub(/:/, "", l); print cls "." name, $3, l
	}'
}

# $1 jvmnames' lines, $2 javap's: each line read must be the one of the
# last table entry at or before its bci; no table only for hidden classes.
check_lines() {
	awk 'FNR == NR { k = $1; t[k, ++n[k]] = $2 " " $3; next }
	{
		name = $1; bci = $2; got = $3; all++
		if (got < 0) {
			if (name ~ /\$\$Lambda/) { skipped++; next }
			bad++; if (bad <= 5) print "no line: " $0; next
		}
		best = -1; want = -1
		for (i = 1; i <= n[name]; i++) {
			split(t[name, i], e, " ")
			if (e[1] + 0 <= bci + 0 && e[1] + 0 >= best) { best = e[1] + 0; want = e[2] }
		}
		if (want != got) { bad++; if (bad <= 5) print "want " want ": " $0 }
	}
	END {
		printf "lines: %d frames, %d without a table (hidden classes), %d wrong\n", all, skipped, bad
		exit !(all >= 30 && bad == 0)
	}' "$2" "$1"
}

# wait_map PID PATTERN: the agent's map of PID has a line matching.
wait_map() { grep -q -- "$2" "$TMPD/perf-$1.map" 2>/dev/null; }

for jdk in $(jdks); do
	note "JDK $(jdk_major "$jdk")"
	"$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD" -cp "$SAMPLES" \
		JNames 2 >"$TMPD/out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 30 wait_map "$pid" 'JNames\$Point.dist2->JNames\$Point.x' ||
		die "no inlined JNames code in the map: $(cat "$TMPD/out")"
	sleep 1 # more methods compiled, C2 among them
	"$JVMNAMES" "$pid" "$TMPD/perf-$pid.map" 99 "$TMPD/lines" \
		>"$TMPD/names" 2>"$TMPD/names.err" || {
		cat "$TMPD/names" "$TMPD/names.err"
		die "names differ from the agent's on $jdk"
	}
	grep -v '^thread ' "$TMPD/names"
	grep "name 'mixprof-names-worker-10'" "$TMPD/names"
	# its lines are read: the JVM's workers need not spin through javap
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	javap_lines "$jdk" >"$TMPD/javap"
	[ -s "$TMPD/javap" ] || die "no line tables from javap"
	sort -u "$TMPD/lines" >"$TMPD/lines.u"
	check_lines "$TMPD/lines.u" "$TMPD/javap" || die "lines wrong on $jdk"

	"$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD" -XX:-TieredCompilation \
		-XX:CompileThreshold=200 -cp "$SAMPLES" Unload 40 0.3 \
		>"$TMPD/out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 30 wait_map "$pid" 'UnloadWorker02' ||
		die "Unload did not reach phase 2: $(cat "$TMPD/out")"
	"$JVMNAMES" --churn 200 "$pid" "$TMPD/perf-$pid.map" ||
		die "code named by another method after unloading on $jdk"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
done
echo ok
