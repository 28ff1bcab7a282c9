// node heatmap_absurd.mjs HEAT.html: a heat map whose timed file has a
// sample at an absurd offset (near 2^64 ms) loads without a script error:
// the grid keeps the real seconds, the page says how many samples it
// left out, and the whole-profile flame graph still counts them.
import { main, openPage, check } from "./lib.mjs";

export async function run(browser, [file]) {
	const page = await openPage(browser, file);
	const h = await page.evaluate(() => ({
		cols: window.mixprofHeat.cols, past: window.mixprofHeat.past,
	}));
	check(page.errors.length === 0, `no page errors (${page.errors.join("; ")})`);
	check(h.cols === 2, `grid of the real 2 s (${h.cols} columns)`);
	check(h.past === 7, `7 samples left out of the grid (${h.past})`);
	const note = await page.textContent(".hm-past");
	check(/^7 samples at \d+ s or later are not in the grid/.test(note || ""),
		`the page says so: '${note}'`);
	const all = await page.getAttribute(".hm-sel", "data-total");
	check(+all === 15, `whole profile still counts them (${all})`);
}

await main(import.meta.url, run);
