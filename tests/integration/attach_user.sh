#!/usr/bin/env bash
# mixprof attach to a JVM run by another user (nobody): mixprof takes on
# the JVM's uid/gid for the attach (HotSpot checks its peer), the trigger
# file goes to /tmp when the JVM's working directory is not writable by
# it, and the map belongs to that user. The JVM's own user can attach too.
# An agent that user cannot read is copied into /tmp for it.
source "$(dirname "$0")/attach_workload.sh"
attach_workload_build
copy=/tmp/mixprof-libjmap-$(id -u nobody).so
trap 'rm -f "$copy"; attach_cleanup' EXIT
rm -f "$copy"

# (not for background jobs: $! would be the subshell running the function)
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# no_stale_map PID: a map of an earlier process with PID, root's (pids
# wrap at 32768 here: a test beside this one ran a JVM as root under the
# same pid once), is not this JVM's: the agent rightly refuses to write
# into it, so it goes before the attach (nothing has written this JVM's
# map yet: only the agent does)
no_stale_map() {
	local f=/tmp/perf-$1.map
	[ -e "$f" ] || return 0
	note "a stale $f of $(stat -c %U "$f"), removed"
	rm -f "$f"
}

for jdk in $(jdks); do
	v=$(basename "$jdk")
	note "== $v"
	cd "$TMPD"	# root's, not writable by nobody
	as_nobody true	# (setpriv works)
	JVM_LOG=$TMPD/$v.log JVM_TRIGGER=$TMPD/$v.go
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$jdk/bin/java" -XX:+PrintCompilation -cp "$CLASSES" \
		AttachWork "$JVM_TRIGGER" >"$JVM_LOG" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -qs 'AttachWork::early' "$JVM_LOG" || die "JVM did not start"
	[ "$(stat -c %U "/proc/$pid")" = nobody ] || die "JVM not run by nobody"
	no_stale_map "$pid"

	"$MIXPROF" attach "$pid" >/dev/null || die "attach as root failed"
	map=/tmp/perf-$pid.map
	[ -s "$map" ] || die "no $map"
	[ "$(stat -c %U:%G "$map")" = nobody:nogroup ] ||
		die "$map belongs to $(stat -c %U:%G "$map")"
	grep -q ' AttachWork\.early$' "$map" || die "early() not in the map"

	# again, as root and as the JVM's own user
	"$MIXPROF" attach "$pid" >/dev/null || die "second attach failed"
	as_nobody "$MIXPROF" attach "$pid" >/dev/null ||
		die "attach as nobody failed"
	touch "$JVM_TRIGGER"
	wait_for 20 grep -q ' AttachWork\.late$' "$map" ||
		die "late() not in the map"
	map_ok "$map"
	jvm_works "$pid" "$JVM_LOG"
	ls -a "$TMPD" /tmp | grep -q "^\\.attach_pid$pid\$" &&
		die "trigger file left behind"
	kill "$pid"

	# an agent nobody cannot read: copied into /tmp, owned by nobody
	mkdir -p "$TMPD/private"
	cp "$AGENT" "$TMPD/private/libjmap.so"
	chmod 700 "$TMPD/private"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$jdk/bin/java" -XX:+PrintCompilation -cp "$CLASSES" \
		AttachWork "$TMPD/$v.go2" >"$TMPD/$v-2.log" 2>&1 &
	pid=$!
	PIDS_TO_KILL+=("$pid")
	wait_for 20 grep -qs 'AttachWork::early' "$TMPD/$v-2.log" ||
		die "JVM did not start"
	no_stale_map "$pid"
	"$MIXPROF" attach "$pid" --agent "$TMPD/private/libjmap.so" >/dev/null ||
		die "attach with a private agent failed"
	[ -s "/tmp/perf-$pid.map" ] || die "no map with the copied agent"
	[ "$(stat -c %U:%a "$copy")" = nobody:644 ] ||
		die "$copy: $(stat -c %U:%a "$copy")"
	cmp -s "$copy" "$AGENT" || die "$copy differs from the agent"
	grep -q "$copy" "/proc/$pid/maps" || die "JVM did not load $copy"
	ino=$(stat -c %i "$copy")
	"$MIXPROF" attach "$pid" --agent "$TMPD/private/libjmap.so" >/dev/null ||
		die "second attach with a private agent failed"
	[ "$(stat -c %i "$copy")" = "$ino" ] || die "the copy was not reused"
	map_ok "/tmp/perf-$pid.map"
	kill "$pid"
	rm -f "$copy"
done
note "attach_user: ok"
