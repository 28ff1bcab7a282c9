#!/usr/bin/env bash
# A real server profiled as it runs: Debian's Tomcat 10 (its own
# Bootstrap, no JVM flag) from a private CATALINA_BASE (a free port on
# 127.0.0.1, no shutdown port, the examples webapp of tomcat10-examples),
# serving a JSP under ab -c 4 on loopback, mixprof -p at 999 Hz with
# --per-thread, on every JDK. Of the request threads' samples
# (http-nio-...-exec-N: NIO poller to Coyote, the filter chain, Jasper's
# compiled JSP, EL evaluation), >= 99.5% must reach java/lang/Thread.run
# (their thread's root: Tomcat's pool threads are platform threads) and
# <= 0.5% have an unnamed frame. The issue's aim is 99.5% and none: we
# measure 99.8-100% and 0-0.28% (the README says what still breaks), of
# at least 700 samples: runs of 2.5 s until there are (a single run of
# 5 s under load had a few hundred, one of them 0.3%); when not, the
# break reasons are printed with their counts and a stack each. Tomcat is killed on every
# path (common.sh's PIDS_TO_KILL): only ours.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/corpus.sh"

REQ='(^|;)http-nio-[^;]*-exec-[0-9]+ \['

# check_jdk JDK: Tomcat on one JDK (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1 failed= run n
	major=$(jdk_major "$jdk")
	note "JDK $jdk ($major)"
	base=$TMPD/tomcat-$major
	tomcat_start "$jdk" "$base"
	# runs of 2.5 s on the same Tomcat, their stacks together, until
	# the request threads have 700 samples (one sample 0.14%; one run on
	# a quiet machine: ~800 on JDK 17, ~1,000 on 25), four at most: a
	# single 5 s run under load had a few hundred, one of them 0.3%
	: >"$base/folded"
	for run in 1 2 3 4; do
		"$MIXPROF" -p "$pid" -F 999 --per-thread -o "$base/run.folded" \
			2.5 2>"$base/err" || die "mixprof failed: $(cat "$base/err")"
		grep '^mixprof:  ' "$base/err"
		cat "$base/run.folded" >>"$base/folded"
		n=$(awk -v code="$REQ" '$0 ~ code { n += $NF } END { print n + 0 }' \
			"$base/folded")
		note "run $run: $n samples of the request threads"
		[ "$n" -lt 700 ] || break
	done
	tomcat_stop "$base"
	corpus_reach "$base/folded" "$REQ" 'java/lang/Thread\.run_\[' 99.5 \
		"Tomcat request threads on JDK $major" || failed=1
	corpus_unresolved "$base/folded" "$REQ" 0.5 \
		"Tomcat request threads on JDK $major" || failed=1
	[ -z "$failed" ] || die "Tomcat's stacks not whole or not named on JDK $major"
}

each_jdk check_jdk
echo ok
