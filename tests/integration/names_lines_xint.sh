#!/usr/bin/env bash
# --lines on interpreted frames: Ratio launched under -Xint (every frame
# interpreted; no agent). The line of a frame is read from its bytecode
# pointer at sample time (the running frame's r13, a caller's bcp slot)
# and the method's line table; ground truth is Ratio.java itself:
# - every one/two/three frame with a line lies in that method (>= 99%);
# - a leaf one/two/three frame runs its inner loop (the "for" line or the
#   one after it) in >= 90% (the slot alone would still hold the line of
#   the last call, cpu(), on the "while" line);
# - the lambda's frame under one/two/three is on the line that calls it
#   (>= 99%).
# And, with no agent and so no map, JVM stubs by their CodeBlob's name:
# the call stub between JavaCalls::call_helper and the first Java frame
# is "StubRoutines (...)" (>= 99%). On every JDK.
. "$(dirname "$0")/../lib/common.sh"

src=$TOP/samples/Ratio.java
RANGES=$TMPD/ranges CALLS=$TMPD/calls # of the source, for every JDK
# "name first last loop": each method's body and its inner loop's line
awk '/^\tstatic [a-z]+ [a-z]+\(/ { m = $3; sub(/\(.*/, "", m); first = NR; loop = 0 }
     m && /for \(int i/ { loop = NR }
     m && /^\t}/ { print m, first, NR, loop; m = "" }' "$src" >"$RANGES"
# "name line": the lambda's call of each
awk '/^\t+(one|two|three)\(/ { sub(/^\t+/, ""); sub(/\(.*/, ""); print $0, NR }' "$src" >"$CALLS"
[ "$(grep -c . "$RANGES")" -ge 4 ] && [ "$(grep -c . "$CALLS")" = 3 ] ||
	die "no ranges or calls from $src"

# check_jdk JDK: one JDK's interpreted lines (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	f=$TMPD/xint.folded
	"$MIXPROF" -F 999 --lines --tiers -o "$f" -- "$jdk/bin/java" -Xint \
		-cp "$SAMPLES" Ratio 3 >/dev/null 2>"$TMPD/err" ||
		die "mixprof failed: $(cat "$TMPD/err")"
	awk 'FILENAME ~ /ranges$/ { lo[$1] = $2; hi[$1] = $3; loop[$1] = $4; next }
	FILENAME ~ /calls$/ { call[$1] = $2; next }
	{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		k = split(line, fr, ";")
		for (i = 1; i < k; i++)
			if (fr[i] == "JavaCalls::call_helper" && fr[i + 2] ~ /_\[0\]$/) {
				calls_stub += n
				if (fr[i + 1] ~ /^StubRoutines \(/) stub += n
				else if (bads++ < 3) print "call stub named " fr[i + 1]
			}
		for (i = 1; i <= k; i++) {
			if (!match(fr[i], /^Ratio\.(one|two|three):[0-9]+_\[0\]$/))
				continue
			s = fr[i]; sub(/^Ratio\./, "", s); sub(/_\[0\]$/, "", s)
			split(s, ml, ":"); m = ml[1]; l = ml[2] + 0
			all += n
			if (l >= lo[m] && l <= hi[m]) ok += n
			else if (bad++ < 3) print "outside " m ": " fr[i]
			if (i == k || fr[i + 1] !~ /^Ratio\./) {
				leaf += n
				if (l == loop[m] || l == loop[m] + 1) inloop += n
			}
			if (i > 1 && match(fr[i - 1], /^Ratio\.lambda\$main\$0:[0-9]+_\[0\]$/)) {
				c = fr[i - 1]; sub(/^[^:]*:/, "", c); sub(/_.*/, "", c)
				callers += n
				if (c + 0 == call[m]) callok += n
				else if (badc++ < 3) print "call of " m " on " c ", not " call[m]
			}
		}
	}
	END {
		printf "%d of %d interpreted one/two/three frames in their method, %d of %d leaves in the inner loop, %d of %d callers on the call line, %d of %d call stubs named by their CodeBlob\n", ok, all, inloop, leaf, callok, callers, stub, calls_stub
		exit !(calls_stub >= 50 && stub >= 0.99 * calls_stub &&
		       all >= 100 && ok >= 0.99 * all && leaf >= 100 &&
		       inloop >= 0.9 * leaf && callers >= 20 &&
		       callok >= 0.99 * callers)
	}' "$RANGES" "$CALLS" "$f" || die "interpreted lines wrong on $jdk"
}

each_jdk check_jdk
echo ok
