#!/usr/bin/env bash
# A server on virtual threads, profiled as it serves (issue 25): VServer
# (the JDK's com.sun.net.httpserver with a virtual-thread-per-task
# executor on JDK 21+, a thread pool on 17) does CPU work between two
# 1 ms sleeps per request, under ab -c 8 on loopback; mixprof -p with no
# other flag. Each request's virtual thread unmounts at each sleep and is
# thawed a few frames at a time when it mounts again. Of the samples in
# the handler (VServer.handle), >= 95% must hold it whole: from the
# carrier's root through VirtualThread.run (Thread.run on 17), the
# executor's and the server's frames (ServerImpl$Exchange.run), in that
# order, with no [frozen frames] or unwind mark; none may show a handler
# frame right under Continuation.run or a stub (a wrong caller). On every
# JDK we test: a fresh CI machine has Debian's 17 only.
. "$(dirname "$0")/../lib/common.sh"

for jdk in $(jdks); do
	major=$(jdk_major "$jdk")
	note "JDK $major"
	: >"$TMPD/out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" VServer 60 \
		>"$TMPD/out" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -qs ready "$TMPD/out" || die "VServer did not start"
	url=http://127.0.0.1:$(sed -n 's/^port //p' "$TMPD/out")/
	ab -q -n 20 "$url" >"$TMPD/ab0" 2>&1 || die "ab failed: $(cat "$TMPD/ab0")"
	ab -q -t 3600 -n 100000000 -c 8 "$url" >"$TMPD/ab" 2>&1 &
	abpid=$!
	PIDS_TO_KILL+=("$abpid")
	# runs of 1.5 s on the same JVM, their stacks together, until the
	# handler has 200 samples (4x the floor below; one run on a quiet
	# machine: ~500 on JDK 25, ~1,200 on 17), four at most
	: >"$TMPD/srv.folded"
	for run in 1 2 3 4; do
		"$MIXPROF" -F 999 -p "$pid" -o "$TMPD/run.folded" 1.5 2>"$TMPD/err" ||
			{ cat "$TMPD/err"; die "mixprof failed"; }
		cat "$TMPD/run.folded" >>"$TMPD/srv.folded"
		[ "$(awk '/;VServer\.handle_/ { n += $NF } END { print n + 0 }' \
			"$TMPD/srv.folded")" -lt 200 ] || break
	done
	kill -INT "$abpid" # ab prints its figures on SIGINT
	wait "$abpid" 2>/dev/null || true
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep -E '^(Complete|Failed|Requests per)' "$TMPD/ab" ||
		die "no figures from ab: $(cat "$TMPD/ab")"
	grep -E "whole stacks" "$TMPD/err" || true
	run=java/lang/Thread.run
	[ "$major" -ge 21 ] && run=java/lang/VirtualThread.run
	awk -v run="$run" -v major="$major" '
	/;VServer\.handle_/ {
		n = $NF; hot += n; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";")
		for (i = 1; i <= k; i++)
			sub(/_\[[^]]*\]$/, "", fr[i])
		for (i = 1; i <= k && fr[i] !~ /^(VServer|sun\/net\/httpserver)/; i++)
			;
		if (fr[i - 1] ~ /Continuation\.(run|enterSpecial)$|StubRoutines/) {
			wrong += n
			if (!shown++) print "wrong caller: " line
		}
		# in order: the root, the thread entry, the server, the handler
		j = 0
		for (i = 1; i <= k; i++)
			if (j == 0 && fr[i] ~ /^(start_thread|__clone3?|thread_native_entry)$/) j = 1
			else if (j == 1 && fr[i] == run) j = 2
			else if (j == 2 && fr[i] == "sun/net/httpserver/ServerImpl$Exchange.run") j = 3
			else if (j == 3 && fr[i] == "VServer.handle") j = 4
		if (j == 4 && line !~ /\[(frozen frames|unwind[^]]*)\]/)
			whole += n
		else if (!shown2++)
			print "not whole: " line
	}
	END {
		printf "JDK %d: %d samples in VServer.handle: %.1f%% whole from the carrier root through %s, %d wrong callers\n", major, hot, hot ? 100 * whole / hot : 0, run, wrong
		if (hot < 50) { print "too few samples"; exit 1 }
		exit !(wrong == 0 && whole >= 0.95 * hot)
	}' "$TMPD/srv.folded" || die "JDK $major: handler stacks not whole"
done
echo ok
