#!/usr/bin/env bash
# Two JVMs profiled at once (-p A,B), each thread's frame anchor under its
# own process: the sampler's java_threads map, read with bpftool while the
# run goes, holds entries of A and B only, each keyed (tgid, tid) by the
# JVM that has the thread (a tid of A never under B: /proc/TGID/task),
# and -v names each JVM's entries. Both stay whole on every JDK we test:
# Deflate's zlib samples keep Deflater and the root, and Server's pool
# and clients reach the root, each >= 97%; and again without unwind rows
# (MIXPROF_UNWIND=check), where the system's zlib, built without frame
# pointers, leads back to Java only by its thread's anchor (on JDK 17,
# with rows or without, 35% of them were whole when the BPF side looked
# up another key than the one user space wrote).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/deflate.sh"

# keys MAPID: "tgid tid" per entry of a java_threads map (none: the map is
# keyed otherwise, as it was by tid alone)
keys() {
	bpftool map dump id "$1" |
		awk '/"tgid":/ { g = $2 + 0 } /"tid":/ { print g, $2 + 0 }'
}

# anchored MIXPROF OUT: the entries of the java_threads map of mixprof
# pid MIXPROF (the maps its fds hold: another run beside this one, a
# host-wide one, has a map of its own holding A and B too) into OUT
anchored() {
	local id
	: >"$2"
	for id in $(grep -h '^map_id:' /proc/"$1"/fdinfo/* 2>/dev/null |
		awk '{ print $2 }' | sort -u); do
		[[ $(bpftool map show id "$id" 2>/dev/null) == \
			*" name java_threads "* ]] || continue
		keys "$id" >>"$2" || continue
	done
	[ -s "$2" ]
}

# check_keys A B FILE: only A's and B's keys; each JVM some; each tid one
# of its own threads (a thread may have ended since: at most 2 such) and
# none of the other's
check_keys() {
	local a=$1 b=$2 f=$3 g tid own=0 gone=0 na nb other
	while read -r g tid; do
		[ "$g" = "$a" ] || [ "$g" = "$b" ] ||
			die "java_threads holds pid $g's thread $tid (profiling $a and $b)"
		other=$([ "$g" = "$a" ] && echo "$b" || echo "$a")
		[ ! -e "/proc/$other/task/$tid" ] ||
			die "thread $tid of pid $other is keyed under pid $g"
		if [ -e "/proc/$g/task/$tid" ]; then own=$((own + 1)); else gone=$((gone + 1)); fi
	done <"$f"
	na=$(awk -v p="$a" '$1 == p' "$f" | wc -l)
	nb=$(awk -v p="$b" '$1 == p' "$f" | wc -l)
	echo "java_threads: pid $a $na entries, pid $b $nb; $own threads of their JVM, $gone ended since"
	[ "$na" -ge 5 ] && [ "$nb" -ge 5 ] && [ "$gone" -le 2 ] ||
		die "java_threads: not each JVM's own threads"
}

check_server() {
	awk -v f="$1" '
	/^java;(srv|cli)-[0-9]+ \[/ {
		n = $NF; all += n
		split($0, fr, ";")
		if (fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/) root += n
	}
	END {
		if (all < 300) { print f ": only " all " Server samples"; exit 1 }
		printf "%s: %.2f%% of %d Server samples reach the root\n", f, 100*root/all, all
		exit !(root >= 0.97 * all)
	}' "$1"
}

# profile MODE OUT A B: -p A,B, MIXPROF_UNWIND=MODE; in the default mode
# the map's keys are read while it runs (4 s at 499 Hz: 2 s for its ticks
# first), check mode takes as many samples in 2 s at 999 Hz
profile() {
	local secs=2 hz=999
	[ "$1" != hotspot ] || secs=4 hz=499
	rm -f "$TMPD/err" # an earlier run's lines would end the wait below
	MIXPROF_UNWIND=$1 "$MIXPROF" -v -F $hz --per-thread -p "$3,$4" \
		-o "$2" $secs 2>"$TMPD/err" &
	m=$!
	PIDS_TO_KILL+=("$m")
	if [ "$1" = hotspot ]; then
		wait_for 30 grep -qs "^mixprof: profiling" "$TMPD/err" ||
			{ cat "$TMPD/err"; die "mixprof did not start"; }
		sleep 2 # a few ticks: every thread given
		anchored "$m" "$TMPD/keys" ||
			die "$jdk: no java_threads entry keyed by pid $3 or $4"
		check_keys "$3" "$4" "$TMPD/keys"
	fi
	wait "$m" || { cat "$TMPD/err"; die "mixprof failed"; }
	grep -v '^libbpf: ' "$TMPD/err"
	grep -Eq "java_threads: 2 JVM\(s\): pid ($3 [1-9][0-9]*, pid $4|$4 [1-9][0-9]*, pid $3) [1-9]" "$TMPD/err" ||
		die "$jdk: -v does not name both JVMs' entries"
}

n=0
for jdk in $(jdks); do
	n=$((n + 1))
	: >"$TMPD/deflate.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Deflate 20 \
		>"$TMPD/deflate.out" 2>&1 &
	a=$!
	PIDS_TO_KILL+=("$a")
	: >"$TMPD/server.out" # a JVM before wrote "ready" in it
	env -u JAVA_TOOL_OPTIONS "$jdk/bin/java" -cp "$SAMPLES" Server 20 \
		>"$TMPD/server.out" 2>&1 &
	b=$!
	PIDS_TO_KILL+=("$b")
	# capped (Deflate a quarter of a CPU, Server's threads 40%):
	# uncapped they took both CPUs from the rest of the suite. At load
	# average ~24, with both at half a CPU: 227-399 zlib samples (100
	# wanted), 651-860 of Server (300 wanted) in three runs: there each
	# got less than these caps, its share of a loaded host; on a quiet
	# one, these give ~500 zlib and ~800 Server samples a run
	cpu_cap "$a" 25
	cpu_cap "$b" 40 4096 # its pool and clients: weighed as four threads
	wait_for 20 grep -q ready "$TMPD/deflate.out" || die "Deflate did not start"
	wait_for 20 grep -q ready "$TMPD/server.out" || die "Server did not start"
	sleep 1
	# as run: native frames by unwind rows where they have them
	profile hotspot "$TMPD/both-$n.folded" "$a" "$b"
	deflate_whole "$TMPD/both-$n.folded" 0.97 100 || die "$jdk: zlib samples lost their Java callers"
	check_server "$TMPD/both-$n.folded" || die "$jdk: Server's stacks are not whole"
	# without rows (check mode): zlib built without frame pointers
	# leads back to Java only by the anchor its thread's entry gives
	profile check "$TMPD/check-$n.folded" "$a" "$b"
	deflate_whole "$TMPD/check-$n.folded" 0.97 100 ||
		die "$jdk: without rows, zlib samples lost their Java callers"
	kill "$a" "$b" 2>/dev/null || true
	wait "$a" "$b" 2>/dev/null || true
done
echo ok
