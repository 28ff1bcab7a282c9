// node heatmap.mjs HEAT.html TIMED.txt: the heat map in headless
// chromium: cell counts match the timed file; dragging from one cell to
// another (and click, shift-click) selects that time range in time order
// and the flame graph below holds exactly its samples.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function run(browser, [file, timed]) {
	const samples = readFileSync(timed, "utf8").split("\n")
		.filter((l) => l && !l.startsWith("#"))
		.map((l) => { const w = l.split(" "); return [+w[0], +w[w.length - 1], w[1]]; });
	const sum = (t0, t1, pred) => samples.filter((s) => s[0] >= t0 && s[0] < t1 &&
		(!pred || pred(s[2]))).reduce((a, s) => a + s[1], 0);

	const page = await openPage(browser, file);
	const shots = shotDir();
	const cell = (sec, row) => page.evaluate(([s, r]) =>
		window.mixprofHeat.cellRect(s, r), [sec, row]);
	const cellCount = await page.evaluate(() => window.mixprofHeat.cells[1 * 50 + 10]);
	check(cellCount === sum(1200, 1220), `cell 1.20 s holds ${cellCount}`);
	const all = await page.getAttribute(".hm-sel", "data-total");
	check(+all === sum(0, Infinity), `whole profile shown first (${all})`);

	// drag from 1 s + 200 ms to 2 s + 100 ms: [1200, 2120) in time order
	const a = await cell(1, 10), b = await cell(2, 5);
	await page.mouse.move(a.x + 3, a.y + 3);
	await page.mouse.move(a.x + 3, a.y + 3);
	const tip = await page.textContent(".fg-tip");
	check(tip === `1.20-1.22 s: ${sum(1200, 1220)} samples`, `hover '${tip}'`);
	await page.mouse.down();
	await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
	await page.mouse.move(b.x + 3, b.y + 3, { steps: 4 });
	await page.mouse.up();
	const want = sum(1200, 2120);
	const got = +(await page.getAttribute(".hm-sel", "data-total"));
	check(got === want, `dragged selection total ${got}, want ${want}`);
	const fgTotal = await page.evaluate(() => window.mixprofFlame.data.total);
	check(fgTotal === want, `flame graph total ${fgTotal}`);
	const hashWant = sum(1200, 2120, (s) => s.includes("hash_[i]"));
	const hashGot = await page.evaluate(() => {
		const f = window.mixprofFlame;
		return f.data.v[f.find("hash_[i]")];
	});
	check(hashGot === hashWant, `hash_[i] in selection ${hashGot}, want ${hashWant}`);
	check(await page.evaluate(() => window.mixprofFlame.find("G1ParTask::work")) === -1,
		"GC at 2.5 s is outside the selection");
	await page.screenshot({ path: join(shots, "heatmap-drag.png"), fullPage: true });

	// click, then shift-click an earlier cell: still in time order
	const c = await cell(3, 0), d = await cell(2, 25);
	await page.mouse.click(c.x + 3, c.y + 3);
	await page.keyboard.down("Shift");
	await page.mouse.click(d.x + 3, d.y + 3);
	await page.keyboard.up("Shift");
	const want2 = sum(2500, 3020);
	const got2 = +(await page.getAttribute(".hm-sel", "data-total"));
	check(got2 === want2, `shift-click selection ${got2}, want ${want2}`);
	const gc = await page.evaluate(() => {
		const f = window.mixprofFlame;
		return f.data.v[f.find("G1ParTask::work")];
	});
	check(gc === sum(2500, 3020, (s) => s.includes("G1ParTask")), `GC frames ${gc}`);
	// the graph below is interactive too
	const r = await page.evaluate(() => {
		const f = window.mixprofFlame;
		return f.rectOf(f.find("G1ParTask::work"));
	});
	await page.mouse.click(r.x + r.w / 2, r.y + 5);
	const r2 = await page.evaluate(() => {
		const f = window.mixprofFlame;
		return f.rectOf(f.find("G1ParTask::work"));
	});
	check(r2.w > r.w, `selection graph zooms (${r.w} -> ${r2.w})`);
	await page.screenshot({ path: join(shots, "heatmap-shift.png"), fullPage: true });
	check(page.errors.length === 0, "no page errors: " + page.errors.join("; "));
}

await main(import.meta.url, run);
