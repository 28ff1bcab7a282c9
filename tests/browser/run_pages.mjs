// node run_pages.mjs DIR: the pages of a real run (mixprof -i 1 --montage
// DIR --heatmap DIR -- java ...) in headless chromium. The montage index
// has a card per row of DIR/slices.tsv, in time order, and a thumbnail
// click opens that slice's interactive graph with the slice's samples;
// in the heat map, a dragged range's flame graph holds exactly the samples
// of the selected cells, which are those of DIR/samples.timed.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function run(browser, [dir]) {
	const rows = readFileSync(join(dir, "slices.tsv"), "utf8").split("\n")
		.filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t"));
	const timed = readFileSync(join(dir, "samples.timed"), "utf8").split("\n")
		.filter((l) => l && !l.startsWith("#"))
		.map((l) => { const w = l.split(" "); return [+w[0], +w[w.length - 1]]; });
	const sum = (t0, t1) => timed.filter((s) => s[0] >= t0 && s[0] < t1)
		.reduce((a, s) => a + s[1], 0);

	const shots = shotDir();
	const page = await openPage(browser, join(dir, "index.html"));
	const cards = await page.$$eval(".mt-card", (cs) => cs.map((c) => ({
		label: c.querySelector("h2").textContent,
		samples: +c.getAttribute("data-samples"),
		index: c.getAttribute("data-index"),
	})));
	check(cards.length === rows.length, `${cards.length} cards, ${rows.length} slices`);
	check(cards.every((c, i) => c.index === rows[i][0] && c.samples === +rows[i][3]),
		"cards in slice order with the slices' samples");
	const starts = cards.map((c) => parseFloat(c.label));
	check(starts.every((s, i) => s === i), `labels start 0, 1, 2..: ${starts.join(",")}`);
	const last = cards[cards.length - 1].label;
	check(last.endsWith("(partial)") === (rows[rows.length - 1][5] === "1"),
		`last label '${last}' marks the partial slice`);
	await page.screenshot({ path: join(shots, "run-montage.png"), fullPage: true });

	// click the second thumbnail: its full graph opens, interactive
	await Promise.all([page.waitForNavigation(),
		page.click(".mt-card:nth-child(2) .mt-thumb")]);
	check(page.url().endsWith("/slice-0001.svg"), `opened ${page.url()}`);
	const rootN = await page.getAttribute("g.f", "data-n");
	check(+rootN === +rows[1][3], `slice 1 graph holds ${rootN} of ${rows[1][3]} samples`);
	const sub = await page.textContent("#subtitle");
	check(/^slice 1: 1\.000-2\.000 s$/.test(sub), `subtitle '${sub}'`);
	// a frame narrower than the root, wide enough to hit (scrolled to:
	// a deep graph is taller than the window)
	const i = await page.$$eval("g.f", (gs) => {
		const n0 = +gs[0].getAttribute("data-n");
		return gs.findIndex((g) => +g.getAttribute("data-n") < n0 &&
			g.querySelector("rect").getBoundingClientRect().width > 20);
	});
	await page.locator("g.f").nth(i).locator("rect").click();
	check(await page.isVisible("#unzoom"), "slice graph zooms");
	await page.screenshot({ path: join(shots, "run-slice.png") });
	check(page.errors.length === 0, "no montage page errors: " + page.errors.join("; "));

	// the heat map: the whole run first, then a dragged range
	const heat = await openPage(browser, join(dir, "heatmap.html"));
	const all = +(await heat.getAttribute(".hm-sel", "data-total"));
	check(all === sum(0, Infinity), `whole run shown first (${all})`);
	const cell = (sec, row) => heat.evaluate(([s, r]) =>
		window.mixprofHeat.cellRect(s, r), [sec, row]);
	const a = await cell(0, 10), b = await cell(2, 5);
	await heat.mouse.move(a.x + 3, a.y + 3);
	await heat.mouse.down();
	await heat.mouse.move(b.x + 3, b.y + 3, { steps: 6 });
	await heat.mouse.up();
	// cells 0 s + 200 ms .. 2 s + 100 ms in time order: [200, 2120) ms
	const cells = await heat.evaluate(() => {
		const h = window.mixprofHeat;
		let s = 0;
		for (let c = 0 * h.rows + 10; c <= 2 * h.rows + 5; c++) s += h.cells[c];
		return s;
	});
	const got = +(await heat.getAttribute(".hm-sel", "data-total"));
	const fg = await heat.evaluate(() => window.mixprofFlame.data.total);
	check(cells > 0, `the selected cells hold ${cells} samples`);
	check(got === cells && fg === cells, `selection ${got}, flame graph ${fg}, cells ${cells}`);
	check(cells === sum(200, 2120), `cells hold the timed file's ${sum(200, 2120)}`);
	await heat.screenshot({ path: join(shots, "run-heatmap.png"), fullPage: true });
	check(heat.errors.length === 0, "no heat map page errors: " + heat.errors.join("; "));
}

await main(import.meta.url, run);
