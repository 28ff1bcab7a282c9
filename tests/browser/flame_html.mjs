// node flame_html.mjs GRAPH.html [BIG.html|BIG.svg ...]: the canvas page
// in headless chromium: click zooms, Reset Zoom restores, search
// highlights and shows the share, tooltips name the frame. Each BIG file
// (a 100k-line profile) loads and zooms; its load, draw and zoom times are
// printed ("BENCH" lines), never asserted: a loaded machine stretches them.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { basename, join } from "node:path";

export async function run(browser, [file, ...bigs]) {
	const page = await openPage(browser, file);
	const shots = shotDir();
	const rect = (name) => page.evaluate((name) => {
		const f = window.mixprofFlame;
		return f.rectOf(f.find(name));
	}, name);
	const work = "com/acme/App.work_[j]";
	const r0 = await rect(work);
	check(r0 && r0.w > 100, `${work} drawn, width ${r0 && r0.w}`);
	await page.mouse.move(r0.x + r0.w / 2, r0.y + 5);
	const tip = await page.textContent(".fg-tip");
	check(tip === `${work} (70 samples, 52.63%)`, `tooltip '${tip}'`);
	await page.mouse.click(r0.x + r0.w / 2, r0.y + 5);
	const r1 = await rect(work);
	check(r1.w > r0.w * 1.8, `zoomed width ${r1.w} > ${r0.w}`);
	check(await rect("Compile::Compile") === null, "unrelated frame hidden");
	check(await page.isEnabled(".fg-reset"), "Reset Zoom enabled");
	await page.screenshot({ path: join(shots, "flamegraph-html-zoomed.png"), fullPage: true });
	await page.click(".fg-reset");
	const r2 = await rect(work);
	check(Math.abs(r2.w - r0.w) < 0.01, `reset width ${r2.w}`);
	await page.fill(".fg-q", "App\\.(hash|main)");
	await page.press(".fg-q", "Enter");
	const m = await page.textContent(".fg-matched");
	check(m === "Matched: 63.9% (85 samples)", `matched '${m}'`);
	check(await page.evaluate(() => window.mixprofFlame.hits) === 2, "two frames highlighted");
	await page.screenshot({ path: join(shots, "flamegraph-html-search.png"), fullPage: true });
	await page.click(".fg-clear");
	check(await page.textContent(".fg-matched") === "", "search cleared");
	await page.keyboard.press("Control+f");
	check(await page.evaluate(() => document.activeElement.className) === "fg-q",
		"Ctrl-F focuses the search box");
	check(page.errors.length === 0, "no page errors: " + page.errors.join("; "));

	for (const f of bigs) {
		const p = await browser.newPage();
		const t0 = Date.now();
		await p.goto("file://" + f);
		await p.evaluate(() => new Promise((r) =>
			requestAnimationFrame(() => requestAnimationFrame(r))));
		const load = Date.now() - t0;
		const kind = f.endsWith(".svg") ? "svg" : "html";
		const label = basename(f).replace(/\./g, "_");
		let extra = "";
		if (kind === "html") {
			const draw = await p.getAttribute(".fg", "data-draw-ms");
			// a zoom redraws everything: the page must stay responsive
			const z = await p.evaluate(() => {
				const f = window.mixprofFlame, t = performance.now();
				f.zoom(f.byDepth[3][0]);
				f.zoom(0);
				return (performance.now() - t) / 2;
			});
			extra = ` draw_ms=${draw} zoom_ms=${z.toFixed(1)}`;
			check(Number.isFinite(z), "zoom and back redrawn");
		} else {
			const t = Date.now();
			await p.evaluate(() => {
				const m = window.mixprofFlame;
				m.zoom(m.frames[5]);
				m.zoom(m.frames[0]);
			});
			extra = ` zoom_ms=${((Date.now() - t) / 2).toFixed(1)}`;
		}
		console.log(`BENCH browser ${label} load_ms=${load}${extra}`);
		await p.screenshot({ path: join(shots, `flamegraph-${label}.png`) });
		check(await p.evaluate(() => !!window.mixprofFlame), `${label} loads`);
		await p.close();
	}
}

await main(import.meta.url, run);
