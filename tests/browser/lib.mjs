// Shared by the browser tests: launch Debian's chromium headless through
// playwright-core with a fresh profile, and small assertion helpers.
import { chromium } from "playwright-core";
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export function chromiumPath() {
	return execSync("command -v chromium", { shell: "/bin/sh" })
		.toString().trim();
}

export async function launch() {
	const profile = mkdtempSync(join(tmpdir(), "mixprof-chromium-"));
	// playwright passes the fresh profile as --user-data-dir itself.
	const browser = await chromium.launchPersistentContext(profile, {
		executablePath: chromiumPath(),
		headless: true,
		viewport: { width: 1280, height: 900 },
		args: ["--headless", "--no-sandbox", "--disable-gpu",
			"--disable-quic", "--no-first-run",
			"--disable-background-networking",
			"--disable-component-update", "--disable-sync"],
	});
	const close = async () => {
		await browser.close();
		rmSync(profile, { recursive: true, force: true });
	};
	return { browser, close };
}

// A page that fails the test on any script error or network request
// leaving file:// (the pages must work offline).
export async function openPage(browser, file, viewport) {
	const page = await browser.newPage();
	if (viewport) await page.setViewportSize(viewport);
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	page.on("console", (m) => {
		if (m.type() === "error") errors.push(m.text());
	});
	page.on("request", (r) => {
		if (!r.url().startsWith("file:") && !r.url().startsWith("data:"))
			errors.push("network request: " + r.url());
	});
	await page.goto(pathToFileURL(file).href);
	page.errors = errors;
	return page;
}

let failures = 0, checks = 0;
export function check(cond, what) {
	checks++;
	if (!cond) {
		failures++;
		console.error("FAIL: " + what);
	} else {
		console.log("ok: " + what);
	}
}

export function done() {
	console.log(`${checks} checks, ${failures} failed`);
	process.exitCode = failures ? 1 : 0;
}

export function shotDir() {
	const dir = join(process.env.BUILD || ".", "screenshots");
	mkdirSync(dir, { recursive: true });
	return dir;
}

// The end of a page test module (node X.mjs ARGS...): run alone, it starts
// its own browser; imported (pages.mjs), it only exports run(browser, args).
export async function main(url, run) {
	if (!process.argv[1] || url !== pathToFileURL(process.argv[1]).href)
		return;
	const { browser, close } = await launch();
	try {
		await run(browser, process.argv.slice(2));
	} finally {
		await close();
	}
	done();
}
