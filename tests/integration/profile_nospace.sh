#!/usr/bin/env bash
# Output that cannot be written: a full file system is reported once, with
# its errno and the file named, the run fails and the summary does not
# claim lines it did not write. A reader that closes stdout early ends
# the run well (exit 0) with the whole summary on stderr.
. "$(dirname "$0")/../lib/common.sh"

full=$TMPD/full
mkdir "$full"
mount -t tmpfs -o size=16k,nr_inodes=64 mixprof-test "$full" ||
	die "cannot mount a tmpfs"
trap 'umount "$full"; cleanup_common' EXIT
# every block taken: creating a file works, writing to it does not
dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null || true

busy='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'

check_full() { # what, the file named, mixprof args...
	local what=$1 file=$2 rc=0
	shift 2
	"$MIXPROF" -F 999 "$@" -- sh -c "$busy" >/dev/null 2>"$TMPD/err" ||
		rc=$?
	cat "$TMPD/err"
	[ $rc -eq 1 ] || die "$what: exit $rc on a full disk, want 1"
	[ "$(grep -c 'No space left on device' "$TMPD/err")" -eq 1 ] ||
		die "$what: ENOSPC not reported exactly once"
	grep -qxF "mixprof: $file: No space left on device" "$TMPD/err" ||
		die "$what: the message does not name $file"
	! grep -q "Input/output error" "$TMPD/err" || die "$what: EIO shown"
}

check_full "-o" "$full/out.folded" -o "$full/out.folded"
grep -q "samples in .*, 0 written (the output could not be written)" \
	"$TMPD/err" || die "-o: the summary claims lines it did not write"

check_full "-i" "$full/sl/slice-0000.folded" -i 0.2 -o "$full/sl"
grep -q ", 0 written (the output could not be written)" "$TMPD/err" ||
	die "-i: the summary claims lines it did not write"

rmdir "$full/sl" 2>/dev/null || rm -rf "$full/sl"
rm -f "$full/out.folded"
check_full "--svg" "$full/out.svg" --svg "$full/out.svg"
grep -q ", 0 written (the output could not be written)" "$TMPD/err" ||
	die "--svg: the summary claims a graph it did not write"

# a reader that left before the output: EPIPE, not death by SIGPIPE
set +o pipefail
"$MIXPROF" -F 999 -- sh -c "$busy" 2>"$TMPD/err" | true
rc=${PIPESTATUS[0]}
set -o pipefail
cat "$TMPD/err"
[ "$rc" -eq 0 ] || die "exit $rc with stdout closed, want 0"
grep -q "samples in .*, 0 written (stdout closed by its reader)" \
	"$TMPD/err" || die "no summary after stdout closed"
! grep -q "Broken pipe" "$TMPD/err" || die "a closed stdout reported as an error"
echo ok
