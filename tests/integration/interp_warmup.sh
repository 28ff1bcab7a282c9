#!/usr/bin/env bash
# Interpreted frames during warm-up: Warmup profiled from launch, on every
# JDK we test, without the interpreted-frame walk (MIXPROF_NO_INTERP=1:
# what perf-map tools show: the agent's map, --agent) and with it. Prints, for each, the share of
# samples whose stack holds an unnamed "Interpreter" frame; with names it
# must be under 1% (left: samples in the JVM's first tick, before mixprof
# has read its VMStructs, and frames whose Method* was unreadable).
. "$(dirname "$0")/../lib/common.sh"

SECS=3 # with names < 1% unnamed: 0.17% and 0% in 4 s (the first tick's)

# share FILE: percent of samples with an "Interpreter" frame
share() {
	awk '{ n = $NF; t += n; if (/(^|;)Interpreter(;| [0-9]+$)/) u += n }
	END { if (!t) exit 1; printf "%.2f %d %d\n", 100 * u / t, u, t }' "$1"
}

# profile MODE JDK: Warmup launched on JDK, into $TMPD/MODE.folded; its
# share printed
profile() {
	local mode=$1 jdk=$2 env=() pct u t
	[ $mode = before ] && env=(MIXPROF_NO_INTERP=1)
	env "${env[@]}" nice -n 5 "$MIXPROF" --agent -F 999 -o "$TMPD/$mode.folded" \
		-- "$jdk/bin/java" -cp "$SAMPLES" Warmup $SECS \
		>/dev/null 2>"$TMPD/$mode.err"
	grep -q "exited with status 0" "$TMPD/$mode.err" ||
		die "Warmup failed: $(cat "$TMPD/$mode.err")"
	grep "interpreted frames" "$TMPD/$mode.err" || true
	read -r pct u t < <(share "$TMPD/$mode.folded") || die "empty profile"
	echo "JDK $(basename "$jdk") $mode: $pct% of $t samples have an unnamed Interpreter frame ($u)"
}

# without names, the JDKs at the same time (each_jdk: in $TMPD/JDK); with
# names, one at a time: what is left unnamed is the JVM's first tick,
# which another JVM starting beside it would make longer
each_jdk profile before
for jdk in $(jdks); do
	TMPD=$TMPD/$(basename "$jdk") profile after "$jdk"
	read -r before_pct _ < <(share "$TMPD/$(basename "$jdk")/before.folded")
	read -r after_pct _ < <(share "$TMPD/$(basename "$jdk")/after.folded")
	awk -v b="$before_pct" -v a="$after_pct" 'BEGIN { exit !(a < 1 && a < b) }' ||
		die "JDK $jdk: $after_pct% unnamed with names (before: $before_pct%)"
done
echo ok
