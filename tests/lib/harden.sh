# Sourced by the harden_* integration tests, after common.sh: a throwaway
# unprivileged user ($HU, group $HG) who plants files for root's mixprof,
# removed (with its processes, which the test lists in PIDS_TO_KILL) on
# every exit path.
HU=mxh$$$RANDOM
add_user "$HU" || die "useradd $HU"
HG=$(id -gn "$HU")

cleanup_harden() {
	cleanup_common # kills PIDS_TO_KILL, removes TMPD
	# -f: a process of the user that outlived PIDS_TO_KILL (tests/run
	# kills it after the test) must not keep the account
	userdel -f "$HU" 2>/dev/null || true
	id "$HU" >/dev/null 2>&1 && echo "warning: user $HU left" >&2
	return 0
}
trap cleanup_harden EXIT

# as_user CMD...: run CMD as the throwaway user
as_user() { setpriv --reuid="$HU" --regid="$HG" --clear-groups "$@"; }

# bounded CMD...: run CMD under a 30 s timeout; fail the test when it hung
# (said on the test's own stderr, fd 9, whatever the caller redirects)
exec 9>&2
bounded() {
	local rc=0
	timeout --kill-after=5 30 "$@" || rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] || die "hung (timed out): $*" 2>&9
	return $rc
}

# user_jvm DIR: start a JVM of the user spinning in Spin.spin (JIT code,
# so its perf map is looked up), working directory DIR; its pid in JPID.
# Half a CPU (cpu_cap): the runs want its samples, not a CPU's worth.
user_jvm() {
	if [ ! -f "$TMPD/cls/Spin.class" ]; then
		# tests/fixtures/harden/Spin.java, compiled once by the build
		[ -f "$BUILD/tests/fixtures/harden/Spin.class" ] ||
			die "Spin.class not built (make)"
		mkdir -p "$TMPD/cls"
		cp "$BUILD/tests/fixtures/harden/Spin.class" "$TMPD/cls/"
		chmod -R a+rX "$TMPD/cls"
	fi
	(cd "$1" && exec setpriv --reuid="$HU" --regid="$HG" --clear-groups \
		java -XX:-UsePerfData -cp "$TMPD/cls" Spin) &
	JPID=$!
	PIDS_TO_KILL+=("$JPID")
	cpu_cap "$JPID" 50
	wait_for 20 grep -q libjvm "/proc/$JPID/maps" || die "JVM did not start"
	wait_for 20 grep -qs "^Uid:.*$(id -u "$HU")" "/proc/$JPID/status" ||
		die "JVM not run by $HU"
}
