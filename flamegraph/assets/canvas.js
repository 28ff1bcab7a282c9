// mixprof flame graph on a canvas, for big graphs and the heat map.
// Input: frames in preorder as parallel arrays (see flamegraph/json.h):
// n name id, v samples, x samples left of the frame, d depth; names and
// colors per name; for diff graphs b (before) and c (colour per frame).
// Preorder keeps x non-decreasing, which the hit test and the matched
// share rely on.
var MixprofFlame = (function () {
	"use strict";
	var FH = 16, PAD = 10, TOP = 4, HILITE = "#e040e0";

	function el(tag, cls, parent, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text) e.textContent = text;
		if (parent) parent.appendChild(e);
		return e;
	}

	function hex(c) {
		return "#" + (0x1000000 + c).toString(16).slice(1);
	}

	function stripped(name) {
		return /_\[[jik]\]$/.test(name) ? name.slice(0, -4) : name;
	}

	function matcher(term) {
		try {
			var re = new RegExp(term);
			return function (s) { return re.test(s); };
		} catch (err) {
			return function (s) { return s.indexOf(term) >= 0; };
		}
	}

	function Flame(root, data) {
		var self = this;
		this.root = root;
		root.classList.add("fg");
		this.titleEl = el("h1", "fg-title", root);
		this.subEl = el("div", "fg-sub", root);
		var bar = el("div", "fg-bar", root);
		this.resetBtn = el("button", "fg-reset", bar, "Reset Zoom");
		this.query = el("input", "fg-q", bar);
		this.query.placeholder = "Search: regex or substring";
		this.searchBtn = el("button", "fg-search", bar, "Search");
		this.clearBtn = el("button", "fg-clear", bar, "Clear");
		this.matchedEl = el("span", "fg-matched", bar);
		this.canvas = el("canvas", "fg-canvas", root);
		this.details = el("div", "fg-details", root, "\u00a0");
		this.tip = el("div", "fg-tip", document.body);
		this.resetBtn.disabled = true;
		this.resetBtn.onclick = function () { self.zoom(0); };
		this.searchBtn.onclick = function () {
			self.search(self.query.value);
		};
		this.clearBtn.onclick = function () {
			self.query.value = "";
			self.search("");
		};
		this.query.onkeydown = function (e) {
			if (e.key === "Enter") self.search(self.query.value);
			if (e.key === "Escape") self.clearBtn.onclick();
		};
		this.canvas.onmousemove = function (e) { self.hover(e); };
		this.canvas.onmouseleave = function () { self.hover(null); };
		this.canvas.onclick = function (e) {
			var i = self.hit(e);
			if (i >= 0) self.zoom(i);
		};
		document.addEventListener("keydown", function (e) {
			if ((e.ctrlKey || e.metaKey) &&
			    (e.key === "f" || e.key === "F")) {
				e.preventDefault();
				self.query.focus();
				self.query.select();
			}
		});
		window.addEventListener("resize", function () { self.draw(); });
		this.setData(data);
	}

	Flame.fromJSON = function (root, id) {
		var data = JSON.parse(document.getElementById(id).textContent);
		var f = new Flame(root, data);
		window.mixprofFlame = f;
		return f;
	};

	Flame.prototype.setData = function (data) {
		var N = data.v.length, i, d;
		this.data = data;
		this.N = N;
		this.maxDepth = 0;
		this.byDepth = [];
		for (i = 0; i < N; i++) {
			d = data.d[i];
			if (d > this.maxDepth) this.maxDepth = d;
			(this.byDepth[d] = this.byDepth[d] || []).push(i);
		}
		this.rects = new Float64Array(2 * N);
		this.marked = new Uint8Array(data.names.length);
		this.titleEl.textContent = data.title || "";
		this.subEl.textContent = data.subtitle || "";
		this.subEl.style.display = data.subtitle ? "" : "none";
		this.focus = 0;
		this.search(this.query.value);
	};

	Flame.prototype.zoom = function (i) {
		this.focus = i;
		this.resetBtn.disabled = i === 0;
		this.draw();
	};

	Flame.prototype.rowY = function (d) {
		return this.data.inverted ? TOP + d * FH :
			TOP + (this.maxDepth - d) * FH;
	};

	Flame.prototype.draw = function () {
		var t0 = performance.now(), D = this.data, N = this.N;
		var cssW = Math.max(200, this.root.clientWidth);
		var cssH = TOP * 2 + (this.maxDepth + 1) * FH;
		var dpr = window.devicePixelRatio || 1, cv = this.canvas;
		cv.width = Math.round(cssW * dpr);
		cv.height = Math.round(cssH * dpr);
		cv.style.width = cssW + "px";
		cv.style.height = cssH + "px";
		var ctx = cv.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.font = "12px system-ui, -apple-system, 'Segoe UI', " +
			"Roboto, Arial, sans-serif";
		ctx.textBaseline = "middle";
		var charW = ctx.measureText("abcdefghijklmnopqrstuvwxyz")
			.width / 26;
		var f = this.focus, fx = N ? D.x[f] : 0, fd = N ? D.d[f] : 0;
		var span = N ? D.v[f] : 1, plotW = cssW - 2 * PAD;
		var scale = plotW / (span || 1), end = fx + span;
		this.scale = scale;
		this.cssW = cssW;
		for (var i = 0; i < N; i++) {
			var x, w, anc = D.d[i] < fd;
			this.rects[2 * i + 1] = -1;
			if (anc) {
				if (D.x[i] > fx || D.x[i] + D.v[i] < end)
					continue;
				x = PAD;
				w = plotW;
			} else {
				if (D.x[i] < fx || D.x[i] >= end) continue;
				x = PAD + (D.x[i] - fx) * scale;
				w = D.v[i] * scale;
				if (w < 0.25) continue;
			}
			this.rects[2 * i] = x;
			this.rects[2 * i + 1] = w;
			var y = this.rowY(D.d[i]), nm = D.n[i];
			ctx.globalAlpha = anc ? 0.55 : 1;
			ctx.fillStyle = this.marked[nm] && i ? HILITE :
				hex(D.c ? D.c[i] : D.colors[nm]);
			ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), FH - 1);
			var fit = Math.floor((w - 6) / charW);
			if (fit < 3) continue;
			var s = stripped(D.names[nm]);
			if (s.length > fit) s = s.slice(0, fit - 2) + "..";
			ctx.fillStyle = "#000";
			ctx.fillText(s, x + 3, y + FH / 2);
		}
		ctx.globalAlpha = 1;
		this.drawMs = performance.now() - t0;
		this.root.setAttribute("data-draw-ms", this.drawMs.toFixed(1));
	};

	// The frame under a mouse event, or -1.
	Flame.prototype.hit = function (e) {
		var r = this.canvas.getBoundingClientRect();
		var mx = e.clientX - r.left, my = e.clientY - r.top;
		var row = Math.floor((my - TOP) / FH), d;
		d = this.data.inverted ? row : this.maxDepth - row;
		var list = this.byDepth[d];
		if (!list || row < 0) return -1;
		// Preorder keeps each row sorted by x: bisect for the last
		// frame starting at or before the sample under the mouse.
		var at = this.sampleAt(mx, d), lo = 0, hi = list.length - 1;
		var best = -1, i, rx, rw;
		while (lo <= hi) {
			var mid = (lo + hi) >> 1;
			if (this.data.x[list[mid]] <= at) {
				best = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		if (best < 0) return -1;
		i = list[best];
		rx = this.rects[2 * i];
		rw = this.rects[2 * i + 1];
		return rw >= 0 && mx >= rx && mx < rx + Math.max(rw, 1) ? i : -1;
	};

	Flame.prototype.sampleAt = function (mx, d) {
		var D = this.data, f = this.focus;
		if (d < D.d[f]) return D.x[f];
		return D.x[f] + (mx - PAD) / this.scale;
	};

	Flame.prototype.describe = function (i) {
		var D = this.data, v = D.v[i], tot = D.total || 1;
		var s = D.names[D.n[i]] + " (" + v + " " +
			(D.countname || "samples") + ", " +
			(100 * v / tot).toFixed(2) + "%";
		if (D.b) {
			var delta = v - D.b[i];
			s += ", " + (delta >= 0 ? "+" : "") + delta.toFixed(0);
		}
		return s + ")";
	};

	Flame.prototype.hover = function (e) {
		var i = e ? this.hit(e) : -1;
		if (i < 0) {
			this.tip.style.display = "none";
			this.details.textContent = "\u00a0";
			return;
		}
		var text = this.describe(i);
		this.details.textContent = text;
		this.tip.textContent = text;
		this.tip.style.display = "block";
		this.tip.style.left = Math.min(e.pageX + 12,
			window.scrollX + window.innerWidth - 320) + "px";
		this.tip.style.top = (e.pageY + 14) + "px";
	};

	// Highlight frames whose name matches; count nested matches once.
	Flame.prototype.search = function (term) {
		var D = this.data, match = matcher(term), i, hits = 0;
		var sum = 0, end = -1;
		this.marked.fill(0);
		if (term) {
			for (i = 0; i < D.names.length; i++)
				this.marked[i] = match(D.names[i]) ? 1 : 0;
			for (i = 1; i < this.N; i++) {
				if (!this.marked[D.n[i]]) continue;
				hits++;
				if (D.x[i] < end) continue;
				sum += D.v[i];
				end = D.x[i] + D.v[i];
			}
		}
		this.hits = hits;
		this.matched = sum;
		this.matchedEl.textContent = term ? "Matched: " +
			(D.total ? 100 * sum / D.total : 0).toFixed(1) + "% (" +
			sum + " " + (D.countname || "samples") + ")" : "";
		this.draw();
	};

	// For tests and tools: the frame named name (first in preorder), and
	// where it is drawn in page coordinates (null when hidden).
	Flame.prototype.find = function (name) {
		for (var i = 0; i < this.N; i++)
			if (this.data.names[this.data.n[i]] === name) return i;
		return -1;
	};

	Flame.prototype.rectOf = function (i) {
		var w = this.rects[2 * i + 1];
		if (w < 0) return null;
		var r = this.canvas.getBoundingClientRect();
		return { x: r.left + this.rects[2 * i],
			y: r.top + this.rowY(this.data.d[i]), w: w, h: FH - 1 };
	};

	return Flame;
})();
