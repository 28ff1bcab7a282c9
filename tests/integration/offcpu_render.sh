#!/usr/bin/env bash
# Off-CPU time through every output, on Waits (samples/Waits.java) with
# the first JDK: the flame graph, the montage's slice graphs and the heat
# map name the unit ("us off-CPU") instead of samples, the graphs are in
# the blue palette only; the slices (-i) add up to the whole run; a pprof
# file's sample type is off_cpu/microseconds and `go tool pprof` reads
# the same total as the folded text of a run of the same length.
. "$(dirname "$0")/../lib/common.sh"

command -v go >/dev/null || die "go (golang-go) is needed to read pprof files"
export GOCACHE=$TMPD/gocache HOME=$TMPD # go wants a writable cache
all_jdks=($(jdks))
java=${all_jdks[0]}/bin/java

"$MIXPROF" --off-cpu --svg "$TMPD/g.svg" -i 1 --montage "$TMPD/m" \
	--heatmap "$TMPD/h" -- "$java" -cp "$SAMPLES" Waits 2 \
	>"$TMPD/truth" 2>"$TMPD/err" || { cat "$TMPD/err"; die "mixprof failed"; }
written=$(sed -n 's/^mixprof: .*, \([0-9.]*\) s off-CPU written;.*/\1/p' "$TMPD/err")
[ -n "$written" ] || { cat "$TMPD/err"; die "no off-CPU total in the summary"; }
for f in "$TMPD/g.svg" "$TMPD/m/slice-0001.svg" "$TMPD/h/heatmap.html"; do
	grep -q 'us off-CPU' "$f" || die "$f does not name the unit"
done
# every coloured frame blue: blue well above red and green
grep -o 'fill="#[0-9a-f]\{6\}"' "$TMPD/g.svg" | cut -c8-13 | sort -u |
	awk 'function hex(s) { return 16 * (index("0123456789abcdef", substr(s, 1, 1)) - 1) + index("0123456789abcdef", substr(s, 2, 1)) - 1 }
	     { r = hex(substr($1, 1, 2)); g = hex(substr($1, 3, 2)); b = hex(substr($1, 5, 2))
	       if (r == g && g == b) next	# greys: background, delimiter
	       n++; if (b <= r || b <= g) bad++ }
	     END { if (!n || bad) { print n " colours, " bad " not blue"; exit 1 } }' ||
	die "the graph is not blue"
slices=$(awk 'NR > 1 { t += $4 } END { print t / 1e6 }' "$TMPD/m/slices.tsv")
awk -v a="$slices" -v b="$written" 'BEGIN { d = a - b; exit !(d < 0.002 && d > -0.002) }' ||
	die "slices add up to $slices s, the run wrote $written s"
note "graphs blue, in us; slices $slices s = run $written s"

"$MIXPROF" --off-cpu --per-thread -o "$TMPD/r.pb.gz" -- "$java" -cp \
	"$SAMPLES" Waits 1 >/dev/null 2>"$TMPD/err2" ||
	{ cat "$TMPD/err2"; die "mixprof failed"; }
go tool pprof -raw "$TMPD/r.pb.gz" >"$TMPD/raw" 2>&1 || die "pprof -raw"
grep -q 'off_cpu/microseconds' "$TMPD/raw" || { head "$TMPD/raw"; die "sample type"; }
got=$(awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 }
	   on && $1 ~ /^[0-9]+:?$/ { t += $1 + 0 } END { print t + 0 }' "$TMPD/raw")
us=$(sed -n 's/^mixprof: .*, \([0-9.]*\) s off-CPU written;.*/\1/p' "$TMPD/err2")
awk -v a="$got" -v b="$us" 'BEGIN { d = a / 1e6 - b; exit !(a > 0 && d < 0.002 && d > -0.002) }' ||
	die "pprof reads $got us, the run wrote $us s"
grep -q 'SocketDispatcher.read0' "$TMPD/raw" || die "no Java frames in pprof"
note "pprof: $got us off_cpu/microseconds"
echo ok
