// node heatmap_events.mjs DIR EVENTS: the heat map of a run with
// --events EVENTS (mixprof --events EVENTS --heatmap DIR -- java ...) in
// headless chromium: the page holds every gc, safepoint, compile and
// deopt line of EVENTS from the run's start, and hovering the cell where
// a GC pause began shows that pause's detail; no page errors.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function run(browser, [dir, events]) {
	const start = +/start_ns=(\d+)/.exec(readFileSync(join(dir,
		"samples.timed"), "utf8"))[1];
	const drawn = readFileSync(events, "utf8").split("\n")
		.map((l) => l.split("\t"))
		.filter((f) => f.length === 4 && +f[0] >= start &&
			["gc", "safepoint", "compile", "deopt"].includes(f[2]));
	const heat = await openPage(browser, join(dir, "heatmap.html"));
	const n = await heat.evaluate(() => window.mixprofHeat.events.length);
	check(n === drawn.length && n > 0, `${n} events on the page, ${drawn.length} in the file`);
	const gc = drawn.find((f) => f[2] === "gc");
	check(gc, "a gc event to hover");
	const ms = (+gc[0] - start) / 1e6;
	const r = await heat.evaluate(([s, row]) =>
		window.mixprofHeat.cellRect(s, row), [Math.floor(ms / 1000),
		Math.floor((ms % 1000) / 20)]);
	await heat.mouse.move(r.x + 2, r.y + 2);
	const tip = await heat.textContent(".fg-tip");
	check(tip.includes("gc ") && tip.includes(gc[3]),
		`the cell's tooltip names the pause: '${tip.replace(/\n/g, " | ")}'`);
	await heat.screenshot({ path: join(shotDir(), "events-heatmap.png"),
		fullPage: true });
	check(heat.errors.length === 0, "no heat map page errors: " +
		heat.errors.join("; "));
}

await main(import.meta.url, run);
