# Sourced by the tests that drive headless chromium (tests/browser/*.mjs)
# after common.sh: sets B to tests/browser and makes sure chromium and
# the browser scripts' node modules (npm ci, once per checkout) are there.
B=$TOP/tests/browser
command -v chromium > /dev/null || die "chromium is not installed (scripts/deps.sh)"
if [ ! -d "$B/node_modules/playwright-core" ]; then
	npm ci --prefix "$B" --no-audit --no-fund > "$TMPD/npm.log" 2>&1 ||
		die "npm ci failed: $(tail -5 "$TMPD/npm.log")"
fi
