#!/usr/bin/env bash
# The command-line habits of perf, bcc and async-profiler: through a pty
# (script(1)), a start line, a live status line and, with stdout on a
# terminal, a top-N table instead of folded text; -q says nothing; the
# filters -I/-X/--thread/--tid on Ratio's known stacks; --version, -h and
# help; options after the duration.
source "$(dirname "$0")/../lib/common.sh"

# a busy process, so a host-wide run has samples on an idle machine: a
# tenth of a CPU (~20 samples a second at 199 Hz) until the host-wide
# runs are done, not a whole one for the whole test
sh -c 'while :; do :; done' &
busy=$!
PIDS_TO_KILL+=($busy)
cpu_cap "$busy" 10

# through a pty: stdout and stderr are the terminal. The status line comes
# at the first tick and then once a second by the clock, however a loaded
# machine stretches ticks.
script -qec "'$MIXPROF' -F 199 4" "$TMPD/tty.out" >/dev/null 2>&1 ||
	{ cat "$TMPD/tty.out"; die "mixprof on a pty failed"; }
grep -q 'mixprof: profiling the whole host (.*) at 199 Hz for 4 s; Ctrl-C to stop' "$TMPD/tty.out" ||
	die "no start line: $(head -3 "$TMPD/tty.out")"
grep -aq $'\r\033\\[K[0-9]* s, [0-9]* samples' "$TMPD/tty.out" || die "no live status line"
grep -q '^#  Self%  Total%  Frame' "$TMPD/tty.out" || die "no top-N table on a terminal"
grep -q ' written' "$TMPD/tty.out" || die "no summary"
# the last status line is cleared before the table
grep -aq $'\r\033\\[K# [0-9]* samples, [0-9]* stacks' "$TMPD/tty.out" ||
	die "status line not cleared before the table"

# not a terminal: folded text, the start line, no status line
"$MIXPROF" -F 199 1 >"$TMPD/plain.folded" 2>"$TMPD/plain.err" || die "plain run"
grep -q 'mixprof: profiling the whole host' "$TMPD/plain.err" || die "no start line off a terminal"
grep -q $'\033' "$TMPD/plain.err" && die "status line written to a file"
grep -q ' [0-9]*$' "$TMPD/plain.folded" || die "no folded text to a file"
"$MIXPROF" -q -F 199 1 -o "$TMPD/q.folded" 2>"$TMPD/q.err" || die "-q run"
# -q keeps warnings (-h): a perf map another test plants beside this one
# (harden_perfmap's FIFO) is warned about; nothing else may show
grep -v '^mixprof: [^ ]*/perf-[0-9]*\.map: ' "$TMPD/q.err" >"$TMPD/q.rest" || true
[ ! -s "$TMPD/q.rest" ] || die "-q printed: $(cat "$TMPD/q.rest")"
[ -s "$TMPD/q.folded" ] || die "-q wrote nothing"
kill "$busy"

# filters on known stacks
# (a minute: it is killed when the filters are done; a loaded machine
# stretches the runs below)
java -cp "$SAMPLES" Ratio 60 >"$TMPD/ready" &
pid=$!
PIDS_TO_KILL+=($pid)
cpu_cap "$pid" 30 # ~150 samples a run below: what the filters keep, not how many
wait_for 10 grep -qs ready "$TMPD/ready" || die "Ratio did not start"
sleep 1
# -I, -X and --thread at the same time: three runs of the same JVM
"$MIXPROF" -F 499 -p $pid 1 -I 'Ratio\.one_' -o "$TMPD/inc.folded" 2>/dev/null &
inc=$!
"$MIXPROF" -F 499 -p $pid 1 -X 'Ratio\.one_' -o "$TMPD/exc.folded" 2>"$TMPD/exc.err" &
exc=$!
"$MIXPROF" -F 499 -p $pid 1 --thread '^ratio-worker$' -o "$TMPD/thr.folded" 2>/dev/null &
thr=$!
PIDS_TO_KILL+=($inc $exc $thr)
wait $inc || die "-I run"
wait $exc || die "-X run"
wait $thr || die "--thread run"
[ -s "$TMPD/inc.folded" ] || die "-I kept nothing"
grep -v 'Ratio\.one_' "$TMPD/inc.folded" && die "-I kept a stack without Ratio.one"
grep -q 'Ratio\.one_' "$TMPD/exc.folded" && die "-X kept a stack with Ratio.one"
grep -q 'Ratio\.two_' "$TMPD/exc.folded" || die "-X dropped Ratio.two too"
grep -q 'samples left out by -I/-X' "$TMPD/exc.err" || die "no count of filtered samples"
[ -s "$TMPD/thr.folded" ] || die "--thread kept nothing"
cut -d';' -f2 "$TMPD/thr.folded" | grep -v '^ratio-worker \[[0-9]*\]$' && die "--thread kept another thread"
tid=$(cut -d';' -f2 "$TMPD/thr.folded" | sed -n '1s/.*\[\([0-9]*\)\]$/\1/p')
"$MIXPROF" -F 499 -p $pid 1 --tid "$tid" -o "$TMPD/tid.folded" 2>/dev/null || die "--tid run"
[ "$(cut -d';' -f2 "$TMPD/tid.folded" | sort -u)" = "ratio-worker [$tid]" ] ||
	die "--tid $tid: $(cut -d';' -f2 "$TMPD/tid.folded" | sort -u | head -3)"
st=0; "$MIXPROF" -I '(' 1 2>"$TMPD/e" || st=$?
[ $st = 2 ] && grep -q "^mixprof: -I '('" "$TMPD/e" || die "bad regex: status $st, $(cat "$TMPD/e")"
kill $pid

# --version, -h, help
"$MIXPROF" --version | grep -q '^mixprof [0-9]' || die "--version"
"$MIXPROF" -V | grep -q '^mixprof [0-9]' || die "-V"
"$MIXPROF" -h | grep '^Usage: mixprof' >/dev/null || die "-h" # all read: no SIGPIPE
"$MIXPROF" help | grep '^Usage: mixprof' >/dev/null || die "help"
"$MIXPROF" help montage | grep -q '^usage: mixprof montage' || die "help montage"
"$MIXPROF" help montage | grep -q -- '--output' && die "montage help lists -o"
st=0; "$MIXPROF" help nope 2>/dev/null || st=$?
[ $st = 2 ] || die "help nope: status $st"
st=0; "$MIXPROF" flamegraph --bogus 2>"$TMPD/e" >/dev/null || st=$?
[ $st = 2 ] && grep -q "^mixprof: unrecognized option '--bogus'" "$TMPD/e" ||
	die "subcommand error prefix: $(head -1 "$TMPD/e")"
echo ok
