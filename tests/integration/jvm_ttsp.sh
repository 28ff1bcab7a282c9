#!/usr/bin/env bash
# --events' time to safepoint on Ttsp (samples/Ttsp.java: a thread in
# System.arraycopy's stub, which never polls, while main asks for GCs),
# without JVM flags but -Xlog:safepoint to a file (the truth), on every
# JDK we test: launched by mixprof on the first, attached to with -p on
# the last (the same one when there is one): the safepoint events against the last
# as many logged safepoints (an attach misses the earlier ones), each one
# that took at least 1 ms to reach within 10% of what the JVM logged
# (Reaching safepoint, plus Cleanup when it prints one: the event counts
# up to the VM operation's start). The launched run also has --ttsp: the
# samples it keeps are few of all (the times to safepoint are a small part
# of the run), and most are the copier's in System.arraycopy, the thread
# that held the safepoints back.
. "$(dirname "$0")/../lib/common.sh"

# launch: mixprof starts Ttsp
launched() {
	"$MIXPROF" --events "$TMPD/ev.tsv" --ttsp -F 999 --per-thread \
		-o "$TMPD/ttsp.folded" -- "$1/bin/java" \
		-Xlog:safepoint:file="$TMPD/sp.log" -cp "$SAMPLES" Ttsp 5 \
		>"$TMPD/out" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
}

# -p: Ttsp waits for its trigger until mixprof samples
attached() {
	local pid mp
	"$1/bin/java" -Xlog:safepoint:file="$TMPD/sp.log" -cp "$SAMPLES" \
		Ttsp 5 "$TMPD/go" >"$TMPD/out" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	wait_for 20 grep -qs ready "$TMPD/out" || die "Ttsp did not start"
	rm -f "$TMPD/err" # the launched run's start line must not count
	"$MIXPROF" --events "$TMPD/ev.tsv" -o /dev/null -p $pid 2>"$TMPD/err" &
	mp=$!
	PIDS_TO_KILL+=($mp)
	wait_for 30 grep -qs "mixprof: profiling" "$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof -p did not start"; }
	touch "$TMPD/go"
	wait $pid || die "Ttsp failed"
	wait $mp || { cat "$TMPD/err"; die "mixprof -p failed"; }
}

# check JDK: the events against the log
check() {
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
		if (n < 5 || n > m) { print n " safepoint events, " m " logged"; exit 1 }
		for (k = 1; k <= n; k++) {
			w = want[m - n + k]
			if (w < 1e6) continue
			long++
			d = got[k] - w
			printf "safepoint %d: ttsp %.3f ms, logged %.3f ms (%+.2f%%)\n", k, got[k] / 1e6, w / 1e6, 100 * d / w
			if (d > 0.1 * w || -d > 0.1 * w) bad = 1
		}
		if (long < 3) { print "only " long " safepoints took 1 ms to reach"; exit 1 }
		exit bad
	}' || die "JDK $1: time to safepoint"
}

jdk_list=($(jdks))
jdk=${jdk_list[0]}
note "JDK $jdk, launched"
launched "$jdk"
check "$jdk"
grep -- '--ttsp:' "$TMPD/err" || die "no --ttsp line in the summary"
all=$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$TMPD/err")
awk -v all="$all" '{ n = $NF; kept += n }
	/;ttsp-copier \[[0-9]*\];/ && /System\.arraycopy/ { copier += n }
	END {
		printf "--ttsp kept %d of %d samples, %d the copier'"'"'s in System.arraycopy\n", kept, all, copier
		exit !(kept >= 10 && kept <= 0.3 * all && copier >= 0.5 * kept)
	}' "$TMPD/ttsp.folded" || die "JDK $jdk: --ttsp kept the wrong samples"
jdk=${jdk_list[${#jdk_list[@]} - 1]}
rm -f "$TMPD/sp.log" "$TMPD/ev.tsv"
note "JDK $jdk, -p"
attached "$jdk"
check "$jdk"
echo ok
