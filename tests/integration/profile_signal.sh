#!/usr/bin/env bash
# SIGINT and SIGTERM end a run cleanly: the output is complete, no BPF
# program of ours stays loaded, kernel.perf_event_max_stack is as before
# (mixprof never changes it).
# Our programs are told from those of other runs by the prog_id lines in
# the running mixprof's /proc/PID/fdinfo.
. "$(dirname "$0")/../lib/common.sh"

max_before=$(cat /proc/sys/kernel/perf_event_max_stack)
ours() { # PID: the mixprof BPF programs it holds open (not libbpf's probes)
	local id
	for id in $(grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null |
		    awk '{ print $2 }' | sort -u); do
		bpftool prog show id "$id" 2>/dev/null |
			grep -qE 'name mixprof_(sample|fork)' && echo "$id"
	done
	return 0
}
has_ours() { [ -n "$(ours "$1")" ]; }

for sig in INT TERM; do
	out=$TMPD/$sig.folded
	"$MIXPROF" -F 499 -o "$out" 2>"$TMPD/err" &
	mp=$!
	wait_for 10 has_ours $mp || die "no BPF programs while running"
	sleep 1
	ids=$(ours $mp)
	[ "$(cat /proc/sys/kernel/perf_event_max_stack)" = "$max_before" ] ||
		die "perf_event_max_stack changed while running"
	kill -$sig $mp
	rc=0; wait $mp || rc=$?
	cat "$TMPD/err"
	[ $rc = 0 ] || die "SIG$sig: exit $rc"
	[ -s "$out" ] || die "SIG$sig: no output"
	total=$(awk '{ n += $NF } END { print n + 0 }' "$out")
	grep -q " $total written" "$TMPD/err" || die "SIG$sig: output incomplete"
	for id in $ids; do
		bpftool prog show id "$id" >/dev/null 2>&1 &&
			die "SIG$sig: program $id still loaded"
	done
	bpftool prog show | grep -E 'name mixprof_' || true	# other runs', if any
	[ "$(cat /proc/sys/kernel/perf_event_max_stack)" = "$max_before" ] ||
		die "SIG$sig: perf_event_max_stack changed"
done
echo ok
