#!/usr/bin/env bash
# A server's request pipeline whole, on a JVM started with no flags and
# profiled with -p, on every JDK we test: Server answers loopback
# requests on a thread pool (socket I/O through JNI, regex, collections;
# a String compare intrinsic pushes a word on its leaf frame). >= 98% of
# the pool's and the clients' samples reach the thread's root, and >= 95%
# of the pool's samples carry Server.serve (all their work is under it).
# The shares are of at least 300 samples: runs of 1.5 s at 999 Hz on the
# same JVM, their stacks together, until there are (one run on a quiet
# machine).
. "$(dirname "$0")/../lib/common.sh"

RUNS=6 # at most

# check FOLDED: 0 whole, 1 not, 2 too few samples to tell
check() {
	awk -v f="$1" '
	/^java;(srv|cli)-[0-9]+ \[/ {
		n = $NF; all += n
		split($0, fr, ";")
		if (fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/) root += n
		if (fr[2] ~ /^srv-/) { srv += n; if (/;Server\.serve_\[/) served += n }
	}
	END {
		if (all < 300 || !srv) { print f ": only " all " samples"; exit 2 }
		printf "%s: %.2f%% of %d pool and client samples reach the root; %.2f%% of %d pool samples under Server.serve\n", f, 100*root/all, all, 100*served/srv, srv
		exit !(root >= 0.98 * all && served >= 0.95 * srv)
	}' "$1"
}

# check_jdk JDK: one JDK's Server (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1 pid out=$TMPD/server.folded run rc
	: >"$TMPD/java.out"
	# an hour: the runs end it, and not ending is a hang the runner fails
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Server 3600 \
		>"$TMPD/java.out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	# half a CPU, weighed as four threads (its pool and clients: on a
	# loaded host it gets what it did uncapped): ~500 samples a run on a
	# quiet one, where it took a CPU for its whole life
	cpu_cap "$pid" 50 4096
	wait_for 20 grep -q ready "$TMPD/java.out" || die "Server did not start"
	sleep 2
	: >"$out"
	for run in $(seq $RUNS); do
		"$MIXPROF" -F 999 --per-thread -p "$pid" -o "$TMPD/run.folded" 1.5 \
			2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
		cat "$TMPD/err"
		cat "$TMPD/run.folded" >>"$out"
		rc=0
		check "$out" || rc=$?
		[ $rc = 2 ] || break
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ $rc = 0 ] || die "$jdk: the request pipeline is not whole (or too few samples in $RUNS runs)"
}

each_jdk check_jdk
echo ok
