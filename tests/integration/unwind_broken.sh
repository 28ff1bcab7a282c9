#!/usr/bin/env bash
# A walk that breaks is reported as broken, by reason, never as a stack
# cut at the depth limit. A C program spins with its frame pointer on a
# frame record that points at itself (the junk chains code without frame
# pointers leaves): the kernel's walk, which does not check that frame
# pointers grow, gives 1,024 frames of junk ("[truncated]", "raise
# --stack-depth"); ours must end each stack with one [unwind: bad fp]
# frame, count it in the summary, and report nothing truncated.
# With unwind rows (the default), main has CFI and the junk frame pointer
# does not matter: its stacks must be whole (_start;...;main), checked
# first; the frame-pointer walk (MIXPROF_UNWIND=fp) then meets the junk.
. "$(dirname "$0")/../lib/common.sh"

cat >"$TMPD/junk.c" <<'C'
#include <unistd.h>
int main(void)
{
	volatile unsigned long frame[2];

	frame[0] = (unsigned long)frame; /* saved fp: itself */
	frame[1] = 0x1234; /* return address: junk */
	alarm(120); /* killed at the end: two runs take long at load 30 */
	asm volatile("mov %0, %%rbp\n1: jmp 1b" : : "r"(frame) : "memory");
	return 0;
}
C
cc -O1 -o "$TMPD/junk" "$TMPD/junk.c" || die "cannot build the junk program"
"$TMPD/junk" &
pid=$!
PIDS_TO_KILL+=("$pid")
sleep 0.5
"$MIXPROF" -F 499 -p "$pid" -o "$TMPD/rows.folded" 2 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "mixprof failed"; }
awk '{ n = $NF; all += n; if ($0 ~ /^junk;_start;[^ ]*;main[; ]/) whole += n }
END {
	printf "rows: %d of %d samples whole to main\n", whole, all
	exit !(all >= 100 && whole >= 0.99 * all)
}' "$TMPD/rows.folded" || die "rows did not unwind past the junk frame pointer"
MIXPROF_UNWIND=fp "$MIXPROF" -F 499 -p "$pid" -o "$TMPD/j.folded" 3 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "mixprof failed"; }
cat "$TMPD/err"
grep -q "truncated" "$TMPD/err" "$TMPD/j.folded" && die "a broken walk called truncated"
grep -q '\[unwind: bad fp\]: ' "$TMPD/err" || die "breaks not counted by reason"
awk '{ n = $NF; all += n; if ($0 ~ /^junk;\[unwind: bad fp\];/) marked += n }
END {
	printf "%d of %d samples end with [unwind: bad fp]\n", marked, all
	exit !(all >= 100 && marked >= 0.95 * all)
}' "$TMPD/j.folded" || die "broken walks not marked"
echo ok
