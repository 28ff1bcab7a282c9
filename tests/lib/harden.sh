# Sourced by the harden_* integration tests, after common.sh: a throwaway
# unprivileged user ($HU, group $HG) who plants files for root's mixprof,
# removed (with its processes, which the test lists in PIDS_TO_KILL) on
# every exit path.
HU=mxh$$$RANDOM
useradd -M -r -s /usr/sbin/nologin "$HU" || die "useradd $HU"
HG=$(id -gn "$HU")

cleanup_harden() {
	cleanup_common # kills PIDS_TO_KILL, removes TMPD
	userdel "$HU" 2>/dev/null || true
	id "$HU" >/dev/null 2>&1 && echo "warning: user $HU left" >&2
	return 0
}
trap cleanup_harden EXIT

# as_user CMD...: run CMD as the throwaway user
as_user() { setpriv --reuid="$HU" --regid="$HG" --clear-groups "$@"; }

# bounded CMD...: run CMD under a 30 s timeout; fail the test when it hung
bounded() {
	local rc=0
	timeout --kill-after=5 30 "$@" || rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] || die "hung (timed out): $*"
	return $rc
}
