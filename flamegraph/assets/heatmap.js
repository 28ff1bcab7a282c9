// mixprof heat map: seconds across, the offset within the second down in
// 20 ms rows, colour by samples. Press on a cell and drag (or click, then
// shift-click) to select every sample from the first cell's start to the
// last cell's end in time order; the flame graph below shows exactly
// those samples, rebuilt here from the stack tree (no server).
(function () {
	"use strict";
	var ROW_MS = 20, ROWS = 1000 / ROW_MS, LEFT = 52, TOP = 8, BOTTOM = 24;
	// a column per second, as many as a canvas can be wide (2 h at 4 px):
	// samples past the last (an absurd offset in a hand-made file) stay
	// in the flame graphs but not in the grid, and the page says so
	var MAX_COLS = 7200;
	var D = JSON.parse(document.getElementById("hm-data").textContent);
	var root = document.getElementById("hm");
	var cols = 1, cells, maxCell = 0, cw = 12, ch = 8, i;
	var startCell = -1, endCell = -1, dragging = false, flame = null;
	var past = 0; // samples past MAX_COLS
	// --events: [start_ms, end_ms, kind, detail]; spans and ticks drawn
	// over the grid, the cell's events in its tooltip
	var EV = D.events || [];
	var EV_COLOUR = { gc: "#b0202a", safepoint: "#6a3fc8",
		compile: "#1f8a3a", deopt: "#e07000" };

	for (i = 0; i < D.samples.length; i += 3)
		if (D.samples[i] < MAX_COLS * 1000)
			cols = Math.max(cols, Math.floor(D.samples[i] / 1000) + 1);
	cells = new Float64Array(cols * ROWS);
	for (i = 0; i < D.samples.length; i += 3) {
		if (D.samples[i] < MAX_COLS * 1000)
			cells[cellOf(D.samples[i])] += D.samples[i + 2];
		else
			past += D.samples[i + 2];
	}
	for (i = 0; i < cells.length; i++) maxCell = Math.max(maxCell, cells[i]);

	function cellOf(ms) {
		return Math.floor(ms / 1000) * ROWS +
			Math.floor((ms % 1000) / ROW_MS);
	}

	function el(tag, cls, parent, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text) e.textContent = text;
		parent.appendChild(e);
		return e;
	}

	var h1 = el("h1", "", root, D.title || "Heat Map");
	if (D.subtitle) el("div", "fg-sub", root, D.subtitle);
	el("div", "hm-legend", root, "x: seconds, y: offset within the " +
		"second (" + ROW_MS + " ms rows), colour: " +
		(D.countname || "samples") + ". Drag across cells (or click, " +
		"then shift-click) to select a time range.");
	if (EV.length)
		el("div", "hm-legend hm-events", root, "JVM events: bars at " +
			"a second's left edge are GC pauses (red) and safepoints " +
			"(purple), ticks at its right edge compilations (green) " +
			"and deoptimizations (orange); hover a cell for them.");
	if (past)
		el("div", "hm-legend hm-past", root, past + " " +
			(D.countname || "samples") + " at " + MAX_COLS +
			" s or later are not in the grid (the flame graph of " +
			"the whole profile has them).");
	var wrap = el("div", "hm-wrap", root);
	var cv = el("canvas", "hm-canvas", wrap);
	var info = el("div", "hm-info", root, "\u00a0");
	var sel = el("div", "hm-info hm-sel", root, "\u00a0");
	var tip = el("div", "fg-tip", document.body);
	void h1;

	function colour(n) {
		if (!n) return "#f0f0ec";
		var t = Math.sqrt(n / maxCell);
		var g = Math.round(235 - 215 * t), b = Math.round(200 - 190 * t);
		return "rgb(255," + g + "," + b + ")";
	}

	function cellTime(c) {
		return Math.floor(c / ROWS) * 1000 + (c % ROWS) * ROW_MS;
	}

	function range() {
		var a = Math.min(startCell, endCell), b = Math.max(startCell, endCell);
		return [cellTime(a), cellTime(b) + ROW_MS];
	}

	function draw() {
		var avail = Math.max(300, root.clientWidth - LEFT - 8);
		cw = Math.max(4, Math.min(24, Math.floor(avail / cols)));
		var W = LEFT + cols * cw + 8, H = TOP + ROWS * ch + BOTTOM;
		var dpr = window.devicePixelRatio || 1;
		cv.width = Math.round(W * dpr);
		cv.height = Math.round(H * dpr);
		cv.style.width = W + "px";
		cv.style.height = H + "px";
		var ctx = cv.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.fillStyle = "#fafaf6";
		ctx.fillRect(0, 0, W, H);
		var lo = -1, hi = -1;
		if (startCell >= 0) {
			lo = Math.min(startCell, endCell);
			hi = Math.max(startCell, endCell);
		}
		for (var c = 0; c < cells.length; c++) {
			var x = LEFT + Math.floor(c / ROWS) * cw;
			var y = TOP + (c % ROWS) * ch;
			ctx.fillStyle = colour(cells[c]);
			ctx.fillRect(x, y, cw - 1, ch - 1);
			if (c >= lo && c <= hi) {
				ctx.fillStyle = "rgba(40,80,220,0.45)";
				ctx.fillRect(x, y, cw - 1, ch - 1);
			}
		}
		drawEvents(ctx);
		ctx.fillStyle = "#404040";
		ctx.font = "11px system-ui, sans-serif";
		ctx.textBaseline = "middle";
		for (var r = 0; r < ROWS; r += 10)
			ctx.fillText(r * ROW_MS + " ms", 2, TOP + r * ch + ch / 2);
		var step = Math.max(1, Math.ceil(40 / cw));
		ctx.textBaseline = "top";
		for (var s = 0; s < cols; s += step)
			ctx.fillText(s + " s", LEFT + s * cw, TOP + ROWS * ch + 6);
	}

	// a span as a bar per second it covers, an instant as a tick
	function drawEvents(ctx) {
		var bw = Math.max(2, Math.floor(cw / 4));
		for (var k = 0; k < EV.length; k++) {
			var t0 = EV[k][0], t1 = EV[k][1], kind = EV[k][2];
			if (t0 >= cols * 1000) continue;
			ctx.fillStyle = EV_COLOUR[kind] || "#404040";
			if (kind === "compile" || kind === "deopt") {
				var tw = Math.max(2, Math.floor(cw / 3));
				ctx.fillRect(LEFT + Math.floor(t0 / 1000) * cw + cw - 1 -
					tw, TOP + (t0 % 1000) / ROW_MS * ch, tw, 1.5);
				continue;
			}
			var dx = kind === "safepoint" ? bw : 0;
			for (var s = Math.floor(t0 / 1000); s * 1000 < t1 && s < cols;
				s++) {
				var a = Math.max(t0, s * 1000) - s * 1000;
				var b = Math.min(t1, s * 1000 + 1000) - s * 1000;
				ctx.fillRect(LEFT + s * cw + dx, TOP + a / ROW_MS * ch, bw,
					Math.max(1.5, (b - a) / ROW_MS * ch));
			}
		}
	}

	// the events of cell c, a line each (at most 6, then how many more)
	function cellEvents(c) {
		var t = cellTime(c), out = [], n = 0;
		for (var k = 0; k < EV.length; k++) {
			var e = EV[k];
			if (e[0] >= t + ROW_MS || Math.max(e[1], e[0] + 0.001) <= t)
				continue;
			if (n++ < 6)
				out.push(e[2] + " " + (e[1] - e[0]).toFixed(3) + " ms: " +
					e[3]);
		}
		if (n > 6) out.push("(" + (n - 6) + " more)");
		return out.length ? "\n" + out.join("\n") : "";
	}

	function cellAt(e) {
		var r = cv.getBoundingClientRect();
		var col = Math.floor((e.clientX - r.left - LEFT) / cw);
		var row = Math.floor((e.clientY - r.top - TOP) / ch);
		if (col < 0 || col >= cols || row < 0 || row >= ROWS) return -1;
		return col * ROWS + row;
	}

	function describe(c) {
		var t = cellTime(c);
		return (t / 1000).toFixed(2) + "-" + ((t + ROW_MS) / 1000)
			.toFixed(2) + " s: " + cells[c] + " " +
			(D.countname || "samples");
	}

	cv.addEventListener("mousedown", function (e) {
		var c = cellAt(e);
		if (c < 0) return;
		e.preventDefault();
		if (e.shiftKey && startCell >= 0) {
			endCell = c;
			select();
			return;
		}
		startCell = endCell = c;
		dragging = true;
		draw();
	});
	cv.addEventListener("mousemove", function (e) {
		var c = cellAt(e);
		if (dragging && c >= 0 && c !== endCell) {
			endCell = c;
			draw();
		}
		if (c < 0) {
			tip.style.display = "none";
			return;
		}
		info.textContent = describe(c);
		tip.textContent = describe(c) + cellEvents(c);
		tip.style.whiteSpace = "pre-line";
		tip.style.display = "block";
		tip.style.left = (e.pageX + 12) + "px";
		tip.style.top = (e.pageY + 14) + "px";
	});
	cv.addEventListener("mouseleave", function () {
		tip.style.display = "none";
	});
	window.addEventListener("mouseup", function () {
		if (!dragging) return;
		dragging = false;
		select();
	});

	// The flame graph of samples in [t0, t1): self counts on leaves,
	// summed up the parent links (a parent's id is below its child's),
	// then laid out in preorder with siblings by name.
	function build(t0, t1) {
		var nodes = D.parent.length, v = new Float64Array(nodes), k;
		for (k = 0; k < D.samples.length; k += 3) {
			var ms = D.samples[k];
			if (ms >= t0 && ms < t1) v[D.samples[k + 1]] += D.samples[k + 2];
		}
		var kids = [];
		for (k = nodes - 1; k > 0; k--) {
			if (!v[k]) continue;
			v[D.parent[k]] += v[k];
			(kids[D.parent[k]] = kids[D.parent[k]] || []).push(k);
		}
		var out = { title: "", subtitle: null, countname: D.countname,
			inverted: D.inverted, total: v[0], names: D.names,
			colors: D.colors, n: [], v: [], x: [], d: [] };
		var stack = [[0, 0, 0]];
		while (stack.length) {
			var top = stack.pop(), id = top[0], x = top[1];
			out.n.push(D.name[id]);
			out.v.push(v[id]);
			out.x.push(x);
			out.d.push(top[2]);
			var ks = kids[id];
			if (!ks) continue;
			ks.sort(function (a, b) {
				var p = D.names[D.name[a]], q = D.names[D.name[b]];
				return p < q ? -1 : p > q ? 1 : 0;
			});
			var offs = [], cx = x;
			for (k = 0; k < ks.length; k++) {
				offs.push(cx);
				cx += v[ks[k]];
			}
			for (k = ks.length - 1; k >= 0; k--)
				stack.push([ks[k], offs[k], top[2] + 1]);
		}
		return out;
	}

	function show(t0, t1, label) {
		var data = build(t0, t1);
		data.title = label + ": " + data.total + " " +
			(D.countname || "samples");
		sel.textContent = data.title;
		sel.setAttribute("data-total", String(data.total));
		sel.setAttribute("data-range", t0 + "-" + t1);
		if (!flame) {
			flame = new MixprofFlame(document.getElementById("hm-flame"),
				data);
			window.mixprofFlame = flame;
		} else {
			flame.setData(data);
		}
	}

	function select() {
		var r = range();
		draw();
		show(r[0], r[1], "Selected " + (r[0] / 1000).toFixed(2) + "-" +
			(r[1] / 1000).toFixed(2) + " s");
	}

	// For tests and tools: a cell's box in page coordinates.
	window.mixprofHeat = {
		cols: cols, rows: ROWS, cells: cells, past: past, events: EV,
		cellEvents: cellEvents,
		cellRect: function (sec, row) {
			var r = cv.getBoundingClientRect();
			return { x: r.left + LEFT + sec * cw, y: r.top + TOP + row * ch,
				w: cw - 1, h: ch - 1 };
		}
	};
	draw();
	show(0, Infinity, "All " + (cols) + " s");
	window.addEventListener("resize", draw);
})();
