/*
 * heatmap: the subsecond-offset heat map page. The stacks travel as one
 * tree (parent and name per node) and the samples as (ms, node, count)
 * triples; assets/heatmap.js bins them into 20 ms cells and rebuilds the
 * flame graph of any selected range in the browser. With --events, the
 * JVM's GC pauses, safepoints, compilations and traps are drawn over it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "assets.h"
#include "draw.h"
#include "escape.h"
#include "evline.h"
#include "json.h"

#define EVENTS_MAX 50000 /* drawn over the grid; the file has them all */

/* "events":[[start_ms,end_ms,"kind","detail"],...], ms as the samples'. */
static void put_events(const struct fg_timed *tm, FILE *ev, FILE *out)
{
	char *line = NULL;
	struct fg_evline e;
	size_t cap = 0, n = 0;

	rewind(ev);
	fputs(",\"events\":[", out);
	while (n < EVENTS_MAX && getline(&line, &cap, ev) > 0) {
		if (!evline__parse(line, &e) || e.t0 < tm->start_ns)
			continue;
		fprintf(out, "%s[%.3f,%.3f,", n++ ? "," : "",
			(e.t0 - tm->start_ns) / 1e6,
			(e.t1 - tm->start_ns) / 1e6);
		escape__json(out, e.kind);
		putc(',', out);
		escape__json(out, e.detail);
		putc(']', out);
	}
	putc(']', out);
	free(line);
}

static void put_json(const struct fg_timed *tm, const struct fg_opts *o,
		     FILE *out)
{
	const struct fg_tree *t = tm->tree;
	size_t i, nodes = tree__nr_nodes(t);

	putc('{', out);
	escape__json_key(out, "title", o->title ? o->title : "Heat Map");
	escape__json_key(out, "subtitle", o->subtitle);
	escape__json_key(out, "countname", o->countname);
	fprintf(out,
		"\"bucket_ms\":%" PRIu64 ",\"start_ns\":%" PRIu64
		",\"total\":%" PRIu64 ",\"inverted\":%d,\"names\":[",
		tm->bucket_ms, tm->start_ns, tm->total, o->inverted);
	json__put_names(out, t, o->scheme);
	fputs("],\"parent\":[", out);
	for (i = 0; i < nodes; i++)
		fprintf(out, "%s%u", i ? "," : "", tree__node(t, i)->parent);
	fputs("],\"name\":[", out);
	for (i = 0; i < nodes; i++)
		fprintf(out, "%s%u", i ? "," : "", tree__node(t, i)->name);
	fputs("],\"samples\":[", out);
	for (i = 0; i < tm->nr; i++)
		fprintf(out, "%s%" PRIu64 ",%u,%" PRIu64, i ? "," : "",
			tm->samples[i].ms, tm->samples[i].node,
			tm->samples[i].count);
	putc(']', out);
	if (o->events)
		put_events(tm, o->events, out);
	putc('}', out);
}

int heatmap__write_html(const struct fg_timed *tm, const struct fg_opts *o,
			FILE *out)
{
	const char *title = o->title ? o->title : "Heat Map";

	fputs(
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "\n<title>",
	    out);
	escape__xml(out, title, strlen(title));
	fprintf(out,
		"</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<div id=\"hm\"></div>\n<div id=\"hm-flame\"></div>\n"
		"<script type=\"application/json\" id=\"hm-data\">",
		fg_asset_page_css);
	put_json(tm, o, out);
	fprintf(out,
		"</script>\n<script>\n%s</script>\n<script>\n%s</script>\n"
		"</body></html>\n",
		fg_asset_canvas_js, fg_asset_heatmap_js);
	fflush(out);
	/* errno is still the failed write's (ENOSPC, EPIPE) */
	return ferror(out) ? (errno ? -errno : -EIO) : 0;
}
