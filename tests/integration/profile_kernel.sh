#!/usr/bin/env bash
# Kernel frames under system calls (Syscalls), and the stack selection
# options: -U has no kernel frames, -K no Java frames, -d puts "-" between
# user and kernel frames. The JVM runs without the agent: mixprof -p
# attaches it (the first run), so its Java frames are named.
. "$(dirname "$0")/../lib/common.sh"

java -XX:+PreserveFramePointer -Djava.io.tmpdir="$TMPD" -cp "$SAMPLES" \
	Syscalls 30 >"$TMPD/ready" &
pid=$!
PIDS_TO_KILL+=($pid)
wait_for 15 grep -q ready "$TMPD/ready" || die "Syscalls did not start"

# prof NAME SECS ARGS...: the first run counts kernel stacks (3 s: ~860
# kernel samples, 130 of read/write); the option runs need only some
prof() {
	local name=$1 secs=$2; shift 2
	"$MIXPROF" -F 999 -p "$pid" -o "$TMPD/$name.folded" "$@" $secs
	[ -s "$TMPD/$name.folded" ] || die "$name: no output"
}
sum() { awk -v re="$1" '$0 ~ re { n += $NF } END { print n + 0 }' "$2"; }

prof all 3
k=$(sum '_\[k\]' "$TMPD/all.folded")
sys=$(sum '(entry_SYSCALL_64|do_syscall_64)[^;]*;.*(ksys_write|ksys_read|vfs_write|vfs_read)' "$TMPD/all.folded")
pf=$(sum '(asm_exc_page_fault|exc_page_fault|handle_mm_fault)' "$TMPD/all.folded")
note "kernel samples $k, write/read syscalls $sys, page faults $pf"
[ "$k" -gt 100 ] || die "few kernel frames"
[ "$sys" -ge 5 ] || die "no read/write system call stacks"
grep -q 'Syscalls\.writeRead_\[[01ji]\].*_\[k\]' "$TMPD/all.folded" ||
	die "no Java frame above kernel frames"

prof user 1 -U
[ "$(sum '_\[k\]' "$TMPD/user.folded")" = 0 ] || die "-U has kernel frames"
[ "$(sum '_\[[01j]\]' "$TMPD/user.folded")" -gt 0 ] || die "-U has no Java frames"

prof kern 1 -K
[ "$(sum '_\[[01ji]\]' "$TMPD/kern.folded")" = 0 ] || die "-K has Java frames"
[ "$(sum '_\[k\]' "$TMPD/kern.folded")" -gt 0 ] || die "-K has no kernel frames"

prof delim 1 -d
grep -q '_\[[01ji]\];.*;-;[^;]*_\[k\]' "$TMPD/delim.folded" || die "-d: no '-' between user and kernel frames"
grep -q '_\[k\].*;-;' "$TMPD/delim.folded" && die "-d: '-' below a kernel frame"
echo ok
