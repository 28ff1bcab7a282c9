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
# measure 99.8-100% and 0-0.28% (the README says what still breaks; a
# run under load has a few hundred samples, one of which is 0.3%);
# when not, the break reasons are
# printed with their counts and a stack each. Tomcat is killed on every
# path (common.sh's PIDS_TO_KILL): only ours.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/corpus.sh"

HOME_TC=/usr/share/tomcat10
EXAMPLES=/usr/share/tomcat10-examples/examples
JSP=/examples/jsp/jsp2/el/basic-arithmetic.jsp
REQ='(^|;)http-nio-[^;]*-exec-[0-9]+ \['

# tomcat_base DIR: a CATALINA_BASE of our own. Port 0: the kernel picks a
# free one, which Tomcat logs; only the webapp's own jars are scanned for
# TLDs (the class path's are not: seconds of start-up, no TLD in them).
tomcat_base() {
	mkdir -p "$1/conf" "$1/logs" "$1/temp" "$1/work" "$1/webapps"
	cp "$HOME_TC"/etc/{web.xml,catalina.properties,context.xml} "$1/conf/"
	cat >"$1/conf/server.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="0" address="127.0.0.1" protocol="HTTP/1.1"
               maxThreads="8"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" unpackWARs="false"
            autoDeploy="false">
        <Context path="/examples" docBase="$EXAMPLES">
          <JarScanner scanClassPath="false"/>
        </Context>
      </Host>
    </Engine>
  </Service>
</Server>
EOF
}

# tomcat_done LOG PID: Tomcat started, or will not (its JVM is gone).
tomcat_done() {
	grep -q 'Server startup in' "$1" || ! kill -0 "$2" 2>/dev/null
}

tomcat_port() {
	sed -n 's/.*Starting ProtocolHandler \["http-nio-127\.0\.0\.1-auto-[0-9]*-\([0-9]*\)"\].*/\1/p' "$1"
}

# check_jdk JDK: Tomcat on one JDK (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1 failed=
	major=$(jdk_major "$jdk")
	note "JDK $jdk ($major)"
	base=$TMPD/tomcat-$major
	tomcat_base "$base"
	"$jdk/bin/java" -Dcatalina.home="$HOME_TC" -Dcatalina.base="$base" \
		-Djava.io.tmpdir="$base/temp" \
		-cp "$HOME_TC/bin/bootstrap.jar:$HOME_TC/bin/tomcat-juli.jar" \
		org.apache.catalina.startup.Bootstrap start >"$base/log" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 120 tomcat_done "$base/log" "$pid" &&
		grep -q 'Server startup in' "$base/log" ||
		die "Tomcat did not start: $(tail -20 "$base/log")"
	port=$(tomcat_port "$base/log")
	[ -n "$port" ] || die "no port in Tomcat's log: $(tail -20 "$base/log")"
	url=http://127.0.0.1:$port$JSP
	# the JSP compiled (Jasper's first request) before the load starts
	ab -q -n 4 "$url" >"$base/ab0" 2>&1 || die "ab failed: $(cat "$base/ab0")"
	grep -q '^Non-2xx' "$base/ab0" && die "the JSP failed: $(cat "$base/ab0")"
	ab -q -t 3600 -n 100000000 -c 4 "$url" >"$base/ab" 2>&1 &
	abpid=$!
	PIDS_TO_KILL+=($abpid)
	"$MIXPROF" -p "$pid" -F 999 --per-thread -o "$base/folded" 5 \
		2>"$base/err" || die "mixprof failed: $(cat "$base/err")"
	kill -INT "$abpid" # ab prints its figures on SIGINT
	wait "$abpid" || true
	grep -E '^(Complete|Failed|Non-2xx|Requests per)' "$base/ab" ||
		die "ab's load failed: $(tail -5 "$base/ab")"
	grep -q '^Non-2xx' "$base/ab" && die "requests failed: $(cat "$base/ab")"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	PIDS_TO_KILL=() # both reaped: their pids may be anyone's now
	grep '^mixprof:  ' "$base/err"
	corpus_reach "$base/folded" "$REQ" 'java/lang/Thread\.run_\[' 99.5 \
		"Tomcat request threads on JDK $major" || failed=1
	corpus_unresolved "$base/folded" "$REQ" 0.5 \
		"Tomcat request threads on JDK $major" || failed=1
	[ -z "$failed" ] || die "Tomcat's stacks not whole or not named on JDK $major"
}

each_jdk check_jdk
echo ok
