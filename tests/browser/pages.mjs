// node pages.mjs TEST.mjs ARGS... [-- TEST.mjs ARGS...]...: several page
// tests in one headless chromium: each start of it takes seconds, most of
// a page test's time on a loaded host. A test that throws counts as one
// failed check and the next one still runs.
import { launch, check, done } from "./lib.mjs";

const groups = [[]];
for (const a of process.argv.slice(2)) {
	if (a === "--") groups.push([]);
	else groups[groups.length - 1].push(a);
}
const { browser, close } = await launch();
try {
	for (const [mod, ...args] of groups.filter((g) => g.length)) {
		const { run } = await import(new URL(mod, import.meta.url));
		try {
			await run(browser, args);
		} catch (e) {
			check(false, `${mod}: ${e.stack || e}`);
		}
	}
} finally {
	await close();
}
done();
