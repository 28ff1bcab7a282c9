// node flame_svg.mjs GRAPH.svg: the interactive SVG in headless chromium:
// click zooms (widths change, other frames hide), Reset Zoom restores,
// Search (button and Ctrl-F) highlights matches and shows the share.
import { main, openPage, check, shotDir } from "./lib.mjs";
import { join } from "node:path";

export async function run(browser, [file]) {
	const page = await openPage(browser, file);
	const shots = shotDir();
	const geom = (name) => page.evaluate((name) => {
		for (const g of document.querySelectorAll("g.f")) {
			const t = g.querySelector("title").textContent;
			if (t.startsWith(name + " (")) {
				const r = g.querySelector("rect");
				return { w: +r.getAttribute("width"),
					x: +r.getAttribute("x"),
					hidden: g.classList.contains("hide"),
					match: g.classList.contains("match"),
					box: r.getBoundingClientRect().toJSON() };
			}
		}
		return null;
	}, name);
	const work = "com/acme/App.work_[j]";
	const before = await geom(work);
	check(before && before.w > 100 && before.w < 1000, `${work} drawn, width ${before && before.w}`);
	await page.mouse.click(before.box.x + before.box.width / 2,
		before.box.y + before.box.height / 2);
	const zoomed = await geom(work);
	check(Math.abs(zoomed.w - 1180) < 0.5 && zoomed.x === 10, `zoomed width ${zoomed.w} at x ${zoomed.x}`);
	const hash = await geom("com/acme/App.hash_[i]");
	check(Math.abs(hash.w - 1180 * 50 / 70) < 0.5, `callee scaled to ${hash.w}`);
	check((await geom("Compile::Compile")).hidden, "unrelated frame hidden");
	check(!(await geom("JavaMain")).hidden, "ancestor stays");
	check(await page.isVisible("#unzoom"), "Reset Zoom shown");
	await page.screenshot({ path: join(shots, "flamegraph-svg-zoomed.png") });
	await page.click("#unzoom");
	const reset = await geom(work);
	check(Math.abs(reset.w - before.w) < 0.01 && !(await geom("Compile::Compile")).hidden,
		`reset restores width ${reset.w}`);
	check(!(await page.isVisible("#unzoom")), "Reset Zoom hidden again");

	// Search: a regular expression through the button's prompt.
	page.once("dialog", (d) => d.accept("App\\.(hash|main)"));
	await page.click("#search");
	const matched = await page.textContent("#matched");
	// main holds 85 of 133 samples; hash is inside it, counted once
	check(matched === "Matched: 63.9%", `matched text '${matched}'`);
	check((await geom("com/acme/App.hash_[i]")).match && !(await geom(work)).match,
		"hash highlighted, work not");
	await page.screenshot({ path: join(shots, "flamegraph-svg-search.png") });
	// Ctrl-F: a substring that is not a valid regular expression.
	await page.click("#search");		// Reset Search
	check((await page.textContent("#matched")).trim() === "", "search reset");
	page.once("dialog", (d) => d.accept("_[k"));
	await page.keyboard.press("Control+f");
	const m2 = await page.textContent("#matched");
	check(m2 === "Matched: 7.5%", `Ctrl-F substring '${m2}'`);
	check(page.errors.length === 0, "no page errors: " + page.errors.join("; "));
}

await main(import.meta.url, run);
