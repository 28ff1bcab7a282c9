/*
 * montage: one flame graph per time slice plus DIR/index.html, a grid of
 * thumbnails in time order with each slice's samples and top self frames,
 * so the phases of a warmup read at a glance. Colours come from names
 * alone (palette.h), so a frame looks the same in every slice.
 *
 * DIR may be another user's: it is opened once (common/safefile.h) and
 * every file is read and written through that fd, without following
 * links; a slices.tsv entry that is not a plain name in DIR (absolute,
 * "..", a subdirectory) is refused before anything is written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/nsec.h"
#include "common/safefile.h"
#include "common/safename.h"
#include "assets.h"
#include "draw.h"
#include "escape.h"
#include "evline.h"
#include "slicetab.h"

#define TOP_FRAMES 3
#define TSV_MAX (64ULL << 20) /* slices.tsv; the folded files have no limit */

/* what DIR holds, read as anyone's (the checks without an owner rule) */
static const struct safe_in dir_file = {.uid = SAFE_ANY_UID};

struct top {
	uint32_t name;
	uint64_t self;
};

/* "DIR/file", for messages; NULL on ENOMEM. */
static char *join(const char *dir, const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, file) < 0)
		return NULL;
	return p;
}

/*
 * The output next to the slice: ".folded" (or pprof's ".pb.gz", JFR's
 * ".jfr") replaced by ext, else added.
 */
static char *out_name(const char *file, const char *ext)
{
	static const char *const exts[] = {".folded", ".pb.gz", ".jfr"};
	size_t len = strlen(file), n;
	char *p;

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		n = strlen(exts[i]);
		if (len > n && !strcmp(file + len - n, exts[i])) {
			len -= n;
			break;
		}
	}
	if (asprintf(&p, "%.*s%s", (int)len, file, ext) < 0)
		return NULL;
	return p;
}

/* Seconds since the first slice, compact: "30", "2.5", "0.25". */
static void put_secs(FILE *out, uint64_t ns)
{
	if (ns % NSEC_PER_SEC == 0)
		fprintf(out, "%" PRIu64, (uint64_t)(ns / NSEC_PER_SEC));
	else if (ns % (NSEC_PER_SEC / 10) == 0)
		fprintf(out, "%.1f", ns / 1e9);
	else
		fprintf(out, "%.2f", ns / 1e9);
}

/* The TOP_FRAMES names with the most self samples (ties by name id). */
static void top_self(const struct fg_tree *t, struct top top[TOP_FRAMES])
{
	size_t nr = tree__nr_nodes(t), names = tree__nr_names(t), i;
	uint64_t *self = calloc(names, sizeof(*self));
	int k, j;

	memset(top, 0, TOP_FRAMES * sizeof(*top));
	if (!self)
		return;
	for (i = 1; i < nr; i++)
		self[tree__node(t, i)->name] +=
		    tree__node(t, i)->self[FG_SLOT_VALUE];
	for (i = 1; i < names; i++) {
		for (k = 0; k < TOP_FRAMES && top[k].self >= self[i]; k++)
			;
		if (k == TOP_FRAMES || !self[i])
			continue;
		for (j = TOP_FRAMES - 1; j > k; j--)
			top[j] = top[j - 1];
		top[k] = (struct top){i, self[i]};
	}
	free(self);
}

/* Write name in dfd from t, full size; errors printed naming path. */
static int write_graph(struct fg_tree *t, const struct fg_opts *o, int dfd,
		       const char *name, const char *path, bool html)
{
	FILE *out = safefile__fcreate_at(dfd, name);
	int err;

	if (!out) {
		err = -errno;
		fprintf(stderr, "mixprof: %s: %s\n", path,
			safefile__strerror(err));
		return err;
	}
	err = html ? flamegraph__write_html(t, o, out)
		   : flamegraph__write_svg(t, o, out);
	if (fclose(out) && !err)
		err = -EIO;
	if (err)
		fprintf(stderr, "mixprof: %s: %s\n", path, strerror(-err));
	return err;
}

struct card {
	const struct fg_slice *s;
	uint64_t t0; /* the first slice's start */
	const char *href;
	const struct fg_opts *o;
};

/*
 * The JVM's events in slice s (--events: those starting in it): GC and
 * safepoint time, compilations by tier, deoptimizations, as one line.
 */
static void put_events(FILE *out, FILE *ev, const struct fg_slice *s)
{
	uint64_t gc_ns = 0, sp_ns = 0, gcs = 0, sps = 0, deopts = 0;
	uint64_t tier[5] = {0};
	struct fg_evline e;
	char *line = NULL;
	size_t cap = 0;

	rewind(ev);
	while (getline(&line, &cap, ev) > 0) {
		if (!evline__parse(line, &e) || e.t0 < s->start_ns ||
		    e.t0 >= s->end_ns)
			continue;
		if (!strcmp(e.kind, "gc"))
			gcs++, gc_ns += e.t1 - e.t0;
		else if (!strcmp(e.kind, "safepoint"))
			sps++, sp_ns += e.t1 - e.t0;
		else if (!strcmp(e.kind, "compile"))
			tier[e.tier]++;
		else
			deopts++;
	}
	free(line);
	fprintf(out,
		"<div class=\"mt-meta mt-events\" data-gc=\"%" PRIu64 "\" "
		"data-compiles=\"%" PRIu64 "\">JVM: GC %.1f ms (%" PRIu64
		") &middot; safepoints %.1f ms (%" PRIu64 ") &middot; compiled",
		gcs, tier[0] + tier[1] + tier[2] + tier[3] + tier[4],
		gc_ns / 1e6, gcs, sp_ns / 1e6, sps);
	for (int k = 1; k <= 4; k++)
		fprintf(out, " t%d:%" PRIu64, k, tier[k]);
	if (tier[0])
		fprintf(out, " t?:%" PRIu64, tier[0]);
	fprintf(out, " &middot; %" PRIu64 " deopt%s</div>\n", deopts,
		deopts == 1 ? "" : "s");
}

/* One grid cell: label, thumbnail link, samples, top self frames. */
static int put_card(FILE *out, const struct card *c, struct fg_tree *t)
{
	uint64_t total = tree__node(t, 0)->total[FG_SLOT_VALUE];
	struct fg_opts th = *c->o;
	struct top top[TOP_FRAMES];
	const char *name;
	int k, err;

	th.thumbnail = true;
	th.width = 300;
	th.frame_height = 3;
	th.minwidth = 0.5;
	th.minwidth_pct = false;
	fprintf(out,
		"<div class=\"mt-card\" data-index=\"%" PRIu64 "\" "
		"data-samples=\"%" PRIu64 "\"><h2>",
		c->s->index, total);
	put_secs(out, c->s->start_ns - c->t0);
	putc('-', out);
	put_secs(out, c->s->end_ns - c->t0);
	fputs(" s", out);
	if (c->s->partial)
		fputs(" <span class=\"mt-partial\">(partial)</span>", out);
	fputs("</h2>\n<a class=\"mt-thumb\" href=\"", out);
	escape__xml(out, c->href, strlen(c->href));
	fputs("\" title=\"Open the flame graph\">", out);
	err = flamegraph__write_svg(t, &th, out);
	if (err)
		return err;
	fprintf(out, "</a>\n<div class=\"mt-meta\">%" PRIu64 " ", total);
	escape__xml(out, c->o->countname, strlen(c->o->countname));
	fputs(" &middot; top self frames:</div>\n", out);
	if (c->o->events)
		put_events(out, c->o->events, c->s);
	fputs("<ol class=\"mt-top\">", out);
	top_self(t, top);
	for (k = 0; k < TOP_FRAMES && top[k].self; k++) {
		name = tree__name(t, top[k].name);
		fputs("<li title=\"", out);
		escape__xml(out, name, strlen(name));
		fprintf(out, "\">%.1f%% ", 100.0 * top[k].self / total);
		escape__xml(out, name, palette__strip_len(name));
		fputs("</li>", out);
	}
	fputs("</ol></div>\n", out);
	return 0;
}

/* Load slice s's folded file (named in) from dfd; errors printed. */
static int load_slice(struct fg_tree *t, int dfd, const struct fg_slice *s,
		      const char *in)
{
	struct fg_load_opts lo = {.slot = FG_SLOT_VALUE};
	struct fg_load_stats st;
	FILE *f = safefile__fopen_in(dfd, s->file, &dir_file);
	int err;

	/* An idle slice may have no file: an empty graph, not an error. */
	if (!f && errno == ENOENT && !s->samples)
		return 0;
	if (!f) {
		char shown[SAFENAME_SIZE(256)];

		err = -errno;
		/* a name from slices.tsv: whoever wrote it chose it */
		fprintf(stderr, "mixprof: %s: %s\n",
			safename__show(shown, sizeof(shown), in),
			safefile__strerror(err));
		return err;
	}
	err = folded__load(t, f, &lo, &st);
	fclose(f);
	return folded__report(in, err, &st, "no usable folded lines", true);
}

/* Load, render and describe slice s; errors printed. */
static int do_slice(int dfd, const char *dir, const struct card *tmpl,
		    bool html, FILE *index)
{
	struct card c = *tmpl;
	struct fg_opts o = *c.o;
	char *in = join(dir, c.s->file),
	     *name = out_name(c.s->file, html ? ".html" : ".svg"), *path = NULL,
	     sub[96];
	struct fg_tree *t = tree__new();
	int err = -ENOMEM;

	if (!in || !name || !t || !(path = join(dir, name)))
		goto out;
	err = load_slice(t, dfd, c.s, in);
	if (err)
		goto out;
	snprintf(sub, sizeof(sub), "slice %" PRIu64 ": %.3f-%.3f s%s",
		 c.s->index, (c.s->start_ns - c.t0) / 1e9,
		 (c.s->end_ns - c.t0) / 1e9, c.s->partial ? " (partial)" : "");
	o.subtitle = sub;
	err = write_graph(t, &o, dfd, name, path, html);
	if (err)
		goto out;
	/* Link by name: index.html sits in dir, next to the graph. */
	c.href = name;
	err = put_card(index, &c, t);
out:
	if (err == -ENOMEM)
		fprintf(stderr, "mixprof: %s: %s\n", dir, strerror(ENOMEM));
	tree__free(t);
	free(path);
	free(name);
	free(in);
	return err;
}

/*
 * The page head: the title (o->title, else the directory), and a link to
 * DIR/heatmap.html when one sits next to the slices (mixprof --heatmap
 * DIR --montage DIR), the same run seen at 20 ms.
 */
static void put_index_head(FILE *out, int dfd, const char *dir,
			   const struct fg_slicetab *st,
			   const struct fg_opts *o)
{
	const char *title = o->title ? o->title : dir;
	struct stat sb;
	bool heat = !fstatat(dfd, "heatmap.html", &sb, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(sb.st_mode);

	fputs(
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "\n<title>mixprof montage</title>\n<style>\n",
	    out);
	fputs(fg_asset_page_css, out);
	fputs("</style>\n</head>\n<body>\n<h1>Warmup montage: ", out);
	escape__xml(out, title, strlen(title));
	fprintf(out,
		"</h1>\n<div class=\"fg-sub\">%zu slices; time from the "
		"first slice's start; click a graph to open it",
		st->nr);
	if (heat)
		fputs("; <a class=\"mt-heat\" href=\"heatmap.html\">heat "
		      "map</a> of the same run",
		      out);
	fputs("</div>\n<div class=\"mt-grid\">\n", out);
}

/* Every slice file must be a plain name in DIR: said naming the first
 * that is not (-EXDEV), before anything is written. */
static int check_names(const struct fg_slicetab *st, const char *tsv)
{
	for (size_t i = 0; i < st->nr; i++) {
		if (safefile__name_ok(st->v[i].file))
			continue;
		fprintf(stderr,
			"mixprof: %s: slice %llu: file '%s' is not a plain "
			"name in the directory (absolute, '..' or a "
			"subdirectory): refused\n",
			tsv, (unsigned long long)st->v[i].index, st->v[i].file);
		return -EXDEV;
	}
	return 0;
}

int montage__write(const char *dir, const struct fg_opts *o, bool html)
{
	const struct safe_in tsv_in = {.uid = SAFE_ANY_UID,
				       .max_size = TSV_MAX};
	struct fg_slicetab st = {0};
	char *tsv = join(dir, "slices.tsv"), *idx = join(dir, "index.html");
	FILE *in = NULL, *out = NULL;
	struct card c = {.o = o};
	int err = -ENOMEM, failed = 0, dfd;
	size_t i;

	dfd = safefile__outdir(dir, false);
	if (dfd < 0) {
		fprintf(stderr, "mixprof: %s: %s\n", dir,
			safefile__strerror(dfd));
		err = dfd;
		goto out;
	}
	if (!tsv || !idx)
		goto out;
	in = safefile__fopen_in(dfd, "slices.tsv", &tsv_in);
	if (!in) {
		err = -errno;
		fprintf(stderr, "mixprof: %s: %s\n", tsv,
			safefile__strerror(err));
		goto out;
	}
	err = slicetab__load(&st, in, tsv);
	if (err)
		goto out;
	if (!st.nr) {
		fprintf(stderr, "mixprof: %s: no slices\n", tsv);
		err = -ENODATA;
		goto out;
	}
	err = check_names(&st, tsv);
	if (err)
		goto out;
	slicetab__sort(&st);
	out = safefile__fcreate_at(dfd, "index.html");
	if (!out) {
		err = -errno;
		fprintf(stderr, "mixprof: %s: %s\n", idx,
			safefile__strerror(err));
		goto out;
	}
	put_index_head(out, dfd, dir, &st, o);
	c.t0 = st.v[0].start_ns;
	/* A bad slice is reported and left out; the others still help. */
	for (i = 0; i < st.nr; i++) {
		c.s = &st.v[i];
		err = do_slice(dfd, dir, &c, html, out);
		if (err == -ENOMEM)
			goto out;
		if (err && !failed)
			failed = err;
	}
	fputs("</div>\n</body></html>\n", out);
	err = failed;
out:
	if (out && fclose(out) && !err) {
		fprintf(stderr, "mixprof: %s: write error\n", idx);
		err = -EIO;
	}
	if (in)
		fclose(in);
	if (dfd >= 0)
		close(dfd);
	slicetab__release(&st);
	free(tsv);
	free(idx);
	return err;
}
