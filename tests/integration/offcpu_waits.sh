#!/usr/bin/env bash
# --off-cpu on Waits (samples/Waits.java), launched without JVM flags, on
# every JDK we test: each waiting thread's blocked time, as the workload
# measured it with System.nanoTime around its waits, must be within 5% of
# the microseconds mixprof counted under that thread's waiting method,
# and the heaviest stack of each must end in the kernel's reason for
# blocking, below the Java method that waits:
#   waits-sleep    Thread.sleep           ... futex or nanosleep; schedule
#   waits-monitor  Object.wait            ... futex; schedule
#   waits-socket   SocketDispatcher.read0 ... tcp_recvmsg; schedule
#   waits-contend  (monitor enter, in the JVM) ... futex; schedule
# The blocked time is the scheduler's (switch out to switch in), so a
# busy machine delays both clocks alike; the contender's truth leaves out
# its CPU time (HotSpot spins before it parks), and may be short of it by
# its run-queue time there (a preempted spinner is not blocked, a woken
# waiter is): at most 5% over the truth, at least 5% under the truth
# less that time.
. "$(dirname "$0")/../lib/common.sh"

SECS=3

# check FOLDED TRUTH: 0 ok, 1 wrong.
check() {
	awk -v f="$1" '
	FNR == NR { truth[$1] = $3 / 1000; meth[$1] = $2; runq[$1] = $5 / 1000; next }
	{
		if (!match($0, /;waits-[a-z]+ \[/)) next
		name = substr($0, RSTART + 1, RLENGTH - 3)
		if (!(name in meth)) next
		all[name] += $NF
		if (!index($0, "Waits." meth[name] "_[")) next
		got[name] += $NF
		if ($NF > top[name]) { top[name] = $NF; stack[name] = $0 }
	}
	function bad(msg) { print f ": " msg; err = 1 }
	function need(n, re, what) {
		if (stack[n] !~ re) bad(n ": heaviest stack lacks " what)
	}
	END {
		for (n in truth) {
			d = truth[n] ? 100 * (got[n] - truth[n]) / truth[n] : 100
			lo = truth[n] - runq[n]
			dl = lo > 0 ? 100 * (got[n] - lo) / lo : 100
			printf "%s: %s %d us off-CPU, truth %d us (%+.1f%%), %d us of it on a run queue; %d us in all its stacks\n", f, n, got[n], truth[n], d, runq[n], all[n]
			if (d > 5 || dl < -5) bad(n " off by " d "%")
			need(n, "schedule_\\[k\\]", "schedule")
		}
		need("waits-sleep", "Thread\\.sleep", "Thread.sleep")
		need("waits-sleep", "(futex|nanosleep)[a-z_]*_\\[k\\]", "futex/nanosleep")
		need("waits-monitor", "Object\\.wait", "Object.wait")
		need("waits-monitor", "futex[a-z_]*_\\[k\\]", "futex")
		need("waits-socket", "SocketDispatcher\\.read0", "read0")
		need("waits-socket", "tcp_recvmsg_\\[k\\]", "tcp_recvmsg")
		need("waits-contend", "futex[a-z_]*_\\[k\\]", "futex")
		need("waits-contend", "Waits\\.contend_\\[[01ji]\\];[^;]*[A-Za-z]", "a frame below contend")
		exit err
	}' "$2" "$1"
}

# check_jdk JDK: one JDK's off-CPU profile (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $jdk"
	"$MIXPROF" --off-cpu --per-thread -o "$TMPD/out.folded" -- \
		"$jdk/bin/java" -cp "$SAMPLES" Waits $SECS \
		>"$TMPD/truth" 2>"$TMPD/err"
	cat "$TMPD/err"
	grep -q "exited with status 0" "$TMPD/err" || die "no exit status"
	grep -q "counts are microseconds of off-CPU time" "$TMPD/err" ||
		die "the summary does not name the unit"
	grep -q "blocked only, not preempted" "$TMPD/err" ||
		die "the summary does not say which states count"
	grep '^waits-' "$TMPD/truth" >"$TMPD/t" || die "no truth printed"
	[ "$(wc -l <"$TMPD/t")" = 4 ] || die "truth: $(cat "$TMPD/t")"
	if ! check "$TMPD/out.folded" "$TMPD/t"; then
		note "heaviest stacks:"
		sort -t' ' -k2 "$TMPD/out.folded" | awk '{ print $NF, $0 }' |
			sort -nr | head -8 | cut -c1-1200
		die "JDK $jdk"
	fi
}

each_jdk check_jdk
echo ok
