/*
 * Unit tests of jfr/: folded lines through a JFR recording and back (each
 * kind of event), the encodings other readers rely on, several chunks,
 * and hostile input.
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "jfr/jbuf.h"
#include "jfr/jfr.h"

/* The lines read, each once with its summed count, in first-seen order. */
struct got {
	char line[64][256];
	uint64_t count[64];
	int n, calls;
};

static int collect(const char *line, size_t len, uint64_t count, void *ctx)
{
	struct got *g = ctx;
	int i;

	g->calls++;
	CHECK_INT(strlen(line), len);
	for (i = 0; i < g->n; i++)
		if (!strcmp(g->line[i], line))
			break;
	if (i == g->n) {
		if (g->n == 64)
			return -E2BIG;
		snprintf(g->line[g->n++], sizeof(g->line[0]), "%s", line);
	}
	g->count[i] += count;
	return 0;
}

static uint64_t count_of(const struct got *g, const char *line)
{
	for (int i = 0; i < g->n; i++)
		if (!strcmp(g->line[i], line))
			return g->count[i];
	return 0;
}

/* Write lines (NULL-ended, count after each) as a recording of kind. */
static char *write_jfr(enum jfr_kind kind, const char **lines,
		       const uint64_t *counts, size_t *len)
{
	struct jfr_meta m = {.kind = kind,
			     .time_ns = 1700000000000000000ULL,
			     .duration_ns = 2000000000};
	struct jfr_writer *w = jfr_writer__new(&m);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	for (size_t i = 0; lines[i]; i++)
		CHECK_INT(
		    jfr_writer__add(w, lines[i], strlen(lines[i]), counts[i]),
		    0);
	CHECK_INT(jfr_writer__write(w, f), 0);
	fclose(f);
	jfr_writer__free(w);
	return buf;
}

/* Every line comes back with its count: frames of each kind, lines,
 * threads with and without Java frames, a container, a process without
 * threads. */
static void round_trip(void)
{
	const char *lines[] = {
	    "java;main [4242];java/lang/Thread.run_[j];Work.loop_[1];"
	    "Work.add:42_[i];Work$$Lambda$14/0x0000000800c03000.run_[0]",
	    "java;main [4242];JavaMain;Work.loop_[j];libz.so.1 deflate;-;"
	    "do_syscall_64_[k]",
	    "java;C2 CompilerThre [4250];start_thread;Compile::Optimize()",
	    "java;GC Thread#0 [4251];[unknown]",
	    "dd;dd [77];write;ksys_write_[k]",
	    /* --per-container: a group of its own under the process's */
	    "java;[container 0123456789abcdef0123456789abcdef0123456789abcdef"
	    "0123456789abcdef];main [99];A.a_[j]",
	    "bash", NULL};
	uint64_t counts[] = {5, 3, 2, 1, 4, 3, 2};
	struct got g = {0};
	const char *why;
	size_t len;
	char *buf = write_jfr(JFR_CPU, lines, counts, &len);

	CHECK(jfr__is_jfr(buf, len));
	CHECK_INT(jfr__read(buf, len, collect, &g, &why), 0);
	CHECK_INT(g.n, 7);
	CHECK_INT(g.calls, 20); /* one event a sample */
	for (int i = 0; i < 6; i++)
		CHECK_INT(count_of(&g, lines[i]), counts[i]);
	/* no thread frame: a thread named after the process, tid 0 */
	CHECK_INT(count_of(&g, "bash;bash [0]"), 2);
	free(buf);
}

/* The chunk header as the JDK reads it: magic, version 2.0, its size,
 * offsets inside it, start, ticks of a nanosecond, compressed ints. */
static void header(void)
{
	const char *lines[] = {"java;main [1];A.a_[j]", NULL};
	uint64_t counts[] = {1};
	size_t len;
	char *buf = write_jfr(JFR_CPU, lines, counts, &len);
	struct jreader r = {.p = (uint8_t *)buf, .end = (uint8_t *)buf + len};
	uint64_t size, cpool, meta;

	CHECK(!memcmp(buf, "FLR", 4));
	jr__skip(&r, 4);
	CHECK_INT(jr__be(&r, 2), 2);
	CHECK_INT(jr__be(&r, 2), 0);
	size = jr__be(&r, 8);
	cpool = jr__be(&r, 8);
	meta = jr__be(&r, 8);
	CHECK_INT(size, len);
	CHECK(cpool > meta && cpool < len);
	CHECK_INT(meta, 68);
	CHECK_INT(jr__be(&r, 8), 1700000000000000000ULL);
	CHECK_INT(jr__be(&r, 8), 2000000000);
	CHECK_INT(jr__be(&r, 8), 1700000000000000000ULL);
	CHECK_INT(jr__be(&r, 8), 1000000000);
	CHECK_INT(jr__be(&r, 4), 1);
	free(buf);
}

/* Compressed integers: 7 bits a byte, the ninth byte whole (a negative
 * long in 9 bytes, as the JDK's RecordingInput reads it). */
static void varints(void)
{
	uint64_t vals[] = {0,	       127,	    128, 300, (uint64_t)1 << 56,
			   UINT64_MAX, (uint32_t)-1};
	struct pbuf b = {0};
	struct jreader r;

	for (size_t i = 0; i < 7; i++)
		jbuf__var(&b, vals[i]);
	CHECK_INT(b.len, 1 + 1 + 2 + 2 + 9 + 9 + 5);
	r = (struct jreader){.p = b.p, .end = b.p + b.len};
	for (size_t i = 0; i < 7; i++)
		CHECK(jr__var(&r) == vals[i]);
	CHECK_INT(r.err, 0);
	CHECK(r.p == r.end);
	CHECK_INT(jr__var(&r), 0); /* past the end: an error, no read */
	CHECK_INT(r.err, -EINVAL);
	/* an event's size counts its own bytes */
	CHECK_INT(jbuf__event_size(10), 11);
	CHECK_INT(jbuf__event_size(126), 127);
	CHECK_INT(jbuf__event_size(127), 129);
	pbuf__release(&b);
}

/* The other kinds: one event a line, weighed in bytes, us, calls; an
 * allocation's class leaves the stack for objectClass and comes back. */
static void kinds(void)
{
	const char *alloc[] = {"java;main [9];A.big_[j];byte[]",
			       "java;main [9];A.small_[j];java.lang.String",
			       NULL};
	const char *off[] = {"java;main [9];A.sleep_[j];schedule_[k]", NULL};
	uint64_t bytes[] = {3000000, 65536}, us[] = {1500000};
	enum jfr_kind k[] = {JFR_OFF_CPU, JFR_WALL, JFR_CALLS};
	struct got g = {0};
	const char *why;
	size_t len;
	char *buf = write_jfr(JFR_ALLOC, alloc, bytes, &len);

	CHECK_INT(jfr__read(buf, len, collect, &g, &why), 0);
	CHECK_INT(g.calls, 2);
	CHECK_INT(count_of(&g, alloc[0]), 3000000);
	CHECK_INT(count_of(&g, alloc[1]), 65536);
	free(buf);
	for (int i = 0; i < 3; i++) {
		memset(&g, 0, sizeof(g));
		buf = write_jfr(k[i], off, us, &len);
		CHECK_INT(jfr__read(buf, len, collect, &g, &why), 0);
		CHECK_INT(g.calls, 1);
		CHECK_INT(count_of(&g, off[0]), 1500000);
		free(buf);
	}
}

/* A recording of two chunks (as the JDK rotates them) reads whole; an
 * empty one reads as nothing. */
static void chunks(void)
{
	const char *a[] = {"java;main [1];A.a_[j]", NULL},
		   *b[] = {"java;main [1];B.b_[0]", NULL};
	uint64_t ca[] = {3}, cb[] = {4};
	size_t la, lb;
	char *ba = write_jfr(JFR_CPU, a, ca, &la),
	     *bb = write_jfr(JFR_CPU, b, cb, &lb), *both = malloc(la + lb);
	const char *none[] = {NULL}, *why;
	struct got g = {0};

	memcpy(both, ba, la);
	memcpy(both + la, bb, lb);
	CHECK_INT(jfr__read(both, la + lb, collect, &g, &why), 0);
	CHECK_INT(count_of(&g, a[0]), 3);
	CHECK_INT(count_of(&g, b[0]), 4);
	free(ba);
	free(bb);
	free(both);
	memset(&g, 0, sizeof(g));
	ba = write_jfr(JFR_CPU, none, NULL, &la);
	CHECK_INT(jfr__read(ba, la, collect, &g, &why), 0);
	CHECK_INT(g.calls, 0);
	free(ba);
}

/* Truncations and flipped bytes: an error or lines, never a crash (run
 * under ASan by make test-asan). */
static void hostile(void)
{
	const char *lines[] = {"java;main [1];A.a_[j];B.b:7_[i]",
			       "java;t [2];C.c;x_[k]", NULL};
	uint64_t counts[] = {2, 1};
	size_t len;
	char *buf = write_jfr(JFR_CPU, lines, counts, &len), *copy;
	unsigned seed = 7;
	const char *why;
	int errs = 0;
	struct got g;

	for (size_t cut = 0; cut < len; cut += 7) {
		memset(&g, 0, sizeof(g));
		errs += jfr__read(buf, cut, collect, &g, &why) == -EINVAL;
	}
	CHECK(errs > 0);
	copy = malloc(len);
	for (int i = 0; i < 3000; i++) {
		memcpy(copy, buf, len);
		for (int k = 0; k < 3; k++)
			copy[rand_r(&seed) % len] ^= 1 << (rand_r(&seed) % 8);
		memset(&g, 0, sizeof(g));
		jfr__read(copy, len, collect, &g, &why);
	}
	memset(&g, 0, sizeof(g));
	CHECK_INT(jfr__read("FLR\0short", 9, collect, &g, &why), -EINVAL);
	CHECK(why != NULL);
	CHECK_INT(jfr__read("not a recording", 15, collect, &g, &why), -EINVAL);
	free(copy);
	free(buf);
}

int main(void)
{
	round_trip();
	header();
	varints();
	kinds();
	chunks();
	hostile();
	printf("%d checks, %d failed\n", check_count, check_failed);
	return check_failed != 0;
}
