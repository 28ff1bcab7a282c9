#!/usr/bin/env bash
# mixprof check, its verdicts both ways: as root it exits 0 with every
# line a CPU profile needs OK (kernel, BTF, privileges, cpu-clock, the
# BPF sampler loaded and attached, tracefs not needed), and with -p on a
# busy JVM of each JDK its tables are read and its stacks walked; as a
# user without capabilities it exits 1, its privilege line names
# CAP_BPF and CAP_PERFMON with a fix, and the sampler is not tried. -p
# of a process that is no JVM exits 1, its comm (with an escape
# sequence in it) printed without the control character.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

# has FILE REGEX: FILE has a line matching REGEX (extended)
has() { grep -qE -- "$2" "$1" || { cat "$1"; die "no line '$2'"; }; }

st=0
"$MIXPROF" check >"$TMPD/root" 2>"$TMPD/root.err" || st=$?
cat "$TMPD/root"
[ $st -eq 0 ] || die "root: exit $st: $(cat "$TMPD/root.err")"
! grep -q '^NO ' "$TMPD/root" || die "root: a NO line"
has "$TMPD/root" '^OK   kernel [0-9]'
has "$TMPD/root" '^OK   BTF: /sys/kernel/btf/vmlinux'
has "$TMPD/root" '^OK   privileges: uid 0 with'
has "$TMPD/root" '^OK   perf event software cpu-clock opens'
has "$TMPD/root" '^OK   BPF sampler: loaded, attached \((cycles|cpu-clock) on [0-9]+ CPUs, fork and exec hooks\) and freed'
has "$TMPD/root" '^OK   off-CPU and wall .*sched_switch attached'
has "$TMPD/root" '^OK   tracefs: not needed'
has "$TMPD/root" '^OK   JDK [0-9]'
# hardware cycles: OK, or a WARN that says what runs use instead
grep -qE '^OK   perf event hardware cycles opens' "$TMPD/root" ||
	has "$TMPD/root" '^     fix: none needed \(runs sample cpu-clock\)'

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	start_java "$jdk/bin/java" "$TMPD/ratio.out" "$TMPD/ratio.err" \
		-cp "$SAMPLES" Ratio 600
	cpu_cap "$pid" 30 # walked, not spinning a CPU
	wait_for 30 grep -qs ready "$TMPD/ratio.out" || die "Ratio did not start"
	st=0
	"$MIXPROF" check -p "$pid" >"$TMPD/p" 2>"$TMPD/p.err" || st=$?
	grep "pid $pid" "$TMPD/p"
	[ $st -eq 0 ] || { cat "$TMPD/p" "$TMPD/p.err"; die "-p: exit $st"; }
	has "$TMPD/p" "^OK   pid $pid \\(java\\): a HotSpot JVM \\($jdk/lib/server/libjvm.so\\)"
	has "$TMPD/p" "^OK   pid $pid: VMStructs tables read: .*compiled-frame unwinding known"
	has "$TMPD/p" "^OK   pid $pid: stacks walked: [0-9]+% of [1-9][0-9]* samples .* [1-9][0-9]*% with Java frames"
	kill "$pid"
done

# no JVM, and a comm that would colour a terminal
bad=$(printf 'chk\033[31mx')
cp /bin/sleep "$TMPD/$bad"
"$TMPD/$bad" 600 &
PIDS_TO_KILL+=($!)
st=0
"$MIXPROF" check -p $! >"$TMPD/nojvm" 2>&1 || st=$?
[ $st -eq 1 ] || { cat "$TMPD/nojvm"; die "not a JVM: exit $st"; }
has "$TMPD/nojvm" "^NO   pid $! \\(chk\\\\x1b\\[31mx\\): not a HotSpot JVM"
! grep -q $'\033' "$TMPD/nojvm" || die "a raw escape printed"

# a user without capabilities (nobody may not reach the build directory)
cp "$MIXPROF" "$TMPD/mixprof"
chmod 755 "$TMPD/mixprof"
st=0
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	--bounding-set=-all "$TMPD/mixprof" check >"$TMPD/user" 2>&1 || st=$?
cat "$TMPD/user"
[ $st -eq 1 ] || die "no capabilities: exit $st, want 1"
has "$TMPD/user" '^NO   privileges: uid [0-9]+ without CAP_BPF and CAP_PERFMON'
# the line after it: the fix (setcap, or the container's capabilities)
grep -A1 '^NO   privileges' "$TMPD/user" |
	grep -qE '^     fix: .*(setcap cap_bpf,cap_perfmon\+ep|--cap-add BPF --cap-add PERFMON)' ||
	die "no fix for the privileges"
has "$TMPD/user" '^NO   BPF sampler: not tried without privileges'
echo ok
