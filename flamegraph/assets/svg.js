// mixprof flame graph (SVG): click a frame to zoom, Reset Zoom to go back,
// Search (or Ctrl-F) to highlight frames whose name matches a regular
// expression (or, when it is not one, a substring). Every frame's geometry
// is recomputed from its sample counts (data-x, data-n), never from
// pixels, so zooming is exact at any depth.
(function () {
	"use strict";
	var svg, frames = [], total = 0, xpad = 10, plotW = 0;
	var details, matchedEl, unzoomBtn, searchBtn, zoomed = null;
	var charW = 12 * 0.59, searching = false;

	function attr(el, name) { return el.getAttribute(name); }

	// The full name: the <title> text without its " (N samples, P%)" tail.
	function nameOf(g) {
		var t = g.querySelector("title").textContent;
		var i = t.lastIndexOf(" (");
		return i < 0 ? t : t.slice(0, i);
	}

	function stripped(name) {
		return /_\[[jik]\]$/.test(name) ? name.slice(0, -4) : name;
	}

	function label(name, w) {
		var fit = Math.floor((w - 6) / charW);
		name = stripped(name);
		if (fit < 3) return "";
		if (name.length <= fit) return name;
		return name.slice(0, fit - 2) + "..";
	}

	function init() {
		svg = document.querySelector("svg.mixprof-fg");
		if (!svg || svg.classList.contains("thumb")) return;
		total = +attr(svg, "data-total");
		xpad = +attr(svg, "data-xpad");
		plotW = +attr(svg, "width") - 2 * xpad;
		details = document.getElementById("details");
		matchedEl = document.getElementById("matched");
		unzoomBtn = document.getElementById("unzoom");
		searchBtn = document.getElementById("search");
		var gs = svg.querySelectorAll("g.f");
		for (var i = 0; i < gs.length; i++) {
			var g = gs[i];
			frames.push({
				g: g, rect: g.querySelector("rect"),
				text: g.querySelector("text"), name: nameOf(g),
				x: +attr(g, "data-x"), n: +attr(g, "data-n"),
				d: +attr(g, "data-d")
			});
			g.__fg = frames[i];
		}
		svg.addEventListener("click", onClick);
		svg.addEventListener("mouseover", onOver);
		svg.addEventListener("mouseout", function () { show(" "); });
		unzoomBtn.addEventListener("click", function (e) {
			e.stopPropagation(); zoom(frames[0]);
		});
		searchBtn.addEventListener("click", function (e) {
			e.stopPropagation(); searchPrompt();
		});
		document.addEventListener("keydown", onKey);
		window.mixprofFlame = { zoom: zoom, search: search,
			reset: function () { zoom(frames[0]); }, frames: frames };
	}

	function show(text) { details.textContent = text; }

	function frameOf(el) {
		while (el && el !== svg) {
			if (el.__fg) return el.__fg;
			el = el.parentNode;
		}
		return null;
	}

	function onClick(e) {
		var f = frameOf(e.target);
		if (f) zoom(f);
	}

	function onOver(e) {
		var f = frameOf(e.target);
		if (f) show(f.g.querySelector("title").textContent);
	}

	function onKey(e) {
		if ((e.ctrlKey || e.metaKey) && (e.key === "f" || e.key === "F")) {
			e.preventDefault();
			searchPrompt();
		} else if (e.key === "Escape") {
			search("");
		}
	}

	// Show f's subtree across the full width; its ancestors stay, faded.
	function zoom(f) {
		var scale = plotW / f.n, end = f.x + f.n;
		zoomed = f.d === 0 ? null : f;
		unzoomBtn.classList.toggle("hide", !zoomed);
		for (var i = 0; i < frames.length; i++) {
			var c = frames[i], x, w, vis;
			if (c.d < f.d) {
				vis = c.x <= f.x && c.x + c.n >= end;
				x = xpad; w = plotW;
			} else {
				vis = c.x >= f.x && c.x < end;
				x = xpad + (c.x - f.x) * scale;
				w = c.n * scale;
			}
			c.g.classList.toggle("hide", !vis);
			c.g.classList.toggle("anc", vis && c.d < f.d);
			if (!vis) continue;
			c.rect.setAttribute("x", x.toFixed(1));
			c.rect.setAttribute("width", w.toFixed(1));
			c.text.setAttribute("x", (x + 3).toFixed(1));
			c.text.textContent = label(c.name, w);
		}
	}

	function searchPrompt() {
		if (searching) {
			search("");
			return;
		}
		var term = window.prompt("Search for (regular expression " +
			"or substring):", "");
		if (term) search(term);
	}

	function matcher(term) {
		try {
			var re = new RegExp(term);
			return function (s) { return re.test(s); };
		} catch (err) {
			return function (s) { return s.indexOf(term) >= 0; };
		}
	}

	// Highlight matches; the matched share counts nested matches once.
	function search(term) {
		var match = matcher(term), hits = [], i;
		searching = !!term;
		for (i = 0; i < frames.length; i++) {
			var on = searching && frames[i].d > 0 &&
				match(frames[i].name);
			frames[i].g.classList.toggle("match", on);
			if (on) hits.push(frames[i]);
		}
		hits.sort(function (a, b) { return a.x - b.x || b.n - a.n; });
		var sum = 0, end = -1;
		for (i = 0; i < hits.length; i++) {
			if (hits[i].x < end) continue;
			sum += hits[i].n;
			end = hits[i].x + hits[i].n;
		}
		searchBtn.textContent = searching ? "Reset Search" : "Search";
		matchedEl.textContent = searching ? "Matched: " +
			(total ? 100 * sum / total : 0).toFixed(1) + "%" : " ";
		svg.setAttribute("data-matched", searching ? String(sum) : "");
		svg.setAttribute("data-hits", String(hits.length));
	}

	window.addEventListener("load", init);
})();
