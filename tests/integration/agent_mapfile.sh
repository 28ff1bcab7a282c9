#!/usr/bin/env bash
# What the agent finds at its map path before it starts, on every JDK:
#  - a planted symlink: refused with a clear message, the JVM still runs
#    its workload to the end, the symlink's target is untouched;
#  - a FIFO: refused at once (no hang);
#  - a stale file of another owner: refused, not written;
#  - a stale file of our own (pid reuse): truncated and rewritten;
#  - two copies of the agent in one JVM (another path): the second says
#    "already active" and stays inert, the first writes one clean map.
# The pid is known in advance by planting from a shell that then execs java.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

# run_planted JAVA PLANT: PLANT (a shell snippet using $map) runs, then
# java execs with that pid. Sets $map. Ratio runs 0.2 s: what is checked
# is the agent's start and a run to its end, not the worker's CPU (each
# of the ten JVMs spun a second of it)
run_planted() {
	local java=$1 plant=$2 rc=0
	bash -c 'map=$1/perf-$$.map; eval "$2"; echo "$map" >"$1/mapname"
		 exec "$3" -agentpath:"$4=dir=$1" -cp "$5" Ratio 0.2' \
		_ "$TMPD" "$plant" "$java" "$AGENT" "$SAMPLES" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	map=$(cat "$TMPD/mapname")
	[ "$rc" -eq 0 ] || { cat "$TMPD/err" >&2; die "JVM failed ($rc)"; }
	grep -q '^ready' "$TMPD/out" || die "workload did not run"
}

expect_err() {
	grep -qxF "jmap: $map: $1; agent disabled" "$TMPD/err" ||
		{ cat "$TMPD/err" >&2; die "no message '$1' for $map"; }
}

# check_jdk JDK: the planted files on one JDK (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	java=$jdk/bin/java
	echo "precious" >"$TMPD/target"
	note "JDK $(jdk_name "$jdk")"

	run_planted "$java" 'ln -s "$1/target" "$map"'
	expect_err "is a symbolic link; not following it"
	[ -L "$map" ] || die "symlink replaced"
	[ "$(cat "$TMPD/target")" = precious ] || die "symlink target written"
	note "symlink refused, target intact, JVM ran to the end"

	run_planted "$java" 'mkfifo "$map"'
	expect_err "is not a regular file"
	note "FIFO refused without blocking"

	run_planted "$java" 'echo theirs >"$map"; chown nobody "$map"'
	expect_err "belongs to another user; not reusing it"
	[ "$(cat "$map")" = theirs ] || die "other owner's file written"
	note "other owner's file refused, untouched"

	run_planted "$java" 'echo "0 1 stale.Entry" >"$map"'
	no_jmap_lines "$TMPD/err"
	! grep -q stale.Entry "$map" || die "stale entries kept"
	grep -q ' Interpreter$' "$map" || die "stale map not rewritten"
	[ "$(stat -c %a "$map")" = 644 ] || die "map mode not 644"
	note "own stale map truncated and rewritten, mode 644"
	rm -f "$TMPD"/perf-*.map

	cp "$AGENT" "$TMPD/libjmap-copy.so"
	start_java "$java" "$TMPD/out" "$TMPD/err" \
		-agentpath:"$AGENT=dir=$TMPD" \
		-agentpath:"$TMPD/libjmap-copy.so=dir=$TMPD" -cp "$SAMPLES" Ratio 0.2
	wait "$pid" || die "JVM with two agents failed"
	map=$TMPD/perf-$pid.map
	grep -qxF "jmap: already active, map at $map" "$TMPD/err" ||
		{ cat "$TMPD/err" >&2; die "second agent did not stand down"; }
	[ "$(grep -c '^jmap:' "$TMPD/err")" -eq 1 ] || die "extra agent output"
	perl "$CHECK_MAP" "$map" || die "malformed map"
	[ "$(grep -c ' Interpreter$' "$map")" -eq 1 ] || die "stubs written twice"
	note "second copy stood down; one writer"
	rm -f "$TMPD"/perf-*.map
}

each_jdk check_jdk
echo "PASS"
