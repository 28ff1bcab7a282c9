#!/usr/bin/env bash
# Every mode runs on a host without tracefs and debugfs (many hosts and
# most containers): in a private mount namespace, both unmounted and an
# empty read-only tmpfs put over each, so nothing can read a tracepoint's
# id there; then -p, launch, host-wide, --off-cpu, --wall, --alloc, -e and
# --agent each run briefly on JDK 17 workloads, exit 0 and write folded
# stacks with the workload's own Java frames. A program attached through
# tracefs (a "tracepoint/..." section, a kprobe by its tracefs events)
# fails its mode here.
if [ -z "${MIXPROF_NO_TRACEFS_NS:-}" ]; then
	MIXPROF_NO_TRACEFS_NS=1 exec unshare -m --propagation private \
		bash "$0" "$@"
fi
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

for d in /sys/kernel/tracing /sys/kernel/debug; do
	while mountpoint -q "$d"; do umount -l "$d"; done
	mount -t tmpfs -o ro,size=4k,mode=0555 mixprof-no-tracefs "$d"
	[ -z "$(ls -A "$d")" ] || die "$d not empty"
	! touch "$d/x" 2>/dev/null || die "$d writable"
done
! grep -qE ' - (tracefs|debugfs) ' /proc/self/mountinfo ||
	die "tracefs or debugfs still mounted: $(grep -E 'tracefs|debugfs' /proc/self/mountinfo)"

jdk=$(jdks | sed -n 1p)
JAVA=$jdk/bin/java

# a workload JVM in the background; sets $pid
workload() {
	local name=$1; shift
	start_java "$JAVA" "$TMPD/$name.out" "$TMPD/$name.err" \
		-cp "$SAMPLES" "$@"
}

# wait until workload NAME has said it runs ("ready", or its first line)
started() {
	wait_for 30 grep -qs . "$TMPD/$1.out" ||
		die "$1 did not start: $(cat "$TMPD/$1.err")"
}

# mode NAME REGEX ARGS...: mixprof ARGS exits 0 and writes folded stacks
# to $TMPD/NAME.folded with a line matching REGEX.
mode() {
	local name=$1 want=$2 st=0; shift 2
	"$MIXPROF" -o "$TMPD/$name.folded" "$@" 2>"$TMPD/$name.log" || st=$?
	[ $st -eq 0 ] || die "$name: exit $st: $(cat "$TMPD/$name.log")"
	grep -qE -- "$want" "$TMPD/$name.folded" || {
		head -n 20 "$TMPD/$name.folded"
		die "$name: no line matches '$want': $(cat "$TMPD/$name.log")"
	}
	note "$name: ok ($(wc -l <"$TMPD/$name.folded") lines)"
}

# the three start side by side; the two that spin capped at a third of
# a CPU each (every mode wants one line of them, not a count)
workload ratio Ratio 600
ratio=$pid
cpu_cap "$ratio" 30
workload waits Waits 600
waits=$pid
workload alloc Alloc 600
alloc=$pid
cpu_cap "$alloc" 30
started ratio
started waits
started alloc

# side by side (their seconds overlap): modes that load nothing into a JVM
runs=()
mode pid 'Ratio\.(one|two|three)_\[' -p "$ratio" 1 & runs+=($!)
mode launch '^java;.*Ratio\.(one|two|three)_\[' -- "$JAVA" -cp "$SAMPLES" Ratio 1 >/dev/null & runs+=($!)
mode offcpu 'Waits\.(sleeper|monitorWait|socketRead)_\[' --off-cpu -p "$waits" 1 & runs+=($!)
mode wall 'Waits\.(sleeper|monitorWait|socketRead)_\[' --wall -p "$waits" 1 & runs+=($!)
mode alloc 'Alloc\.big_\[.*;byte\[\]' --alloc -p "$alloc" 1 & runs+=($!)
PIDS_TO_KILL+=("${runs[@]}")
for r in "${runs[@]}"; do wait "$r" || die "a mode failed (above)"; done
# then one at a time: host-wide names a JVM once it is seen (it needs
# the CPU to itself for that), -e and --agent load the agent into one JVM
mode host '^java;.*Ratio\.(one|two|three)_\[' 2
mode probe 'Ratio\.(main|lambda).*;Ratio\.one_\[[01j]\] [0-9]+$' \
	-p "$ratio" -e 'java:Ratio.one' 1
mode agent 'Ratio\.(one|two|three)_\[' --agent -p "$ratio" 1
[ -s "/tmp/perf-$ratio.map" ] || die "--agent wrote no /tmp/perf-$ratio.map"
echo ok
