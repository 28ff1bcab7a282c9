/*
 * svg: the standalone SVG flame graph. Every frame is a <g class="f">
 * carrying its samples (data-n), its left edge in samples (data-x) and
 * depth (data-d), so the script can zoom exactly and tests can check the
 * counts; the <title> gives the tooltip and the full name.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "assets.h"
#include "draw.h"
#include "escape.h"

struct svg {
	const struct fg_opts *o;
	struct fg_diff diff;
	FILE *out;
	double scale; /* pixels per sample */
	uint64_t total;
	unsigned int top; /* y of the first frame row */
	unsigned int height;
	uint32_t depth; /* deepest frame drawn */
};

/* Find the deepest drawn frame, to size the image. */
static int max_depth_cb(const struct fg_tree *t, uint32_t id, uint64_t x,
			void *ctx)
{
	struct svg *s = ctx;
	uint32_t d = tree__node(t, id)->depth;

	if (d > s->depth)
		s->depth = d;
	return 0;
}

/* The label that fits w pixels: whole name, cut with "..", or none. */
static void put_label(FILE *out, const char *name, double w)
{
	size_t len = palette__strip_len(name), fit = (w - 6) / (FG_FONT * 0.59);

	if (fit < 3)
		return;
	if (len <= fit) {
		escape__xml(out, name, len);
		return;
	}
	/* Do not cut a UTF-8 sequence in half. */
	fit -= 2;
	while (fit > 0 && ((unsigned char)name[fit] & 0xc0) == 0x80)
		fit--;
	escape__xml(out, name, fit);
	fputs("..", out);
}

static void put_title(struct svg *s, const struct fg_tree *t,
		      const struct fg_node *n)
{
	const char *name = tree__name(t, n->name);
	uint64_t v = n->total[FG_SLOT_VALUE];
	double delta;

	escape__xml(s->out, name, strlen(name));
	fprintf(s->out, " (%" PRIu64 " ", v);
	escape__xml(s->out, s->o->countname, strlen(s->o->countname));
	fprintf(s->out, ", %.2f%%", s->total ? 100.0 * v / s->total : 0.0);
	if (s->o->diff) {
		delta = diff__delta(&s->diff, n);
		fprintf(s->out, ", %+.0f", delta);
	}
	fputc(')', s->out);
}

static int frame_cb(const struct fg_tree *t, uint32_t id, uint64_t x, void *ctx)
{
	struct svg *s = ctx;
	const struct fg_node *n = tree__node(t, id);
	unsigned int fh = s->o->frame_height;
	double px = FG_XPAD + x * s->scale;
	double w = n->total[FG_SLOT_VALUE] * s->scale;
	double room = opts__plot_width(s->o) - x * s->scale;
	unsigned int y = s->o->inverted ? s->top + n->depth * fh
					: s->top + (s->depth - n->depth) * fh;
	uint32_t c = opts__frame_color(t, id, s->o, &s->diff);

	/* saturated counts can add up past the root's: stay in the plot */
	if (w > room)
		w = room > 0 ? room : 0;

	fprintf(s->out,
		"<g class=\"f\" data-n=\"%" PRIu64 "\" data-x=\"%" PRIu64
		"\" data-d=\"%u\"",
		n->total[FG_SLOT_VALUE], x, n->depth);
	if (s->o->diff)
		fprintf(s->out, " data-b=\"%.0f\"",
			s->diff.scale * n->total[FG_SLOT_BASE]);
	fputs("><title>", s->out);
	put_title(s, t, n);
	fprintf(s->out,
		"</title><rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" "
		"height=\"%u\" fill=\"#%06x\"/>",
		px, y, w, fh > 1 ? fh - 1 : 1, c);
	if (!s->o->thumbnail) {
		fprintf(s->out, "<text x=\"%.1f\" y=\"%.1f\">", px + 3,
			y + fh / 2.0 + FG_FONT * 0.35);
		put_label(s->out, tree__name(t, n->name), w);
		fputs("</text>", s->out);
	}
	fputs("</g>\n", s->out);
	return 0;
}

/* Header, script and the text the script drives. */
static void put_head(struct svg *s)
{
	const struct fg_opts *o = s->o;
	FILE *out = s->out;
	const char *title = opts__title(o);

	/* A thumbnail is inlined into HTML, where a declaration is an error. */
	if (!o->thumbnail)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" "
		      "standalone=\"no\"?>\n",
		      out);
	fprintf(out,
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		"class=\"mixprof-fg%s\" width=\"%u\" height=\"%u\" "
		"preserveAspectRatio=\"%s\" "
		"viewBox=\"0 0 %u %u\" data-total=\"%" PRIu64 "\" "
		"data-inverted=\"%d\" data-xpad=\"%d\" data-countname=\"",
		o->thumbnail ? " thumb" : "", o->width, s->height,
		o->thumbnail ? "none" : "xMidYMid meet", o->width, s->height,
		s->total, o->inverted, FG_XPAD);
	escape__xml(out, o->countname, strlen(o->countname));
	fputs("\">\n", out);
	if (o->thumbnail)
		return;
	fprintf(out, "<style><![CDATA[\n%s]]></style>\n", fg_asset_svg_css);
	fprintf(out,
		"<script type=\"text/ecmascript\"><![CDATA[\n%s]]>"
		"</script>\n",
		fg_asset_svg_js);
	fprintf(out,
		"<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%u\" "
		"height=\"%u\"/>\n<text id=\"title\" x=\"%u\" y=\"24\">",
		o->width, s->height, o->width / 2);
	escape__xml(out, title, strlen(title));
	fputs("</text>\n", out);
	if (o->subtitle) {
		fprintf(out, "<text id=\"subtitle\" x=\"%u\" y=\"42\">",
			o->width / 2);
		escape__xml(out, o->subtitle, strlen(o->subtitle));
		fputs("</text>\n", out);
	}
	fprintf(
	    out,
	    "<text id=\"unzoom\" class=\"btn hide\" x=\"%d\" y=\"24\">"
	    "Reset Zoom</text>\n<text id=\"search\" class=\"btn\" x=\"%u\" "
	    "y=\"24\">Search</text>\n<text id=\"details\" x=\"%d\" y=\"%u\">"
	    " </text>\n<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n",
	    FG_XPAD, o->width - FG_XPAD, FG_XPAD, s->height - 12,
	    o->width - FG_XPAD, s->height - 12);
}

int flamegraph__write_svg(struct fg_tree *t, const struct fg_opts *o, FILE *out)
{
	struct svg s = {.o = o, .out = out};
	double min;
	int err;

	err = tree__sort(t);
	if (err)
		return err;
	s.total = tree__node(t, 0)->total[FG_SLOT_VALUE];
	s.scale = s.total ? opts__plot_width(o) / s.total : 0;
	min = opts__min_samples(o, s.total);
	if (o->diff)
		diff__init(&s.diff, t, o->normalize);
	err = tree__walk(t, min, max_depth_cb, &s);
	if (err)
		return err;
	if (o->thumbnail) {
		s.top = 0;
		s.height = (s.depth + 1) * o->frame_height;
	} else {
		s.top = o->subtitle ? 54 : 36;
		s.height = s.top + (s.depth + 1) * o->frame_height + 30;
	}
	put_head(&s);
	/* Thumbnails share one page: no ids there. */
	fputs(o->thumbnail ? "<g>\n" : "<g id=\"frames\">\n", out);
	err = tree__walk(t, min, frame_cb, &s);
	if (err)
		return err;
	fputs("</g>\n</svg>\n", out);
	fflush(out);
	/* errno is still the failed write's (ENOSPC, EPIPE) */
	return ferror(out) ? (errno ? -errno : -EIO) : 0;
}
