# Sourced by the corpus tests (real applications: javac, Tomcat, class
# churn) after common.sh: how whole and how named their stacks are, and,
# when not, why, in words a reader of the test's log can act on.

# corpus_awk: the awk functions both checks share. sample() reads a
# folded line (root first, "frame;...;frame count") into s and n and
# says whether it is one of the samples counted (its stack has a frame
# matching code), adding it to all; frames(s, from, to) is a stack's
# frames from..to, "..." marking what is left out; leaf(s) is its last
# user frame (kernel frames left out); reasons() prints the reasons
# counted in cnt[] (a stack each in eg[]), most samples first, each as
# a share of all, and the leaves most of its samples had (lf[]).
corpus_awk='
function sample() {
	n = $NF
	s = substr($0, 1, length($0) - length(n) - 1)
	if ($0 ~ /^#/ || s !~ code)
		return 0
	all += n
	return 1
}
function frames(s, from, to,   f, k, i, out) {
	k = split(s, f, ";")
	if (from < 1)
		from = 1
	out = from > 1 ? "...;" : ""
	for (i = from; i <= k && i <= to; i++)
		out = out (i > from ? ";" : "") f[i]
	if (k > to)
		out = out ";..."
	return length(out) > 900 ? substr(out, 1, 900) "..." : out
}
function leaf(s,   f, k) {
	k = split(s, f, ";")
	while (k > 1 && f[k] ~ /_\[k\]$/)
		k--
	return f[k]
}
function leaves(why,   w, best, i, out) {
	for (i = 0; i < 3; i++) {
		best = ""
		for (w in lf)
			if (index(w, why SUBSEP) == 1 && (best == "" || lf[w] > lf[best]))
				best = w
		if (best == "")
			break
		out = out (i ? ", " : "") substr(best, length(why) + 2) " " lf[best]
		delete lf[best]
	}
	return out
}
function reasons(   shown, best, w) {
	for (shown = 0; shown < 8; shown++) {
		best = ""
		for (w in cnt)
			if (best == "" || cnt[w] > cnt[best])
				best = w
		if (best == "")
			break
		printf "  %d (%.2f%%) %s, e.g.: %s\n", cnt[best], 100 * cnt[best] / all, best, eg[best]
		printf "    most at the leaf: %s\n", leaves(best)
		delete cnt[best]
	}
}'

# corpus_reach FOLDED CODE ROOT MIN LABEL: of the samples of FOLDED whose
# stack has a frame matching CODE (a POSIX extended regex), the share
# that has a frame matching ROOT. Prints one line of the share, then the
# reasons of the others, most samples first, each with its count and one
# stack: the first "[unwind: ...]" frame (the walker's own mark of where
# it stopped), else "Interpreter;[unknown]" or "[unknown]" (a frame it
# could not name, so may have walked past wrongly), else the frame the
# stack starts at (a walk that stopped without saying why). Fails when
# no sample matches CODE or the share is under MIN percent.
corpus_reach() {
	awk -v code="$2" -v root="$3" -v min="$4" -v label="$5" "$corpus_awk"'
	!sample() { next }
	s ~ root { whole += n; next }
	{
		if (match(s, /\[unwind: [^]]*\]/)) {
			why = substr(s, RSTART, RLENGTH)
			pre = substr(s, 1, RSTART)
			at = gsub(/;/, ";", pre) + 1
		} else if (s ~ /(^|;)Interpreter;\[unknown\]/) {
			why = "Interpreter;[unknown]"
			at = 40
		} else if (s ~ /(^|;)\[unknown\](;|$)/) {
			why = "[unknown]"
			at = 40
		} else {
			split(s, f, ";")
			why = "starts at " f[2]
			at = 1
		}
		cnt[why] += n
		lf[why, leaf(s)] += n
		if (!(why in eg))
			eg[why] = frames(s, 1, at + 8)
	}
	END {
		share = all ? 100 * whole / all : 0
		printf "%s: %.2f%% of %d samples in %s reach %s (at least %s%% wanted)\n", label, share, all, code, root, min
		reasons()
		exit !(all > 0 && share >= min)
	}' "$1"
}

# corpus_unresolved FOLDED CODE MAX LABEL: of the samples whose stack has
# a frame matching CODE, the share with a frame left unnamed: "[unknown]"
# (no symbol, no Java method) or a bare "Interpreter" (an interpreted
# frame whose method was not read). Prints the share, then the frames
# right above the first unnamed one, most samples first, with the
# stack around it. Fails when no sample matches CODE or the share is over
# MAX percent.
corpus_unresolved() {
	awk -v code="$2" -v max="$3" -v label="$4" "$corpus_awk"'
	!sample() { next }
	{
		k = split(s, f, ";")
		for (i = 2; i <= k; i++)
			if (f[i] == "[unknown]" || f[i] == "Interpreter")
				break
		if (i > k)
			next
		bad += n
		why = f[i] " under " f[i - 1]
		cnt[why] += n
		lf[why, leaf(s)] += n
		if (!(why in eg))
			eg[why] = frames(s, i - 4, i + 8)
	}
	END {
		share = all ? 100 * bad / all : 100
		printf "%s: %.2f%% of %d samples in %s with an unnamed frame (at most %s%% wanted)\n", label, share, all, code, max
		reasons()
		exit !(all > 0 && share <= max)
	}' "$1"
}

# Tomcat 10 as Debian installs it, for corpus_tomcat and corpus_oracle
HOME_TC=/usr/share/tomcat10
EXAMPLES=/usr/share/tomcat10-examples/examples
JSP=/examples/jsp/jsp2/el/basic-arithmetic.jsp

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

# tomcat_start JDK BASE [JVM OPTION...]: Tomcat on JDK from a CATALINA_BASE
# made in BASE, its JSP compiled, then under ab -c 4 until tomcat_stop;
# sets pid (Tomcat's JVM) and abpid, both in PIDS_TO_KILL.
tomcat_start() {
	local jdk=$1 base=$2 port url
	shift 2
	tomcat_base "$base"
	"$jdk/bin/java" "$@" -Dcatalina.home="$HOME_TC" \
		-Dcatalina.base="$base" -Djava.io.tmpdir="$base/temp" \
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
}

# tomcat_stop BASE: ab's figures checked (every request served), then
# Tomcat killed; both reaped.
tomcat_stop() {
	kill -INT "$abpid" # ab prints its figures on SIGINT
	wait "$abpid" || true
	grep -E '^(Complete|Failed|Non-2xx|Requests per)' "$1/ab" ||
		die "ab's load failed: $(tail -5 "$1/ab")"
	grep -q '^Non-2xx' "$1/ab" && die "requests failed: $(cat "$1/ab")"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	PIDS_TO_KILL=() # both reaped: their pids may be anyone's now
}

# jdk_src_zip JDK: the JDK's sources. Debian links lib/src.zip to where
# openjdk-N-source once put it; the package now puts it in lib/ of
# openjdk-N beside the JDK's home.
jdk_src_zip() {
	local z
	for z in "$1/lib/src.zip" \
		"$(dirname "$1")/openjdk-$(jdk_major "$1")/lib/src.zip"; do
		[ -r "$z" ] && { echo "$z"; return 0; }
	done
	return 1
}

# jdk_util_sources ZIP N DIR: the N smallest top-level sources of
# java/util from ZIP unpacked in DIR/src, their paths in DIR/files (a
# javac @file), DIR/out made for the classes. (sed, not head: head's
# early exit can kill sort with SIGPIPE, which pipefail and set -e made
# a silent failure of the whole test.)
jdk_util_sources() {
	local zip=$1 n=$2 dir=$3
	mkdir -p "$dir/out"
	unzip -l "$zip" 'java.base/java/util/*.java' |
		awk '$4 ~ /^java\.base\/java\/util\/[^\/]*\.java$/ { print $1, $4 }' |
		sort -n | sed -n "1,${n}p" | cut -d' ' -f2 >"$dir/names"
	[ "$(wc -l <"$dir/names")" -eq "$n" ] || die "fewer than $n sources of java/util in $zip"
	# shellcheck disable=SC2046 # one argument per file name
	unzip -q "$zip" $(cat "$dir/names") -d "$dir/src"
	sed "s|^|$dir/src/|" "$dir/names" >"$dir/files"
}
