#!/usr/bin/env bash
# The class loading/unloading sample runs to its end under the agent, on
# every JDK, with every name lookup on (lines, sig) plus jitdump, while
# classes and their compiled code come and go: no agent errors, a
# well-formed map naming the per-phase classes.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

# check_jdk JDK: one JDK's unloaded classes in its map (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	for opts in "dir=$TMPD" "dir=$TMPD,lines,sig,dotted,jitdump"; do
		note "JDK $(jdk_name "$jdk"): Unload with $opts"
		start_java "$jdk/bin/java" "$TMPD/out" "$TMPD/err" \
			-agentpath:"$AGENT=$opts" -cp "$SAMPLES" Unload 6 0.4
		wait "$pid" || { cat "$TMPD/err" >&2; die "JVM failed"; }
		grep -q '^done' "$TMPD/out" || die "Unload did not finish"
		no_jmap_lines "$TMPD/err"
		map=$TMPD/perf-$pid.map
		perl "$CHECK_MAP" "$map" || die "malformed map"
		n=$(grep -o 'UnloadWorker0[0-5]' "$map" | sort -u | wc -l)
		[ "$n" -ge 4 ] || die "only $n of 6 worker classes mapped"
		note "$n worker classes mapped"
		rm -f "$map" "$TMPD"/jit-*.dump
	done
}

each_jdk check_jdk
echo "PASS"
