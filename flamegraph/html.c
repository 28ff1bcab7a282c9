/*
 * html: the canvas flame graph page. The tree travels as JSON in a
 * <script type="application/json"> block; assets/canvas.js draws it, so
 * big graphs stay responsive where one DOM node per frame would not.
 */
#include <errno.h>
#include <string.h>
#include "assets.h"
#include "draw.h"
#include "escape.h"
#include "json.h"

int flamegraph__write_html(struct fg_tree *t, const struct fg_opts *o,
			   FILE *out)
{
	const char *title = opts__title(o);
	int err;

	fputs(
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "\n<title>",
	    out);
	escape__xml(out, title, strlen(title));
	fprintf(out,
		"</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<div id=\"fg\" class=\"fg\"></div>\n"
		"<script type=\"application/json\" id=\"fg-data\">",
		fg_asset_page_css);
	err = json__write_tree(t, o, out);
	if (err)
		return err;
	fprintf(out,
		"</script>\n<script>\n%s</script>\n<script>\n"
		"MixprofFlame.fromJSON(document.getElementById(\"fg\"), "
		"\"fg-data\");\n</script>\n</body></html>\n",
		fg_asset_canvas_js);
	fflush(out);
	/* errno is still the failed write's (ENOSPC, EPIPE) */
	return ferror(out) ? (errno ? -errno : -EIO) : 0;
}
