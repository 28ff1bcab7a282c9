#!/usr/bin/env bash
# mixprof -e ... -- java ...: the JVM is held at VMInit until the probes
# are in, so the calls from main's first lines are all counted (stacks and
# --count), and named, though the JVM lives a fraction of a second (it
# waits at exit for mixprof's last poll). A JVM that is not the launched
# process itself (a shell's child) is not held: a clear error.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"
source "$TOP/tests/fixtures/probe/eprobe.sh"

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	java=$jdk/bin/java
	"$MIXPROF" -e 'java:ProbeMain$First.work' -o "$TMPD/l.folded" \
		-- "$java" -cp "$PROBE_FIX" ProbeMain >"$TMPD/l.out" 2>"$TMPD/l.err" ||
		die "mixprof failed: $(cat "$TMPD/l.err")"
	grep -q '^done ' "$TMPD/l.out" || die "ProbeMain did not run"
	[ "$(total "$TMPD/l.folded")" = 5000 ] ||
		{ cat "$TMPD/l.folded" "$TMPD/l.err"; die "stacks: $(total "$TMPD/l.folded") calls, want 5000"; }
	# one stack, split by the tier each call ran in (_[0], _[1], _[j])
	[ "$(awk '/ProbeMain\.main_\[[01j]\];ProbeMain\$First\.work_\[[01j]\] [0-9]+$/ { n += $NF } END { print n + 0 }' "$TMPD/l.folded")" = 5000 ] ||
		{ cat "$TMPD/l.folded"; die "stack not named"; }
	no_jmap_lines "$TMPD/l.err"

	"$MIXPROF" -e 'java:ProbeMain$First.work' --count \
		-- "$java" -cp "$PROBE_FIX" ProbeMain >"$TMPD/c.out" 2>"$TMPD/c.err" ||
		die "mixprof --count failed: $(cat "$TMPD/c.err")"
	n=$(awk '$1 == "ProbeMain$First.work(I)I" { print $2 }' "$TMPD/c.out")
	[ "$n" = 5000 ] || { cat "$TMPD/c.out" "$TMPD/c.err"; die "--count: '$n', want 5000"; }
	no_jmap_lines "$TMPD/c.err"
	note "from launch: 5000 of 5000 calls, stacks and --count"
done

# a JVM started by the launched program is not held: probes reach the
# launched process only; a shell that forks its JVM ends the run with an
# error once the shell is gone, and the JVM runs to its end unheld
st=0
"$MIXPROF" -e 'java:ProbeMain$First.work' --count -- sh -c \
	"'$(command -v java)' -cp '$PROBE_FIX' ProbeMain; exit 0" \
	>"$TMPD/g.out" 2>"$TMPD/g.err" || st=$?
[ $st -eq 1 ] || die "mixprof via sh exited $st: $(cat "$TMPD/g.err")"
grep -q "ended before its agent answered" "$TMPD/g.err" || die "$(cat "$TMPD/g.err")"
grep -q '^done ' "$TMPD/g.out" || die "the JVM did not run"
note "grandchild JVM not held, clear error"
