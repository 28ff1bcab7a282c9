#!/usr/bin/env bash
# Inside a test-kernels guest (run.sh boots it): each mode of mixprof once
# on this kernel, so each of our BPF programs goes through its verifier,
# with a check that the profile is right, not only that it loaded. One
# PASS or FAIL line per check; the profiles and mixprof's stderr in OUT;
# OUT/status: 0 when every check passed.
#
# In: BUILD (read-only: mixprof, libjmap.so, samples, fixtures) and OUT.
# Times are short and rates low: the guest may run in software emulation.
set -u
B=$1 OUT=$2
MIXPROF=$B/mixprof SAMPLES=$B/samples NOFP=$B/tests/fixtures/unwind/nofp
fails=0
echo 1 >"$OUT/status"

pass() { echo "PASS: $*"; }
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
# check NAME COMMAND...: PASS or FAIL NAME by COMMAND's status
check() {
	local name=$1

	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}
# mixprof NAME ARGS...: runs mixprof, its stderr in OUT/NAME.err
mixprof() {
	local name=$1

	shift
	"$MIXPROF" "$@" 2>"$OUT/$name.err"
	local rc=$?
	sed "s/^/  [$name] /" "$OUT/$name.err"
	[ $rc -eq 0 ] && return 0
	echo "  [$name] mixprof exited $rc"
	# a program this kernel's verifier refused: libbpf's log kept
	grep -qE "cannot load|loading [a-z_]+\.bpf\.o" "$OUT/$name.err" &&
		"$MIXPROF" -v "$@" >/dev/null 2>"$OUT/$name.verifier.log"
	return $rc
}
# samples FILE AWK-REGEX: the samples of FILE's stacks that match
samples() {
	awk -v re="$2" '$0 ~ re { n += $NF } END { printf "%.0f\n", n }' "$1"
}
# java_start OUT CLASS ARGS...: starts a sample, waits for its "ready"
java_start() {
	local out=$1 i

	shift
	java -cp "$SAMPLES" "$@" >"$out" 2>&1 &
	JPID=$!
	for i in $(seq 120); do
		grep -qs ready "$out" && return 0
		sleep 0.5
	done
	return 1
}

echo "kernel $(uname -r), $(nproc) CPUs, $(java -version 2>&1 | head -1)"
check "BTF at /sys/kernel/btf/vmlinux" test -s /sys/kernel/btf/vmlinux
check "no tracefs, no debugfs mounted" \
	sh -c '! grep -qE " (tracefs|debugfs) " /proc/mounts'

# A C program from launch: its hot function, main, whole stacks.
if mixprof c -F 199 -o "$OUT/c.folded" -- "$NOFP" 8; then
	all=$(samples "$OUT/c.folded" '^nofp;')
	main=$(samples "$OUT/c.folded" '^nofp;.*;main;.*inner [0-9]+$')
	echo "  C program: $all samples, $main with main -> ... -> inner"
	check "C program: samples" test "$all" -ge 200
	check "C program: hot function under main in >= 80%" \
		test $((main * 10)) -ge $((all * 8))
	check "C program: whole stacks share printed" \
		grep -q "whole stacks: [0-9.]*% of" "$OUT/c.err"
else
	fail "C program: mixprof"
fi

# A JVM from launch (the fork hook, the HotSpot unwinder, agentless names).
if mixprof jvm -F 199 -o "$OUT/jvm.folded" -- \
	java -cp "$SAMPLES" Ratio 10; then
	all=$(samples "$OUT/jvm.folded" '^java;')
	named=$(samples "$OUT/jvm.folded" '^java;.*Ratio\.(one|two|three)_\[[01ji]\]')
	echo "  JVM launched: $all samples, $named in Ratio.one/two/three"
	check "JVM launched: samples" test "$all" -ge 200
	check "JVM launched: Java frames named" test "$named" -ge $((all / 3))
	check "JVM launched: whole stacks share printed" \
		grep -q "whole stacks: [0-9.]*% of" "$OUT/jvm.err"
else
	fail "JVM launched: mixprof"
fi

# A running JVM (-p), then method entry probes (-e, the agent attached).
if java_start "$OUT/callers.out" Callers 60; then
	if mixprof pid -F 199 -p "$JPID" -o "$OUT/pid.folded" 6; then
		all=$(samples "$OUT/pid.folded" '.')
		named=$(samples "$OUT/pid.folded" 'Callers\.helper_\[[01ji]\]')
		echo "  JVM -p: $all samples, $named in Callers.helper"
		check "JVM -p: Java frames named" test "$named" -ge $((all / 3))
		check "JVM -p: samples" test "$all" -ge 100
	else
		fail "JVM -p: mixprof"
	fi
	if mixprof probe -p "$JPID" --count -e 'java:Callers.a' 4 \
		>"$OUT/probe.out"; then
		cat "$OUT/probe.out"
		n=$(awk '$1 ~ /^Callers\.a\(/ { print $2 }' "$OUT/probe.out")
		check "-e probe: Callers.a calls counted" test "${n:-0}" -gt 0
	else
		fail "-e probe: mixprof"
	fi
	kill "$JPID"
	wait "$JPID" 2>/dev/null
else
	fail "JVM -p: Callers did not start"
fi

# Allocations (--alloc: uprobes into libjvm).
if java_start "$OUT/alloc.out" Alloc 30; then
	if mixprof alloc --alloc -p "$JPID" -o "$OUT/alloc.folded" 5; then
		b=$(samples "$OUT/alloc.folded" 'Alloc\.big_\[.*;byte\[\] [0-9]+$')
		s=$(samples "$OUT/alloc.folded" 'Alloc\.small_\[.*;long\[\] [0-9]+$')
		echo "  --alloc: $b bytes of byte[] in big, $s of long[] in small"
		check "--alloc: both allocation sites, classes named" \
			test "$b" -gt 0 -a "$s" -gt 0
	else
		fail "--alloc: mixprof"
	fi
	kill "$JPID"
	wait "$JPID" 2>/dev/null
else
	fail "--alloc: Alloc did not start"
fi

# Lock waits (--lock: uprobes and a uretprobe into libjvm).
if java_start "$OUT/lock.out" LockSplit 30 "$OUT"; then
	if mixprof lock --lock -p "$JPID" -o "$OUT/lock.folded" 5; then
		m=$(awk '/takeAlpha_\[/ && index($0, ";[lock] LockSplit$Alpha ") { n += $NF } END { printf "%.0f\n", n }' "$OUT/lock.folded")
		g=$(awk '/takeGamma_\[/ && index($0, ";[lock] java/util/concurrent/locks/ReentrantLock$NonfairSync ") { n += $NF } END { printf "%.0f\n", n }' "$OUT/lock.folded")
		echo "  --lock: $m ns waited for Alpha in takeAlpha, $g for the ReentrantLock in takeGamma"
		check "--lock: a monitor and a j.u.c. lock, classes named" \
			test "$m" -gt 0 -a "$g" -gt 0
	else
		fail "--lock: mixprof"
	fi
	kill "$JPID"
	wait "$JPID" 2>/dev/null
else
	fail "--lock: LockSplit did not start"
fi

# HotSpot's own events (--events: USDT probes and uprobes, sleepable).
if mixprof events --events "$OUT/ev.tsv" -o "$OUT/ev.folded" -- \
	java -cp "$SAMPLES" JvmEvents 3 >"$OUT/ev.out"; then
	n=$(awk -F'\t' '$3 == "gc"' "$OUT/ev.tsv" | wc -l)
	echo "  --events: $n gc events for 3 System.gc() calls"
	check "--events: the 3 gc events seen" test "$n" -ge 3
	check "--events: compilations seen" \
		grep -qP '\tcompile\t' "$OUT/ev.tsv"
else
	fail "--events: mixprof"
fi

# Off-CPU and wall clock (the scheduler's BTF tracepoints): sleep 2 s.
for m in off-cpu wall; do
	if mixprof "$m" --"$m" -o "$OUT/$m.folded" -- sleep 2; then
		us=$(samples "$OUT/$m.folded" '^sleep;')
		echo "  --$m: sleep $us us"
		check "--$m: the 2 s sleep seen" test "$us" -ge 1500000
	else
		fail "--$m: mixprof"
	fi
done

# Host-wide (every process, no fork hook).
"$NOFP" 10 &
np=$!
if mixprof host -F 99 -o "$OUT/host.folded" 4; then
	n=$(samples "$OUT/host.folded" '^nofp;.*;main;')
	echo "  host-wide: $n samples of nofp under main"
	check "host-wide: the C program seen to main" test "$n" -ge 20
else
	fail "host-wide: mixprof"
fi
kill "$np" 2>/dev/null
wait "$np" 2>/dev/null

echo "$fails checks failed on $(uname -r)"
echo "$fails" >"$OUT/status"
