#!/usr/bin/env bash
# A -p target that exits mid-run ends the run promptly with full output;
# so does a launched command, whose status mixprof reports and passes on.
. "$(dirname "$0")/../lib/common.sh"

java -cp "$SAMPLES" Ratio 3 >"$TMPD/ready" &
pid=$!
PIDS_TO_KILL+=($pid)
wait_for 10 grep -q ready "$TMPD/ready" || die "Ratio did not start"
# an hour asked: only the target's end can end the run before the
# runner's time limit fails the test (no timing asserted)
"$MIXPROF" -F 999 -p "$pid" -o "$TMPD/exit.folded" 3600 2>"$TMPD/err" ||
	die "mixprof failed: $(cat "$TMPD/err")"
cat "$TMPD/err"
[ -s "$TMPD/exit.folded" ] || die "no output"
total=$(awk '{ n += $NF } END { print n + 0 }' "$TMPD/exit.folded")
[ "$total" -gt 50 ] || die "only $total samples"
grep -q " $total written" "$TMPD/err" || die "summary disagrees with output"

"$MIXPROF" -o "$TMPD/fail.folded" 30 -- sh -c 'sleep 1; exit 3' \
	2>"$TMPD/err" && die "expected a usage error for a duration with a command" || true
st=0
"$MIXPROF" -o "$TMPD/fail.folded" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit 3' \
	2>"$TMPD/err" || st=$?
cat "$TMPD/err"
[ $st = 3 ] || die "launch of a command that exits 3: status $st, want 3"
grep -q "exited with status 3" "$TMPD/err" || die "exit status not reported"
grep -q '^sh;' "$TMPD/fail.folded" || die "no samples of the command"
st=0; "$MIXPROF" -o "$TMPD/sig.folded" -- sh -c 'kill -TERM $$' 2>"$TMPD/err" || st=$?
[ $st = 143 ] || die "launch of a command killed by SIGTERM: status $st, want 143"
grep -q "killed by signal 15" "$TMPD/err" || die "signal not reported: $(cat "$TMPD/err")"
"$MIXPROF" -- /nonexistent/cmd 2>"$TMPD/err" && die "missing command accepted"
grep -q "cannot run '/nonexistent/cmd'" "$TMPD/err" || die "bad message: $(cat "$TMPD/err")"
echo ok
