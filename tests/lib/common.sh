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
touch "$TMPD/.start"
PIDS_TO_KILL=()
CGROUPS_TO_REMOVE=() # cpu_cap's, removed once their processes are gone

# Perf maps and agent control sockets in /tmp of processes that are gone
# (agent runs without dir=): with "new", only those written since this
# test began (its own JVMs'); otherwise those another user owns, since a
# new JVM that gets a dead one's pid is refused such a file. Not all: a
# test running beside this one (tests/run) may still read the map of a
# JVM that has just ended (perf report does). HotSpot's attach sockets
# (/tmp/.java_pidPID) of JVMs killed by a test go too: a JVM of another
# user that gets the pid is refused one root owns (attach_user).
remove_leftovers() {
	local f pid
	for f in /tmp/perf-*.map /tmp/.mixprof-jmap-* /tmp/.java_pid*; do
		[ -e "$f" ] || continue
		if [ "${1:-}" = new ]; then
			[ "$f" -nt "$TMPD/.start" ] || continue
		else
			[[ $f == /tmp/.java_pid* ]] || [ ! -O "$f" ] || continue
		fi
		pid=${f%.map}
		pid=${pid##*[!0-9]}
		case $pid in '' | *[!0-9]*) continue ;; esac
		kill -0 "$pid" 2>/dev/null || rm -f "$f"
	done
}
remove_leftovers

kill_started() { # every process of PIDS_TO_KILL, reaped: no longer "alive"
	local p
	for p in "${PIDS_TO_KILL[@]}"; do
		kill -9 "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}

# cpu_cap PID PERCENT [SHARES]: PID's process, and whatever it starts
# from now on, gets at most PERCENT of one CPU (the cpu controller's
# quota: cgroup v1's cfs_quota or v2's cpu.max, in a cgroup of its own
# under the one it is in). For a JVM whose only job is to be there while
# something else is checked: the whole run is bound by CPU, and an idle
# worker spinning at a full CPU takes it from the other tests. Without a
# cpu controller it runs uncapped (the same checks, more CPU), and says
# so. The group competes with other threads as one thread of weight
# SHARES (default 1024, a thread at nice 0): a JVM of many busy threads,
# or one at a higher priority, is given more, or on a loaded host it gets
# far less than it did uncapped; more than that starves the test beside
# it (four spinners at 4096 each starved rows_native's target).
cpu_cap() {
	local pid=$1 pct=$2 shares=${3:-1024} base dir
	if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		base=/sys/fs/cgroup/cpu$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' "/proc/$pid/cgroup" || true)
		dir=${base%/}/mixprof-cap-$pid
		mkdir "$dir" 2>/dev/null && CGROUPS_TO_REMOVE+=("$dir") &&
			echo $((pct * 1000)) >"$dir/cpu.cfs_quota_us" &&
			echo "$shares" >"$dir/cpu.shares" &&
			echo "$pid" >"$dir/cgroup.procs" && return 0
	elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		base=/sys/fs/cgroup$(awk -F: '$1 == 0 { print $3 }' "/proc/$pid/cgroup" || true)
		dir=${base%/}/mixprof-cap-$pid
		grep -qw cpu "$base/cgroup.subtree_control" 2>/dev/null &&
			mkdir "$dir" 2>/dev/null && CGROUPS_TO_REMOVE+=("$dir") &&
			echo "$((pct * 1000)) 100000" >"$dir/cpu.max" &&
			echo $((shares * 100 / 1024)) >"$dir/cpu.weight" &&
			echo "$pid" >"$dir/cgroup.procs" && return 0
	fi 2>/dev/null
	note "pid $pid not capped at $pct% of a CPU (no cpu controller, or it is gone)"
}

remove_cgroups() { # CGROUPS_TO_REMOVE, once their processes have gone
	local d i
	for d in "${CGROUPS_TO_REMOVE[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do
			[ -d "$d" ] && ! rmdir "$d" 2>/dev/null || break
			sleep 0.1
		done
	done
	return 0
}

cleanup_common() {
	kill_started
	remove_cgroups
	remove_leftovers new
	rm -rf "$TMPD"
}
trap cleanup_common EXIT

die() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

# check_agreement ERR: of MIXPROF_UNWIND=check's line in the summary ERR,
# its JVM samples and how many of each 10,000 the two walks agree on but
# for the oracle's blind spots ("1705 9994"); nothing when it has none
check_agreement() {
	sed -n 's/.*agree on [0-9]* of \([0-9]*\) JVM samples (\([0-9]*\)\.\([0-9]*\)%) but for.*/\1 \2\3/p' "$1"
}

# The JDKs to test: $MIXPROF_TEST_JDKS (space-separated JDK homes) when set;
# otherwise the system one, plus the newest JDK of another major version
# installed beside it (Debian keeps them all in one directory). Finding
# them starts a JVM per JDK directory, so tests/run has the answer kept for
# its run in $TEST_JDKS_FILE (removed when the run starts).
jdk_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 |
	sed -n 's/^ *java\.specification\.version = //p'; }
jdks() {
	local f=${TEST_JDKS_FILE:-}
	if [ -n "${MIXPROF_TEST_JDKS:-}" ]; then
		printf '%s\n' $MIXPROF_TEST_JDKS
	elif [ -n "$f" ] && [ -s "$f" ]; then
		cat "$f"
	elif [ -n "$f" ]; then
		find_jdks >"$f.$$"
		mv -f "$f.$$" "$f" # whole, though two tests may race to write it
		cat "$f"
	else
		find_jdks
	fi
}

# each_jdk CMD...: CMD... JDK for every JDK at the same time, each in a
# subshell of its own (so a die ends that JDK's part only) with TMPD a
# directory of its own ($TMPD/ the JDK's directory name), that kills the
# processes it started when it ends and removes its cpu_cap cgroups. A
# test's time is mostly JVMs running for a set time, so the JDKs' runs
# overlap instead of following each other. Each part's output is printed whole, in the order of jdks(),
# once all have ended; fails when one did. What CMD sets is lost with
# its subshell.
each_jdk() {
	local jdk all=() pids=() failed= i
	for jdk in $(jdks); do
		(
			PIDS_TO_KILL=() CGROUPS_TO_REMOVE=()
			trap 'kill_started; remove_cgroups' EXIT
			TMPD=$TMPD/$(basename "$jdk")
			mkdir "$TMPD"
			"$@" "$jdk"
		) >"$TMPD/each_jdk.${#all[@]}.log" 2>&1 &
		pids+=($!)
		PIDS_TO_KILL+=($!)
		all+=("$jdk")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || failed="$failed ${all[i]}"
		cat "$TMPD/each_jdk.$i.log"
	done
	[ -z "$failed" ] || die "$1 failed on$failed"
}

# jdk_index JDK: JDK's place in jdks(), from 0 (tests that vary a mode
# from one JDK to the next).
jdk_index() {
	jdks | awk -v j="$1" '$0 == j && !f { print NR - 1; f = 1 }'
}

find_jdks() {
	local sys j best= best_v=0 v sys_v
	sys=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
	sys_v=$(jdk_major "$sys")
	echo "$sys"
	for j in "$(dirname "$sys")"/*/; do
		j=${j%/}
		[ -x "$j/bin/java" ] && [ ! -L "$j" ] || continue
		v=$(jdk_major "$j")
		[ -n "$v" ] && [ "$v" != "$sys_v" ] && [ "$v" -gt "$best_v" ] &&
			best=$j best_v=$v
	done
	[ -n "$best" ] && echo "$best"
	return 0
}

# add_user NAME: a throwaway system user, no home. useradd gives up at
# once when another useradd holds /etc/passwd's lock (a test beside this
# one, see tests/run): a few tries.
add_user() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		useradd -M -r -s /usr/sbin/nologin "$1" 2>/dev/null && return 0
		sleep 0.3
	done
	useradd -M -r -s /usr/sbin/nologin "$1"
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.1
	done
}
