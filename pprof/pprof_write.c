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
#include "pprof_int.h"
#include "common/cgroup.h"
#include "common/u64map.h"

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
	free(w->type);
	free(w->unit);
	free(w->etype);
	free(w->eunit);
	free(w);
}

/* A Mapping for the kind the suffix gives. */
static int kind_of(const char *s, size_t n)
{
	size_t suf = pprof__suffix_len(s, n);

	if (!suf)
		return MAP_NATIVE;
	return s[n - 2] == 'k' ? MAP_KERNEL : MAP_JAVA;
}

/* The Function (and Location: same id) of frame s[0..n): its id, or 0. */
static uint64_t frame_id(struct pprof_writer *w, const char *s, size_t n)
{
	int64_t sys = intern(w, s, n), name;
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
	name = intern(w, s, n - pprof__suffix_len(s, n));
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
		pbuf__varint_field(o, 1, id);
		pbuf__varint_field(o, 2, (uint64_t)kind_of(s, n));
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

/* "name [tid]": the name's length, and the tid; 0 if not that shape. */
static size_t split_thread(const char *s, size_t n, int64_t *tid)
{
	size_t i = n;
	int64_t v = 0, mul = 1;

	if (n < 4 || s[n - 1] != ']')
		return 0;
	for (i = n - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--) {
		if (mul > INT64_MAX / 10)
			return 0;
		v += (s[i - 1] - '0') * mul;
		mul *= 10;
	}
	if (i < 2 || i == n - 1 || s[i - 1] != '[' || s[i - 2] != ' ')
		return 0;
	*tid = v;
	return i - 2;
}

/*
 * The container frame at frames (before end), if it is one: its labels
 * into s, and the frames after it; else frames.
 */
static const char *container(struct pprof_writer *w, struct pbuf *s,
			     const char *frames, const char *end)
{
	const char *t = memchr(frames, ';', end - frames), *path;
	size_t pl = sizeof(CGROUP_FRAME_PREFIX) - 1;
	char id[CGROUP_ID_LEN + 1];

	if (!cgroup__is_frame(frames, (t ? t : end) - frames))
		return frames;
	memcpy(id, frames + pl, CGROUP_ID_LEN);
	id[CGROUP_ID_LEN] = 0;
	label(w, s, "container.id", id, CGROUP_ID_LEN, 0);
	path = w->m.cgroup_of ? w->m.cgroup_of(w->m.cgroup_ctx, id) : NULL;
	if (path)
		label(w, s, "process.linux.cgroup", path, strlen(path), 0);
	return t ? t + 1 : end;
}

/* Append the frame ids of line, leaf first, into w->ids; their count. */
static int line_ids(struct pprof_writer *w, const char *s, size_t n, size_t *nr)
{
	size_t k = 0, end = n;

	while (end > 0) {
		size_t start = end;
		uint64_t id;

		while (start > 0 && s[start - 1] != ';')
			start--;
		if (k == w->capids) {
			size_t cap = w->capids ? w->capids * 2 : 128;
			uint64_t *v = realloc(w->ids, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			w->ids = v;
			w->capids = cap;
		}
		id = frame_id(w, s + start, end - start);
		if (!id)
			return -ENOMEM;
		w->ids[k++] = id;
		end = start ? start - 1 : 0;
	}
	*nr = k;
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
	const char *p = memchr(line, ';', len), *frames = line + len, *t;
	struct pbuf s = {0};
	uint64_t val[2];
	size_t proc = p ? (size_t)(p - line) : len, nr = 0, tn;
	int64_t tid = 0;
	int ret;

	if (p)
		frames = p + 1;
	if (p && w->m.per_container)
		frames = container(w, &s, frames, line + len);
	if (p && w->m.per_thread) {
		t = memchr(frames, ';', line + len - frames);
		tn = split_thread(frames, (t ? t : line + len) - frames, &tid);
		if (tn) {
			label(w, &s, "thread", frames, tn, 0);
			label(w, &s, "tid", NULL, 0, tid);
			frames = t ? t + 1 : line + len;
		}
	}
	label(w, &s, "process", line, proc, 0);
	ret = line_ids(w, frames, line + len - frames, &nr);
	if (ret)
		goto out;
	val[0] = count > INT64_MAX ? INT64_MAX : count;
	val[1] = w->m.period_ns && val[0] <= INT64_MAX / w->m.period_ns
		     ? val[0] * w->m.period_ns
		     : INT64_MAX;
	if (w->etype)
		val[1] = events > INT64_MAX ? INT64_MAX : events;
	pbuf__packed(&s, 1, w->ids, nr);
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

size_t pprof__suffix_len(const char *s, size_t n)
{
	static const char kinds[] = "ji01k";

	if (n < 4 || s[n - 4] != '_' || s[n - 3] != '[' || s[n - 1] != ']')
		return 0;
	return s[n - 2] && strchr(kinds, s[n - 2]) ? 4 : 0;
}
