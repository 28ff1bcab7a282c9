#!/usr/bin/env bash
# SIGINT and SIGTERM end a run promptly in every state, and the run still
# writes what it has (the folded output and the summary): mid-sampling of
# a JVM (-p, its threads named); the naming at the end of the run (one
# bucket: every key is named after the signal); a probe run (-e); while
# a target's perf map of 400 MB is being read; host-wide while the unwind
# rows of every process load; a launched JVM (mixprof alone is signalled:
# the command runs on). The issue asks for 1 s; the machines the suite
# runs on are noisy (a loaded 2-CPU host starves mixprof of its CPU for
# seconds: up to 2.9 s seen under load 19), so the bound is 4 s, far
# below a reader that ignores the signal (before issue 29 the perf map
# held the end 13 s, a hostile JVM's tables forever), and the measured
# time is printed.
. "$(dirname "$0")/../lib/common.sh"

BOUND_MS=4000

# start NAME ARGS...: mixprof ARGS in the background, stderr in NAME.err
start() {
	local name=$1
	shift
	rm -f "$TMPD/$name.err"
	"$MIXPROF" "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	mp=$!
	PIDS_TO_KILL+=($mp)
}
started() { wait_for 60 grep -q "mixprof: ${2:-profiling}" "$TMPD/$1.err" ||
	die "$1: no start line: $(cat "$TMPD/$1.err")"; }

# stop NAME SIG: signal mixprof ($mp), wait for its end (30 s at most:
# a hang is killed and reported), check the time, the output, the summary
stop() {
	local name=$1 sig=$2 t0 ms rc=0 total
	t0=$(date +%s%N)
	kill -"$sig" "$mp"
	for _ in $(seq 600); do
		kill -0 "$mp" 2>/dev/null || break
		sleep 0.05
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	if kill -0 "$mp" 2>/dev/null; then
		kill -9 "$mp"
		die "$name: SIG$sig ignored: still running after $ms ms"
	fi
	wait "$mp" || rc=$?
	cat "$TMPD/$name.err"
	note "$name: SIG$sig: ended in $ms ms (bound $BOUND_MS ms), exit $rc"
	[ $rc = 0 ] || die "$name: exit $rc"
	[ $ms -le $BOUND_MS ] || die "$name: SIG$sig took $ms ms"
	total=$(awk '{ n += $NF } END { print n + 0 }' "$TMPD/$name.folded")
	[ "$total" -gt 0 ] || die "$name: no samples written"
	grep -q " $total written" "$TMPD/$name.err" ||
		die "$name: output and summary disagree ($total)"
}

java -cp "$SAMPLES" Ratio 120 >"$TMPD/ready" &
jpid=$!
PIDS_TO_KILL+=($jpid)
cpu_cap "$jpid" 30 # a run wants samples to write, not many
wait_for 30 grep -q ready "$TMPD/ready" || die "Ratio did not start"

# a JVM mid-sampling, its Java threads named
start jvm -F 999 --per-thread -p "$jpid" -o "$TMPD/jvm.folded"
started jvm
sleep 1 # samples to write: Ratio's worker gives ~300 a second
stop jvm INT

# the end's naming: one bucket for the run, so every key is named after
# the signal (compiled frames from the JVM's metadata, with lines)
start names -F 999 --bucket-ms 3600000 --lines -p "$jpid" \
	-o "$TMPD/names.folded"
started names
sleep 1
stop names INT
grep -q '_\[j\]\|_\[1\]\|_\[2\]\|_\[3\]\|_\[4\]\|_\[i\]' "$TMPD/names.folded" ||
	grep -q 'Ratio' "$TMPD/names.folded" || die "names: no Java frame"

# -e: the agent's probe in the JVM, its calls' stacks (the agent takes
# the probe out when mixprof is gone: eprobe_cleanup.sh)
start probe -p "$jpid" -e 'java:Ratio.one' -o "$TMPD/probe.folded"
started probe probing
sleep 1 # the probe in place: one() runs every 6 ms of its CPU
stop probe INT
# the JVM's part is done: its worker no longer takes a CPU from the rest
kill "$jpid"
wait "$jpid" 2>/dev/null || true

# a target whose perf map gains 400 MB of lines at once (a JIT may
# write that much): the next tick reads them, for seconds on a loaded
# host; the signal comes while it does and must not wait for its end
awk 'BEGIN { while (1) ; }' &
spin=$!
PIDS_TO_KILL+=($spin)
cpu_cap "$spin" 30 # as Ratio above: samples to write, not many
echo '7f0000000000 10 first::function' >"/tmp/perf-$spin.map"
start map -F 499 -p "$spin" -o "$TMPD/map.folded"
started map
sleep 1
yes '7f0000001000 10 some::jitted_function' | head -c 400M >>"/tmp/perf-$spin.map" ||
	true # yes ends by SIGPIPE
sleep 0.2 # a tick (100 ms) has begun the read
stop map TERM
kill "$spin"
wait "$spin" 2>/dev/null || true
rm -f "/tmp/perf-$spin.map"

# host-wide, soon after the start: the unwind rows of every process are
# still loading (the loader thread, unwind/)
start host -F 499 -o "$TMPD/host.folded"
started host
sleep 0.5
stop host TERM

# a launched JVM: mixprof alone is told, the command runs on (as it would
# after the run), its output written
start launch -F 499 -o "$TMPD/launch.folded" -- java -cp "$SAMPLES" Ratio 120
wait_for 30 grep -q ready "$TMPD/launch.out" || die "launched Ratio did not start"
child=$(pgrep -P "$mp" | head -1)
[ -n "$child" ] && PIDS_TO_KILL+=($child) && cpu_cap "$child" 30
sleep 1.5
stop launch INT
grep -q "still runs" "$TMPD/launch.err" || die "launch: the command's state not said"
echo ok
