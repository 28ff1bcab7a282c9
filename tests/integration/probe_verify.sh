#!/usr/bin/env bash
# Entry probes on every method of odd-shaped classes (java:Odd*.*: switch
# alignments, handlers, loops back to pc 0, goto_w, constructors with
# super args, lambdas, records, enums, interfaces), under -Xverify:all on
# every JDK we test:
#  - classes loaded after the probe (ClassFileLoadHook) and loaded before
#    it (RetransformClasses) both verify and give the uninstrumented
#    results; counts are exact (ROUNDS = 1000 calls per run);
#  - closing the client, or SIGKILLing it, removes every probe: status
#    says 0 and no instrumented code is left (the stray-call counter of
#    removed sites stays put while the workload runs again).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

check_counts() { # RUNS
	local n=$(($1 * 1000)) m want
	for m in 'OddShapes.loopAtZero(I)I' 'OddShapes.table2(JI)I' \
		'OddShapes.lookup1(II)I' 'OddShapes.handlers(I)I' \
		'OddLong.big(I)J' 'OddMain.round(I)J' \
		'OddTypes$OddChild.<init>(Ljava/lang/String;)V'; do
		[ "$(count "$m")" = "$n" ] || die "$m: $(count "$m") calls, want $n"
	done
	want=$((2 * n)) m='OddTypes$OddChild.<init>(ILjava/lang/String;)V'
	[ "$(count "$m")" = "$want" ] || die "$m: $(count "$m"), want $want"
}

status() { cli status | grep '^ok'; }

# check_jdk JDK: the probes on one JDK (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $(jdk_name "$jdk")"
	ref=$("$jdk/bin/java" -cp "$PROBE_FIX" OddMain) || die "reference run"
	jvm_start jvm "$jdk/bin/java" -Xverify:all \
		-agentpath:"$AGENT=dir=$TMPD" -cp "$PROBE_FIX" OddMain wait

	note "probe before the classes load: ClassFileLoadHook"
	cli_start "$pid"
	cli 'probe java:Odd*.* wait' | grep -q '^ok 1 ' || die "probe refused"
	jvm_go 1
	[ "$(sed -n 1p "$TMPD/jvm.out")" = "$ref" ] || die "results changed"
	check_counts 1
	jvm_go 2
	check_counts 2
	sites=$(status | cut -d' ' -f3)
	[ "$sites" -ge 50 ] || die "only $sites sites"
	note "$sites methods probed, counts exact"
	cli_close

	note "after close: nothing left"
	cli_start "$pid"
	read -r _ np ns strays <<<"$(status)"
	[ "$np $ns" = "0 0" ] || die "probes left after close: $np $ns"
	jvm_go 3
	[ "$(status)" = "ok 0 0 $strays" ] || die "instrumented code left: $(status)"

	note "probe loaded classes: RetransformClasses"
	out=$(cli 'probe java:Odd*.*')
	[[ "$out" == "ok "*" $sites" ]] || die "retransform probe: $out"
	jvm_go 4
	[ "$(sed -n 4p "$TMPD/jvm.out")" = "$ref" ] || die "results changed"
	check_counts 1
	note "SIGKILL the client"
	kill -9 "$cli"; wait "$cli" 2>/dev/null || true; exec 8>&-
	cli_start "$pid"
	wait_for 10 grep -q '^ok 0 0' <(status) || die "probes left after kill"
	read -r _ np ns strays <<<"$(status)"
	jvm_go 5
	[ "$(status)" = "ok 0 0 $strays" ] || die "instrumented code left: $(status)"
	cli_close
	exec 7>&-
	wait "$pid" || die "JVM failed"
	grep -q VerifyError "$TMPD/jvm.err" && die "VerifyError"
	no_jmap_lines "$TMPD/jvm.err"
	note "removed on close and on SIGKILL; no VerifyError"
}

each_jdk check_jdk
