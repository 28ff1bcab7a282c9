# Sourced by integration tests: paths, the JDKs to test, small helpers.
# Tests fail loudly; nothing here skips when a tool is missing.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
AGENT=$BUILD/libjmap.so
MIXPROF=$BUILD/mixprof
SAMPLES=$BUILD/samples
TMPD=$(mktemp -d /tmp/mixprof-test.XXXXXX)
chmod 755 "$TMPD"
PIDS_TO_KILL=()

cleanup_common() {
	local p
	for p in "${PIDS_TO_KILL[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	rm -rf "$TMPD"
}
trap cleanup_common EXIT

die() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

# The JDKs to test: the system one, plus JDK 25 where the machine has one.
jdks() {
	local j
	for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64; do
		[ -x "$j/bin/java" ] && { echo "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"; echo "$j"; return; }
	done
	dirname "$(dirname "$(readlink -f "$(command -v java)")")"
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.1
	done
}
