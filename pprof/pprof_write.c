/*
 * pprof_write: folded lines into a gzipped profile.proto (see pprof.h).
 *
 * Field numbers are profile.proto's (perftools.profiles): Profile
 * 1 sample_type, 2 sample, 3 mapping, 4 location, 5 function,
 * 6 string_table, 9 time_nanos, 10 duration_nanos, 11 period_type,
 * 12 period, 14 default_sample_type; ValueType 1 type, 2 unit; Sample
 * 1 location_id, 2 value, 3 label; Label 1 key, 2 str, 3 num; Mapping
 * 1 id, 2 memory_start, 3 memory_limit, 5 filename, 7 has_functions;
 * Location 1 id, 2 mapping_id, 4 line; Line 1 function_id; Function 1 id,
 * 2 name, 3 system_name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pbuf.h"
#include "pprof.h"
#include "common/array.h"
#include "common/cgroup.h"
#include "common/u64map.h"
#include "stacks/fold.h"

/* The Mappings frames are put under, by kind: ids 1..3. */
static const char *const mapping_names[] = {"[native]", "[java]", "[kernel]"};
enum { MAP_NATIVE = 1, MAP_JAVA, MAP_KERNEL };

struct pprof_writer {
	struct pprof_meta m;
	char *type, *unit, *etype, *eunit; /* etype: NULL without events */
	/* string table: text and index by hash (value: index + 1) */
	char **str;
	size_t nstr, capstr;
	struct u64map str_by_hash;
	/* one Function and one Location per distinct frame text */
	struct u64map func_by_str; /* system_name index + 1 -> id */
	struct pbuf funcs, locs, samples, one;
	uint64_t nfunc;
	uint64_t *ids; /* a sample's location ids, leaf first */
	size_t capids;
	struct fold_line text; /* a line given as text, typed (__add) */
	struct fold_frame *fr;
	size_t capfr;
};

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;

	while (n--)
		h = (h ^ (uint8_t)*s++) * 1099511628211ULL;
	return h ? h : 1;
}

/* The string table index of s[0..n), added if new; -ENOMEM. */
static int64_t intern(struct pprof_writer *w, const char *s, size_t n)
{
	uint64_t h = str_hash(s, n);
	bool added;
	void **slot;

	/* a hash shared by two strings moves the second to the next key */
	for (;; h = h + 1 ? h + 1 : 1) {
		slot = u64map__add(&w->str_by_hash, h, &added);
		if (!slot)
			return -ENOMEM;
		if (added)
			break;
		size_t i = (uintptr_t)*slot - 1;

		if (strlen(w->str[i]) == n && !memcmp(w->str[i], s, n))
			return (int64_t)i;
	}
	if (w->nstr == w->capstr) {
		size_t cap = w->capstr ? w->capstr * 2 : 256;
		char **v = realloc(w->str, cap * sizeof(*v));

		if (!v)
			goto fail;
		w->str = v;
		w->capstr = cap;
	}
	w->str[w->nstr] = strndup(s, n);
	if (!w->str[w->nstr])
		goto fail;
	*slot = (void *)(uintptr_t)(w->nstr + 1);
	return (int64_t)w->nstr++;
fail:
	u64map__del(&w->str_by_hash, h);
	return -ENOMEM;
}

struct pprof_writer *pprof_writer__new(const struct pprof_meta *m)
{
	struct pprof_writer *w = calloc(1, sizeof(*w));
	bool ev = m->events_type && !m->period_ns;

	if (!w)
		return NULL;
	w->m = *m;
	w->type = strdup(m->type ? m->type : "samples");
	w->unit = strdup(m->unit ? m->unit : "count");
	if (ev) {
		w->etype = strdup(m->events_type);
		w->eunit = strdup(m->events_unit ? m->events_unit : "count");
	}
	/* index 0 must be "" (profile.proto) */
	if (!w->type || !w->unit || (ev && (!w->etype || !w->eunit)) ||
	    intern(w, "", 0) < 0) {
		pprof_writer__free(w);
		errno = ENOMEM;
		return NULL;
	}
	return w;
}

void pprof_writer__free(struct pprof_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nstr; i++)
		free(w->str[i]);
	free(w->str);
	u64map__release(&w->str_by_hash);
	u64map__release(&w->func_by_str);
	pbuf__release(&w->funcs);
	pbuf__release(&w->locs);
	pbuf__release(&w->samples);
	pbuf__release(&w->one);
	free(w->ids);
	fold_line__release(&w->text);
	free(w->fr);
	free(w->type);
	free(w->unit);
	free(w->etype);
	free(w->eunit);
	free(w);
}

/* The Mapping of a frame of kind k. */
static int mapping_of(uint32_t k)
{
	if (k == FOLD_KERNEL)
		return MAP_KERNEL;
	return fold_kind__java(k) ? MAP_JAVA : MAP_NATIVE;
}

/*
 * The Function (and Location: same id) of frame f: its id, or 0. Its
 * name is the frame's name (no kind suffix, no ":LINE"), its Line the
 * frame's line; its system_name the frame as folded, so our reader gives
 * the same line back.
 */
static uint64_t frame_id(struct pprof_writer *w, const struct fold_frame *f)
{
	int64_t sys = intern(w, f->text, f->len), name;
	const struct fold_type *t = f->t;
	struct pbuf *o = &w->one;
	bool added;
	void **slot;
	uint64_t id;

	if (sys < 0)
		return 0;
	slot = u64map__add(&w->func_by_str, (uint64_t)sys + 1, &added);
	if (!slot)
		return 0;
	if (!added)
		return (uintptr_t)*slot;
	id = ++w->nfunc;
	*slot = (void *)(uintptr_t)id;
	/* a role's frame past the labels (a thread without --per-thread)
	 * is named whole */
	name = intern(w, f->text, t->kind >= FOLD_PROCESS ? f->len : t->name);
	if (name < 0)
		return 0;
	pbuf__reset(o);
	pbuf__varint_field(o, 1, id);
	pbuf__varint_field(o, 2, (uint64_t)name);
	pbuf__varint_field(o, 3, (uint64_t)sys);
	pbuf__bytes_field(&w->funcs, 5, o->p, o->len);
	pbuf__reset(o);
	{
		struct pbuf line = {0};

		pbuf__varint_field(&line, 1, id);
		if (t->line)
			pbuf__varint_field(&line, 2, t->line);
		pbuf__varint_field(o, 1, id);
		pbuf__varint_field(o, 2, (uint64_t)mapping_of(t->kind));
		pbuf__bytes_field(o, 4, line.p, line.len);
		if (line.err)
			o->err = line.err;
		pbuf__release(&line);
	}
	pbuf__bytes_field(&w->locs, 4, o->p, o->len);
	return o->err || w->funcs.err || w->locs.err ? 0 : id;
}

/* A Label {key, str} or {key, num} into the sample being built. */
static void label(struct pprof_writer *w, struct pbuf *s, const char *key,
		  const char *str, size_t n, int64_t num)
{
	struct pbuf l = {0};
	int64_t k = intern(w, key, strlen(key)), v = 0;

	if (str)
		v = intern(w, str, n);
	if (k < 0 || v < 0) {
		s->err = -ENOMEM;
		return;
	}
	pbuf__varint_field(&l, 1, (uint64_t)k);
	if (str)
		pbuf__varint_field(&l, 2, (uint64_t)v);
	else
		pbuf__varint_field(&l, 3, (uint64_t)num);
	pbuf__bytes_field(s, 3, l.p, l.len);
	if (l.err)
		s->err = l.err;
	pbuf__release(&l);
}

/* The container frame f's labels into s. */
static void container(struct pprof_writer *w, struct pbuf *s,
		      const struct fold_frame *f)
{
	size_t pl = sizeof(CGROUP_FRAME_PREFIX) - 1;
	char id[CGROUP_ID_LEN + 1];
	const char *path;

	if (f->len < pl + CGROUP_ID_LEN)
		return;
	memcpy(id, f->text + pl, CGROUP_ID_LEN);
	id[CGROUP_ID_LEN] = 0;
	label(w, s, "container.id", id, CGROUP_ID_LEN, 0);
	path = w->m.cgroup_of ? w->m.cgroup_of(w->m.cgroup_ctx, id) : NULL;
	if (path)
		label(w, s, "process.linux.cgroup", path, strlen(path), 0);
}

/* The location ids of frames fr[0..n), leaf first, into w->ids. */
static int line_ids(struct pprof_writer *w, const struct fold_frame *fr,
		    uint32_t n)
{
	if (array__grow((void **)&w->ids, &w->capids, n ? n : 1,
			sizeof(*w->ids)))
		return -ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		w->ids[k] = frame_id(w, &fr[n - 1 - k]);
		if (!w->ids[k])
			return -ENOMEM;
	}
	return 0;
}

int pprof_writer__add(struct pprof_writer *w, const char *line, size_t len,
		      uint64_t count)
{
	return pprof_writer__add2(w, line, len, count, 0);
}

int pprof_writer__add2(struct pprof_writer *w, const char *line, size_t len,
		       uint64_t count, uint64_t events)
{
	int n = fold_line__frames(&w->text, line, len, &w->fr, &w->capfr);

	return n < 0 ? n : pprof_writer__add_frames(w, w->fr, n, count, events);
}

int pprof_writer__add_frames(struct pprof_writer *w,
			     const struct fold_frame *fr, uint32_t n,
			     uint64_t count, uint64_t events)
{
	struct pbuf s = {0};
	uint64_t val[2];
	uint32_t i = 1;
	int ret;

	if (!n)
		return -EINVAL;
	if (w->m.per_container && i < n && fr[i].t->kind == FOLD_CONTAINER)
		container(w, &s, &fr[i++]);
	if (w->m.per_thread && i < n && fr[i].t->kind == FOLD_THREAD) {
		label(w, &s, "thread", fr[i].text, fr[i].t->name, 0);
		label(w, &s, "tid", NULL, 0, fr[i].t->tid);
		i++;
	}
	label(w, &s, "process", fr[0].text, fr[0].len, 0);
	ret = line_ids(w, fr + i, n - i);
	if (ret)
		goto out;
	val[0] = count > INT64_MAX ? INT64_MAX : count;
	val[1] = w->m.period_ns && val[0] <= INT64_MAX / w->m.period_ns
		     ? val[0] * w->m.period_ns
		     : INT64_MAX;
	if (w->etype)
		val[1] = events > INT64_MAX ? INT64_MAX : events;
	pbuf__packed(&s, 1, w->ids, n - i);
	pbuf__packed(&s, 2, val, w->m.period_ns || w->etype ? 2 : 1);
	pbuf__bytes_field(&w->samples, 2, s.p, s.len);
	ret = s.err ? s.err : w->samples.err;
out:
	pbuf__release(&s);
	return ret;
}

/* A ValueType {type, unit} as field num of b. */
static void value_type(struct pprof_writer *w, struct pbuf *b, uint32_t num,
		       const char *type, const char *unit)
{
	int64_t t = intern(w, type, strlen(type)),
		u = intern(w, unit, strlen(unit));
	struct pbuf v = {0};

	if (t < 0 || u < 0) {
		b->err = -ENOMEM;
		return;
	}
	pbuf__varint_field(&v, 1, (uint64_t)t);
	pbuf__varint_field(&v, 2, (uint64_t)u);
	pbuf__bytes_field(b, num, v.p, v.len);
	if (v.err)
		b->err = v.err;
	pbuf__release(&v);
}

/* Everything but the samples, functions and locations already built. */
static void profile_head(struct pprof_writer *w, struct pbuf *b)
{
	struct pbuf m = {0};

	value_type(w, b, 1, w->type, w->unit);
	if (w->etype) {
		int64_t t = intern(w, w->type, strlen(w->type));

		/* else a reader takes the last type, events, as default */
		value_type(w, b, 1, w->etype, w->eunit);
		if (t < 0)
			b->err = -ENOMEM;
		else
			pbuf__varint_field(b, 14, (uint64_t)t);
	}
	if (w->m.period_ns) {
		value_type(w, b, 1, "cpu", "nanoseconds");
		value_type(w, b, 11, "cpu", "nanoseconds");
		pbuf__varint_field(b, 12, w->m.period_ns);
	}
	for (size_t i = 0; i < 3; i++) {
		int64_t name =
		    intern(w, mapping_names[i], strlen(mapping_names[i]));

		if (name < 0) {
			b->err = -ENOMEM;
			break;
		}
		/* disjoint made-up ranges: frames carry names, not
		 * addresses, and has_functions stops symbolization */
		pbuf__reset(&m);
		pbuf__varint_field(&m, 1, i + 1);
		pbuf__varint_field(&m, 2, (uint64_t)i << 40);
		pbuf__varint_field(&m, 3, (uint64_t)(i + 1) << 40);
		pbuf__varint_field(&m, 5, (uint64_t)name);
		pbuf__varint_field(&m, 7, 1);
		pbuf__bytes_field(b, 3, m.p, m.len);
	}
	if (m.err)
		b->err = m.err;
	pbuf__release(&m);
	if (w->m.time_ns)
		pbuf__varint_field(b, 9, w->m.time_ns);
	if (w->m.duration_ns)
		pbuf__varint_field(b, 10, w->m.duration_ns);
}

/* Fields already encoded in part, copied whole. */
static void append(struct pbuf *b, const struct pbuf *part)
{
	if (part->err && !b->err)
		b->err = part->err;
	pbuf__raw(b, part->p, part->len);
}

/* gzip (RFC 1952) of in[0..n) to out. 0 or -errno. */
static int gzip_to(const uint8_t *in, size_t n, FILE *out)
{
	uint8_t buf[65536];
	z_stream z = {0};
	int zr, ret = 0;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n; /* profiles stay far below 4 GiB: checked */
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR) {
			ret = -EIO;
			break;
		}
		if (fwrite(buf, 1, sizeof(buf) - z.avail_out, out) !=
		    sizeof(buf) - z.avail_out) {
			ret = errno ? -errno : -EIO;
			break;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return ret;
}

int pprof_writer__write(struct pprof_writer *w, FILE *out)
{
	struct pbuf b = {0};
	int ret;

	profile_head(w, &b);
	append(&b, &w->samples);
	append(&b, &w->locs);
	append(&b, &w->funcs);
	for (size_t i = 0; i < w->nstr; i++)
		pbuf__bytes_field(&b, 6, w->str[i], strlen(w->str[i]));
	ret = b.err;
	if (!ret && b.len > UINT32_MAX)
		ret = -EFBIG;
	errno = 0;
	if (!ret)
		ret = gzip_to(b.p, b.len, out);
	if (!ret && fflush(out))
		ret = -errno;
	pbuf__release(&b);
	return ret;
}

bool pprof__is_gzip(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}
