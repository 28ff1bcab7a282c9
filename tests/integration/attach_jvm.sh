#!/usr/bin/env bash
# mixprof attach on each JDK: a JVM started without the agent gets its
# perf map, with the methods compiled before the attach and those compiled
# after; a second attach is harmless (one writer, no duplicated or torn
# lines); a dead socket left by a killed JVM is replaced; bad options are
# refused before the JVM is touched; an agent error is reported with exit
# 3 and the JVM keeps running; a stopped JVM or one with attach disabled
# gives a clear error and keeps running.
source "$(dirname "$0")/attach_workload.sh"
attach_workload_build

for jdk in $(jdks); do
	v=$(basename "$jdk")
	note "== $v"

	# an error inside the agent: exit 3, named, and the JVM goes on
	start_jvm "$v-fail" "$jdk"
	expect_fail 3 "^mixprof: agent in JVM $JVM_PID failed: .+ \(see the JVM's stderr\)$" \
		"$MIXPROF" attach "$JVM_PID" dir=/nonexistent/dir
	jvm_works "$JVM_PID" "$JVM_LOG"
	[ ! -e "/tmp/perf-$JVM_PID.map" ] || die "map written despite the error"
	kill "$JVM_PID"

	start_jvm "$v" "$jdk"
	pid=$JVM_PID map=/tmp/perf-$JVM_PID.map

	# bad options: exit 2 before anything is sent to the JVM
	expect_fail 2 "^mixprof: bad agent options: .*frobnicate" \
		"$MIXPROF" attach "$pid" dotted,frobnicate
	expect_fail 2 "^mixprof: bad agent options: " \
		"$MIXPROF" attach "$pid" inline=sometimes
	[ ! -e "/tmp/.java_pid$pid" ] || die "bad options reached the JVM"
	! grep -q '^jmap:' "$JVM_LOG" || die "the agent saw the bad options"
	jvm_works "$pid" "$JVM_LOG"

	# the attach itself: early() was compiled before it
	"$MIXPROF" attach "$pid" >"$TMPD/out" || die "attach failed"
	grep -q "^mixprof: attached to JVM $pid; map: $map\$" "$TMPD/out" ||
		die "unexpected output: $(cat "$TMPD/out")"
	[ -s "$map" ] || die "$map missing or empty"
	grep -q ' AttachWork\.early$' "$map" || die "early() not in $map"
	! grep -q ' AttachWork\.late$' "$map" || die "late() in $map too soon"

	# twice in a row: both succeed
	"$MIXPROF" attach "$pid" >/dev/null || die "second attach failed"
	"$MIXPROF" attach "$pid" --timeout 2 >/dev/null || die "third attach failed"

	# late() is compiled only now, after the attach, and gets in the map
	touch "$JVM_TRIGGER"
	wait_for 20 grep -qs 'AttachWork::late' "$JVM_LOG" ||
		die "late() not compiled"
	wait_for 10 grep -q ' AttachWork\.late$' "$map" ||
		die "late() compiled after the attach is not in $map"
	sleep 1	# let later compilations land too
	map_ok "$map"
	n=$(grep -c ' AttachWork\.late$' "$map")
	c=$(grep -c 'AttachWork::late ' "$JVM_LOG")
	[ "$n" -le "$c" ] || die "late() in the map $n times for $c compilations"
	jvm_works "$pid" "$JVM_LOG"
	note "$v: $(wc -l <"$map") map lines, late() $n times for $c compilations"

	# a dead socket under the JVM's name (a killed JVM had its pid: common
	# in containers) is replaced, not trusted
	# kept in our own directory (on /tmp's file system) meanwhile, moved
	# there before the kill: another test starting removes a dead JVM's
	# socket it finds in /tmp, even between our kill and a move after it
	mv "/tmp/.java_pid$pid" "$TMPD/stale.sock" ||
		die "no attach socket for JVM $pid"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	[ -S "$TMPD/stale.sock" ] || die "SIGKILL left no socket to reuse"
	start_jvm "$v-stale" "$jdk"
	mv "$TMPD/stale.sock" "/tmp/.java_pid$JVM_PID"
	"$MIXPROF" attach "$JVM_PID" >/dev/null || die "attach over a dead socket failed"
	[ -s "/tmp/perf-$JVM_PID.map" ] || die "no map after replacing a dead socket"
	kill "$JVM_PID"

	# a stopped JVM: refused at once, nothing sent; it goes on once resumed
	rm -f "$map"
	start_jvm "$v-stopped" "$jdk"
	kill -STOP "$JVM_PID"
	# the stop lands once the main thread runs to take it: a loaded host
	# shows it sleeping ('S') for a while after kill returns
	wait_for 10 grep -q '^State:[[:space:]]*T' "/proc/$JVM_PID/status" ||
		die "SIGSTOP did not stop $JVM_PID"
	expect_fail 1 "^mixprof: JVM $JVM_PID is stopped" \
		"$MIXPROF" attach "$JVM_PID"
	kill -CONT "$JVM_PID"
	jvm_works "$JVM_PID" "$JVM_LOG"
	! grep -q 'Full thread dump' "$JVM_LOG" || die "the stopped JVM got SIGQUIT"
	kill "$JVM_PID"

	# attach disabled where mixprof cannot see it (a flags file, no
	# hsperfdata): the listener never starts, --timeout bounds the wait,
	# the trigger file is removed and the JVM only printed a thread dump
	echo +DisableAttachMechanism >"$TMPD/flags"
	start_jvm "$v-noattach" "$jdk" -XX:Flags="$TMPD/flags" -XX:-UsePerfData
	# (the message names the wait --timeout asked for, not the default 5 s;
	# how long it took is not checked: a loaded machine stretches it)
	expect_fail 1 "^mixprof: JVM $JVM_PID did not start its attach listener within 1500 ms" \
		"$MIXPROF" attach "$JVM_PID" --timeout 1.5
	! ls -a "$TMPD" /tmp | grep -q "^\.attach_pid$JVM_PID\$" ||
		die "trigger file left behind"
	jvm_works "$JVM_PID" "$JVM_LOG"
	kill "$JVM_PID"
done
note "attach_jvm: ok"
