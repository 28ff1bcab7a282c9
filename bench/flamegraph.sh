#!/usr/bin/env bash
# Renderer cost: mixprof flamegraph on 100k distinct folded stacks (C: tree
# build + SVG/HTML write), and the pages' load/draw time in headless
# chromium (from tests/browser/flame_html.mjs). flamegraph.pl is compared
# only when it is installed; it is never downloaded.
set -euo pipefail
: "${BUILD:?}" "${TOP:?}"
M=$BUILD/mixprof B=$TOP/tests/browser
T=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
node "$B/gen_folded.mjs" 100000 > "$T/big.folded"
echo "input: $(wc -l < "$T/big.folded") lines, $(stat -c %s "$T/big.folded") bytes"

# best of 3, in ms
best() {
	local b=999999 s e i
	for i in 1 2 3; do
		s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N)
		[ $(((e - s) / 1000000)) -lt $b ] && b=$(((e - s) / 1000000))
	done
	echo $b
}
svg=$(best "$M" flamegraph "$T/big.folded")
html=$(best "$M" flamegraph --html "$T/big.folded")
all=$(best "$M" flamegraph --minwidth 0 "$T/big.folded")
"$M" flamegraph "$T/big.folded" > "$T/big.svg"
"$M" flamegraph --html "$T/big.folded" > "$T/big.html"
echo "mixprof flamegraph (svg):           ${svg} ms, $(stat -c %s "$T/big.svg") bytes"
echo "mixprof flamegraph --html:          ${html} ms, $(stat -c %s "$T/big.html") bytes"
echo "mixprof flamegraph --minwidth 0:    ${all} ms (every frame kept)"
if command -v flamegraph.pl > /dev/null; then
	pl=$(best flamegraph.pl "$T/big.folded")
	echo "flamegraph.pl:                      ${pl} ms (ratio $(awk "BEGIN { printf \"%.1f\", $pl / ($svg ? $svg : 1) }")x)"
else
	echo "flamegraph.pl: not installed, not compared"
fi

# Browser side: reuse the page test on a tiny graph plus the big ones.
node "$B/fixtures.mjs" "$T/fx"
"$M" flamegraph --html "$T/fx/mixprof.folded" > "$T/small.html" 2> /dev/null
[ -d "$B/node_modules/playwright-core" ] || npm ci --prefix "$B" --no-audit --no-fund > /dev/null 2>&1
cp "$T/big.html" "$T/100k.html"
cp "$T/big.svg" "$T/100k.svg"
"$M" flamegraph --html --minwidth 0 "$T/big.folded" > "$T/100k-all.html"
echo "browser (100k: default minwidth; 100k-all: every frame, $(stat -c %s "$T/100k-all.html") bytes):"
BUILD=$T node "$B/flame_html.mjs" "$T/small.html" "$T/100k.html" "$T/100k-all.html" "$T/100k.svg" |
	sed -n 's/^BENCH //p'
