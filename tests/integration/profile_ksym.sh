#!/usr/bin/env bash
# Kernel frames are named by the kernel's own lookup (ksym.bpf.c) for just
# the addresses a profile shows, not from all of /proc/kallsyms. Both ways
# must give the same names: every 10th text symbol of /proc/kallsyms, at
# its start and a few bytes in, named both ways (aliases at one address
# count as the same). Then a profile of a syscall load names its kernel
# frames the same both ways (MIXPROF_KALLSYMS=1 forces /proc/kallsyms).
. "$(dirname "$0")/../lib/common.sh"

"$BUILD/tests/ksym_check" 10 >"$TMPD/check" || { cat "$TMPD/check"; die "kernel names differ"; }
note "$(tail -n 1 "$TMPD/check")"

java -XX:+PreserveFramePointer -Djava.io.tmpdir="$TMPD" -cp "$SAMPLES" \
	Syscalls 30 >"$TMPD/ready" &
pid=$!
PIDS_TO_KILL+=($pid)
wait_for 15 grep -q ready "$TMPD/ready" || die "Syscalls did not start"

# kernel frame names of a 2 s profile, one per line, sorted
knames() {
	tr ';' '\n' <"$1" | sed -n 's/ [0-9]*$//; /_\[k\]$/p' | sort -u
}
"$MIXPROF" -K -F 999 -p "$pid" -o "$TMPD/bpf.folded" 2
MIXPROF_KALLSYMS=1 "$MIXPROF" -K -F 999 -p "$pid" -o "$TMPD/text.folded" 2
knames "$TMPD/bpf.folded" >"$TMPD/bpf.names"
knames "$TMPD/text.folded" >"$TMPD/text.names"
n=$(wc -l <"$TMPD/bpf.names")
note "$n kernel function names"
[ "$n" -ge 20 ] || die "few kernel frames named"
grep -q '\[kernel.kallsyms\]' "$TMPD/bpf.folded" && die "unnamed kernel frames"
# the two profiles sample different moments: most names are in both
common=$(comm -12 "$TMPD/bpf.names" "$TMPD/text.names" | wc -l)
[ $((common * 2)) -ge "$n" ] ||
	die "only $common of $n kernel names also in the kallsyms run"
echo ok
