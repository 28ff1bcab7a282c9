/*
 * render_out: the run's flame graph, heat map and montage (render_out.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/safefile.h"
#include "flamegraph/render.h"
#include "render_out.h"
#include "timedout.h"

struct renderout {
	struct render_cfg cfg;
	FILE *svg, *html; /* created early, filled at the end */
	struct fg_tree *all; /* every line, for svg/html */
	struct timedout *timed;
	int heat_dirfd; /* --heatmap DIR, checked once (safefile.h) */
	char *timed_path, *heat_path;
	int err; /* samples.timed's first write error, reported */
};

/*
 * Create path now: a typo should fail before a long run, not after. No
 * link followed, no file of another user reused (common/safefile.h).
 */
static FILE *create(const char *path)
{
	FILE *f = safefile__fcreate(path);

	if (!f)
		fprintf(stderr, "mixprof: %s: %s\n", path,
			safefile__strerror(errno));
	return f;
}

/* DIR (made if missing), DIR/samples.timed open, DIR/heatmap.html named;
 * both files are reached through DIR's fd only. */
static int setup_heatmap(struct renderout *ro, const struct timebase *tb)
{
	const char *dir = ro->cfg.heatmap;
	FILE *f;

	ro->heat_dirfd = safefile__outdir(dir, true);
	if (ro->heat_dirfd < 0) {
		errno = -ro->heat_dirfd;
		goto fail;
	}
	if (asprintf(&ro->timed_path, "%s/samples.timed", dir) < 0 ||
	    asprintf(&ro->heat_path, "%s/heatmap.html", dir) < 0) {
		ro->timed_path = ro->heat_path = NULL;
		errno = ENOMEM;
		goto fail;
	}
	dir = ro->timed_path;
	f = safefile__fcreate_at(ro->heat_dirfd, "samples.timed");
	if (!f || !(ro->timed = timedout__new(tb, f)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "mixprof: --heatmap %s: %s\n", dir,
		safefile__strerror(errno));
	return -errno;
}

struct renderout *renderout__new(const struct render_cfg *cfg,
				 const struct timebase *tb)
{
	struct renderout *ro = calloc(1, sizeof(*ro));
	int err = -ENOMEM;

	if (!ro)
		goto fail;
	ro->heat_dirfd = -1;
	ro->cfg = *cfg;
	if ((cfg->svg || cfg->html) && !(ro->all = tree__new()))
		goto fail;
	err = -EIO;
	if (cfg->svg && !(ro->svg = create(cfg->svg)))
		goto fail;
	if (cfg->html && !(ro->html = create(cfg->html)))
		goto fail;
	if (cfg->heatmap && (err = setup_heatmap(ro, tb)))
		goto fail;
	return ro;
fail:
	if (err == -ENOMEM)
		fprintf(stderr, "mixprof: %s\n", strerror(ENOMEM));
	renderout__free(ro);
	errno = -err;
	return NULL;
}

void renderout__free(struct renderout *ro)
{
	if (!ro)
		return;
	if (ro->svg)
		fclose(ro->svg);
	if (ro->html)
		fclose(ro->html);
	tree__free(ro->all);
	timedout__free(ro->timed);
	if (ro->heat_dirfd >= 0)
		close(ro->heat_dirfd);
	free(ro->timed_path);
	free(ro->heat_path);
	free(ro);
}

int renderout__add(struct renderout *ro, uint64_t bucket,
		   const struct fold_stack *s, uint64_t count)
{
	const struct fold_line *l = s->line;
	int ret = 0;

	if (ro->all)
		ret = tree__add_frames(ro->all, l->buf, l->ends, l->n, count,
				       FG_SLOT_VALUE);
	if (!ret && ro->timed) /* a file's text */
		ret = timedout__add(ro->timed, bucket, l->buf, count);
	return ret;
}

int renderout__flush(struct renderout *ro)
{
	int ret;

	if (ro->err) /* said once; the run is ending */
		return ro->err;
	ret = ro->timed ? timedout__flush(ro->timed) : 0;
	if (ret)
		fprintf(stderr, "mixprof: %s: %s\n", ro->timed_path,
			strerror(-ret));
	ro->err = ret;
	return ret;
}

int renderout__error(const struct renderout *ro)
{
	return ro ? ro->err : 0;
}

/* Write one whole-run graph into *f, close it; errors name path. */
static int put_graph(struct renderout *ro, FILE **f, const char *path,
		     const struct fg_opts *o, bool html)
{
	int err = html ? flamegraph__write_html(ro->all, o, *f)
		       : flamegraph__write_svg(ro->all, o, *f);

	if (fclose(*f) && !err)
		err = -errno;
	*f = NULL;
	if (err)
		fprintf(stderr, "mixprof: %s: %s\n", path, strerror(-err));
	else
		fprintf(stderr, "mixprof: flame graph in %s\n", path);
	return err;
}

/*
 * samples.timed is complete: read it back (the page shows exactly what
 * the file says) and write heatmap.html. A run without samples gets an
 * empty page, not an error.
 */
/* o, with the --events file (written by now) to draw, when it opens. */
static const struct fg_opts *heat_opts(const struct renderout *ro,
				       const struct fg_opts *o,
				       struct fg_opts *ho)
{
	/* our own file, but its path may be in a directory others write */
	const struct safe_in ours = {.uid = SAFE_ANY_UID};

	*ho = *o;
	ho->events = ro->cfg.events
			 ? safefile__fopen_in(AT_FDCWD, ro->cfg.events, &ours)
			 : NULL;
	return ho;
}

static int put_heatmap(struct renderout *ro, const struct fg_opts *o)
{
	struct fg_opts ho;
	struct fg_timed *tm = timed__new();
	struct fg_load_stats st;
	FILE *in = NULL, *out = NULL;
	const char *path = ro->timed_path;
	/* the file just written, read back through the same directory fd
	 * (it may be the directory owner's, reused: any owner) */
	const struct safe_in ours = {.uid = SAFE_ANY_UID};
	const char *why = NULL; /* an open refused, in words */
	int err;

	err = timedout__finish(ro->timed);
	if (err || !tm)
		goto out;
	in = safefile__fopen_in(ro->heat_dirfd, "samples.timed", &ours);
	if (!in)
		why = safefile__strerror(err = -errno);
	else
		err = timed__load(tm, in, &st);
	if (err)
		goto out;
	path = ro->heat_path;
	out = safefile__fcreate_at(ro->heat_dirfd, "heatmap.html");
	if (!out) {
		why = safefile__strerror(err = -errno);
		goto out;
	}
	err = heatmap__write_html(tm, heat_opts(ro, o, &ho), out);
	if (ho.events)
		fclose(ho.events);
	if (fclose(out) && !err)
		err = -errno;
out:
	if (!tm)
		err = -ENOMEM;
	if (err)
		fprintf(stderr, "mixprof: %s: %s\n", path,
			why ? why : strerror(-err));
	else
		fprintf(stderr, "mixprof: heat map in %s\n", ro->heat_path);
	if (in)
		fclose(in);
	timed__free(tm);
	return err;
}

int renderout__finish(struct renderout *ro, const char *title,
		      const char *subtitle)
{
	struct fg_opts o;
	int err = 0, ret;

	opts__init(&o);
	o.title = title;
	o.subtitle = subtitle;
	if (ro->cfg.countname)
		o.countname = ro->cfg.countname;
	if (ro->cfg.blue)
		o.scheme = FG_SCHEME_IO;
	if (ro->cfg.red)
		o.scheme = FG_SCHEME_RED;
	if (ro->svg && (ret = put_graph(ro, &ro->svg, ro->cfg.svg, &o, false)))
		err = err ? err : ret;
	if (ro->html &&
	    (ret = put_graph(ro, &ro->html, ro->cfg.html, &o, true)))
		err = err ? err : ret;
	/* before the montage, whose index links a heat map next to it */
	if (ro->timed && (ret = put_heatmap(ro, &o)))
		err = err ? err : ret;
	if (ro->cfg.montage) {
		struct fg_opts mo;

		ret = montage__write(ro->cfg.montage, heat_opts(ro, &o, &mo),
				     false);
		if (mo.events)
			fclose(mo.events);
		if (ret)
			err = err ? err : ret;
		else
			fprintf(stderr, "mixprof: montage in %s/index.html\n",
				ro->cfg.montage);
	}
	return err;
}
