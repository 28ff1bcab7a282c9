#!/usr/bin/env bash
# Ctrl-C while `mixprof -p --agent` waits on something the target's user controls
# (here: a process that looks like a JVM, catches SIGQUIT and never opens
# an attach socket): the wait gives up at once with a clear message
# instead of running out its timeout with SIGINT blocked, and the run
# still ends cleanly with its whole result written.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/harden.sh"

U=$TMPD/u
mkdir "$U" && chown "$HU:$HG" "$U"
# any library, named libjvm.so, makes the process look like a JVM
cp "$(ldd /bin/bash | awk '/libtinfo|libc\./ { print $3; exit }')" "$U/libjvm.so"
(cd "$U" && LD_PRELOAD=$U/libjvm.so exec setpriv --reuid="$HU" --regid="$HG" \
	--clear-groups bash -c 'trap : QUIT; while :; do sleep 0.2; done') &
pid=$!
PIDS_TO_KILL+=("$pid")
wait_for 10 grep -q "$U/libjvm.so" "/proc/$pid/maps" || die "fake JVM not up"
quit_caught() { (( 16#$(awk '/^SigCgt/ { print $2 }' "/proc/$pid/status") & 4 )); }
wait_for 10 quit_caught || die "SIGQUIT not caught"

out=$TMPD/out.folded
timeout --kill-after=5 30 "$MIXPROF" -p "$pid" --agent -o "$out" 2>"$TMPD/err" &
mp=$!
# the attach is waiting for a listener once the trigger is there
wait_for 20 test -e "$U/.attach_pid$pid" || die "no attach trigger"
kill -INT "$mp"
rc=0; wait "$mp" || rc=$?
cat "$TMPD/err"
[ $rc -ne 124 ] && [ $rc -ne 137 ] || die "hung (timed out)"
[ $rc = 0 ] || die "exit $rc"
grep -q "interrupted while attaching to JVM $pid" "$TMPD/err" ||
	die "the attach wait did not give up on SIGINT"
grep -q 'did not start its attach listener' "$TMPD/err" &&
	die "the attach ran out its timeout"
[ -f "$out" ] || die "no output"
total=$(awk '{ n += $NF } END { print n + 0 }' "$out")
grep -q " $total written" "$TMPD/err" || die "output incomplete"
[ -e "$U/.attach_pid$pid" ] && die "trigger left behind"
note "harden_signal: ok"
