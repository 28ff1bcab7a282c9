#!/usr/bin/env bash
# Probes on code that is hot when they come and go: threads loop over a
# method that C2 has compiled inline into them (OSR).
#  - every call made after the agent acknowledged the probe is counted
#    (the old compiled callers are deoptimized before the reply);
#  - after the client leaves, the threads run on without reaching the
#    removed site (the stray count stops growing).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

M='ProbeHot$Target.work(I)I'

# hot_start JAVA: ProbeHot with two threads, warmed up.
hot_start() {
	jvm_start jvm "$1" -agentpath:"$AGENT=dir=$TMPD" -cp "$PROBE_FIX" \
		ProbeHot 2
	wait_for 60 grep -q '^ready' "$TMPD/jvm.out" ||
		die "ProbeHot not ready: $(cat "$TMPD/jvm.err")"
}

# hot_stop: stop the threads; prints "TOTAL AFTER" (calls in all, after
# the mark).
hot_stop() {
	echo stop >&7
	wait_for 60 grep -q '^total ' "$TMPD/jvm.out" || die "ProbeHot did not stop"
	sed -n 's/^total \([0-9]*\) after \([0-9]*\)$/\1 \2/p' "$TMPD/jvm.out"
}

# strays: the agent's count of calls to removed sites.
strays() {
	cli status | sed -n 's/^ok 0 0 \([0-9]*\)$/\1/p'
}

# check_jdk JDK: probes on one JDK's hot method (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $(jdk_name "$jdk")"
	hot_start "$jdk/bin/java"
	cli_start "$pid"
	cli "probe java:ProbeHot\$Target.work" | grep -q '^ok 1 1$' || die "probe refused"
	echo mark >&7
	sleep 0.3
	r=$(hot_stop)
	read -r all after <<<"$r"
	n=$(count "$M")
	[ "$n" -ge "$after" ] && [ "$n" -le "$all" ] ||
		die "counted $n: want $after (calls after the mark) to $all"
	cli_close
	cli_start "$pid" # waits for the removal
	cli_close
	echo >&7
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "added while hot: $n counted, $after made after the probe was in"

	hot_start "$jdk/bin/java"
	cli_start "$pid"
	cli "probe java:ProbeHot\$Target.work" | grep -q '^ok 1 1$' || die "probe refused"
	sleep 0.2
	cli_close # removed while the threads run
	cli_start "$pid"
	s1=$(strays)
	sleep 0.3
	s2=$(strays)
	[ -n "$s1" ] && [ "$s1" = "$s2" ] || die "strays after removal: '$s1', then '$s2'"
	cli_close
	echo mark >&7
	hot_stop >/dev/null
	echo >&7
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
	note "removed while hot: no call reaches the probe afterwards"
}

each_jdk check_jdk
