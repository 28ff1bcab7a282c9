#!/usr/bin/env bash
# mixprof --svg/--html: the run's folded result drawn directly. The graph
# is well-formed, holds exactly the samples of the folded file written
# alongside (-o), and is titled after what was profiled; without -o no
# folded text is printed; a bad output path fails before profiling.
. "$(dirname "$0")/../lib/common.sh"

# launch mode, with -o as well
"$MIXPROF" -F 499 -o "$TMPD/run.folded" --svg "$TMPD/run.svg" \
	--html "$TMPD/run.html" -- java -cp "$SAMPLES" Warmup 3 \
	> "$TMPD/out" 2> "$TMPD/err" || die "$(cat "$TMPD/err")"
cat "$TMPD/err"
xmllint --noout "$TMPD/run.svg" || die "run.svg is not well-formed"
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMPD/run.folded")
written=$(sed -n 's/.* \([0-9]*\) written$/\1/p' "$TMPD/err")
[ "$total" -gt 300 ] || die "only $total samples"
[ "$total" = "$written" ] || die "folded holds $total, run wrote $written"
svg_total=$(awk 'match($0, /<g class="f" data-n="[0-9]+"/) {
	s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); print s; exit }' \
	"$TMPD/run.svg")
[ "$svg_total" = "$total" ] || die "svg root holds $svg_total, folded $total"
html_total=$(node -e '
	const t = require("fs").readFileSync(process.argv[1], "utf8");
	const m = /<script type="application\/json" id="fg-data">([^]*?)<\/script>/.exec(t);
	console.log(JSON.parse(m[1]).v[0]);' "$TMPD/run.html")
[ "$html_total" = "$total" ] || die "html root holds $html_total, folded $total"
grep -q '<text id="title"[^>]*>mixprof: java -cp [^<]* Warmup 3<' "$TMPD/run.svg" ||
	die "default title: $(grep -o '<text id="title"[^<]*' "$TMPD/run.svg")"
grep -q "<text id=\"subtitle\"[^>]*>[-0-9: ]*, [0-9.]* s at 499 Hz, $total samples<" \
	"$TMPD/run.svg" || die "subtitle: $(grep -o '<text id="subtitle"[^<]*' "$TMPD/run.svg")"
! grep -q '^java;' "$TMPD/out" || die "folded text on stdout although -o was given"

# whole host, --svg without -o: nothing on stdout; --title
"$MIXPROF" -F 99 --svg "$TMPD/host.svg" --title 'host <1>' 1 \
	> "$TMPD/out2" 2> "$TMPD/err2" || die "$(cat "$TMPD/err2")"
[ ! -s "$TMPD/out2" ] || die "folded text on stdout with --svg and no -o"
xmllint --noout "$TMPD/host.svg" || die "host.svg is not well-formed"
grep -q '<text id="title"[^>]*>host &lt;1&gt;<' "$TMPD/host.svg" || die "--title"

# a bad path fails at once, before profiling: an hour asked, so failing
# only after the run would hit the runner's time limit; no summary line
if "$MIXPROF" --svg /nonexistent/dir/x.svg 3600 2> "$TMPD/err3"; then
	die "--svg to a missing directory succeeded"
fi
grep -q '/nonexistent/dir/x.svg' "$TMPD/err3" || die "error: $(cat "$TMPD/err3")"
! grep -qE ' in [0-9.]+ s' "$TMPD/err3" || die "a bad --svg path failed only after a run"
echo ok
