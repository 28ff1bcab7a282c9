#!/usr/bin/env bash
# --wall on Waits (samples/Waits.java), launched without JVM flags, on
# every JDK we test: per thread, the microseconds under its working
# method (on-CPU samples of 1 s / -F each, plus off-CPU time, blocked or
# preempted) must add up to the wall time the thread measured around its
# work with System.nanoTime, within 5%. waits-contend spends part of it
# on CPU (the monitor's spinning, its own loop), so both halves count.
. "$(dirname "$0")/../lib/common.sh"

SECS=3

# check FOLDED TRUTH: 0 ok, 1 wrong.
check() {
	awk -v f="$1" '
	FNR == NR { wall[$1] = $4 / 1000; meth[$1] = $2; next }
	{
		if (!match($0, /;waits-[a-z]+ \[/)) next
		name = substr($0, RSTART + 1, RLENGTH - 3)
		if (!(name in meth) || !index($0, "Waits." meth[name] "_[")) next
		got[name] += $NF
	}
	function bad(msg) { print f ": " msg; err = 1 }
	END {
		for (n in wall) {
			d = wall[n] ? 100 * (got[n] - wall[n]) / wall[n] : 100
			printf "%s: %s %d us, wall %d us (%+.1f%%)\n", f, n, got[n], wall[n], d
			if (d > 5 || d < -5) bad(n " off by " d "%")
		}
		exit err
	}' "$2" "$1"
}

# check_jdk JDK: one JDK's wall-clock profile (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $jdk"
	"$MIXPROF" --wall -F 499 -o "$TMPD/out.folded" -- \
		"$jdk/bin/java" -cp "$SAMPLES" Waits $SECS \
		>"$TMPD/truth" 2>"$TMPD/err"
	cat "$TMPD/err"
	grep -q "exited with status 0" "$TMPD/err" || die "no exit status"
	grep -q "counts are microseconds of wall-clock time" "$TMPD/err" ||
		die "the summary does not name the unit"
	grep '^waits-' "$TMPD/truth" >"$TMPD/t" || die "no truth printed"
	[ "$(wc -l <"$TMPD/t")" = 4 ] || die "truth: $(cat "$TMPD/t")"
	# per thread by default: a "name [tid]" frame under the process
	grep -q ';waits-sleep \[[0-9]*\];' "$TMPD/out.folded" ||
		die "no per-thread frames"
	check "$TMPD/out.folded" "$TMPD/t" || die "JDK $jdk"
}

each_jdk check_jdk
echo ok
