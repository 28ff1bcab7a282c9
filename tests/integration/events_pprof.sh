#!/usr/bin/env bash
# --events FILE.pb.gz on JvmEvents launched with -Xlog:gc to a file (the
# truth), on every JDK we test, read by `go tool pprof`: the events are
# a profile with events/count and duration/nanoseconds; exactly one gc
# sample per System.gc() the program made, their summed duration within
# 10% of the pauses the JVM logged; safepoints split into their time to
# safepoint and their operation; the C2 compile of the hot method under
# compile;C2. The TSV form is jvm_events.sh's.
. "$(dirname "$0")/../lib/common.sh"

command -v go >/dev/null || die "go (golang-go) is needed to read pprof files"
GCS=3

# traces FILE INDEX: "value frame;frame;..." (root first) per stack; the
# process is a label, not a frame
traces() {
	go tool pprof -sample_index="$2" -unit=ns -traces "$1" 2>/dev/null | awk '
	function flush() { if (n) { s = st[n]; for (i = n - 1; i >= 1; i--) s = s ";" st[i]; print v, s } n = 0 }
	/^-----------\+/ { flush(); next }
	/^ *[0-9.]+(ns)? / { v = $1 + 0; sub(/^ *[0-9.]+(ns)? +/, ""); st[n = 1] = $0; next }
	/^ +[^ ]/ && n { sub(/^ +/, ""); st[++n] = $0 }
	END { flush() }'
}

# check_jdk JDK: one JDK's events as pprof (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $jdk"
	rm -f "$TMPD/gc.log" "$TMPD/ev.pb.gz"
	"$MIXPROF" --events "$TMPD/ev.pb.gz" -o /dev/null -- "$jdk/bin/java" \
		-Xlog:gc:file="$TMPD/gc.log" -cp "$SAMPLES" JvmEvents $GCS \
		>"$TMPD/out" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
	grep 'JVM events' "$TMPD/err"
	go tool pprof -traces "$TMPD/ev.pb.gz" 2>&1 >"$TMPD/raw"
	grep -q 'Type: events' "$TMPD/raw" || die "JDK $jdk: not a pprof profile of events"
	grep -q 'process: *java$' "$TMPD/raw" || die "JDK $jdk: the process label is not java"
	traces "$TMPD/ev.pb.gz" events >"$TMPD/count"
	traces "$TMPD/ev.pb.gz" duration >"$TMPD/ns"
	n=$(awk '$2 ~ /^gc;/ { n += $1 } END { print n + 0 }' "$TMPD/count")
	[ "$n" = $GCS ] || die "JDK $jdk: $n gc events, want $GCS"
	awk -v gclog="$TMPD/gc.log" '
	$2 ~ /^gc;/ { sum += $1 / 1e6 }
	END {
		while ((getline l < gclog) > 0)
			if (l ~ /Pause/) { sub(/ms$/, "", l); k = split(l, f, " "); truth += f[k] }
		printf "gc duration %.3f ms, -Xlog:gc pauses %.3f ms\n", sum, truth
		exit !(sum >= 0.9 * truth && sum <= 1.1 * truth)
	}' "$TMPD/ns" || die "JDK $jdk: gc durations differ from the log by more than 10%"
	grep -q '^[0-9.]* safepoint;[^;]*;time to safepoint$' "$TMPD/ns" &&
		grep -q '^[0-9.]* safepoint;[^;]*;operation$' "$TMPD/ns" ||
		die "JDK $jdk: safepoints not split into time to safepoint and operation"
	grep -q '^[0-9]* compile;C2;JvmEvents\.hot tier=4' "$TMPD/count" ||
		die "JDK $jdk: no C2 compile of JvmEvents.hot"
}

each_jdk check_jdk
echo ok
