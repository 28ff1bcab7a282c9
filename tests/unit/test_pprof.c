/*
 * Unit tests of pprof/: folded lines through profile.proto and back, the
 * wire details another reader relies on, and hostile input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "check.h"
#include "pprof/pbuf.h"
#include "pprof/pprof.h"
#include "stacks/fold.h"

struct got {
	char text[8192];
	size_t len;
	int lines;
};

static int collect(const char *line, size_t len, uint64_t count, void *ctx)
{
	struct got *g = ctx;

	g->len +=
	    snprintf(g->text + g->len, sizeof(g->text) - g->len, "%.*s %llu\n",
		     (int)len, line, (unsigned long long)count);
	g->lines++;
	return 0;
}

/* Write lines (NULL-ended, count after each) to a buffer. */
static char *write_profile(const struct pprof_meta *m, const char **lines,
			   const uint64_t *counts, size_t *len)
{
	struct pprof_writer *w = pprof_writer__new(m);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	for (size_t i = 0; lines[i]; i++)
		CHECK_INT(
		    pprof_writer__add(w, lines[i], strlen(lines[i]), counts[i]),
		    0);
	CHECK_INT(pprof_writer__write(w, f), 0);
	fclose(f);
	pprof_writer__free(w);
	return buf;
}

static void round_trip(void)
{
	const char *lines[] = {
	    "java;java/lang/Thread.run_[j];Work.loop_[j];Work.add_[i]",
	    "java;Work.loop_[j];libz.so.1 deflate;-;do_syscall_64_[k]",
	    "java;[unknown]", "C2 CompilerThre;Compile::Optimize()", NULL};
	uint64_t counts[] = {5, 3, 1, 7};
	struct pprof_meta m = {.type = "samples",
			       .unit = "count",
			       .period_ns = 1000000,
			       .time_ns = 1,
			       .duration_ns = 2};
	struct got g = {0};
	const char *why;
	size_t len;
	char *buf = write_profile(&m, lines, counts, &len);

	CHECK(pprof__is_gzip(buf, len));
	CHECK_INT(pprof__read(buf, len, collect, &g, &why), 0);
	CHECK_INT(g.lines, 4);
	CHECK_STR(g.text,
		  "java;java/lang/Thread.run_[j];Work.loop_[j];Work.add_[i] 5\n"
		  "java;Work.loop_[j];libz.so.1 deflate;-;do_syscall_64_[k] 3\n"
		  "java;[unknown] 1\n"
		  "C2 CompilerThre;Compile::Optimize() 7\n");
	free(buf);
}

static void per_thread(void)
{
	const char *lines[] = {"java;http-nio-8080-exec-1 [4242];A.b_[j]",
			       "java;main;A.c_[j]", NULL};
	uint64_t counts[] = {2, 1};
	struct pprof_meta m = {
	    .type = "calls", .unit = "count", .per_thread = true};
	struct got g = {0};
	const char *why;
	size_t len;
	char *buf = write_profile(&m, lines, counts, &len);

	CHECK_INT(pprof__read(buf, len, collect, &g, &why), 0);
	/* "main" has no [tid]: it stays a frame */
	CHECK_STR(g.text, "java;http-nio-8080-exec-1 [4242];A.b_[j] 2\n"
			  "java;main;A.c_[j] 1\n");
	free(buf);
}

/* buf (len bytes, gzipped) decompressed into out (cap): its length. */
static size_t gunzip(const char *buf, size_t len, char *out, size_t cap)
{
	z_stream z = {0};

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)buf;
	z.avail_in = len;
	z.next_out = (unsigned char *)out;
	z.avail_out = cap;
	inflate(&z, Z_FINISH);
	inflateEnd(&z);
	return cap - z.avail_out;
}

#define CID "8e126766ee34e1d3b203c0a7cfc2a619c49d482a2ecc99a190fff577111a4dca"

static const char *cgroup_of(void *ctx, const char *id)
{
	CHECK_STR(ctx, "table");
	return !strcmp(id, CID) ? "/system.slice/docker-" CID ".scope" : NULL;
}

/*
 * --per-container: the container frame becomes labels container.id and
 * process.linux.cgroup, and reads back as the frame; a process in none keeps its line;
 * the frame's look-alike where no container is asked for stays a frame.
 */
static void per_container(void)
{
	const char *lines[] = {"java;[container " CID "];main [7];A.b_[j]",
			       "sh;[container " CID "];main", "top;main [9];x",
			       NULL};
	uint64_t counts[] = {2, 1, 4};
	struct pprof_meta m = {.type = "samples",
			       .unit = "count",
			       .per_thread = true,
			       .per_container = true,
			       .cgroup_of = cgroup_of,
			       .cgroup_ctx = "table"};
	struct got g = {0};
	const char *why;
	size_t len, n;
	char *buf = write_profile(&m, lines, counts, &len), raw[16384];

	CHECK_INT(pprof__read(buf, len, collect, &g, &why), 0);
	CHECK_STR(g.text, "java;[container " CID "];main [7];A.b_[j] 2\n"
			  "sh;[container " CID "];main 1\n"
			  "top;main [9];x 4\n");
	n = gunzip(buf, len, raw, sizeof(raw));
	CHECK(memmem(raw, n, "container.id", 12) != NULL);
	CHECK(memmem(raw, n, "process.linux.cgroup", 20) != NULL);
	CHECK(memmem(raw, n, "/system.slice/docker-" CID ".scope",
		     sizeof("/system.slice/docker-" CID ".scope") - 1));
	CHECK(!memmem(raw, n, "[container", 10)); /* no frame of that name */
	free(buf);
	m.per_container = false;
	buf = write_profile(&m, lines, counts, &len);
	n = gunzip(buf, len, raw, sizeof(raw));
	CHECK(memmem(raw, n, "[container " CID "]",
		     sizeof("[container " CID "]") - 1) != NULL);
	CHECK(!memmem(raw, n, "container.id", 12));
	free(buf);
}

/*
 * A second value of its own (--alloc's objects beside bytes): the
 * default sample type stays the first, so a reader that would take the
 * first "count" unit (ours) or the last type (go tool pprof) reads bytes.
 */
static void events(void)
{
	struct pprof_meta m = {.type = "alloc_space",
			       .unit = "bytes",
			       .events_type = "alloc_objects",
			       .events_unit = "count"};
	struct pprof_writer *w = pprof_writer__new(&m);
	const char *a = "java;A.big_[j];byte[]", *b = "java;A.small_[j];long[]";
	struct got g = {0};
	const char *why;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	CHECK_INT(pprof_writer__add2(w, a, strlen(a), 3000000, 3), 0);
	CHECK_INT(pprof_writer__add2(w, b, strlen(b), 65536, 1), 0);
	CHECK_INT(pprof_writer__write(w, f), 0);
	fclose(f);
	pprof_writer__free(w);
	CHECK_INT(pprof__read(buf, len, collect, &g, &why), 0);
	CHECK_STR(g.text, "java;A.big_[j];byte[] 3000000\n"
			  "java;A.small_[j];long[] 65536\n");
	free(buf);
}

/* A profile as another tool writes it: inlined Lines, no labels. */
static void foreign(void)
{
	struct pbuf p = {0}, x = {0}, y = {0};
	const char *strs[] = {"",     "samples",  "count", "cpu", "nanoseconds",
			      "main", "inl;ined", "leaf"};
	uint64_t loc[] = {2, 1}, val[] = {4, 4000};
	struct got g = {0};
	const char *why;

	for (size_t i = 0; i < 8; i++)
		pbuf__bytes_field(&p, 6, strs[i], strlen(strs[i]));
	/* sample types: samples/count, cpu/nanoseconds: count is first */
	pbuf__varint_field(&x, 1, 1);
	pbuf__varint_field(&x, 2, 2);
	pbuf__bytes_field(&p, 1, x.p, x.len);
	pbuf__reset(&x);
	pbuf__varint_field(&x, 1, 3);
	pbuf__varint_field(&x, 2, 4);
	pbuf__bytes_field(&p, 1, x.p, x.len);
	for (uint64_t f = 1; f <= 3; f++) { /* functions 1..3: names 5..7 */
		pbuf__reset(&x);
		pbuf__varint_field(&x, 1, f);
		pbuf__varint_field(&x, 2, f + 4);
		pbuf__bytes_field(&p, 5, x.p, x.len);
	}
	/* location 1: main; location 2: leaf inlined into inl;ined */
	pbuf__reset(&x);
	pbuf__varint_field(&x, 1, 1);
	pbuf__varint_field(&y, 1, 1);
	pbuf__bytes_field(&x, 4, y.p, y.len);
	pbuf__bytes_field(&p, 4, x.p, x.len);
	pbuf__reset(&x);
	pbuf__varint_field(&x, 1, 2);
	pbuf__reset(&y);
	pbuf__varint_field(&y, 1, 3);
	pbuf__bytes_field(&x, 4, y.p, y.len);
	pbuf__reset(&y);
	pbuf__varint_field(&y, 1, 2);
	pbuf__bytes_field(&x, 4, y.p, y.len);
	pbuf__bytes_field(&p, 4, x.p, x.len);
	pbuf__reset(&x);
	pbuf__packed(&x, 1, loc, 2);
	pbuf__packed(&x, 2, val, 2);
	pbuf__bytes_field(&p, 2, x.p, x.len);
	CHECK_INT(p.err, 0);
	CHECK_INT(pprof__read(p.p, p.len, collect, &g, &why), 0);
	CHECK_STR(g.text, "main;inl:ined;leaf 4\n");
	pbuf__release(&p);
	pbuf__release(&x);
	pbuf__release(&y);
}

/* A Function's and its Location's fields, found by its system_name. */
struct fn_seen {
	const char *sys; /* asked */
	char name[64];
	uint64_t line, mapping;
};

/* Field num of message m (varint), or 0. */
static uint64_t field(const uint8_t *m, size_t len, uint32_t num,
		      struct pb_field *sub)
{
	struct pb_reader r = {m, m + len};
	struct pb_field f;

	while (pbuf__next(&r, &f) == 1)
		if (f.num == num) {
			if (sub)
				*sub = f;
			return f.v;
		}
	return 0;
}

static void find_fn(const char *cp, size_t len, struct fn_seen *w)
{
	const uint8_t *p = (const uint8_t *)cp;
	struct pb_reader r = {p, p + len};
	struct pb_field f, line;
	const uint8_t *str[64];
	size_t slen[64], ns = 0;
	uint64_t id = 0;

	while (pbuf__next(&r, &f) == 1)
		if (f.num == 6 && ns < 64) {
			str[ns] = f.data;
			slen[ns++] = f.len;
		}
	r = (struct pb_reader){p, p + len};
	while (pbuf__next(&r, &f) == 1) {
		uint64_t sys = f.num == 5 ? field(f.data, f.len, 3, NULL) : 0,
			 name = f.num == 5 ? field(f.data, f.len, 2, NULL) : 0;

		if (f.num != 5 || sys >= ns || name >= ns ||
		    slen[sys] != strlen(w->sys) ||
		    memcmp(str[sys], w->sys, slen[sys]))
			continue;
		id = field(f.data, f.len, 1, NULL);
		snprintf(w->name, sizeof(w->name), "%.*s", (int)slen[name],
			 (const char *)str[name]);
	}
	r = (struct pb_reader){p, p + len};
	while (id && pbuf__next(&r, &f) == 1)
		if (f.num == 4 && field(f.data, f.len, 1, NULL) == id) {
			w->mapping = field(f.data, f.len, 2, NULL);
			if (field(f.data, f.len, 4, &line), line.data)
				w->line = field(line.data, line.len, 2, NULL);
		}
}

/*
 * Frames are written from their types, not their text: a Java frame's
 * Function is its name without ":LINE" and its Location's Line the
 * line; the thread's labels come from the thread frame's type.
 */
static void typed_frames(void)
{
	struct pprof_meta m = {.type = "samples", .per_thread = true};
	struct pprof_writer *w = pprof_writer__new(&m);
	struct fold_line l;
	struct fold_frame *fr = NULL;
	size_t cap = 0, len = 0, n;
	static char raw[1 << 16];
	struct fn_seen a = {.sys = "p/A.m:12_[j]"}, k = {.sys = "x_[k]"},
		       c = {.sys = "C::f"};
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	int nf;

	fold_line__init(&l, true);
	nf = fold_line__frames(&l, "java;main [5];C::f;p/A.m:12_[j];x_[k]", 37,
			       &fr, &cap);
	CHECK_INT(nf, 5);
	CHECK_INT(pprof_writer__add_frames(w, fr, nf, 3, 0), 0);
	CHECK_INT(pprof_writer__add_frames(w, fr, 0, 3, 0), -EINVAL);
	CHECK_INT(pprof_writer__write(w, f), 0);
	fclose(f);
	n = gunzip(buf, len, raw, sizeof(raw));
	CHECK(n > 0);
	find_fn(raw, n, &a);
	find_fn(raw, n, &k);
	find_fn(raw, n, &c);
	CHECK_STR(a.name, "p/A.m");
	CHECK(a.line == 12 && a.mapping == 2); /* [java] */
	CHECK_STR(k.name, "x");
	CHECK(k.line == 0 && k.mapping == 3); /* [kernel] */
	CHECK_STR(c.name, "C::f");
	CHECK(c.mapping == 1); /* [native] */
	free(buf);
	free(fr);
	fold_line__release(&l);
	pprof_writer__free(w);
}

/* Truncations and flipped bytes: an error or lines, never a crash. */
static void hostile(void)
{
	const char *lines[] = {"java;A.a_[j];B.b_[i]", "java;C.c", NULL};
	uint64_t counts[] = {(uint64_t)1 << 63, 9};
	struct pprof_meta m = {
	    .type = "samples", .unit = "count", .period_ns = 3};
	const char *why;
	size_t len;
	char *buf = write_profile(&m, lines, counts, &len);
	struct got g;
	unsigned seed = 7;
	int errs = 0;

	/* a count past int64 saturates instead of turning negative */
	memset(&g, 0, sizeof(g));
	CHECK_INT(pprof__read(buf, len, collect, &g, &why), 0);
	CHECK(strstr(g.text, "java;A.a_[j];B.b_[i] 9223372036854775807\n"));
	for (size_t cut = 0; cut < len; cut++) {
		memset(&g, 0, sizeof(g));
		if (pprof__read(buf, cut, collect, &g, &why))
			errs++;
	}
	CHECK(errs >= (int)len - 1);
	for (int i = 0; i < 2000; i++) {
		char *c = malloc(len);

		memcpy(c, buf, len);
		c[rand_r(&seed) % len] ^= 1 << (rand_r(&seed) % 8);
		memset(&g, 0, sizeof(g));
		pprof__read(c, len, collect, &g, &why);
		free(c);
	}
	memset(&g, 0, sizeof(g));
	CHECK_INT(pprof__read("\x0a\xff\xff", 3, collect, &g, &why), -EINVAL);
	CHECK(why != NULL);
	free(buf);
}

int main(void)
{
	typed_frames();
	round_trip();
	per_thread();
	per_container();
	foreign();
	events();
	hostile();
	printf("%d checks, %d failed\n", check_count, check_failed);
	return check_failed != 0;
}
