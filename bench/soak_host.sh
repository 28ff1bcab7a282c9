#!/usr/bin/env bash
# make soak: mixprof's memory over a long host-wide run with process churn,
# the measurement of issue 29: `mixprof -F 499 -i 60` of the whole host
# for SOAK_SECONDS (default 600) while, about every second, 40 short
# processes run (shells, awk, sort, gzip, sed: new pids, new mappings) and
# one `java -version` (a JVM's start: its libjvm, its JIT map, its exit).
# Prints VmRSS and RssAnon (the heap; the rest is file pages of the ELF
# files read for symbols, which the kernel can drop) every SOAK_EVERY
# seconds (default 30), then the least-squares slope of VmRSS over the
# run after its first minute (start-up: the rows of every mapped file) in
# MB/min, the projection to one hour, the peak, and mixprof's CPU.
# SOAK_MIXPROF names another binary; SOAK_BASE names a second one (a
# baseline build) run beside it on the same churn, with columns of its
# own. It measures and reports; it does not fail on a number.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
secs=${SOAK_SECONDS:-600}
every=${SOAK_EVERY:-30}
bin=${SOAK_MIXPROF:-$BUILD/mixprof}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.bash"
soak_start
cpu_s() { # pid: user + system CPU seconds so far
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, "");
		printf "%.1f", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null ||
		printf -- -
}

# about every second: 40 short processes, then one JVM start beside them
churn() {
	local i
	while :; do
		java -version 2>/dev/null &
		for i in 1 2 3 4 5 6 7 8; do
			sh -c 'i=0; while [ $i -lt 200 ]; do i=$((i+1)); done'
			seq 1 2000 | awk '{ s += $1 } END { print s }' >/dev/null
			seq 1 2000 | sort -r | gzip -1 >/dev/null
			echo x | sed s/x/y/ >/dev/null
		done # 8 x 5 = 40 processes (seq twice)
		wait
		sleep 0.5
	done
}

churn &
pids+=($!)
bins=("$bin")
[ -z "${SOAK_BASE:-}" ] || bins+=("$SOAK_BASE")
runs=()
for i in "${!bins[@]}"; do
	# timeout: a run stuck on something another user planted must not
	# hang us
	timeout -k 5 $((secs + 60)) "${bins[$i]}" -v -F 499 -i 60 \
		-o "$tmp/slices$i" "$secs" 2>"$tmp/host$i.err" &
	runs+=($!)
	pids+=($!)
done
ms=()
for r in "${runs[@]}"; do # the mixprof under timeout
	m=$(child_of "$r") || { echo "soak_host: mixprof did not start"; exit 1; }
	ms+=("$m")
done

echo "soak_host: ${secs} s host-wide, -F 499 -i 60, churn ~40 processes" \
	"+ 1 java -version per second; MB of mixprof"
for i in "${!bins[@]}"; do echo "  run $i: ${bins[$i]}"; done
printf '%6s' t_s
for i in "${!bins[@]}"; do printf ' %7s%d %7s%d %7s%d' rss "$i" anon "$i" cpu "$i"; done
echo
t0=$(date +%s)
t=0
while :; do
	line=$(printf '%6d' "$t") alive=0
	for i in "${!ms[@]}"; do
		r=$(rss_mb "${ms[$i]}" VmRSS)
		[ "$r" = - ] || alive=1
		line+=$(printf ' %8s %8s %8s' "$r" \
			"$(rss_mb "${ms[$i]}" RssAnon)" "$(cpu_s "${ms[$i]}")")
	done
	[ "$alive" = 1 ] || break
	echo "$line" | tee -a "$tmp/series"
	[ "$t" -lt $((secs - 3)) ] || break
	t=$((t + every))
	# the last point just before the end (the run exits at secs)
	[ "$t" -lt "$secs" ] || t=$((secs - 3))
	sleep $((t0 + t - $(date +%s))) 2>/dev/null || true
done
for i in "${!runs[@]}"; do
	wait "${runs[$i]}" || echo "soak_host: run $i ended with status $?"
done
kill "${pids[0]}" 2>/dev/null || true
# per run: least squares of rss on t over t >= 60 (the whole run if
# shorter than 3 minutes), its line at 3600 s, the peak; and the median
# of the slopes between any two points from 60 s on (Theil-Sen): a spike
# (another process's huge perf map read, then freed) moves it little
for i in "${!bins[@]}"; do
	med=$(awk -v c=$((2 + 3 * i)) -v secs="$secs" '
		$c != "-" && ($1 >= 60 || secs < 180) { n++; t[n] = $1; r[n] = $c }
		END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			print (r[j] - r[i]) / (t[j] - t[i]) * 60 }' "$tmp/series" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f",
			NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	echo "run $i: median slope ${med:--} MB/min"\
		"(projected 1 h from the last point:" \
		"$(awk -v c=$((2 + 3 * i)) -v m="${med:-0}" '$c != "-" { t = $1; r = $c }
			END { printf "%.1f", r + m * (3600 - t) / 60 }' "$tmp/series") MB)"

	awk -v secs="$secs" -v c=$((2 + 3 * i)) -v run="$i" '
	$c != "-" { n0++; t[n0] = $1; r[n0] = $c; a[n0] = $(c + 1)
		cpu = $(c + 2); if ($c > pk) pk = $c; if ($(c + 1) > pa) pa = $(c + 1) }
	END {
		from = secs >= 180 ? 60 : 0
		for (i = 1; i <= n0; i++) if (t[i] >= from) {
			n++; sx += t[i]; sy += r[i]; sxx += t[i] * t[i]
			sxy += t[i] * r[i]; sya += a[i]; sxya += t[i] * a[i] }
		d = n * sxx - sx * sx
		if (n < 2 || d == 0) { print "run " run ": too few points"; exit }
		b = (n * sxy - sx * sy) / d; c0 = (sy - b * sx) / n
		ba = (n * sxya - sx * sya) / d
		printf "run %d: slope %.2f MB/min (heap %.2f) from %d s on; " \
			"projected 1 h: %.1f MB; peak %.1f MB (heap %.1f); " \
			"cpu %.1f s in %d s (%.1f%% of a core)\n", run, b * 60,
			ba * 60, from, c0 + b * 3600, pk, pa, cpu, t[n0],
			t[n0] ? 100 * cpu / t[n0] : 0
	}' "$tmp/series"
	grep -E 'samples in|memory:' "$tmp/host$i.err" | sed "s/^/run $i: /" || true
done
