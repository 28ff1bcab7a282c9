# Sourced by bench scripts (not a bench: bench/run runs *.sh): shared helpers.

# prog_stats PID [PROG]: "run_time_ns run_cnt" of the program PROG
# (mixprof_sample) PID holds (found through its fds' fdinfo: this
# bpftool lists no owner pids)
prog_stats() {
	local id
	for id in $(grep -hs '^prog_id:' /proc/"$1"/fdinfo/* | awk '{print $2}' | sort -u); do
		bpftool prog show id "$id" -j 2>/dev/null | jq -r --arg n "${2:-mixprof_sample}" '
			select(.name == $n) |
			"\(.run_time_ns // 0) \(.run_cnt // 0)"'
	done | head -n 1
}

# bench_start: a scratch directory in $tmp, kernel.bpf_stats_enabled on
# for the run; at exit the processes in $load (one pid or a list) and in
# pids[] are killed, the setting restored and $tmp removed.
bench_start() {
	tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
	old_stats=$(sysctl -n kernel.bpf_stats_enabled)
	load=
	pids=()
	trap bench_cleanup EXIT
	sysctl -qw kernel.bpf_stats_enabled=1
}

# bench_bpf_own BIN: does BIN (a mixprof) print its BPF time in -v's
# own cost line (session 18 on)? Then it is read after the run, not
# watched beside it.
bench_bpf_own() { grep -qa 'its own cost' "$1"; }

# bench_bpf_line ERR: "run_time_ns runs" from -v's own cost line in the
# stderr file ERR (the sampling programs'), "0 0" without one
bench_bpf_line() {
	sed -n 's/.*; BPF \([0-9.]*\) ms in \([0-9]*\) runs.*/\1 \2/p' "$1" |
		awk '{ printf "%.0f %d\n", $1 * 1e6, $2 } END { if (!NR) print "0 0" }'
}

# bench_watch TIMEPID [PROG] [SECS]: the last "run_time_ns run_cnt" of
# PROG (mixprof_sample) held by the mixprof that /usr/bin/time TIMEPID
# runs, read every SECS (0.5) until it ends (its program goes with it;
# "0 0" if none came). bpftool and jq take CPU the target would have had:
# for builds without bench_bpf_own, and programs -v does not count apart.
bench_watch() {
	local mp last="0 0" s
	mp=$(child_of "$1") || { echo "$last"; return 0; }
	while kill -0 "$1" 2>/dev/null; do
		s=$(prog_stats "$mp" "${2:-mixprof_sample}" || true)
		[ -n "$s" ] && last=$s
		sleep "${3:-0.5}"
	done
	echo "$last"
}

# bench_measure ENV...: mixprof -v -p $load at $HZ for $SECS with ENV
# set; sets m_ns m_cnt (the sampling programs' BPF run time and runs,
# bench_bpf_line; a build without it, bench_watch), m_user m_sys (its CPU
# seconds), m_rss (peak KB), m_smp (samples); its stderr stays in
# $tmp/err, its profile in $tmp/out.folded
bench_measure() {
	local tp last="0 0"
	env "$@" /usr/bin/time -o "$tmp/time" -f '%U %S %M' \
		"$BUILD/mixprof" -v -F "$HZ" -p "$load" -o "$tmp/out.folded" "$SECS" \
		2>"$tmp/err" &
	tp=$!
	bench_bpf_own "$BUILD/mixprof" || last=$(bench_watch "$tp")
	wait "$tp" || { cat "$tmp/err" >&2; return 1; }
	bench_bpf_own "$BUILD/mixprof" && last=$(bench_bpf_line "$tmp/err")
	read -r m_ns m_cnt <<<"$last"
	read -r m_user m_sys m_rss <"$tmp/time"
	m_smp=$(sed -n 's/^mixprof: \([0-9]*\) samples in.*/\1/p' "$tmp/err")
	m_smp=${m_smp:-0}
}

# bench_run MODE ENV...: bench_measure, then a line "MODE bpf_ns bpf_runs
# user_s sys_s max_rss_kb samples" appended to $tmp/res
bench_run() {
	local mode=$1
	shift
	bench_measure "$@" || return 1
	echo "$mode $m_ns $m_cnt $m_user $m_sys $m_rss $m_smp" >>"$tmp/res"
}

# bench_javac DIR: javac_cmd, the JDK on PATH's javac compiling the 100
# smallest sources of java/util (its src.zip, as
# tests/integration/corpus_javac.sh) into DIR/out (remove it before each
# run), extracted to DIR; jdk, that JDK. Fails when there is no src.zip.
bench_javac() {
	local dir=$1 zip= z
	jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
	for z in "$jdk/lib/src.zip" "$(dirname "$jdk")/openjdk-$(java -XshowSettings:properties -version 2>&1 |
		sed -n 's/ *java.specification.version = //p')/lib/src.zip"; do
		[ -r "$z" ] && { zip=$z; break; }
	done
	[ -n "$zip" ] || return 1
	mkdir -p "$dir"
	unzip -l "$zip" 'java.base/java/util/*.java' |
		awk '$4 ~ /^java\.base\/java\/util\/[^\/]*\.java$/ { print $1, $4 }' |
		sort -n | head -100 | cut -d' ' -f2 >"$dir/names"
	# shellcheck disable=SC2046 # one argument per file name
	unzip -q "$zip" $(cat "$dir/names") -d "$dir/src"
	sed "s|^|$dir/src/|" "$dir/names" >"$dir/files"
	javac_cmd=("$jdk/bin/javac" -proc:none -implicit:none -Xmaxwarns 1
		--patch-module "java.base=$dir/src/java.base" -d "$dir/out" "@$dir/files")
}

# bench_tomcat DIR [JVM-OPTION...]: Debian's Tomcat 10 with its examples
# (as tests/integration/corpus_tomcat.sh), its base in DIR, on the JDK on
# PATH with the options, serving a JSP under ab -c 4 on loopback, 2 s
# warm: tpid (Tomcat, added to pids[] with ab). Fails, tomcat_why saying
# why, when it is not installed or did not start or serve.
bench_tomcat() {
	local b=$1 tc=/usr/share/tomcat10 port url
	shift
	if ! [ -d "$tc" ] || ! [ -d /usr/share/tomcat10-examples ] || ! command -v ab >/dev/null; then
		tomcat_why="not installed (Debian: tomcat10, tomcat10-examples, apache2-utils)"
		return 1
	fi
	mkdir -p "$b/conf" "$b/logs" "$b/temp" "$b/work" "$b/webapps"
	cp "$tc"/etc/{web.xml,catalina.properties,context.xml} "$b/conf/"
	cat >"$b/conf/server.xml" <<-XML
		<?xml version="1.0" encoding="UTF-8"?>
		<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina">
		<Connector port="0" address="127.0.0.1" protocol="HTTP/1.1" maxThreads="8"/>
		<Engine name="Catalina" defaultHost="localhost"><Host name="localhost"
		 appBase="webapps" unpackWARs="false" autoDeploy="false">
		<Context path="/examples" docBase="/usr/share/tomcat10-examples/examples">
		<JarScanner scanClassPath="false"/></Context></Host></Engine></Service></Server>
	XML
	java "$@" -Dcatalina.home="$tc" -Dcatalina.base="$b" -Djava.io.tmpdir="$b/temp" \
		-cp "$tc/bin/bootstrap.jar:$tc/bin/tomcat-juli.jar" \
		org.apache.catalina.startup.Bootstrap start >"$b/log" 2>&1 &
	tpid=$!
	pids+=("$tpid")
	for _ in $(seq 600); do
		grep -q 'Server startup in' "$b/log" && break
		kill -0 "$tpid" 2>/dev/null || break
		sleep 0.2
	done
	port=$(sed -n 's/.*Starting ProtocolHandler \["http-nio-127\.0\.0\.1-auto-[0-9]*-\([0-9]*\)"\].*/\1/p' "$b/log")
	url=http://127.0.0.1:$port/examples/jsp/jsp2/el/basic-arithmetic.jsp
	if [ -z "$port" ] || ! ab -q -n 200 "$url" >/dev/null 2>&1; then
		tomcat_why="did not start or serve"
		return 1
	fi
	ab -q -t 3600 -n 100000000 -c 4 "$url" >/dev/null 2>&1 &
	pids+=($!)
	sleep 2 # warm
}

bench_cleanup() {
	local p
	for p in $load "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	rm -rf "$tmp"
}

# soak_start: the soak scripts' scratch directory in $tmp; at exit the
# processes in pids[] are killed and $tmp removed.
soak_start() {
	tmp=$(mktemp -d /tmp/mixprof-soak.XXXXXX)
	pids=()
	trap soak_cleanup EXIT
}

soak_cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}

rss_mb() { # pid field: VmRSS or RssAnon in MB, or "-" once it is gone
	awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1024; f = 1 }
		END { if (!f) printf "-" }' "/proc/$1/status" 2>/dev/null ||
		printf -- -
}

# child_of PID: the pid of PID's child (a command under timeout), waiting
# up to 10 s for it on a loaded host; fails if none came
child_of() {
	local c
	for _ in $(seq 100); do
		c=$(pgrep -P "$1") && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}
