#!/usr/bin/env bash
# A process of an unprivileged user that poses as a JVM with tables of
# its own choosing (tests/hostile/fakejvm.c) must not hang mixprof, bloat
# it, or spoil the profile of a real JVM beside it (issue 29):
#  nmethods: 24 nmethods claiming ~20 MB of debug data each, every frame
#            failing to resolve (was: 6-12 s over a 3 s run, 360 MB, or
#            a hang host-wide);
#  threads:  a thread list of 100,000 entries of one thread whose class's
#            field table is 1 << 20 long and its own super class (was: a
#            hang, SIGTERM ignored, with thread names);
#  churn:    both, their lengths and offsets rewritten all the time;
#  strings:  a Symbol and a thread name running to the end of a mapping;
#  manythreads: 100,000 distinct threads, each of its own class with 40
#            supers (was: 16 million reads a walk, a 3 s run took 10 s);
#  reuse:    a return address's code freed and given again, with another
#            frame size each time: no sample under the wrong caller
#            (below);
#  steal:    the real JVM's thread ids in its list, dropped every 70 ms
#            (was: the real JVM's entries of the java_threads map
#            replaced and deleted): -p of both, the real JVM keeps its
#            entries and the fake's are refused (below).
# Each is profiled host-wide, and with -p of both and --per-thread (Java
# thread names read: all a -p run without names does, and more): the run
# must end (a timeout far past its duration
# is the failure, not a time: 90 s, as a host-wide start on a loaded host
# alone can take 10-17 s, unwind_host.sh), mixprof's peak RSS stay <= 64 MB, and the
# real JVM's samples stay >= 97% whole (to its thread's root, no
# [unwind: ...] mark, its worker's frames named; host-wide, those walked
# before the rows of its libraries were loaded are left out, as in
# unwind_host.sh).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/harden.sh"

KIT=$BUILD/tests/hostile
[ -x "$KIT/fakejvm" ] && [ -f "$KIT/libjvm.so" ] || die "$KIT not built (make)"
mkdir "$TMPD/kit"
cp "$KIT/fakejvm" "$KIT/libjvm.so" "$TMPD/kit/"
chmod -R a+rX "$TMPD/kit"
# seconds profiled: host-wide, the real JVM's first moments (its frames
# not yet named) are a share of the run: 12 of 208 samples in 2 s once
# under load; -p names it from the start: 2 s
D=4 DP=2

# at a higher priority: enough of its samples on a loaded host. Under a
# name of its own (its process frame): a host-wide profile holds every
# JVM of the host, and another test's Ratio beside this one (a launched
# one named before its tables are read, an -Xint one) is not this one's.
# Capped at a quarter of a CPU for the whole test (~200 samples a 4 s
# run on a quiet host, 10 wanted; under load it got less than that
# uncapped): its share of whole stacks is what is checked, not its count
ln -s "$(readlink -f "$(command -v java)")" "$TMPD/hjratio"
nice -n -5 "$TMPD/hjratio" -cp "$SAMPLES" Ratio 600 >"$TMPD/ratio.log" 2>&1 &
rpid=$!
PIDS_TO_KILL+=("$rpid")
cpu_cap "$rpid" 25 3072 # weighed as at its nice -5
wait_for 30 grep -q . "$TMPD/ratio.log" || die "Ratio did not start"

# run NAME SECS ARGS...: one bounded mixprof run into $TMPD/NAME.*
run() {
	local name=$1 d=$2 rc=0
	shift 2
	/usr/bin/time -f "%M" -o "$TMPD/$name.rss" \
		timeout --kill-after=5 $((d + 90)) "$MIXPROF" -F 199 "$@" \
		-o "$TMPD/$name.folded" "$d" 2>"$TMPD/$name.err" || rc=$?
	# /usr/bin/time adds a line saying how the command ended
	[ $rc -ne 124 ] && [ $rc -ne 137 ] &&
		! grep -q "signal 9" "$TMPD/$name.rss" ||
		{ cat "$TMPD/$name.err"; die "$name: hung (timed out)"; }
	[ $rc -eq 0 ] || { cat "$TMPD/$name.err"; die "$name: exit $rc"; }
	local rss
	rss=$(tail -1 "$TMPD/$name.rss")
	grep "JVM metadata" "$TMPD/$name.err" || true
	# Ratio's worker: whole from its thread's root to its own frames
	awk -v name="$name" -v rss="$rss" '
	/^hjratio;/ && /Ratio\.(one|two|three|lambda)/ {
		n = $NF
		# walked before the host-wide rows of its libraries were
		# loaded (as unwind_host.sh: when depends on the host load)
		if ($0 ~ /\[unwind: no rows yet\]/) { early += n; next }
		t += n
		if ($0 ~ /^hjratio;([^;]* \[[0-9]+\];)?(__clone3;)?start_thread;thread_native_entry;.*Ratio\.lambda.main.0/ &&
		    $0 !~ /\[unwind:/)
			w += n
		else if (bad++ < 3)
			print "not whole: " substr($0, 1, 300)
	}
	END {
		printf "%s: peak RSS %d KB; Ratio %d of %d samples whole (%d before rows)\n",
			name, rss, w, t, early
		if (rss > 65536) { print name ": RSS over 64 MB"; exit 1 }
		if (t < 10) { print name ": too few Ratio samples"; exit 1 }
		exit !(w >= 0.97 * t)
	}' "$TMPD/$name.folded" || { tail -25 "$TMPD/$name.err"; die "$name: failed"; }
}

for mode in nmethods threads churn strings manythreads; do
	(cd "$TMPD/kit" && exec setpriv --reuid="$HU" --regid="$HG" \
		--clear-groups ./fakejvm "$mode" >"$TMPD/fake.out") &
	fpid=$!
	PIDS_TO_KILL+=("$fpid")
	# a tenth of a CPU (it spun a whole one, most of this test's CPU):
	# each of its samples walks and names all of its tables, and at
	# 199 Hz it still gives ~40 a -p run on a quiet host (a host loaded
	# enough gives it less than a tenth anyway); its tick rewriting
	# them (churn, steal) runs in the same group
	cpu_cap "$fpid" 10
	wait_for 10 grep -q ready "$TMPD/fake.out" || die "fakejvm $mode not up"
	# one run at a time: side by side, three mixprofs each reading the
	# fake's tables as fast as their budgets allow starved Ratio itself
	# on two CPUs (0 samples of it in 4 s)
	run "$mode-host" $D
	run "$mode-names" $DP -p "$fpid,$rpid" --per-thread
	n=$(awk '/^fakejvm;/ { n += $NF } END { print n + 0 }' "$TMPD/$mode-names.folded")
	note "$mode: $n samples of the fake"
	[ "$n" -gt 0 ] || die "$mode: fake not sampled"
	kill "$fpid"
	wait "$fpid" 2>/dev/null || true
done
# Case 4: the fake lists the real JVM's thread ids as its own and drops
# them every 70 ms. Each JVM's entries in the sampler's java_threads map
# are keyed by its own pid and only its own threads: the fake's are
# refused, the real JVM's stay (-v names both).
(cd "$TMPD/kit" && exec setpriv --reuid="$HU" --regid="$HG" \
	--clear-groups ./fakejvm steal "$rpid" >"$TMPD/fake.out") &
fpid=$!
PIDS_TO_KILL+=("$fpid")
cpu_cap "$fpid" 10 # as above
wait_for 10 grep -q ready "$TMPD/fake.out" || die "fakejvm steal not up"
run steal-p $DP -v -p "$fpid,$rpid"
line=$(grep "java_threads:" "$TMPD/steal-p.err") ||
	die "steal: no java_threads line"
note "steal: $line"
[[ "$line" =~ pid\ $rpid\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
	die "steal: the real JVM $rpid has no entries of its own"
[[ "$line" =~ \ ([0-9]+)\ listed\ threads\ refused ]] &&
	[ "${BASH_REMATCH[1]}" -gt 0 ] ||
	die "steal: the fake's list of $rpid's threads was not refused"
kill "$fpid"
wait "$fpid" 2>/dev/null || true
# reuse: the code of a return address freed and given again every 40 ms
# (a freed block's header marked free, a new one cut from its end; a new
# block at the same start with a new compile id), each time with another
# frame size: the walk's memos must never take the old code for the new
# (a memo by return address tried in November 2026, without its check of
# the block's header or compile id: 30-40% of the samples under
# WrongCaller).
(cd "$TMPD/kit" && exec setpriv --reuid="$HU" --regid="$HG" \
	--clear-groups ./fakejvm reuse >"$TMPD/fake.out") &
fpid=$!
PIDS_TO_KILL+=("$fpid")
cpu_cap "$fpid" 10 # as above
wait_for 10 grep -q ready "$TMPD/fake.out" || die "fakejvm reuse not up"
"$MIXPROF" -F 999 -p "$fpid" -o "$TMPD/reuse.folded" 3 2>"$TMPD/reuse.err" ||
	{ cat "$TMPD/reuse.err"; die "reuse: mixprof failed"; }
kill "$fpid"
wait "$fpid" 2>/dev/null || true
awk '/;RightCaller;/ { r += $NF } /;WrongCaller;/ { w += $NF; print }
	END { printf "reuse: %d samples under the right caller, %d under the wrong one\n", r, w
		exit !(r >= 20 && w == 0) }' "$TMPD/reuse.folded" ||
	die "reuse: a freed block's code taken for the new one's"
note "hostile_jvm: ok"
