#!/usr/bin/env bash
# The JVM the attach tests attach to, and their shared helpers.
#
# Sourced by the other attach_*.sh scripts. Run by tests/run as a test of
# its own, it checks the workload itself on every JDK: it starts, compiles
# its early method, and runs its late method only once told to.
#
# AttachWork TRIGGER: spins in early() from the start; once the file
# TRIGGER exists it also spins in late(), which no JIT has seen before.
# Prints "started", "late", then "tick N" about every 50 ms, so a test can
# tell that the JVM still works.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

CLASSES=$TMPD/classes

# The workload's class (tests/fixtures/attach/AttachWork.java, compiled
# once by the build) copied into $CLASSES, readable by other users.
attach_workload_build() {
	local cls=$BUILD/tests/fixtures/attach/AttachWork.class
	[ -f "$cls" ] || die "$cls not built (make)"
	mkdir -p "$CLASSES"
	cp "$cls" "$CLASSES/"
	chmod -R a+rX "$CLASSES"
}

# start_jvm NAME JDK_HOME [JAVA OPTIONS...]: start the workload with
# PrintCompilation (so the log tells what was compiled when) and wait
# until early() is compiled. Sets JVM_PID, JVM_LOG, JVM_TRIGGER.
start_jvm() {
	local name=$1 jdk=$2; shift 2
	JVM_LOG=$TMPD/$name.log
	JVM_TRIGGER=$TMPD/$name.go
	"$jdk/bin/java" -XX:+PrintCompilation "$@" -cp "$CLASSES" AttachWork \
		"$JVM_TRIGGER" >"$JVM_LOG" 2>&1 &
	JVM_PID=$!
	PIDS_TO_KILL+=("$JVM_PID")
	wait_for 20 grep -qs 'AttachWork::early' "$JVM_LOG" ||
		die "$name: early() not compiled: $(tail -5 "$JVM_LOG")"
}

# ticks LOG: how many ticks the JVM has printed so far.
ticks() { grep -c '^tick ' "$1" || true; }
ticks_gt() { [ "$(ticks "$1")" -gt "$2" ]; }

# jvm_works PID LOG: the JVM is alive and still making progress.
jvm_works() {
	local before
	kill -0 "$1" 2>/dev/null || die "JVM $1 died: $(tail -5 "$2")"
	before=$(ticks "$2")
	wait_for 10 ticks_gt "$2" "$before" ||
		die "JVM $1 stopped making progress"
}

# expect_fail CODE PATTERN CMD...: CMD exits with CODE and prints exactly
# one line on stderr, matching PATTERN (grep -E), and nothing on stdout.
expect_fail() {
	local code=$1 pattern=$2 rc=0; shift 2
	"$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	[ "$rc" -eq "$code" ] ||
		die "$*: exit $rc, want $code: $(cat "$TMPD/err")"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] ||
		die "$*: want one line on stderr, got: $(cat "$TMPD/err")"
	[ ! -s "$TMPD/out" ] || die "$*: unexpected output: $(cat "$TMPD/out")"
	grep -Eq "$pattern" "$TMPD/err" ||
		die "$*: '$(cat "$TMPD/err")' does not match '$pattern'"
	note "ok: $(cat "$TMPD/err")"
}

# map_ok MAP: every line is "ADDR SIZE NAME" (no torn or interleaved
# lines), and no line of the workload's own methods appears twice (a
# second writer would repeat them). JDK methods are not checked: JVMTI may
# report a method both live and in the replay at attach time.
map_ok() {
	local re='^[0-9a-f]+ [0-9a-f]+ [^ ].*$' bad dup
	bad=$(grep -Evc "$re" "$1" || true)
	[ "$bad" -eq 0 ] ||
		die "$1: $bad malformed lines: $(grep -Ev "$re" "$1" | head -3)"
	dup=$(grep ' AttachWork\.' "$1" | sort | uniq -d | head -3 || true)
	[ -z "$dup" ] || die "$1: duplicated lines (two writers?): $dup"
}

# kill the test's JVMs, then remove the maps and attach sockets they leave
# in /tmp (a JVM killed mid-shutdown leaves its socket behind)
attach_cleanup() {
	local p
	for p in "${PIDS_TO_KILL[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${PIDS_TO_KILL[@]}"; do
		wait "$p" 2>/dev/null || true
		rm -f "/tmp/perf-$p.map" "/tmp/.java_pid$p"
	done
	cleanup_common
}
trap attach_cleanup EXIT

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	attach_workload_build
	for jdk in $(jdks); do
		start_jvm "work-$(basename "$jdk")" "$jdk"
		jvm_works "$JVM_PID" "$JVM_LOG"
		! grep -q 'AttachWork::late' "$JVM_LOG" ||
			die "late() compiled before the trigger"
		touch "$JVM_TRIGGER"
		wait_for 20 grep -q 'AttachWork::late' "$JVM_LOG" ||
			die "late() not compiled after the trigger"
		kill "$JVM_PID"
		note "$jdk: workload ok"
	done
fi
