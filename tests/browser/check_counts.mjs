// node check_counts.mjs OUT.svg|OUT.html IN.folded...  (no npm modules)
// Checks that a rendered flame graph holds exactly the folded input's
// counts: the total, and every frame (by its path from the root). The
// graph must have been rendered with --minwidth 0 so no frame is left out.
// The SVG is read through the attributes mixprof writes (data-n, data-x,
// data-d and the <title> name); the HTML through its embedded JSON.
import { readFileSync } from "node:fs";

const [out, ...inputs] = process.argv.slice(2);
const reverse = process.env.REVERSE === "1";

function unxml(s) {
	return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"').replace(/&#39;/g, "'")
		.replace(/&amp;/g, "&");
}

// A path from the root ("a;b;c") as a number: the id of its parent path
// and its last frame's name, interned. A 100k-line profile has ~1.4M paths
// of ~20 frames each; keyed by their whole text they took ~30x the time.
const ids = new Map(), parentOf = [-1], nameOf = [""]; // 0: the root
function pathId(parent, name) {
	const k = parent + ";" + name;
	let id = ids.get(k);
	if (id === undefined) {
		id = nameOf.length;
		ids.set(k, id);
		parentOf.push(parent);
		nameOf.push(name);
	}
	return id;
}
function pathText(id) {
	const fr = [];
	for (; id > 0; id = parentOf[id])
		fr.push(nameOf[id]);
	return id < 0 ? "?;" + fr.reverse().join(";") : ";" + fr.reverse().join(";");
}

// Expected: path id -> samples, with the same rules as mixprof:
// count after the last space or tab, blank and bad lines skipped.
function expected() {
	const want = new Map();
	let total = 0;
	for (const f of inputs) {
		for (let line of readFileSync(f, "utf8").split("\n")) {
			line = line.replace(/[\s]+$/, "");
			const m = /^(.*\S)[ \t]+(\d+)$/.exec(line);
			if (!m || line.startsWith("#")) continue;
			const n = Number(m[2]);
			let frames = m[1].split(";").filter((s) => s.length);
			if (reverse) frames = frames.reverse();
			total += n;
			let path = 0;
			for (const fr of frames) {
				path = pathId(path, fr);
				want.set(path, (want.get(path) || 0) + n);
			}
		}
	}
	return { want, total };
}

// Frames as {name, n, x, d}, preorder, from either output.
function frames() {
	const text = readFileSync(out, "utf8");
	if (out.endsWith(".html")) {
		const m = /<script type="application\/json" id="fg-data">([^]*?)<\/script>/
			.exec(text);
		const D = JSON.parse(m[1]);
		return D.v.map((v, i) => ({ name: D.names[D.n[i]], n: v,
			x: D.x[i], d: D.d[i] }));
	}
	const re = /<g class="f" data-n="(\d+)" data-x="(\d+)" data-d="(\d+)"[^>]*><title>([^]*?)<\/title>/g;
	const fs = [];
	let m;
	while ((m = re.exec(text))) {
		const t = unxml(m[4]);
		fs.push({ name: t.slice(0, t.lastIndexOf(" (")), n: +m[1],
			x: +m[2], d: +m[3] });
	}
	return fs;
}

// Paths from geometry: a frame's parent is the last frame one row up
// whose [x, x + n) holds it (preorder makes that the latest one seen).
function paths(fs) {
	const got = new Map(), last = [];
	let bad = 0;
	for (const f of fs) {
		if (f.d === 0) {
			last[0] = { f, path: 0 };
			continue;
		}
		const p = last[f.d - 1];
		if (!p || f.x < p.f.x || f.x + f.n > p.f.x + p.f.n) bad++;
		const path = pathId(p ? p.path : -1, f.name);
		last[f.d] = { f, path };
		last.length = f.d + 1;
		if (got.has(path)) bad++;
		got.set(path, f.n);
	}
	return { got, bad };
}

const { want, total } = expected();
const fs = frames();
const { got, bad } = paths(fs);
let errors = 0;
function fail(msg) {
	if (errors++ < 10) console.error("mismatch: " + msg);
}
if (!fs.length || fs[0].d !== 0) fail("no root frame");
else if (fs[0].n !== total) fail(`total ${fs[0].n}, want ${total}`);
if (bad) fail(`${bad} frames outside their parent or duplicated`);
for (const [p, n] of want)
	if (got.get(p) !== n) fail(`${pathText(p)}: ${got.get(p)}, want ${n}`);
for (const [p] of got)
	if (!want.has(p)) fail(`${pathText(p)}: drawn but not in the input`);
console.log(`${out}: ${fs.length} frames, total ${total}, ` +
	`${want.size} paths checked, ${errors} mismatches`);
process.exitCode = errors ? 1 : 0;
