#!/usr/bin/env bash
# mixprof attach to a JVM in a container-like sandbox: new pid and mount
# namespaces, a private /tmp (tmpfs) and the build directory hidden. The
# attach is by host pid; the socket and trigger names use the pid inside
# (NStgid); the agent, invisible inside, is copied into the private /tmp;
# the map appears there as perf-<nspid>.map, and not in the host's /tmp.
# Once as root, once with the JVM run by nobody inside.
source "$(dirname "$0")/attach_workload.sh"
attach_workload_build

# java_below PID: the first process named java among PID's descendants.
java_below() {
	local p
	for p in $(pgrep -P "$1"); do
		if [ "$(cat "/proc/$p/comm")" = java ]; then
			echo "$p"
			return
		fi
		java_below "$p"
	done
}

# start_boxed NAME JDK [RUNAS...]: the workload in the sandbox; its classes
# are copied into the private /tmp (the host's /tmp is gone in there).
# Sets JVM_PID (host pid), NSPID, JVM_LOG, BOX_TMP.
start_boxed() {
	local name=$1 jdk=$2 box; shift 2
	JVM_LOG=$TMPD/$name.log
	cd "$CLASSES"
	unshare --pid --fork --kill-child --mount --mount-proc --propagation private \
		sh -c 'jdk=$1; shift
			mount -t tmpfs -o mode=1777 box /tmp &&
			{ [ ! -d "$0" ] || mount -t tmpfs box "$0"; } &&
			mkdir /tmp/classes && cp *.class /tmp/classes/ &&
			chmod -R a+rX /tmp/classes && cd /tmp/classes &&
			"$@" "$jdk/bin/java" -XX:+PrintCompilation -cp /tmp/classes \
				AttachWork /tmp/go' "$BUILD" "$jdk" "$@" \
		>"$JVM_LOG" 2>&1 &
	box=$!
	PIDS_TO_KILL+=("$box")
	cd "$TMPD"
	wait_for 20 grep -qs 'AttachWork::early' "$JVM_LOG" ||
		die "$name: sandboxed JVM did not start: $(tail -5 "$JVM_LOG")"
	JVM_PID=$(java_below "$box")
	[ -n "$JVM_PID" ] || die "$name: no sandboxed JVM found"
	PIDS_TO_KILL+=("$JVM_PID")
	NSPID=$(awk '/^NStgid:/ { print $NF }' "/proc/$JVM_PID/status")
	BOX_TMP=/proc/$JVM_PID/root/tmp
	[ "$NSPID" != "$JVM_PID" ] || die "$name: not in a new pid namespace"
	[ ! -e "$BOX_TMP/$(basename "$TMPD")" ] || die "$name: /tmp not private"
	[ ! -e "/proc/$JVM_PID/root$AGENT" ] || die "$name: agent not hidden"
}

for jdk in $(jdks); do
	v=$(basename "$jdk")
	for user in root nobody; do
		note "== $v as $user"
		if [ $user = root ]; then
			start_boxed "$v-$user" "$jdk"
		else
			start_boxed "$v-$user" "$jdk" \
				setpriv --reuid=nobody --regid=nogroup --clear-groups
		fi
		uid=$(id -u $user)
		rm -f "/tmp/perf-$NSPID.map"
		"$MIXPROF" attach "$JVM_PID" >"$TMPD/out" || die "attach failed"
		map=$BOX_TMP/perf-$NSPID.map
		grep -q "^mixprof: attached to JVM $JVM_PID; map: $map\$" "$TMPD/out" ||
			die "unexpected output: $(cat "$TMPD/out")"
		[ -s "$map" ] || die "no $map"
		[ "$(stat -c %u "$map")" = "$uid" ] || die "$map not owned by $user"
		[ ! -e "/tmp/perf-$NSPID.map" ] || die "map leaked into the host /tmp"
		[ "$(stat -c %u:%a "$BOX_TMP/mixprof-libjmap-$uid.so")" = "$uid:644" ] ||
			die "agent copy: $(ls -l "$BOX_TMP")"
		grep -q ' AttachWork\.early$' "$map" || die "early() not in $map"

		"$MIXPROF" attach "$JVM_PID" >/dev/null || die "second attach failed"
		touch "$BOX_TMP/go"
		wait_for 20 grep -q ' AttachWork\.late$' "$map" ||
			die "late() not in $map"
		map_ok "$map"
		jvm_works "$JVM_PID" "$JVM_LOG"
		! ls -a "$BOX_TMP" /proc/$JVM_PID/cwd/ | grep -q '^\.attach_pid' ||
			die "trigger file left behind"
		kill "$JVM_PID"
	done
done
note "attach_container: ok"
