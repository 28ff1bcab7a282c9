#!/usr/bin/env bash
# --events on JvmEvents (samples/JvmEvents.java) launched without JVM
# flags but -Xlog:gc to a file (the truth), on every JDK we test: exactly
# one gc event per System.gc() the program made, their summed duration
# within 10% of the pauses the JVM logged; the hot method compiled by C2
# named in a compile event with its tier (4); the uncommon trap its type change provokes
# named with its reason (class_check), its method and its tier. The heat
# map and montage of the first JDK's run in headless chromium
# (tests/browser/heatmap_events.mjs): every drawn event on the heat map, a
# GC pause's cell naming it on hover, the montage's cards counting every
# GC pause and compilation, no page errors.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/browser.sh"

GCS=5

# check_jdk JDK: one JDK's events (the JDKs run at the same time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $jdk"
	rm -rf "$TMPD/gc.log" "$TMPD/ev.tsv" "$TMPD/hm"
	"$MIXPROF" --events "$TMPD/ev.tsv" -i 1 --montage "$TMPD/hm" --heatmap "$TMPD/hm" -- "$jdk/bin/java" \
		-Xlog:gc:file="$TMPD/gc.log" -cp "$SAMPLES" JvmEvents $GCS \
		>"$TMPD/out" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
	grep 'JVM events\|compilations\|deoptimizations' "$TMPD/err"
	grep -q "^done" "$TMPD/out" || die "JvmEvents did not end"
	grep -q "JVM events: $GCS GC pauses" "$TMPD/err" ||
		die "the summary does not count $GCS GC pauses"
	awk -F'\t' -v want=$GCS -v gclog="$TMPD/gc.log" '
	NF != 4 || $1 !~ /^[0-9]+$/ || $2 < $1 { print "bad line: " $0; bad = 1 }
	$3 == "gc" { n++; sum += ($2 - $1) / 1e6 }
	END {
		while ((getline l < gclog) > 0)
			if (l ~ /Pause/) { m++; sub(/ms$/, "", l); k = split(l, f, " "); truth += f[k] }
		printf "gc events %d (%.3f ms), -Xlog:gc pauses %d (%.3f ms)\n", n, sum, m, truth
		if (n != want || m != want) { print "want " want " of each"; exit 1 }
		if (sum < 0.9 * truth || sum > 1.1 * truth) { print "sums differ by more than 10%"; exit 1 }
		exit bad
	}' "$TMPD/ev.tsv" || die "JDK $jdk: gc events"
	grep -P '\tcompile\tC2 JvmEvents\.hot tier=4( osr)?$' "$TMPD/ev.tsv" ||
		die "JDK $jdk: no C2 (tier 4) compile of JvmEvents.hot"
	grep -P '\tdeopt\treason=class_check action=\w+ method=JvmEvents\.hot tier=4$' \
		"$TMPD/ev.tsv" | head -1 | grep . ||
		die "JDK $jdk: no class_check trap in JvmEvents.hot"
	[ "$(jdk_index "$jdk")" = 0 ] || return 0
	node "$B/heatmap_events.mjs" "$TMPD/hm" "$TMPD/ev.tsv" ||
		die "JDK $jdk: the heat map's and montage's events"
}

each_jdk check_jdk
echo ok
