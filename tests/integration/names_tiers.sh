#!/usr/bin/env bash
# Frame kinds from the JVM's own metadata, no agent: Ratio's worker
# under -Xint (every Java frame "_[0]", >= 95%), with
# -XX:TieredStopAtLevel=1 (C1 only: its hot methods one/two/three "_[1]")
# and with -XX:-TieredCompilation (C2 only: "_[j]", or "_[i]" where
# inlined; never "_[1]"). Hot methods are counted where the worker's
# samples have them; the first moments (interpreted) keep the share of
# compiled ones under 100%. (Native methods' wrappers are "_[j]" in every
# mode: compiled code, no tier.) On every JDK, with --tiers (the default
# folded text writes all three as "_[j]", for flamegraph.pl).
. "$(dirname "$0")/../lib/common.sh"

# kinds FILE: "N0 N1 Nj Ni" over the worker's Java frames (all), then the
# same over its one/two/three frames
kinds() {
	awk '/;ratio-worker \[/ {
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";")
		for (i = 1; i <= k; i++) {
			if (!match(fr[i], /_\[[01ji]\]$/)) continue
			s = substr(fr[i], RSTART + 2, 1)
			all[s] += n
			if (fr[i] ~ /^Ratio\.(one|two|three)_/) hot[s] += n
		}
	}
	END {
		printf "%d %d %d %d %d %d %d %d\n", all[0], all[1], all["j"], all["i"],
			hot[0], hot[1], hot["j"], hot["i"]
	}' "$1"
}

for jdk in $(jdks); do
	for mode in -Xint -XX:TieredStopAtLevel=1 -XX:-TieredCompilation; do
		f=$TMPD/tiers.folded
		# runs of 1 s (~600-950 samples of one/two/three on a quiet
		# machine, of which a dozen before the JIT's; 2 s gave twice
		# as many for the same shares); a starved worker (a busy
		# machine): again
		for try in 1 2 3; do
			nice -n 5 "$MIXPROF" -F 999 --per-thread --tiers -o "$f" -- \
				nice -n -15 "$jdk/bin/java" "$mode" -cp "$SAMPLES" \
				Ratio 1 >/dev/null 2>"$TMPD/err"
			grep -q "exited with status 0" "$TMPD/err" ||
				die "Ratio failed: $(cat "$TMPD/err")"
			read -r a0 a1 aj ai h0 h1 hj hi < <(kinds "$f")
			all=$((a0 + a1 + aj + ai)) hot=$((h0 + h1 + hj + hi))
			note "JDK $(basename "$jdk") $mode: Java frames _[0] $a0 _[1] $a1 _[j] $aj _[i] $ai; one/two/three _[0] $h0 _[1] $h1 _[j] $hj _[i] $hi"
			[ "$hot" -lt 200 ] || break
		done
		[ "$hot" -ge 200 ] || die "too few worker samples ($hot)"
		case $mode in
		-Xint)
			[ $((a0 * 100)) -ge $((all * 95)) ] ||
				die "$mode: under 95% of Java frames _[0]" ;;
		*Level=1)
			[ $((h1 * 100)) -ge $((hot * 80)) ] && [ "$hj" = 0 ] ||
				die "$mode: hot code not _[1]" ;;
		*)
			[ $(((hj + hi) * 100)) -ge $((hot * 80)) ] &&
				[ "$a1" = 0 ] || die "$mode: hot code not _[j]/_[i]" ;;
		esac
	done
done
echo ok
