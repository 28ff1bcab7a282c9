#!/usr/bin/env bash
# What the user stack walk costs a sample, on real stacks and by kind of
# frame. BPF run time (kernel.bpf_stats_enabled: the sampling programs'
# run_time_ns, from -v's own cost line; a build without it, watched by
# bpftool while it runs) per sample of the target: the program runs on every
# tick of every CPU, so the ticks of other tasks (filtered out at once)
# are taken off at the cost an idle target's run measures first; then
# walked user frames per sample from the folded output (kernel frames
# and inlined ones are not walked), and ns per frame.
# 1) javac (JDK on PATH) compiling the 100 smallest sources of java/util
#    (the JDK's src.zip, as tests/integration/corpus_javac.sh), launched
#    at HZ (999): the HotSpot walk, the frame-pointer walk
#    (MIXPROF_UNWIND=fp: stacks cut where frame pointers stop), the walk
#    cut at 8 frames (--stack-depth 8: the fixed part of a sample and its
#    first frames, where the cold memory a walk touches first is), and the
#    target's cost: javac's own CPU and wall (timed inside the tool: what
#    the tool costs the target) and the CPU with the tool's process,
#    against javac alone, REPS interleaved rounds, round by round ratios'
#    medians and ranges, at HZ and at 99 Hz
#    (mixprof-99: the HotSpot walk's other rate), and mixprof's own
#    process per sample (its summary's "its own cost", getrusage of
#    mixprof alone; a build without it: the run's CPU less javac's: at
#    999 Hz most of what javac pays beyond the BPF time); beside it, in
#    the same
#    rounds, perf record -F HZ without stacks (the ticks alone: what
#    being sampled at HZ costs whatever the tool does in a tick), perf
#    record -F 499 -g and --call-graph dwarf (+ perf script --no-inline;
#    -N: nothing left in ~/.debug),
#    and async-profiler at 1 ms and 10 ms when ASPROF_LIB names its
#    libasyncProfiler.so (not shipped: a comparison only). BASE_BUILD:
#    another build directory whose mixprof walks javac too (before and
#    after a change, in the same rounds).
# 2) Tomcat 10 (Debian's, when installed) serving a JSP under ab -c 4:
#    the HotSpot walk, mixprof -p for SECS, REPS times (and BASE_BUILD's
#    after each).
# Under 1) and 2), the floor (bench/floor: its own BPF program, one run a
# round, javac on -XX:+PreserveFramePointer): what the kernel's own
# walks, a loop of reads by frame pointer, a 4 KB copy, the kernel stack
# and cold map lines cost a tick of the same target, and what a walk of
# mixprof's frames reading one map line a frame behind the last read
# would cost at least; mixprof's walk beside it.
# 3) Frames by kind, mixprof -p for SECS (6) on one JVM each: Recurse 300
#    deep with -Xint (interpreted frames), Recurse warm (compiled), and
#    the same on -XX:+PreserveFramePointer by MIXPROF_UNWIND=fp; native
#    frames (tests/fixtures/unwind/nofp.c through glibc's qsort) by
#    rows and by frame pointer (MIXPROF_UNWIND=fp: stops in glibc).
# PARTS (default "javac tomcat kinds"): which of the three to run;
# COMPARE=0: javac without the perf and async-profiler rounds (the BPF
# figures only, in a fraction of the time).
# A build made with `make BPF_PHASES=1` (sampler/phases.h) prints, under
# the javac and Tomcat figures, the BPF time of each phase of a sample
# (the last run's, from -v): where the time goes.
# Each BPF figure is printed as the sum over its runs (ns over samples)
# and as the median and range of its runs; with BASE_BUILD, the two
# builds' ratio round by round (both ran in each round), its median and
# range: a machine whose speed drifts between rounds moves both builds
# of a round together, where the sums mix rounds.
# Measures and prints; never fails on a number.
set -euo pipefail
: "${BUILD:?BUILD must point at the build directory}"
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
SECS=${SECS:-6}
HZ=${HZ:-999}
REPS=${REPS:-2}
PARTS=${PARTS:-javac tomcat kinds}
COMPARE=${COMPARE:-1}
. "$(dirname "$0")/common.bash" # bench_start, bench_watch, bench_bpf_line
bench_start

# (runs use --tiers: interpreted frames _[0], compiled _[1] or _[j]; plain
# folded text shows every Java frame as _[j])
# frames FOLDED: "samples user-frames interpreted compiled other" summed
# over the output's samples (kernel frames _[k] and inlined _[i] are not
# walked; marks such as [unwind: ...] are not frames)
frames() {
	awk '{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, f, ";"); t += n
		for (i = 2; i <= k; i++) {
			if (f[i] ~ /_\[[ki]\]$/ || f[i] ~ /^\[/)
				continue
			if (f[i] ~ /_\[0\]$/) in_ += n
			else if (f[i] ~ /_\[[1j]\]$/) co += n
			else ot += n
		}
	} END { printf "%d %d %d %d %d\n", t, in_ + co + ot, in_, co, ot }' "$1"
}

# mixprof_run NAME ENV... -- MIXPROF-ARGS: one run; a result line in $tmp/res:
# name ns runs samples frames interp compiled other cpu wall
mixprof_run() {
	local name=$1 env=()
	shift
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	env "${env[@]}" /usr/bin/time -o "$tmp/time" -f '%U %S %e' \
		"${bin:-$BUILD}/mixprof" -v --tiers -F "$HZ" -o "$tmp/out.folded" "$@" \
		>"$tmp/out" 2>"$tmp/err" &
	local tp=$! b=${bin:-$BUILD}/mixprof
	# a build whose -v gives its BPF time is not watched: bpftool and jq
	# three times a second took the CPU javac's rounds measure (its wall
	# 1.33x where its CPU was 1.16x, and none of it in perf's rounds)
	bench_bpf_own "$b" || bench_watch "$tp" mixprof_sample 0.3 >"$tmp/stats"
	wait "$tp" || { tail -5 "$tmp/err" >&2; return 1; }
	bench_bpf_own "$b" && bench_bpf_line "$tmp/err" >"$tmp/stats"
	read -r u s e <"$tmp/time"
	echo "$name $(cat "$tmp/stats") $(frames "$tmp/out.folded") $(awk -v a="$u" -v b="$s" 'BEGIN { print a + b }') $e" >>"$tmp/res"
	# mixprof's own process over its samples: its summary's own cost
	# (-v: getrusage of mixprof alone); a build without that line, the
	# run's CPU less the target's (its summary's), launched runs only
	if grep -q 'its own cost:' "$tmp/err"; then
		sed -n 's/.*its own cost: [0-9.]* s of CPU ([^)]*), \([0-9.]*\) us a sample.*/\1/p' \
			"$tmp/err" | awk -v n="$name" '{ printf "%s %.1f\n", n, $1 }' >>"$tmp/own"
	else
		sed -n 's/.* exited with status .*; CPU \([0-9.]*\) s user, \([0-9.]*\) s system.*/\1 \2/p' \
			"$tmp/err" | awk -v n="$name" -v a="$u" -v b="$s" \
			-v k="$(sed -n 's/^mixprof: \([0-9]*\) samples in .*/\1/p' "$tmp/err")" \
			'k > 0 { printf "%s %.1f\n", n, (a + b - $1 - $2) / k * 1e6 }' >>"$tmp/own"
	fi
	# a BPF_PHASES=1 build's phases (sampler/phases.h), the last run's
	grep 'phase' "$tmp/err" >"$tmp/phases.$name" || true
}

# the cost of a tick of another task: mixprof -p of an idle process
sleep $((SECS + 10)) &
idle=$!
pids+=("$idle")
mixprof_run idle -- -p "$idle" 3 || echo "idle 0 0 0 0 0 0 0 0 0" >>"$tmp/res"
read -r _ ns cnt _ <"$tmp/res"
filter_ns=$((cnt ? ns / cnt : 0))
echo "a tick of another task (mixprof -p of a sleeping process): $filter_ns ns"

# cost NAME: "ns/sample frames/sample ns/frame" of the result line NAME,
# the other tasks' ticks taken off
# (summed over its runs)
cost() {
	awk -v n="$1" -v fns="$filter_ns" '$1 == n {
		own = $2 - ($3 - $4) * fns; if (own < 0) own = $2
		ns += own; smp += $4; fr += $5
	} END {
		s = smp ? ns / smp : 0; f = smp ? fr / smp : 0
		printf "%.0f %.1f %.0f\n", s, f, f ? s / f : 0
	}' "$tmp/res"
}

# awk's medmm(v, n): "median min max" of v[1..n] (sorted in place); the
# callers format them
AWK_MED='function medmm(v, n,   i, j, x) {
	for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
	return (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) " " v[1] " " v[n]
}'

# runs NAME: "median min max" of NAME's ns/sample run by run (the other
# tasks' ticks taken off): the machine's own speed drifts between rounds,
# which the sums of cost() hide
runs() {
	awk -v n="$1" -v fns="$filter_ns" "$AWK_MED"'
	$1 == n && $4 > 0 {
		own = $2 - ($3 - $4) * fns; if (own < 0) own = $2
		v[++k] = own / $4
	} END { if (k) print medmm(v, k) }' "$tmp/res"
}

# pairs A B: "median min max" of A's ns/sample over B's, round by round
# (the k-th run of each: both ran in round k)
pairs() {
	awk -v a="$1" -v b="$2" -v fns="$filter_ns" "$AWK_MED"'
	($1 == a || $1 == b) && $4 > 0 {
		own = $2 - ($3 - $4) * fns; if (own < 0) own = $2
		if ($1 == a) x[++i] = own / $4; else y[++j] = own / $4
	} END {
		for (k = 1; k <= i && k <= j; k++) r[k] = x[k] / y[k]
		if (k > 1) print medmm(r, k - 1)
	}' "$tmp/res"
}

# show_cost LABEL NAME: cost()'s line, then the runs' median and range
show_cost() {
	local ps fr pf md lo hi
	read -r ps fr pf <<<"$(cost "$2")"
	read -r md lo hi <<<"$(runs "$2")"
	printf "  %-12s bpf %6s ns/sample, %5s walked frames/sample, %4s ns/frame; runs: median %.0f, %.0f-%.0f\n" \
		"$1" "$ps" "$fr" "$pf" "${md:-0}" "${lo:-0}" "${hi:-0}"
}

# show_pairs A B: A against B, round by round
show_pairs() {
	local md lo hi
	read -r md lo hi <<<"$(pairs "$1" "$2")"
	if [ -n "$md" ]; then
		printf "  %s / %s, round by round: median %.2fx (%.2f-%.2fx)\n" \
			"$1" "$2" "$md" "$lo" "$hi"
	fi
}

# floor_run NAME ARGS...: bench/floor (floor_bench ARGS: its modes turned
# in turn on the same target, floor.h); its lines appended to $tmp/floor
# as "NAME MODE ns ticks done frames". Nothing when it is not built.
floor_run() {
	local name=$1
	shift
	[ -x "$BUILD/bench/floor_bench" ] || return 0
	"$BUILD/bench/floor_bench" -F "$HZ" "$@" 2>"$tmp/floor.err" >"$tmp/floor.out" ||
		{ echo "floor_bench: $(tail -n 1 "$tmp/floor.err")" >&2; return 0; }
	awk -F'\t' -v n="$name" '{ print n, $1, $2, $3, $4, $5 }' "$tmp/floor.out" >>"$tmp/floor"
}

# show_floor NAME WALK: the floor on NAME's target, summed over its runs,
# beside mixprof's walk (WALK: a cost() name): each mode's ns where it
# applied (a user-mode tick for the frame-pointer loop and the copy, a
# kernel-mode one for the kernel stack), then what they make: a cold
# map line read independently or behind the last read (a walk's chain:
# each frame's facts looked up from the pc the last frame gave), and a
# walk that reads one such line a frame on top of the frame-pointer loop.
show_floor() {
	[ -s "$tmp/floor" ] || return 0
	local walk
	walk=$(cost "$2")
	awk -v n="$1" -v walk="$walk" '$1 == n {
		ns[$2] += $3; ticks[$2] += $4; done[$2] += $5; fr[$2] += $6
	}
	function per(m) { return done[m] ? ns[m] / done[m] : 0 }
	function frames(m) { return done[m] ? fr[m] / done[m] : 0 }
	END {
		if (!done["NOTHING"]) exit
		base = per("NOTHING")
		printf "  the floor on this target (bench/floor, %d ticks a mode; ns where the work applied, less the clock pair %.0f):\n", ticks["NOTHING"], base
		printf "    kernel frame-pointer walk of the user stack %6.0f ns, %4.1f frames\n", per("KERNEL_FP") - base, frames("KERNEL_FP")
		fp = per("FP_LOOP") - base; f = frames("FP_LOOP")
		printf "    frame-pointer loop of reads                  %6.0f ns, %4.1f frames (%.0f ns a frame)\n", fp, f, f ? fp / f : 0
		printf "    one 4 KB copy of the stack                   %6.0f ns\n", per("COPY_4K") - base
		k = per("KSTACK") - base; kt = ticks["KSTACK"] ? done["KSTACK"] / ticks["KSTACK"] : 0
		printf "    kernel stack by the kernel (%4.1f%% of ticks) %6.0f ns each, %4.1f frames: %.0f ns a tick\n", 100 * kt, k, frames("KSTACK"), k * kt
		lp = per("LOOP")
		ind = (per("TOUCH_IND") - lp) / 32; dep = (per("TOUCH_DEP") - lp) / 32; dep2 = (per("TOUCH_DEP2") - lp) / 32
		printf "    a cold map line: %.0f ns read independently, %.0f ns behind the last read (%.0f ns of it a TLB miss)\n", ind, dep, dep - dep2
		split(walk, w, " ")
		if (f < 10)
			printf "    (the frame-pointer loop stops after %.1f frames: this JVM keeps no frame pointers; no walk floor)\n", f
		else if (w[2] > 0) {
			lookup = fp * w[2] / (f ? f : 1) + w[2] * dep + k * kt + base
			printf "    a walk of mixprof'"'"'s %.1f frames reading a dependent line a frame, plus kernel stacks: %.0f ns; mixprof %.0f ns (%.2fx)\n", w[2], lookup, w[1], lookup ? w[1] / lookup : 0
		}
	}' "$tmp/floor"
}

# --- 1) javac -------------------------------------------------------------
if [[ " $PARTS " != *" javac "* ]]; then
	:
elif ! bench_javac "$tmp/javac"; then
	echo "no src.zip for $jdk (Debian: openjdk-17-source): javac skipped"
else
	src=$tmp/javac
	# javac timed inside whatever runs it: its own CPU and wall, what a
	# tool costs the target, apart from the tool's own process
	timed_javac=(/usr/bin/time -o "$tmp/inner" -f '%U %S %e' "${javac_cmd[@]}")
	inner() { awk '{ print $1 + $2, $3 }' "$tmp/inner"; }
	# plain TOOL: javac under TOOL (none; perf-ticks: perf record -F HZ
	# without stacks, the cost of being sampled at all; perf-g, perf-dwarf
	# at 499 Hz; asprof, asprof-10ms); "tool cpu wall target_cpu
	# target_wall" in $tmp/plain (cpu: javac's and the tool's processes;
	# target: javac's own)
	plain() {
		local t=$1 c=("${timed_javac[@]}")
		rm -rf "$src/out"
		case $t in
		none) ;;
		perf-ticks) c=(perf record -q -N -F "$HZ" -o "$tmp/perf.data" -- "${c[@]}") ;;
		perf-g) c=(perf record -q -N -F 499 -g -o "$tmp/perf.data" -- "${c[@]}") ;;
		perf-dwarf) c=(perf record -q -N -F 499 --call-graph dwarf -o "$tmp/perf.data" -- "${c[@]}") ;;
		asprof | asprof-10ms) # 1 ms and 10 ms: mixprof's two rates
			c=("${timed_javac[@]:0:6}" "-J-agentpath:$ASPROF_LIB=start,event=cpu,interval=$([ "$t" = asprof ] && echo 1ms || echo 10ms),file=$tmp/ap.collapsed,collapsed" "${javac_cmd[@]:1}") ;;
		esac
		/usr/bin/time -o "$tmp/time" -f '%U %S %e' "${c[@]}" >/dev/null 2>&1 || true
		read -r u s e <"$tmp/time"
		if [ "${t#perf}" != "$t" ]; then # and perf script, as the profile's reading
			# --no-inline: perf 6.1's addr2line for inlined frames
			# took minutes and stalled on a dwarf profile of javac
			/usr/bin/time -o "$tmp/time" -f '%U %S' perf script --no-inline \
				-i "$tmp/perf.data" >/dev/null 2>&1 || true
			read -r su ss <"$tmp/time"
			u=$(awk -v a="$u" -v b="$su" -v c="$ss" 'BEGIN { print a + b + c }')
		fi
		echo "$t $(awk -v a="$u" -v b="$s" 'BEGIN { print a + b }') $e $(inner)" >>"$tmp/plain"
	}
	tools=(none perf-ticks perf-g perf-dwarf)
	command -v perf >/dev/null || tools=(none)
	[ -r "${ASPROF_LIB:-}" ] && tools+=(asprof asprof-10ms)
	[ "$COMPARE" = 0 ] && tools=(none)
	for _ in $(seq "$REPS"); do
		for t in "${tools[@]}"; do plain "$t"; done
		rm -rf "$src/out"
		mixprof_run javac-hotspot -- -- "${timed_javac[@]}"
		awk -v c="$(tail -n 1 "$tmp/res" | awk '{ print $(NF - 1), $NF }')" \
			-v i="$(inner)" 'BEGIN { print "mixprof-999", c, i }' >>"$tmp/plain"
		rm -rf "$src/out"
		mixprof_run javac-fp MIXPROF_UNWIND=fp -- -- "${javac_cmd[@]}"
		rm -rf "$src/out"
		mixprof_run javac-depth8 -- --stack-depth 8 -- "${javac_cmd[@]}"
		if [ "$COMPARE" != 0 ]; then # the issue's other rate: 99 Hz
			rm -rf "$src/out"
			HZ=99 mixprof_run javac-99 -- -- "${timed_javac[@]}"
			awk -v c="$(tail -n 1 "$tmp/res" | awk '{ print $(NF - 1), $NF }')" \
				-v i="$(inner)" 'BEGIN { print "mixprof-99", c, i }' >>"$tmp/plain"
		fi
		if [ -n "${BASE_BUILD:-}" ]; then
			rm -rf "$src/out"
			bin=$BASE_BUILD mixprof_run javac-base -- -- "${javac_cmd[@]}"
		fi
		rm -rf "$src/out" # frame pointers, for the floor's walks
		floor_run javac -- "${javac_cmd[0]}" -J-XX:+PreserveFramePointer "${javac_cmd[@]:1}"
	done
	echo "javac, 100 sources of java/util, launched at $HZ Hz ($REPS rounds)"
	for m in hotspot fp depth8 ${BASE_BUILD:+base}; do
		show_cost "$m" "javac-$m"
	done
	echo "  (depth8: the walk cut at 8 frames, --stack-depth 8: what a sample pays up to its 8th frame, the rest of the walk the difference)"
	if [ -n "${BASE_BUILD:-}" ]; then show_pairs javac-hotspot javac-base; fi
	show_floor javac javac-hotspot
	awk "$AWK_MED"'{ v[$1] = v[$1] " " $2 }
	END { for (m in v) if (m ~ /^javac-(hotspot|base)$/) {
		split(medmm(a, split(v[m], a, " ")), r, " ")
		printf "  %-8s mixprof'"'"'s own process %.1f us/sample (its summary'"'"'s own cost, medians)\n", substr(m, 7), r[1] } }' "$tmp/own" 2>/dev/null | sort
	# built with BPF_PHASES=1: where the last javac sample's time went
	sed 's/^mixprof: */  /' "$tmp/phases.javac-hotspot"
	awk '$1 == "javac-hotspot" { t += $4; i += $6; c += $7; o += $8 }
		END { if (t) printf "  frames by kind (hotspot): %.1f interpreted, %.1f compiled, %.1f native or stub per sample\n", i / t, c / t, o / t }' "$tmp/res"
	# against javac alone, round by round (the k-th run of each tool ran
	# in round k; the machine drifts between rounds): medians and ranges
	awk "$AWK_MED"'{
		k = ++n[$1]; cpu[$1, k] = $2; tc[$1, k] = $4; tw[$1, k] = $5
	}
	function show(t, a,   k, m, r) {
		for (k = 1; k <= n[t] && k <= n["none"]; k++)
			r[k] = a["none", k] ? a[t, k] / a["none", k] : 0
		split(medmm(r, k - 1), m, " ")
		return sprintf("%.2fx (%.2f-%.2f)", m[1], m[2], m[3])
	}
	END {
		for (k = 1; k <= n["none"]; k++) { c[k] = tc["none", k]; w[k] = tw["none", k] }
		split(medmm(c, n["none"]), c0, " "); split(medmm(w, n["none"]), w0, " ")
		printf "  javac alone: %.2f s CPU, %.2f s wall (medians); under each tool, javac'"'"'s own and with the tool'"'"'s process, round by round:\n", c0[1], w0[1]
		for (t in n) if (t != "none")
			printf "  %-12s javac'"'"'s CPU %s, wall %s; with the tool'"'"'s process CPU %s\n", t, show(t, tc), show(t, tw), show(t, cpu)
	}' "$tmp/plain"
	# what mixprof's runs cost that can be counted, without the rounds'
	# noise: its BPF time (the other tasks' ticks off) and its own
	# process (-v's own cost), over javac alone's CPU (its median)
	awk -v fns="$filter_ns" "$AWK_MED"'
	FILENAME ~ /plain$/ { if ($1 == "none") a[++na] = $4; next }
	FILENAME ~ /own$/ { k = ++no[$1]; us[$1, k] = $2; next }
	$1 == "javac-hotspot" || $1 == "javac-99" {
		k = ++nr[$1]; b = $2 - ($3 - $4) * fns; if (b < 0) b = $2
		bpf[$1, k] = b / 1e9; smp[$1, k] = $4
	}
	END {
		if (!na) exit
		split(medmm(a, na), c0, " ")
		for (m in nr) {
			for (k = 1; k <= nr[m]; k++) { x[k] = bpf[m, k]; y[k] = us[m, k] * smp[m, k] / 1e6 }
			split(medmm(x, nr[m]), xb, " "); split(medmm(y, nr[m]), yo, " ")
			printf "  %-12s counted: BPF %.2f s + its own process %.2f s = %.2fx of javac alone'"'"'s %.2f s (medians; the rest of a ratio above is interference and noise)\n", m, xb[1], yo[1], 1 + (xb[1] + yo[1]) / c0[1], c0[1]
		}
	}' "$tmp/plain" "$tmp/own" "$tmp/res"
fi

# --- 2) Tomcat under ab ----------------------------------------------------
# (bench_tomcat: Debian's Tomcat 10 serving a JSP under ab -c 4), mixprof -p
# for SECS
if [[ " $PARTS " != *" tomcat "* ]]; then
	:
elif bench_tomcat "$tmp/tomcat"; then
	for _ in $(seq "$REPS"); do
		mixprof_run tomcat -- -p "$tpid" "$SECS"
		[ -n "${BASE_BUILD:-}" ] &&
			bin=$BASE_BUILD mixprof_run tomcat-base -- -p "$tpid" "$SECS"
		floor_run tomcat -p "$tpid" "$SECS"
	done
	echo "Tomcat 10 under ab -c 4, mixprof -p for $SECS s at $HZ Hz ($REPS rounds)"
	for m in tomcat ${BASE_BUILD:+tomcat-base}; do
		show_cost "$m" "$m"
	done
	if [ -n "${BASE_BUILD:-}" ]; then show_pairs tomcat tomcat-base; fi
	show_floor tomcat tomcat
	sed 's/^mixprof: */  /' "$tmp/phases.tomcat"
	kill "${pids[@]}" 2>/dev/null || true
	pids=()
else
	echo "Tomcat: $tomcat_why: skipped"
	kill "${pids[@]}" 2>/dev/null || true
	pids=()
fi

# --- 3) by kind of frame ---------------------------------------------------
[[ " $PARTS " == *" kinds "* ]] || exit 0
# kind NAME MODE JAVA-OPTS...: Recurse 300 deep under mixprof -p
kind() {
	local name=$1 mode=$2
	shift 2
	java -agentpath:"$BUILD/libjmap.so" "$@" -cp "$BUILD/samples" Recurse $((SECS + 8)) 300 >/dev/null &
	load=$!
	sleep 3 # past start-up, compiled where it will be
	mixprof_run "$name" MIXPROF_UNWIND="$mode" -- -p "$load" "$SECS"
	kill "$load"; wait "$load" 2>/dev/null || true
	load=
}
kind interpreted hotspot -Xint
kind compiled hotspot
kind compiled-pfp hotspot -XX:+PreserveFramePointer
kind compiled-fp fp -XX:+PreserveFramePointer
# native: tests/fixtures/unwind/nofp.c built with frame pointers, through
# glibc's qsort (none there): by rows, and by frame pointer alone
cc -O2 -fno-omit-frame-pointer -o "$tmp/withfp" "$TOP/tests/fixtures/unwind/nofp.c"
for m in hotspot fp; do
	"$tmp/withfp" $((SECS + 6)) &
	load=$!
	sleep 1
	mixprof_run "native-$m" MIXPROF_UNWIND="$m" -- -p "$load" "$SECS"
	kill "$load"; wait "$load" 2>/dev/null || true
	load=
done
echo "frames by kind: Recurse 300 deep (interpreted: -Xint; -pfp: -XX:+PreserveFramePointer), nofp.c (native), mixprof -p for $SECS s at $HZ Hz"
for n in interpreted compiled compiled-pfp compiled-fp native-hotspot native-fp; do
	read -r ps fr pf <<<"$(cost "$n")"
	printf "  %-12s bpf %6s ns/sample, %5s walked frames/sample, %4s ns/frame\n" "$n" "$ps" "$fr" "$pf"
done
a=$(cost compiled-pfp | awk '{ print $3 }')
b=$(cost compiled-fp | awk '{ print $3 }')
awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { if (b) printf "  compiled frame, HotSpot walk / frame-pointer walk: %.2fx per frame\n", a / b }'
exit 0
