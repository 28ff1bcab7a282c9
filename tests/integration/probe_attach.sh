#!/usr/bin/env bash
# Probes in a JVM started without the agent, after `mixprof attach`: the
# control socket starts with the agent, already loaded classes are
# retransformed, counts are exact, closing removes the probe. Then the
# socket file goes away with the JVM.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -cp "$PROBE_FIX" ProbeCalls
	jvm_go 1
	"$MIXPROF" attach "$pid" "dir=$TMPD" >/dev/null || die "attach failed"
	sock=$TMPD/.mixprof-jmap-$pid
	[ -S "$sock" ] || die "no control socket $sock"
	[ "$(stat -c %a "$sock")" = 600 ] || die "socket mode $(stat -c %a "$sock")"
	cli_start "$pid"
	cli 'probe ProbeCalls$Target.work(I)I' | grep -q '^ok 1 1$' ||
		die "probe after attach refused"
	jvm_go 2
	[ "$(count 'ProbeCalls$Target.work(I)I')" = 12345 ] || die "count"
	cli_close
	cli_none_left "$pid"
	exec 7>&-
	wait "$pid" || die "JVM failed"
	[ ! -e "$sock" ] || die "socket left after the JVM ended"
	no_jmap_lines "$TMPD/jvm.err"
	note "probe after attach: exact, removed, socket gone at exit"
done
