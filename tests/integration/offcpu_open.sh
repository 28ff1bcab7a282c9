#!/usr/bin/env bash
# Waits still open when a run stops, on every JDK we test: Blocked
# (samples/Blocked.java) has two threads block once, after the run has
# begun, and never wake (a socket read nobody answers, Object.wait()
# without a timeout). --off-cpu and --wall, run side by side on it with
# -p, must each count the two waits up to the run's end: under each
# waiting method, the thread's time within 5% of the truth, the run's
# end (slices.tsv) minus the thread's System.nanoTime as it blocked (both
# CLOCK_MONOTONIC), with the kernel's reason below the Java method (not
# always schedule(): a kernel stack the switch out lost is taken again
# at the end, and the kernel leaves its scheduler frames out of a
# sleeping task's stack). Slices of 0.25 s: buckets are done and swept
# while the waits stay open, whose stacks no key uses until the end (user
# space let them go after ~2 buckets, and the waits came out as
# [lost user stack]).
. "$(dirname "$0")/../lib/common.sh"

SECS=3

# check DIR TRUTH: 0 ok, 1 wrong.
check() {
	local end
	end=$(awk '!/^#/ { e = $3 } END { print e }' "$1/slices.tsv")
	cat "$1"/slice-*.folded | awk -v f="$1" -v end="$end" '
	FNR == NR { t0[$1] = $2; next }
	{
		if (!match($0, /;blocked-[a-z]+ \[/)) next
		name = substr($0, RSTART + 1, RLENGTH - 3)
		meth = name == "blocked-socket" ? "socketRead" : "waitForever"
		if (!index($0, "Blocked." meth "_[")) next
		got[name] += $NF
		if ($NF > top[name]) { top[name] = $NF; stack[name] = $0 }
	}
	function bad(msg) { print f ": " msg; err = 1 }
	function need(n, re, what) {
		if (stack[n] !~ re) bad(n ": heaviest stack lacks " what)
	}
	END {
		for (n in t0) {
			truth = (end - t0[n]) / 1000
			d = 100 * (got[n] - truth) / truth
			printf "%s: %s %d us, truth %d us (%+.1f%%)\n", f, n, got[n], truth, d
			if (d > 5 || d < -5) bad(n " off by " d "%")
		}
		need("blocked-socket", "SocketDispatcher\\.read0_\\[.*tcp_recvmsg_\\[k\\]", "read0 above tcp_recvmsg")
		need("blocked-wait", "Object\\.wait_\\[.*futex[a-z_]*_\\[k\\]", "Object.wait above futex")
		exit err
	}' "$2" -
}

for jdk in $(jdks); do
	note "JDK $jdk"
	# the last JDK's logs gone: a mixprof started in the background
	# opens its own only when it runs, and the last one's "profiling"
	# let the trigger go before this one was there (a JDK 25 run whose
	# waits were never seen, in a fresh-clone run)
	rm -rf "$TMPD/go" "$TMPD/off" "$TMPD/wall" "$TMPD/err1" "$TMPD/err2"
	: >"$TMPD/out" # a JVM before wrote "ready" in it
	"$jdk/bin/java" -cp "$SAMPLES" Blocked "$TMPD/go" $((SECS + 60)) >"$TMPD/out" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 10 grep -qs ready "$TMPD/out" || die "Blocked did not start"
	"$MIXPROF" --off-cpu --per-thread -i 0.25 -o "$TMPD/off" -p "$pid" $SECS 2>"$TMPD/err1" &
	m1=$!
	"$MIXPROF" --wall -i 0.25 -o "$TMPD/wall" -p "$pid" $SECS 2>"$TMPD/err2" &
	m2=$!
	# a loaded host starts two profilers slowly: the JVM lives long
	# enough (SECS + 60) for its waits to stay open past both runs' end
	wait_for 30 grep -qs profiling "$TMPD/err1" || die "mixprof --off-cpu did not start"
	wait_for 30 grep -qs profiling "$TMPD/err2" || die "mixprof --wall did not start"
	touch "$TMPD/go"
	wait "$m1" || { cat "$TMPD/err1"; die "mixprof --off-cpu failed"; }
	wait "$m2" || { cat "$TMPD/err2"; die "mixprof --wall failed"; }
	grep -h 'waits still open' "$TMPD/err1" "$TMPD/err2"
	grep '^blocked-' "$TMPD/out" >"$TMPD/t" || die "no thread blocked"
	[ "$(wc -l <"$TMPD/t")" = 2 ] || die "truth: $(cat "$TMPD/t")"
	for m in off wall; do
		check "$TMPD/$m" "$TMPD/t" && continue
		cat "$TMPD/err1" "$TMPD/err2"
		# twice the off run showed no line of either blocked thread
		# (the wall run beside it saw both): which threads it had
		note "threads in $m's output:"
		cat "$TMPD/$m"/slice-*.folded | cut -d';' -f1-2 | sort | uniq -c
		note "heaviest stacks:"
		cat "$TMPD/$m"/slice-*.folded | grep ';blocked-' | sort -t' ' -k2 |
			awk '{ print $NF, $0 }' | sort -nr | head -6 | cut -c1-1500
		die "$m, JDK $jdk"
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
done
echo ok
