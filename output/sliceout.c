/*
 * sliceout: per-slice folds and their files (see sliceout.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/nsec.h"
#include "common/safefile.h"
#include "stacks/fold.h"
#include "jfr/jfr.h"
#include "pprof/pprof.h"
#include "sliceout.h"
#include "topn.h"

struct slice {
	struct fold *fold; /* NULL until its first line, after writing */
	struct fold *events; /* the same lines' events (pprof events_type) */
	uint64_t samples;
	bool written;
};

struct sliceout {
	const struct timebase *tb; /* the run's, outlives us */
	const char *path;
	int dirfd; /* the directory of slices, checked once (safefile.h) */
	FILE *out; /* without slices */
	struct slice *s;
	uint64_t nr, next; /* slices known; first not yet written */
	uint64_t end_ns; /* the run's end once known, else UINT64_MAX */
	uint64_t total;
	uint64_t written; /* samples of slices whose file was written whole */
	int err; /* the first write error, reported; later writes skipped */
	bool discard; /* count only */
	bool pprof; /* files are gzipped profile.proto (meta), not text */
	bool jfr; /* files are JFR recordings (jmeta), not text */
	bool top, per_thread; /* a top-N table (topn.h), not the lines */
	bool untier; /* text: tiers' suffixes as _[j] (untiered) */
	struct fold_line untier_line; /* a line being untiered */
	struct pprof_meta meta;
	struct jfr_meta jmeta;
};

struct sliceout *sliceout__new(const struct timebase *tb, const char *path)
{
	struct sliceout *so = calloc(1, sizeof(*so));

	if (!so)
		return NULL;
	so->tb = tb;
	so->path = path;
	so->end_ns = UINT64_MAX;
	so->dirfd = -1;
	if (tb->slice_ns) {
		so->dirfd = safefile__outdir(path, true);
		if (so->dirfd < 0) {
			errno = -so->dirfd;
			goto fail;
		}
	} else {
		so->out = path ? safefile__fcreate(path) : stdout;
		if (!so->out)
			goto fail;
	}
	return so;
fail:
	free(so);
	return NULL;
}

struct sliceout *sliceout__new_discard(const struct timebase *tb)
{
	struct sliceout *so = calloc(1, sizeof(*so));

	if (!so)
		return NULL;
	so->tb = tb;
	so->dirfd = -1;
	so->discard = true;
	return so;
}

void sliceout__free(struct sliceout *so)
{
	uint64_t i;

	if (!so)
		return;
	for (i = 0; i < so->nr; i++) {
		fold__free(so->s[i].fold);
		fold__free(so->s[i].events);
	}
	if (so->out && so->out != stdout)
		fclose(so->out);
	if (so->dirfd >= 0)
		close(so->dirfd);
	free(so->s);
	fold_line__release(&so->untier_line);
	free(so);
}

void sliceout__top(struct sliceout *so, bool per_thread)
{
	so->top = true;
	so->per_thread = per_thread;
}

void sliceout__untier(struct sliceout *so)
{
	so->untier = true;
}

/*
 * l with its tiers written as _[j] when text is written without them, in
 * so's copy (valid until the next call); else l itself.
 */
static const struct fold_line *untiered(struct sliceout *so,
					const struct fold_line *l)
{
	struct fold_line *u = &so->untier_line;

	if (!so->untier || so->pprof || so->jfr || !fold_line__tiers(l))
		return l;
	fold_line__reset(u);
	if (fold_line__append_frames(u, l->buf, l->len, l->ends, l->types,
				     l->n))
		return NULL;
	fold_line__untier(u);
	return u;
}

void sliceout__pprof(struct sliceout *so, const struct pprof_meta *m)
{
	so->pprof = true;
	so->meta = *m;
}

void sliceout__jfr(struct sliceout *so, const struct jfr_meta *m)
{
	so->jfr = true;
	so->jmeta = *m;
}

/* A slice file's name in DIR. */
static void slice_name(const struct sliceout *so, uint64_t idx, char *buf,
		       size_t cap)
{
	snprintf(buf, cap, "slice-%04" PRIu64 ".%s", idx,
		 so->pprof ? "pb.gz"
		 : so->jfr ? "jfr"
			   : "folded");
}

/* Make slice idx exist. */
static struct slice *slice_get(struct sliceout *so, uint64_t idx)
{
	struct slice *s;
	uint64_t nr;

	if (idx >= so->nr) {
		nr = idx + 16;
		s = realloc(so->s, nr * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + so->nr, 0, (nr - so->nr) * sizeof(*s));
		so->s = s;
		so->nr = nr;
	}
	return &so->s[idx];
}

int sliceout__add(struct sliceout *so, uint64_t idx, const struct fold_line *l,
		  uint64_t count)
{
	struct slice *s = slice_get(so, idx);
	const struct fold_line *u;

	if (!s)
		return -ENOMEM;
	if (s->written)
		return -EINVAL; /* a bucket drained after its slice: a bug */
	s->samples += count;
	so->total += count;
	if (so->discard)
		return 0;
	if (!s->fold && !(s->fold = fold__new()))
		return -errno;
	u = untiered(so, l);
	return u ? fold__add_frames(s->fold, u->buf, u->ends, u->types, u->n,
				    count)
		 : -ENOMEM;
}

int sliceout__add_events(struct sliceout *so, uint64_t idx,
			 const struct fold_line *l, uint64_t events)
{
	struct slice *s;

	if (so->discard || !so->pprof || !so->meta.events_type || !events)
		return 0;
	s = slice_get(so, idx);
	if (!s)
		return -ENOMEM;
	if (s->written)
		return -EINVAL;
	if (!s->events && !(s->events = fold__new()))
		return -errno;
	return fold__add_frames(s->events, l->buf, l->ends, l->types, l->n,
				events);
}

struct pprof_ctx {
	struct pprof_writer *w;
	const struct fold *events; /* or NULL */
};

static int pprof_add(const struct fold_frame *fr, uint32_t n, uint64_t count,
		     void *ctx)
{
	struct pprof_ctx *c = ctx;

	return pprof_writer__add_frames(
	    c->w, fr, n, count,
	    c->events ? fold__count_frames(c->events, fr, n) : 0);
}

/* CLOCK_REALTIME at the monotonic time mono_ns. */
static uint64_t wall_of(uint64_t mono_ns)
{
	struct timespec r, m;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	return (uint64_t)r.tv_sec * NSEC_PER_SEC + r.tv_nsec -
	       ((uint64_t)m.tv_sec * NSEC_PER_SEC + m.tv_nsec - mono_ns);
}

/* Slice idx's wall-clock start and length, from the time base. */
static void slice_span(const struct sliceout *so, uint64_t idx,
		       uint64_t *time_ns, uint64_t *duration_ns)
{
	uint64_t s, e;

	timebase__slice_bounds(so->tb, idx, so->end_ns, &s, &e);
	*time_ns = wall_of(s);
	*duration_ns = e > s ? e - s : 0;
}

/* Slice idx as pprof. */
static int write_pprof(struct sliceout *so, uint64_t idx, const struct fold *f,
		       FILE *out)
{
	struct pprof_meta m = so->meta;
	struct pprof_ctx c = {.events = so->s[idx].events};
	struct pprof_writer *w;
	int ret;

	slice_span(so, idx, &m.time_ns, &m.duration_ns);
	w = pprof_writer__new(&m);
	if (!w)
		return -errno;
	c.w = w;
	ret = f ? fold__each_frames(f, pprof_add, &c) : 0;
	ret = ret ?: pprof_writer__write(w, out);
	pprof_writer__free(w);
	return ret;
}

static int jfr_add(const struct fold_frame *fr, uint32_t n, uint64_t count,
		   void *ctx)
{
	return jfr_writer__add_frames(ctx, fr, n, count);
}

/* Slice idx as a JFR recording. */
static int write_jfr(struct sliceout *so, uint64_t idx, const struct fold *f,
		     FILE *out)
{
	struct jfr_meta m = so->jmeta;
	struct jfr_writer *w;
	int ret;

	slice_span(so, idx, &m.time_ns, &m.duration_ns);
	w = jfr_writer__new(&m);
	if (!w)
		return -errno;
	ret = f ? fold__each_frames(f, jfr_add, w) : 0;
	ret = ret ?: jfr_writer__write(w, out);
	jfr_writer__free(w);
	return ret;
}

/* name in the directory, through its fd; errors said naming the file */
static FILE *create_in_dir(struct sliceout *so, const char *name)
{
	FILE *f = safefile__fcreate_at(so->dirfd, name);

	if (!f) {
		int err = errno;

		fprintf(stderr, "mixprof: %s/%s: %s: refused\n", so->path, name,
			safefile__strerror(err));
		if (!so->err) /* said: write_failed says no more */
			so->err = -err;
		errno = err;
	}
	return f;
}

/*
 * A write of path failed with err: say so once, naming the file, and keep
 * the error so the summary can tell what was not written. A reader that
 * closed our stdout (`| head`) chose to stop reading: no error message.
 */
static int write_failed(struct sliceout *so, const char *path, int err)
{
	if (!so->err && !(err == -EPIPE && !so->path)) {
		fprintf(stderr, "mixprof: %s: %s\n", path, strerror(-err));
	}
	if (!so->err)
		so->err = err;
	return so->err;
}

/* The file a write went to, for messages. */
static const char *out_name(const struct sliceout *so)
{
	return so->path ? so->path : "stdout";
}

/* Write slice idx to its file (the output file without slices). */
static int slice_write(struct sliceout *so, uint64_t idx)
{
	struct slice *s = slice_get(so, idx);
	char path[4096], name[64];
	FILE *f = so->out;
	int ret = 0;

	if (!s)
		return -ENOMEM;
	if (so->discard) {
		s->written = true;
		so->written += s->samples;
		return 0;
	}
	if (so->err)
		return so->err;
	snprintf(path, sizeof(path), "%s", out_name(so));
	if (!f) {
		slice_name(so, idx, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", so->path, name);
		f = create_in_dir(so, name);
		if (!f)
			return so->err;
	}
	if (so->pprof)
		ret = write_pprof(so, idx, s->fold, f);
	else if (so->jfr)
		ret = write_jfr(so, idx, s->fold, f);
	else if (so->top && s->fold)
		ret = topn__write(s->fold, so->per_thread, SLICEOUT_TOP_N, f);
	else if (so->top) /* a table of nothing would look cut off */
		ret = fputs("# no samples\n", f) < 0 ? -EIO : 0;
	else if (s->fold)
		ret = fold__write(s->fold, f);
	if (fflush(f) && !ret)
		ret = -errno;
	if (f != so->out && fclose(f) && !ret)
		ret = -errno;
	fold__free(s->fold);
	fold__free(s->events);
	s->fold = s->events = NULL;
	s->written = true;
	if (ret)
		return write_failed(so, path, ret);
	so->written += s->samples;
	return 0;
}

int sliceout__flush(struct sliceout *so, uint64_t done_ns)
{
	uint64_t s, e;
	int ret;

	if (!so->tb->slice_ns)
		return 0;
	for (;;) {
		timebase__slice_bounds(so->tb, so->next, UINT64_MAX, &s, &e);
		if (e > done_ns)
			return 0;
		ret = slice_write(so, so->next);
		if (ret)
			return ret;
		so->next++;
	}
}

/* DIR/slices.tsv: index start_ns end_ns samples file [partial]. */
static int write_tsv(struct sliceout *so, uint64_t n, uint64_t end_ns)
{
	uint64_t i, s, e;
	bool partial;
	char path[4096], name[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/slices.tsv", so->path);
	f = create_in_dir(so, "slices.tsv");
	if (!f)
		return so->err;
	fprintf(f, "# index\tstart_ns\tend_ns\tsamples\tfile\tpartial\n");
	for (i = 0; i < n; i++) {
		partial = timebase__slice_bounds(so->tb, i, end_ns, &s, &e);
		slice_name(so, i, name, sizeof(name));
		fprintf(f,
			"%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%s\t%d\n",
			i, s, e, i < so->nr ? so->s[i].samples : 0, name,
			partial ? 1 : 0);
	}
	return fclose(f) ? write_failed(so, path, -errno) : 0;
}

int sliceout__finish(struct sliceout *so, uint64_t end_ns)
{
	uint64_t n = timebase__nr_slices(so->tb, end_ns), i;
	int ret;

	so->end_ns = end_ns;
	if (so->err)
		return so->err;
	if (!so->tb->slice_ns)
		return slice_write(so, 0);
	/* a bucket of the last slice may have been drained late */
	if (so->nr > n)
		for (i = n; i < so->nr; i++)
			if (so->s[i].samples)
				n = i + 1;
	for (i = so->next; i < n; i++) {
		ret = slice_write(so, i);
		if (ret)
			return ret;
	}
	so->next = n;
	return write_tsv(so, n, end_ns);
}

uint64_t sliceout__total(const struct sliceout *so)
{
	return so->total;
}

uint64_t sliceout__written(const struct sliceout *so)
{
	return so->written;
}

uint64_t sliceout__lines(const struct sliceout *so)
{
	uint64_t i, n = 0;

	for (i = so->next; i < so->nr; i++)
		n += so->s[i].fold ? fold__lines(so->s[i].fold) : 0;
	return n;
}

int sliceout__error(const struct sliceout *so)
{
	return so->err;
}
