#!/usr/bin/env bash
# --lines: Ratio (a JVM with no flag, no agent) profiled from launch; its
# compiled frames one/two/three/cpu carry ":LINE", which must lie in that
# method's body as Ratio.java has it (>= 99%; the lines are read from the
# nmethod's debug info: pc -> bci -> the method's line table). On every
# JDK.
. "$(dirname "$0")/../lib/common.sh"

src=$TOP/samples/Ratio.java
# the body lines of each method: "name first last"
awk '/^\tstatic [a-z]+ [a-z]+\(/ { m = $3; sub(/\(.*/, "", m); first = NR }
     m && /^\t}/ { print m, first, NR; m = "" }' "$src" >"$TMPD/ranges"
grep -q '^one ' "$TMPD/ranges" || die "no ranges from $src"

for jdk in $(jdks); do
	f=$TMPD/lines.folded
	"$MIXPROF" -F 999 --lines -o "$f" -- "$jdk/bin/java" -cp "$SAMPLES" \
		Ratio 3 >/dev/null 2>"$TMPD/err" ||
		die "mixprof failed: $(cat "$TMPD/err")"
	awk 'FNR == NR { lo[$1] = $2; hi[$1] = $3; next }
	{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";")
		for (i = 1; i <= k; i++) {
			if (!match(fr[i], /^Ratio\.[a-z]+:[0-9]+_\[[1ji]\]$/)) continue
			s = fr[i]; sub(/^Ratio\./, "", s); sub(/_\[.\]$/, "", s)
			split(s, ml, ":")
			if (!(ml[1] in lo)) continue
			all += n
			if (ml[2] + 0 >= lo[ml[1]] && ml[2] + 0 <= hi[ml[1]]) ok += n
			else if (bad++ < 3) print "outside " ml[1] " (" lo[ml[1]] "-" hi[ml[1]] "): " fr[i]
		}
	}
	END {
		printf "%d of %d compiled Ratio frames on a line of their method\n", ok, all
		exit !(all >= 200 && ok >= 0.99 * all)
	}' "$TMPD/ranges" "$f" || die "lines wrong on $jdk"
done
echo ok
