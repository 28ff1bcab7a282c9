#!/usr/bin/env bash
# Every step of a run's start that fails names itself, its errno and its
# fix on one line. The open-files limit is raised one at a time from 8
# until a run starts: each file descriptor a start takes (a BPF map, a
# program, the ring, a perf event, a link) is in turn the one that
# fails, so the sweep walks the steps in order: the maps and programs
# of the load, the perf events and their links, the fork and exec hooks
# (and --off-cpu's sched_switch). Each failing run exits non-zero with
# "mixprof: cannot load|set up|open|attach WHAT: STRERROR (ENAME); fix: ...".
source "$(dirname "$0")/../lib/common.sh"

LINE='^mixprof: cannot (load|set up|open|attach) [^ ].*: [A-Z][^()]* \(E[A-Z0-9]+\); fix: [^ ].*$'
MAX=$((8 + 4 * $(nproc) + 120))

# sweep NAME ARGS...: mixprof ARGS under rising limits; the failure lines
# into $TMPD/NAME.lines; fails unless a run starts at last.
sweep() {
	local name=$1 n st line; shift
	: >"$TMPD/$name.lines"
	for ((n = 8; n <= MAX; n++)); do
		st=0
		(ulimit -n $n && exec "$MIXPROF" -q -p $$ -o /dev/null "$@" 0.1) \
			2>"$TMPD/err" || st=$?
		[ $st -eq 0 ] && { note "$name: starts with $n files"; return 0; }
		line=$(head -n 1 "$TMPD/err")
		[[ $line =~ $LINE ]] || die "$name, $n files: exit $st: $(cat "$TMPD/err")"
		[[ $line != *"()"* && $line != *"  "* ]] || die "$name: '$line'"
		echo "$line" >>"$TMPD/$name.lines"
	done
	die "$name: no start with up to $MAX files: $(cat "$TMPD/err")"
}

# has NAME REGEX: a failure line of the sweep matches REGEX
has() {
	grep -qE -- "$2" "$TMPD/$1.lines" ||
		{ cat "$TMPD/$1.lines"; die "$1: no line '$2'"; }
}

sweep cpu
sort -u "$TMPD/cpu.lines" | cut -c 1-110
has cpu "^mixprof: cannot load map '[a-z_]+' \\(sampler\\.bpf\\.o\\): Too many open files \\(EMFILE\\); fix: too many open files: ulimit -n"
has cpu "^mixprof: cannot load prog '[a-z_]+' \\((sampler|fork)\\.bpf\\.o\\)"
has cpu "^mixprof: cannot (open perf event (cycles|cpu-clock) on CPU [0-9]+ \\(for mixprof_sample\\)|attach mixprof_sample to perf event (cycles|cpu-clock) on CPU [0-9]+):"
has cpu "^mixprof: cannot attach mixprof_(fork to raw_tp/sched_process_fork|unwind_exec to raw_tp/sched_process_exec):"

sweep offcpu --off-cpu
has offcpu "^mixprof: cannot attach mixprof_offcpu to tp_btf/sched_switch: Too many open files \\(EMFILE\\)"
echo ok
