#!/usr/bin/env bash
# Options at launch: a bad option stops the JVM before main with one clear
# "jmap:" line naming it; "help" lists the options and stops it too; good
# options start it. On every JDK.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"

# refused OPTIONS MESSAGE: the JVM must not start and must say MESSAGE.
refused() {
	local rc=0
	"$java" -agentpath:"$AGENT=$1" -cp "$SAMPLES" Ratio 1 \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	[ "$rc" -ne 0 ] || die "'$1': JVM started anyway"
	! grep -q ready "$TMPD/out" || die "'$1': workload ran"
	grep -qxF "jmap: $2" "$TMPD/err" ||
		{ cat "$TMPD/err" >&2; die "'$1': no 'jmap: $2'"; }
	note "'$1' -> exit $rc, 'jmap: $2'"
}

for jdk in $(jdks); do
	java=$jdk/bin/java
	note "JDK $(jdk_name "$jdk")"
	refused foo "unknown option 'foo' (try 'help')"
	refused unfoldall "unknown option 'unfoldall' (try 'help')"
	refused inline=maybe "option 'inline': bad value 'maybe' (want on or off)"
	refused dotted,dotted "option 'dotted' given twice"
	refused dotted, "empty option in 'dotted,'"
	refused dir=relative "option 'dir': 'relative' is not absolute"
	refused help "  noinline       same as inline=off"
	grep -q 'jmap:   jitdump' "$TMPD/err" || die "help lacks jitdump"

	"$java" -agentpath:"$AGENT=dir=$TMPD,stubs=off,inline=on" \
		-cp "$SAMPLES" Ratio 1 >"$TMPD/out" 2>"$TMPD/err" ||
		die "good options refused"
	no_jmap_lines "$TMPD/err"
	! grep -q ' Interpreter$' "$TMPD"/perf-*.map || die "stubs=off ignored"
	rm -f "$TMPD"/perf-*.map
	note "good options accepted; stubs=off leaves stubs out"
done
echo "PASS"
