#!/usr/bin/env bash
# The cost of --off-cpu's sched_switch hook under a context-switch storm
# of our own (two processes ping-ponging a byte over two pipes):
#  - BPF run time per switch (run_time_ns / run_cnt of mixprof_offcpu,
#    kernel.bpf_stats_enabled switched on for the run and restored after)
#    when the storm is not a target (-p of an idle process), and when it
#    is (launch mode: mixprof --off-cpu -- the storm);
#  - CPU of a 10 s whole-host off-CPU profile, mixprof against bcc's
#    offcputime side by side in the same storm: the Python one (Debian's
#    bpfcc-tools, offcputime-bpfcc -f; it compiles its BPF from C at
#    start, so it needs the running kernel's headers, and says why when
#    it cannot run) and the libbpf one (Debian's libbpf-tools,
#    /usr/sbin/offcputime: CO-RE, BTF only, no folded output).
# Prints numbers; never fails on one.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
SECS=${SECS:-5}
HOST_SECS=${HOST_SECS:-10}
. "$(dirname "$0")/common.bash" # bench_start, bench_watch
bench_start

# the storm: SECS of one-byte round trips; prints the round trips done
cat >"$tmp/storm.py" <<'PY'
import os, sys, time
end = time.monotonic() + float(sys.argv[1])
a_r, a_w = os.pipe(); b_r, b_w = os.pipe()
if os.fork() == 0:
	while os.read(a_r, 1) == b"x":
		os.write(b_w, b"x")
	os._exit(0)
n = 0
while time.monotonic() < end:
	for _ in range(1000):
		os.write(a_w, b"x"); os.read(b_r, 1)
	n += 1000
os.write(a_w, b"q"); os.wait()
print(n)
PY

# watch TIMEPID: the last stats of mixprof_offcpu, held by the mixprof
# under /usr/bin/time TIMEPID (bench_watch)
watch() { bench_watch "$1" mixprof_offcpu; }

per_switch() { # "ns cnt" -> ns per run
	awk '{ printf "%.0f ns per switch (%d switches)", $2 ? $1 / $2 : 0, $2 }' <<<"$1"
}

# 1. the storm is not a target: -p of a sleeping process
sleep 1000 &
idle=$!
pids+=($idle)
python3 "$tmp/storm.py" $((SECS + 2)) >"$tmp/rt1" &
storm=$!
/usr/bin/time -o "$tmp/t1" -f '%U %S' "$BUILD/mixprof" --off-cpu -q -p "$idle" \
	-o /dev/null "$SECS" &
tp=$!
st1=$(watch "$tp")
wait "$tp" || true
wait "$storm"
echo "storm not a target: $(per_switch "$st1"), storm $(($(cat "$tmp/rt1") / (SECS + 2))) round trips/s"

# 2. the storm is the target (launch mode)
# (no CPU figure: time(1) would count the storm, mixprof's child)
/usr/bin/time -o "$tmp/t2" -f '%U %S' "$BUILD/mixprof" --off-cpu -q -o /dev/null \
	-- python3 "$tmp/storm.py" "$SECS" >"$tmp/rt2" &
tp=$!
st2=$(watch "$tp")
wait "$tp" || true
echo "storm the target:   $(per_switch "$st2"), storm $(($(tail -1 "$tmp/rt2") / SECS)) round trips/s"

# 3. whole host, 10 s, mixprof and bcc's offcputime side by side
bcc=$(command -v offcputime-bpfcc || true)
lbt=$([ -x /usr/sbin/offcputime ] && echo /usr/sbin/offcputime || true)
python3 "$tmp/storm.py" $((HOST_SECS + 4)) >/dev/null &
storm=$!
/usr/bin/time -o "$tmp/t3" -f '%U %S' "$BUILD/mixprof" --off-cpu -q \
	-o "$tmp/host.folded" "$HOST_SECS" &
tm=$!
if [ -n "$bcc" ]; then
	/usr/bin/time -o "$tmp/t4" -f '%U %S' "$bcc" -f "$HOST_SECS" \
		>"$tmp/bcc.folded" 2>"$tmp/bcc.err" &
	tb=$!
fi
if [ -n "$lbt" ]; then
	/usr/bin/time -o "$tmp/t5" -f '%U %S' "$lbt" "$HOST_SECS" \
		>"$tmp/lbt.out" 2>"$tmp/lbt.err" &
	tl=$!
fi
wait "$tm" || true
echo "whole host $HOST_SECS s, side by side in one storm:"
printf "  mixprof --off-cpu:          cpu %s s (%d stacks)\n" \
	"$(awk '{ print $1 + $2 }' "$tmp/t3")" "$(wc -l <"$tmp/host.folded")"
if [ -n "$bcc" ] && wait "$tb" && [ -s "$tmp/bcc.folded" ]; then
	printf "  offcputime-bpfcc -f:        cpu %s s (%d stacks)\n" \
		"$(awk '{ print $1 + $2 }' "$tmp/t4")" "$(wc -l <"$tmp/bcc.folded")"
elif [ -n "$bcc" ]; then
	# its reason is on stdout (no kernel headers) or stderr
	echo "  offcputime-bpfcc: not compared, it did not run: $(grep -hiE \
		'kernel headers|error|exception' "$tmp/bcc.folded" "$tmp/bcc.err" |
		head -1)"
else
	echo "  offcputime-bpfcc: not compared, not installed (Debian's bpfcc-tools)"
fi
if [ -n "$lbt" ] && wait "$tl" && [ -s "$tmp/lbt.out" ]; then
	printf "  libbpf-tools offcputime:    cpu %s s (%d stacks)\n" \
		"$(awk '{ print $1 + $2 }' "$tmp/t5")" \
		"$(awk 'BEGIN { RS = "" } END { print NR }' "$tmp/lbt.out")"
elif [ -n "$lbt" ]; then
	echo "  libbpf-tools offcputime: not compared, it did not run: $(tail -1 "$tmp/lbt.err")"
else
	echo "  libbpf-tools offcputime: not compared, not installed (Debian's libbpf-tools)"
fi
wait "$storm" || true
