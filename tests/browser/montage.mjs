// node montage.mjs DIR/index.html: the montage index in headless
// chromium: cards in time order, and a click on a thumbnail opens that
// slice's interactive graph.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { join } from "node:path";

export async function run(browser, [file]) {
	const page = await openPage(browser, file);
	const shots = shotDir();
	const labels = await page.$$eval(".mt-card h2", (hs) => hs.map((h) => h.textContent));
	check(labels.join("|") === "0-30 s|30-60 s|60-72.5 s (partial)", `labels ${labels.join("|")}`);
	const thumbs = await page.$$eval(".mt-thumb svg rect", (rs) => rs.length);
	check(thumbs > 10, `thumbnails drawn (${thumbs} rects)`);
	await page.screenshot({ path: join(shots, "montage-index.png"), fullPage: true });
	await Promise.all([page.waitForNavigation(), page.click(".mt-card:nth-child(2) .mt-thumb")]);
	check(page.url().endsWith("/slice-0001.svg"), `opened ${page.url()}`);
	const n = await page.$$eval("g.f", (gs) => gs.length);
	check(n >= 5, `slice graph has ${n} frames`);
	const sub = await page.textContent("#subtitle");
	check(sub === "slice 1: 30.000-60.000 s", `subtitle '${sub}'`);
	// and it is interactive
	const box = await page.$eval("g.f:last-of-type rect", (r) => r.getBoundingClientRect().toJSON());
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
	check(await page.isVisible("#unzoom"), "slice graph zooms");
	await page.screenshot({ path: join(shots, "montage-slice.png") });
	check(page.errors.length === 0, "no page errors: " + page.errors.join("; "));
}

await main(import.meta.url, run);
