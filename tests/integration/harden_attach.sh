#!/usr/bin/env bash
# A JVM's user cannot hang root's attach with a FIFO named like the attach
# trigger (.attach_pid<PID>) in the JVM's working directory and /tmp:
# `mixprof attach` and `mixprof -p` come back with a clear error; with the
# FIFO in the working directory alone the trigger goes to /tmp and the
# attach works.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/harden.sh"

U=$TMPD/u
mkdir "$U" && chown "$HU:$HG" "$U"
user_jvm "$U"
pid=$JPID
trap 'rm -f "/tmp/.attach_pid$pid" "/tmp/.java_pid$pid"; cleanup_harden' EXIT
as_user mkfifo "$U/.attach_pid$pid" "/tmp/.attach_pid$pid"

rc=0
bounded "$MIXPROF" attach "$pid" >/dev/null 2>"$TMPD/err" || rc=$?
cat "$TMPD/err"
[ $rc -ne 0 ] || die "attach through FIFOs succeeded"
grep -q "cannot create .attach_pid$pid .*: not a regular file" "$TMPD/err" ||
	die "no clear error"

# -p --agent attaches the map agent the same way: the run goes on without it
rc=0
bounded "$MIXPROF" -p "$pid" --agent 1 >"$TMPD/out" 2>"$TMPD/err" || rc=$?
cat "$TMPD/err"
[ $rc = 0 ] || die "-p failed"
grep -q "not a regular file" "$TMPD/err" || die "-p: no clear error"
grep -q '^java;' "$TMPD/out" || die "-p: no samples"

# the working directory's FIFO alone: the trigger goes to /tmp
rm -f "/tmp/.attach_pid$pid"
bounded "$MIXPROF" attach "$pid" >/dev/null || die "attach failed"
[ -p "$U/.attach_pid$pid" ] || die "the user's FIFO was touched"
note "harden_attach: ok"
