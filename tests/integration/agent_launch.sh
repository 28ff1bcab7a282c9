#!/usr/bin/env bash
# libjmap.so loaded at launch, on every JDK we test:
#  - the map grows while the JVM runs: Ratio's hot methods appear before
#    the workload ends (the file is polled, not read at exit);
#  - JVM stubs are there (Interpreter);
#  - inlined sub-ranges ("outer->inner") are there, each inside the method
#    line written just before it (check_map.pl), no lambda address kept;
#  - hot lambdas are named without their per-run address, identically in
#    two identical runs;
#  - the agent printed nothing.
# Then the naming options on the same workload: dotted, sig, lines.
# The JDKs run at the same time, each in a directory of its own.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

LAMBDAS=$BUILD/tests/fixtures/agent # Lambdas.class, built by make
[ -f "$LAMBDAS/Lambdas.class" ] || die "$LAMBDAS/Lambdas.class not built (make)"
first_line=$(grep -n 'x = 1;' "$TOP/samples/Ratio.java" | cut -d: -f1)

# check_jdk JDK: every check above on one JDK (the JDKs run at the same time:
# each_jdk).
check_jdk() {
	local jdk=$1 map n run want
	note "JDK $(jdk_name "$jdk"): default options"
	start_java "$jdk/bin/java" "$TMPD/out" "$TMPD/err" \
		-agentpath:"$AGENT=dir=$TMPD" -cp "$SAMPLES" Ratio 3
	map=$TMPD/perf-$pid.map
	wait_for 30 grep -qs ' Ratio\.one$' "$map" ||
		die "Ratio.one never appeared in $map"
	kill -0 "$pid" 2>/dev/null ||
		die "JVM ended before Ratio.one was in the map"
	note "Ratio.one mapped while the JVM runs"
	grep -q ' Interpreter$' "$map" || die "no Interpreter stub in $map"
	wait "$pid" || die "JVM failed"
	grep -q '^ready' "$TMPD/out" || die "workload did not run"
	no_jmap_lines "$TMPD/err"
	perl "$CHECK_MAP" "$map" || die "malformed map"
	n=$(grep -c -- '->' "$map" || true)
	[ "$n" -gt 0 ] || die "no inline ranges in $map"
	note "$n inline ranges"

	for run in 1 2; do
		start_java "$jdk/bin/java" "$TMPD/out" "$TMPD/err" \
			-agentpath:"$AGENT=dir=$TMPD" -cp "$LAMBDAS" Lambdas 2
		wait "$pid" || die "Lambdas failed"
		no_jmap_lines "$TMPD/err"
		map=$TMPD/perf-$pid.map
		perl "$CHECK_MAP" "$map" || die "malformed map"
		grep -Eq ' Lambdas\$\$Lambda(\$[0-9]+)?\.applyAsInt$' "$map" ||
			die "no Lambdas\$\$Lambda.applyAsInt in $map"
		grep -o 'Lambdas\$\$Lambda[^ ]*applyAsInt$' "$map" | sort -u \
			>"$TMPD/lambdas.$run"
	done
	cmp -s "$TMPD/lambdas.1" "$TMPD/lambdas.2" ||
		die "lambda names differ between identical runs"
	note "lambdas named without their address, same in both runs:" \
		"$(tr '\n' ' ' <"$TMPD/lambdas.1")"

	# (1.5 s: Ratio.one is compiled, and mapped, in its first ms)
	note "JDK $(jdk_name "$jdk"): dotted,sig,lines,noinline"
	start_java "$jdk/bin/java" "$TMPD/out" "$TMPD/err" \
		-agentpath:"$AGENT=dir=$TMPD,dotted,sig,lines,noinline" \
		-cp "$SAMPLES" Ratio 1.5
	map=$TMPD/perf-$pid.map
	wait "$pid" || die "JVM failed with dotted,sig,lines,noinline"
	no_jmap_lines "$TMPD/err"
	perl "$CHECK_MAP" "$map" || die "malformed map"
	want=" Ratio.one(long) (Ratio.java:$first_line)"
	grep -qF "$want" "$map" || die "no '$want' in $map"
	grep -qF ' java.lang.String.' "$map" || die "no dotted JDK names"
	! grep -q -- '->' "$map" || die "noinline still wrote inline ranges"
	note "found '$want'; no inline ranges"
}

each_jdk check_jdk
echo "PASS"
