// SPDX-License-Identifier: GPL-2.0
/*
 * jvmnames: the agentless Java namer (nmethod.c, jthreads.c) against the
 * agent's perf map of the same live JVM, the agent being the ground truth
 * (it asks the JVM through JVMTI).
 *
 *     jvmnames PID MAP [MINPCT [LINES]]
 *     jvmnames --churn MS PID MAP
 *
 * For each compiled method in MAP still current (no later line covers its
 * code), find its nmethod (by its code start: the test's stand-in for the
 * BPF unwinder's segment-map lookup), read its Method* and debug data,
 * and compare: the method's name; for pcs at the start, middle and end of
 * each inline and gap line, the inlined chain ("a->b->c") against the
 * line's name. Then each Java thread's whole name against the start of its
 * kernel comm. Prints the counts; exits 1 below MINPCT (default 99)
 * percent agreement, or when a count is empty. With LINES, writes there
 * "Class.method bci line" for each frame of the JNames workload met, the
 * line read from the JVM (jlines.c), for the caller to check with javap.
 * Chains and lines are asked of jnamer, as the profiler will ask.
 *
 * --churn: what a profiler meets when it names code after the sample:
 * every live nmethod of MAP gets its header read (what BPF would record:
 * address, compile id, Method*), then after MS milliseconds its debug
 * data; counts those gone by then (freed or reused: nmethod__same) and
 * checks that the others still name as the agent does (an nmethod that
 * took a line's address before the agent wrote its own line is left
 * out, and counted: the map is not its truth yet).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "jvm/hotspot.h"
#include "jvm/jnamer.h"
#include "jvm/jthreads.h"
#include "jvm/nmethod.h"
#include "jvm/vmstructs.h"

struct line {
	uint64_t start, size;
	char *name;
	int rec; /* index of its record's method line */
};

struct ctx {
	const struct hotspot_mem *m;
	const struct hotspot_layout *hl;
	struct nm_layout l;
	struct jnamer *jn; /* what the profiler will call, on the same pcs */
	FILE *lines; /* "name bci line" of JNames' frames, for the script */
	long lines_n;
	long methods, superseded, not_found, outer_ok, outer_bad, wrappers;
	long pcs, pcs_ok, pcs_bad, gone;
	double load_us[4096]; /* per nmethod: header, debug data, name */
	long loads, reads, load_reads;
	struct hotspot_mem counted; /* c->m through count_read */
	const struct hotspot_mem *inner;
};

static int read_map(const char *path, struct line **out, size_t *n)
{
	FILE *f = fopen(path, "re");
	char buf[8192];
	size_t cap = 0;
	int cur = -1;

	if (!f)
		return -errno;
	*n = 0;
	*out = NULL;
	while (fgets(buf, sizeof(buf), f)) {
		unsigned long long s, z;
		int pos = 0;
		struct line *l;

		buf[strcspn(buf, "\n")] = '\0';
		if (sscanf(buf, "%llx %llx %n", &s, &z, &pos) != 2 || !pos)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 4096;
			*out = realloc(*out, cap * sizeof(**out));
			if (!*out)
				return -ENOMEM;
		}
		l = &(*out)[*n];
		*l = (struct line){s, z, strdup(buf + pos), -1};
		/* a method line opens a record unless it tiles the current */
		if (!strstr(l->name, "->") &&
		    (cur < 0 || s == (*out)[cur].start ||
		     s < (*out)[cur].start ||
		     s + z > (*out)[cur].start + (*out)[cur].size))
			cur = *n;
		l->rec = cur;
		(*n)++;
	}
	fclose(f);
	return 0;
}

static void free_map(struct line *ls, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ls[i].name);
	free(ls);
}

/* The nmethod whose code begins at start: scan back for its header. */
static uint64_t find_nmethod(struct ctx *c, uint64_t start)
{
	static uint8_t win[16384 + 512];
	size_t w = 16384;
	struct nm_info i;

	while (w >= 256 && c->m->read(c->m->ctx, start - w, win, w + 512))
		w /= 2;
	if (w < 256)
		return 0;
	for (size_t off = w - 64; off + 8 <= w; off -= 8) {
		uint64_t cand = start - w + off, v;
		int32_t v32;

		if (c->l.immutable) {
			memcpy(&v32, win + off + c->l.cb_code_offset, 4);
			if ((uint64_t)v32 != start - cand)
				continue;
		} else {
			memcpy(&v, win + off + c->l.cb_code_begin, 8);
			if (v != start)
				continue;
		}
		if (!nmethod__read(c->m, &c->l, cand, &i) &&
		    i.code_begin == start)
			return cand;
		if (!off)
			break;
	}
	return 0;
}

/* The workload's own frames: their line, for a check against javap;
 * -2 when jnamer has none (no table: a lambda form). */
static void note_line(struct ctx *c, const char *name, int bci, int line)
{
	if (!c->lines || strncmp(name, "JNames", 6))
		return;
	c->lines_n++;
	fprintf(c->lines, "%s %d %d\n", name, bci < 0 ? 0 : bci,
		line > 0 ? line : -2);
}

/* "outer->...->inner" at pc through jnamer (as the profiler will name
 * it), or -errno. */
static int chain_name(struct ctx *c, const struct nm_debug *d, uint64_t pc,
		      char *buf, size_t cap)
{
	struct jnamer_frame f[NM_MAX_SCOPES];
	size_t len = 0;
	int n = jnamer__compiled(c->jn, d->info.addr, d->info.compile_id, pc, f,
				 NM_MAX_SCOPES),
	    ret;

	if (n < 0)
		return n;
	buf[0] = '\0';
	for (int i = n - 1; i >= 0; i--) {
		note_line(c, f[i].name, f[i].bci, f[i].line);
		ret = snprintf(buf + len, cap - len, "%s%s", len ? "->" : "",
			       f[i].name);
		if (ret < 0 || (size_t)ret >= cap - len)
			return -ENOSPC;
		len += ret;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every read of the target goes through here: counted. */
static int count_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct ctx *c = ctx;

	c->reads++;
	return c->inner->read(c->inner->ctx, addr, buf, len);
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void check_pc(struct ctx *c, const struct nm_debug *d, uint64_t pc,
		     const char *want)
{
	char got[8192];
	int ret = chain_name(c, d, pc, got, sizeof(got));

	c->pcs++;
	if (ret > 0 && !strcmp(got, want)) {
		c->pcs_ok++;
		return;
	}
	if (c->pcs_bad++ < 10)
		fprintf(stderr,
			"nmethod %" PRIx64 " pc %" PRIx64
			": want %s, got %s (%s)\n",
			d->info.addr, pc, want, ret > 0 ? got : "-",
			ret > 0 ? "" : strerror(-ret));
}

/* One current record: lines[r] and the lines tiling it up to end. */
static void check_record(struct ctx *c, struct line *ls, size_t r, size_t end)
{
	struct nm_debug d;
	char name[1024];
	uint64_t nm;
	double t0;
	long r0;
	int ret;

	c->methods++;
	nm = find_nmethod(c, ls[r].start);
	if (!nm) {
		if (c->not_found++ < 3)
			fprintf(stderr, "no nmethod at %" PRIx64 " %s\n",
				ls[r].start, ls[r].name);
		return;
	}
	t0 = now_us();
	r0 = c->reads;
	ret = nmethod__load(c->m, &c->l, nm, &d);
	if (ret) {
		c->gone++;
		return;
	}
	ret = hotspot__method_name(c->m, c->hl, d.info.method, name,
				   sizeof(name));
	if (c->loads < 4096)
		c->load_us[c->loads++] = now_us() - t0;
	c->load_reads += c->reads - r0;
	if (nmethod__same(c->m, &c->l, nm, d.info.compile_id, d.info.method) !=
	    1) {
		c->gone++;
		goto out;
	}
	if (ret > 0 && !strcmp(name, ls[r].name)) {
		c->outer_ok++;
	} else if (d.info.comp_level == 0 && ret > 0 &&
		   !strncmp(name, "java/lang/invoke/MethodHandle.", 30) &&
		   !strncmp(ls[r].name, "java/lang/invoke/MethodHandle.", 30)) {
		/*
		 * Method handle intrinsics (invokeBasic, linkTo*) are native
		 * wrappers of Method*s created per signature outside their
		 * class's method array: JVMTI gives the agent one name for
		 * all of them, the nmethod its own.
		 */
		c->wrappers++;
	} else if (c->outer_bad++ < 10) {
		fprintf(stderr, "%" PRIx64 ": want %s, got %s\n", ls[r].start,
			ls[r].name, ret > 0 ? name : "-");
	}
	for (size_t i = r + 1; i < end; i++) {
		uint64_t s = ls[i].start, z = ls[i].size;

		check_pc(c, &d, s, ls[i].name);
		check_pc(c, &d, s + z / 2, ls[i].name);
		check_pc(c, &d, s + z - 1, ls[i].name);
	}
out:
	nmethod__debug_release(&d);
}

/* Whether a later record's code overlaps record r's (r is stale then). */
static int superseded(struct line *ls, size_t n, size_t r)
{
	for (size_t j = r + 1; j < n; j++)
		if (ls[j].rec == (int)j &&
		    ls[j].start < ls[r].start + ls[r].size &&
		    ls[r].start < ls[j].start + ls[j].size)
			return 1;
	return 0;
}

static int check_code(struct ctx *c, const char *map, double minpct)
{
	struct line *ls;
	size_t n, r, e;
	double pct;

	if (read_map(map, &ls, &n)) {
		fprintf(stderr, "jvmnames: %s: cannot read\n", map);
		return 1;
	}
	for (r = 0; r < n; r = e) {
		for (e = r + 1; e < n && ls[e].rec == (int)r; e++)
			;
		/* Java methods only: stubs and the interpreter have no '.' */
		if (!strchr(ls[r].name, '.') || ls[r].name[0] == '[')
			continue;
		if (superseded(ls, n, r))
			c->superseded++;
		else
			check_record(c, ls, r, e);
	}
	free_map(ls, n);
	pct = c->pcs ? 100.0 * c->pcs_ok / c->pcs : 0;
	printf(
	    "methods %ld (superseded %ld), nmethod not found %ld, gone %ld\n",
	    c->methods, c->superseded, c->not_found, c->gone);
	printf("outer names %ld right, %ld wrong, %ld method handle intrinsics "
	       "named apart from the agent\n",
	       c->outer_ok, c->outer_bad, c->wrappers);
	printf("inline pcs %ld, chains right %ld (%.2f%%)\n", c->pcs, c->pcs_ok,
	       pct);
	printf("lines of JNames frames %ld\n", c->lines_n);
	printf("jnamer: %llu lookups, %llu cached, %llu nmethods read, %llu "
	       "gone, %llu bad\n",
	       (unsigned long long)jnamer__stats(c->jn)->lookups,
	       (unsigned long long)jnamer__stats(c->jn)->hits,
	       (unsigned long long)jnamer__stats(c->jn)->loads,
	       (unsigned long long)jnamer__stats(c->jn)->gone,
	       (unsigned long long)jnamer__stats(c->jn)->bad);
	qsort(c->load_us, c->loads, sizeof(double), cmp_double);
	printf("read cost per nmethod (header, debug data, name; %ld): "
	       "median %.1f us, fastest %.1f us, %.1f reads\n",
	       c->loads, c->loads ? c->load_us[c->loads / 2] : 0,
	       c->loads ? c->load_us[0] : 0,
	       c->loads ? (double)c->load_reads / c->loads : 0);
	return !c->pcs || pct < minpct || c->outer_ok < 100 ||
	       100.0 * c->outer_ok / (c->outer_ok + c->outer_bad) < minpct ||
	       (c->lines && !c->lines_n);
}

/* --churn: record now, name after ms. */
static int churn(struct ctx *c, const char *map, int ms)
{
	struct rec {
		uint64_t nm, method;
		int32_t cid;
		const char *name;
	} * r;
	struct line *ls;
	size_t n, i, e, nr = 0;
	long gone = 0, named = 0, bad = 0, behind = 0;
	struct nm_info info;
	struct nm_debug d;
	char name[1024];

	if (read_map(map, &ls, &n) || !(r = calloc(n + 1, sizeof(*r))))
		return 1;
	for (i = 0; i < n; i = e) {
		uint64_t nm;

		for (e = i + 1; e < n && ls[e].rec == (int)i; e++)
			;
		if (!strchr(ls[i].name, '.') || superseded(ls, n, i) ||
		    !(nm = find_nmethod(c, ls[i].start)) ||
		    nmethod__read(c->m, &c->l, nm, &info) ||
		    nmethod__same(c->m, &c->l, nm, info.compile_id,
				  info.method) != 1)
			continue; /* not live now: no sample could name it */
		/*
		 * the agent's line written before this nmethod took the
		 * address (its own line not written yet): the truth is not
		 * this nmethod's (once cid 128 UnloadWorker07's code under
		 * UnloadWorker05's line)
		 */
		if (hotspot__method_name(c->m, c->hl, info.method, name,
					 sizeof(name)) < 0 ||
		    (strcmp(name, ls[i].name) &&
		     strncmp(name, "java/lang/invoke/MethodHandle.", 30))) {
			if (behind++ < 5 && getenv("JVMNAMES_DEBUG"))
				fprintf(stderr,
					"not yet in the map: %s is %s\n",
					ls[i].name, name);
			continue;
		}
		r[nr++] =
		    (struct rec){nm, info.method, info.compile_id, ls[i].name};
	}
	usleep(ms * 1000);
	for (i = 0; i < nr; i++) {
		if (nmethod__load(c->m, &c->l, r[i].nm, &d)) {
			if (gone++ < 5 && getenv("JVMNAMES_DEBUG"))
				fprintf(stderr, "gone (unreadable): %s\n",
					r[i].name);
			continue;
		}
		if (hotspot__method_name(c->m, c->hl, d.info.method, name,
					 sizeof(name)) < 0 ||
		    nmethod__same(c->m, &c->l, r[i].nm, r[i].cid,
				  r[i].method) != 1) {
			/* read, then checked: a torn read is dropped */
			if (gone++ < 5 && getenv("JVMNAMES_DEBUG"))
				fprintf(stderr, "gone: %s\n", r[i].name);
		} else if (!strcmp(name, r[i].name) ||
			   (d.info.comp_level == 0 &&
			    !strncmp(name, "java/lang/invoke/MethodHandle.",
				     30))) {
			named++;
		} else if (bad++ < 10) {
			fprintf(stderr, "%" PRIx64 " cid %d: want %s, got %s\n",
				r[i].nm, r[i].cid, r[i].name, name);
		}
		nmethod__debug_release(&d);
	}
	free_map(ls, n);
	printf("churn: %zu live nmethods recorded (%ld not yet in the map), "
	       "after %d ms: %ld gone (%.2f%%), %ld named right, %ld wrong\n",
	       nr, behind, ms, gone, nr ? 100.0 * gone / nr : 0, named, bad);
	free(r);
	return !nr || bad;
}

struct thr {
	uint32_t pid;
	int n, workers, comm_ok, worker_names;
	char seen[16]; /* worker numbers 1..15 seen */
};

/* Each Java thread: its kernel comm must be the first 15 bytes of its
 * whole name (HotSpot names the native thread after the Java one). */
static int one_thread(void *arg, int32_t tid, const char *name)
{
	struct thr *t = arg;
	char fn[64], comm[64] = "";
	FILE *f;
	int w;

	snprintf(fn, sizeof(fn), "/proc/%u/task/%d/comm", t->pid, tid);
	f = fopen(fn, "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	t->n++;
	if (comm[0] && !strncmp(comm, name, 15) &&
	    strlen(comm) == (strlen(name) < 15 ? strlen(name) : 15))
		t->comm_ok++;
	printf("thread %d comm '%s' name '%s'\n", tid, comm, name);
	if (sscanf(name, "mixprof-names-worker-%d", &w) == 1 && w > 0 &&
	    w < 16) {
		t->workers++;
		t->seen[w] = 1;
		t->worker_names += !strncmp(comm, name, 15);
	}
	return 0;
}

static int check_threads(struct ctx *c, uint32_t pid,
			 const struct vmstructs *vs, int major)
{
	struct jthreads *jt = jthreads__new(c->m, c->hl, vs, major);
	struct thr t = {.pid = pid};
	int n;

	if (!jt) {
		fprintf(stderr, "jvmnames: %u: threads: %s\n", pid,
			strerror(errno));
		return 1;
	}
	n = jthreads__each(jt, one_thread, &t);
	jthreads__free(jt);
	printf("java threads %d, comm = name's first 15 bytes: %d; workers %d"
	       " (1: %d, 10: %d)\n",
	       n, t.comm_ok, t.workers, t.seen[1], t.seen[10]);
	/* the workload's "-1" and "-10" share their comm: both whole */
	return n <= 0 || !t.seen[1] || !t.seen[10] ||
	       t.worker_names != t.workers || t.comm_ok < n / 2;
}

int main(int argc, char **argv)
{
	struct ctx c = {};
	struct vmstructs *vs;
	struct hotspot *h;
	uint32_t pid;
	int major, ret;

	int churn_ms = -1;

	if (argc > 2 && !strcmp(argv[1], "--churn")) {
		churn_ms = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: jvmnames PID MAP [MINPCT [LINES]]\n"
				"       jvmnames --churn MS PID MAP\n");
		return 2;
	}
	pid = strtoul(argv[1], NULL, 10);
	h = hotspot__open(pid);
	if (!h) {
		fprintf(stderr, "jvmnames: %u: %s\n", pid, strerror(errno));
		return 1;
	}
	c.inner = hotspot__mem(h);
	c.counted = (struct hotspot_mem){count_read, &c};
	c.m = &c.counted;
	c.hl = hotspot__layout(h);
	vs = vmstructs__open(pid, c.m);
	major = vs ? vmstructs__jdk_major(vs, c.m) : -errno;
	ret = major < 0 ? major : nmethod__layout_init(&c.l, vs, major);
	c.jn = ret ? NULL : jnamer__open(h, pid, JN_LINES);
	if (!ret && !c.jn)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "jvmnames: %u: nmethod layout: %s\n", pid,
			strerror(-ret));
		return 1;
	}
	printf("JDK %d\n", major);
	if (churn_ms >= 0) {
		ret = churn(&c, argv[2], churn_ms);
		goto out;
	}
	if (argc > 4 && !(c.lines = fopen(argv[4], "we"))) {
		fprintf(stderr, "jvmnames: %s: %s\n", argv[4], strerror(errno));
		return 1;
	}
	ret = check_code(&c, argv[2], argc > 3 ? atof(argv[3]) : 99);
	ret |= check_threads(&c, pid, vs, major);
out:
	if (c.lines)
		fclose(c.lines);
	jnamer__free(c.jn);
	vmstructs__free(vs);
	hotspot__free(h);
	return ret;
}
