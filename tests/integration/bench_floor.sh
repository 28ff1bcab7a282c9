#!/usr/bin/env bash
# bench/floor (make bench's instrument of what the machine lets a sample
# cost) measures what it says: on a process 30 calls deep with frame
# pointers, its frame-pointer walks (the kernel's, and its own loop of
# reads) find the 30 frames and the few below them (main, and no more
# than glibc's start), each mode took ticks in its turns, the user-stack
# modes applied in user-mode ticks, and its errors are one line with a
# non-zero exit. No timing is checked: the machine's speed is what it
# measures.
. "$(dirname "$0")/../lib/common.sh"

fb=$BUILD/bench/floor_bench
[ -x "$fb" ] || die "no $fb: make builds it"
"$fb" -F 999 -- "$BUILD/tests/fixtures/bench/fpdeep" 3 30 >"$TMPD/out" 2>"$TMPD/err" ||
	die "floor_bench failed: $(cat "$TMPD/err")"
cat "$TMPD/out"
awk -F'\t' '
	{ seen[$1] = 1; ticks[$1] = $3; done[$1] = $4; fr[$1] = $5; n++ }
	END {
		if (n != 9) { print "FAIL: " n " modes, not 9"; exit 1 }
		for (m in seen) if (ticks[m] < 50) { print "FAIL: " m " took " ticks[m] " ticks"; exit 1 }
		for (m in seen) if (done[m] > ticks[m]) { print "FAIL: " m " applied in more ticks than it had"; exit 1 }
		if (done["FP_LOOP"] < ticks["FP_LOOP"] * 0.8) { print "FAIL: a user-mode loop in " done["FP_LOOP"] " of " ticks["FP_LOOP"] " ticks"; exit 1 }
		split("KERNEL_FP FP_LOOP", w, " ")
		for (i = 1; i <= 2; i++) {
			f = done[w[i]] ? fr[w[i]] / done[w[i]] : 0
			printf "%s: %.1f frames a tick\n", w[i], f
			if (f < 30 || f > 34) { print "FAIL: " w[i] " found " f " frames, not 30 and the few below"; exit 1 }
		}
	}' "$TMPD/out" || die "floor_bench's figures are off"

# errors: one line naming the input, a non-zero exit
if "$fb" -p 0 1 >/dev/null 2>"$TMPD/err1"; then die "-p 0 accepted"; fi
grep -q "^floor_bench: -p '0': not a number from 1 to" "$TMPD/err1" || die "-p 0: $(cat "$TMPD/err1")"
if "$fb" -F 999 -p 999999999 1 >/dev/null 2>"$TMPD/err2"; then die "a missing pid accepted"; fi
grep -q "^floor_bench: -p 999999999: no such process" "$TMPD/err2" || die "missing pid: $(cat "$TMPD/err2")"
if "$fb" -- /nonexistent/cmd >/dev/null 2>"$TMPD/err3"; then die "a missing command accepted"; fi
[ "$(cat "$TMPD/err3")" = "floor_bench: /nonexistent/cmd: No such file or directory" ] ||
	die "missing command: $(cat "$TMPD/err3")"
if "$fb" -- false >/dev/null 2>"$TMPD/err4"; then die "a failing command passed"; fi
grep -q "^floor_bench: false: exited with status 1$" "$TMPD/err4" || die "failing command: $(cat "$TMPD/err4")"
echo ok
