#!/usr/bin/env bash
# --events' time to safepoint on Ttsp (samples/Ttsp.java: a thread in
# System.arraycopy's stub, which never polls, while main asks for GCs),
# launched without JVM flags but -Xlog:safepoint to a file (the truth), on
# every JDK we test: the k-th safepoint event against the k-th logged
# safepoint, each one that took at least 1 ms to reach within 10% of
# what the JVM logged (Reaching safepoint, plus Cleanup when it prints
# one: the event counts up to the VM operation's start).
. "$(dirname "$0")/../lib/common.sh"

for jdk in $(jdks); do
	note "JDK $jdk"
	rm -f "$TMPD/sp.log" "$TMPD/ev.tsv"
	"$MIXPROF" --events "$TMPD/ev.tsv" -o /dev/null -- "$jdk/bin/java" \
		-Xlog:safepoint:file="$TMPD/sp.log" -cp "$SAMPLES" Ttsp 5 \
		>"$TMPD/out" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
	grep 'JVM events' "$TMPD/err"
	grep -q "^done" "$TMPD/out" || die "Ttsp did not end"
	sort -n "$TMPD/ev.tsv" | awk -F'\t' -v splog="$TMPD/sp.log" '
	$3 == "safepoint" { split($4, f, /[= ]/); got[++n] = f[2] }
	END {
		while ((getline l < splog) > 0) {
			if (l !~ /Reaching safepoint: /) continue
			r = l; sub(/.*Reaching safepoint: /, "", r); r += 0
			c = 0
			if (l ~ /Cleanup: /) { c = l; sub(/.*Cleanup: /, "", c); c += 0 }
			want[++m] = r + c
		}
		if (n != m) { print n " safepoint events, " m " logged"; exit 1 }
		for (k = 1; k <= m; k++) {
			if (want[k] < 1e6) continue
			long++
			d = got[k] - want[k]
			printf "safepoint %d: ttsp %.3f ms, logged %.3f ms (%+.2f%%)\n", k, got[k] / 1e6, want[k] / 1e6, 100 * d / want[k]
			if (d > 0.1 * want[k] || -d > 0.1 * want[k]) bad = 1
		}
		if (long < 3) { print "only " long " safepoints took 1 ms to reach"; exit 1 }
		exit bad
	}' || die "JDK $jdk: time to safepoint"
done
echo ok
