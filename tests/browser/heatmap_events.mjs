// node heatmap_events.mjs DIR EVENTS: the heat map and montage of a run
// with --events EVENTS (mixprof --events EVENTS -i 1 --montage DIR
// --heatmap DIR -- java ...) in headless chromium: the heat map holds
// every gc, safepoint, compile and deopt line of EVENTS from the run's
// start, and hovering the cell where a GC pause began shows that pause's
// detail; the montage's cards count every GC pause and compilation of
// the run between them; no page errors.
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

	const mt = await openPage(browser, join(dir, "index.html"));
	const cards = await mt.$$eval(".mt-events", (es) => es.map((e) =>
		[+e.getAttribute("data-gc"), +e.getAttribute("data-compiles")]));
	const sum = (k) => cards.reduce((a, c) => a + c[k], 0);
	const count = (kind) => drawn.filter((f) => f[2] === kind).length;
	check(cards.length > 1, `${cards.length} cards with JVM events`);
	check(sum(0) === count("gc") && sum(1) === count("compile"),
		`cards count ${sum(0)} GC pauses and ${sum(1)} compilations, ` +
		`the file ${count("gc")} and ${count("compile")}`);
	await mt.screenshot({ path: join(shotDir(), "events-montage.png"),
		fullPage: true });
	check(mt.errors.length === 0, "no montage page errors: " +
		mt.errors.join("; "));
}

await main(import.meta.url, run);
