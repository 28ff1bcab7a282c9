// node docs_shots.mjs DIR OUTDIR: the README's pictures from a real run
// (mixprof -i 2 --montage DIR --heatmap DIR -- java ... Warmup 12):
// OUTDIR/warmup-montage.png (the index), OUTDIR/warmup-heatmap.png (a range
// and its flame graph). Modest viewports keep each PNG small.
import { launch, openPage } from "./lib.mjs";
import { join } from "node:path";

const [dir, outdir] = process.argv.slice(2);
const { browser, close } = await launch();
try {
	const page = await openPage(browser, join(dir, "index.html"),
		{ width: 1000, height: 600 });
	await page.screenshot({ path: join(outdir, "warmup-montage.png"), fullPage: true });

	const heat = await openPage(browser, join(dir, "heatmap.html"),
		{ width: 1000, height: 760 });
	const cell = (sec, row) => heat.evaluate(([s, r]) =>
		window.mixprofHeat.cellRect(s, r), [sec, row]);
	// from 4 s + 0 ms to 6 s + 980 ms: three warm seconds
	const a = await cell(4, 0), b = await cell(6, 49);
	await heat.mouse.move(a.x + 3, a.y + 3);
	await heat.mouse.down();
	await heat.mouse.move(b.x + 3, b.y + 3, { steps: 6 });
	await heat.mouse.up();
	await heat.mouse.move(990, 5); // no tooltip in the picture
	await heat.screenshot({ path: join(outdir, "warmup-heatmap.png"), fullPage: true });
	if (page.errors.length || heat.errors.length)
		throw new Error(page.errors.concat(heat.errors).join("; "));
} finally {
	await close();
}
