#!/usr/bin/env bash
# The probe control connection on every JDK we test:
#  - a method called a known number of times: counts equal it exactly;
#  - JDK methods (java.base, a named module) can be probed, dotted or
#    slashed, with a signature;
#  - bad patterns and patterns matching nothing give clear errors;
#  - a second client is turned away while one holds the probes; another
#    user (not root, not the JVM's) is refused;
#  - after the client closes everything is removed and a new client
#    starts clean (status 0, no stray calls).
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

expect() { # REQUEST REGEX
	local out
	out=$(cli "$1")
	grep -Eq "$2" <<<"$out" || die "'$1' gave '$out', want /$2/"
}

for jdk in $(jdks); do
	note "JDK $(jdk_name "$jdk")"
	jvm_start jvm "$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD" \
		-cp "$PROBE_FIX" ProbeCalls
	cli_start "$pid"
	expect 'probe java:ProbeCalls$Target.work(I)I wait' '^ok 1 0$'
	expect 'probe java.util.ArrayList.add(Ljava/lang/Object;)' '^ok 2 1$'
	expect 'probe java/lang/StringBuilder.append(C)*' '^ok 3 3$' # 2 bridges
	expect list '^3 3 count java/lang/StringBuilder.append\(C\)\*$'
	jvm_go 1
	jvm_go 2
	n=$(count 'ProbeCalls$Target.work(I)I')
	[ "$n" = 24690 ] || die "Target.work: $n calls, want 24690"
	n=$(count 'java/util/ArrayList.add(Ljava/lang/Object;)Z')
	[ "$n" -ge 24690 ] || die "ArrayList.add: $n calls"
	n=$(count 'java/lang/StringBuilder.append(C)Ljava/lang/StringBuilder;')
	[ "$n" -ge 24690 ] || die "StringBuilder.append: $n calls"
	note "exact counts, JDK methods probed"

	expect 'probe java:Nope.nothing' "^error no loaded method matches 'java:Nope.nothing'"
	expect 'probe java:ProbeCalls' "^error bad pattern 'java:ProbeCalls': expected CLASS.METHOD"
	expect 'probe Foo.bar(int)' "^error bad pattern 'Foo.bar\(int\)': signature must be"
	expect 'probe A.b flames' "^error unknown flag 'flames'"
	expect 'frobnicate' "^error unknown command 'frobnicate'"
	expect 'probe java:Later.m wait' '^ok 5 0$' # ids are never reused
	expect status '^ok 4 5 '
	note "errors are clear"

	out=$("$PROBE_CLI" "$pid" "$TMPD" </dev/null 2>&1 || true)
	[ "$out" = "connect: Device or resource busy" ] || die "second client: $out"
	chmod 755 "$TMPD"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PROBE_CLI" "$pid" "$TMPD" </dev/null 2>&1 || true)
	[[ "$out" == "connect: Permission denied" ]] || die "other user: $out"
	note "second client busy, other user refused"

	cli_close
	cli_start "$pid"
	read -r _ np ns strays <<<"$(cli status)"
	[ "$np $ns" = "0 0" ] || die "probes left after close: $np $ns"
	jvm_go 3
	[ "$(cli status | head -1)" = "ok 0 0 $strays" ] || die "probe code left"
	expect 'probe java:ProbeCalls$Target.work' '^ok 6 1$'
	jvm_go 4
	[ "$(count 'ProbeCalls$Target.work(I)I')" = 12345 ] || die "second session"
	note "a new client starts clean"
	cli_close
	exec 7>&-
	wait "$pid" || die "JVM failed"
	no_jmap_lines "$TMPD/jvm.err"
done
