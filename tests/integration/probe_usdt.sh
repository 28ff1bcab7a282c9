#!/usr/bin/env bash
# The stack probe's static side: libjmap.so carries the USDT note
# jmap:method_entry (what mixprof attaches to with libbpf), still exports
# only Agent_*, and a probe added with "stacks" is listed as such and
# still counts (firing the USDT with no tracer attached costs a nop).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

notes=$(readelf -n "$AGENT")
grep -q 'stapsdt' <<<"$notes" || die "no stapsdt note in $AGENT"
grep -A3 'Provider: jmap' <<<"$notes" | grep -q 'Name: method_entry' ||
	die "no jmap:method_entry USDT probe"
syms=$(nm -D --defined-only "$AGENT" | awk '{ print $3 }' | sort | tr '\n' ' ')
[ "$syms" = "Agent_OnAttach Agent_OnLoad Agent_OnUnload " ] ||
	die "exports: $syms"
note "USDT jmap:method_entry present; exports: $syms"

jdk=$(jdks | sed -n 1p)
jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD" \
	-cp "$PROBE_FIX" ProbeCalls
cli_start "$pid"
cli 'probe java:ProbeCalls$Target.work stacks wait' | grep -q '^ok 1 0$' ||
	die "stacks probe refused"
jvm_go 1
cli list | grep -q '^1 1 stacks java:ProbeCalls\$Target.work$' ||
	die "list: $(cli list)"
[ "$(count 'ProbeCalls$Target.work(I)I')" = 12345 ] || die "stacks count"
grep -q '/libjmap.so$' "/proc/$pid/maps" || die "agent not mapped"
cli_close
exec 7>&-
wait "$pid" || die "JVM failed"
no_jmap_lines "$TMPD/jvm.err"
note "stacks probe counts exactly"
