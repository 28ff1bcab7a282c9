#!/usr/bin/env bash
# -p of a wrapper (timeout, a shell) that is not a JVM: mixprof names the
# JVM below it and the command to use, and a run without samples says so
# (exit 0: nothing failed, the pid did not run). -p of the JVM: no hint.
. "$(dirname "$0")/../lib/common.sh"

timeout 60 java -cp "$SAMPLES" Ratio 30 >"$TMPD/ready" &
wrapper=$!
PIDS_TO_KILL+=($wrapper)
wait_for 10 grep -q ready "$TMPD/ready" || die "Ratio did not start"
jvm=$(pgrep -P "$wrapper" java) || die "no java below timeout"
PIDS_TO_KILL+=($jvm)
cpu_cap "$jvm" 30 # to be there and sampled at the end, not to spin a CPU

"$MIXPROF" -p "$wrapper" -o "$TMPD/w.folded" 1 2>"$TMPD/err" ||
	die "mixprof failed: $(cat "$TMPD/err")"
cat "$TMPD/err"
want="mixprof: pid $wrapper (timeout) is not a JVM; its child $jvm (java) is: mixprof -p $jvm"
[ "$(grep -cxF "$want" "$TMPD/err")" -eq 2 ] ||
	die "no hint (at the start and again at the end) naming $jvm"
grep -qxF "mixprof: no samples: pid $wrapper (timeout) and its new children did not run on a CPU" \
	"$TMPD/err" || die "a run without samples does not say so"
[ ! -s "$TMPD/w.folded" ] || die "samples of a wrapper that did not run"

# one level further down: a shell running timeout running java
sh -c "timeout 60 java -cp '$SAMPLES' Ratio 30 >'$TMPD/ready2'; exit 0" &
shell=$!
PIDS_TO_KILL+=($shell)
wait_for 10 grep -q ready "$TMPD/ready2" || die "second Ratio did not start"
jvm2=$(pgrep -P "$(pgrep -P "$shell" timeout)" java) || die "no java below sh"
PIDS_TO_KILL+=($jvm2)
cpu_cap "$jvm2" 30
"$MIXPROF" -p "$shell" 1 >/dev/null 2>"$TMPD/err2" || die "mixprof failed"
cat "$TMPD/err2"
grep -qF "its descendant $jvm2 (java) is: mixprof -p $jvm2" "$TMPD/err2" ||
	die "no hint naming the grandchild $jvm2"

# the JVM itself: profiled, no hint, no "no samples"
"$MIXPROF" --no-attach -p "$jvm" -o "$TMPD/j.folded" 1 2>"$TMPD/err3" ||
	die "mixprof -p JVM failed"
cat "$TMPD/err3"
! grep -q "is not a JVM\|no samples" "$TMPD/err3" || die "hint for a JVM"
[ -s "$TMPD/j.folded" ] || die "no samples of the JVM"
echo ok
