/*
 * The JIT map end to end in this process: a map in a private map_dir,
 * tailed across refreshes (partial lines, appends), time-aware naming
 * through symbolizer__user, bad-line and stale-map counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include "check.h"
#include "test_sym_util.h"
#include "symbolizer/symbolizer.h"

#define MS 1000000ULL
/* addresses no test process maps: the JIT map is all that names them */
#define JIT 0x100000ULL

static char dir[PATH_MAX], map[PATH_MAX + 64];

static void append(const char *text)
{
	FILE *f = fopen(map, "a");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *name_at(struct symbolizer *s, uint64_t ip, uint64_t when,
			   enum frame_kind *k)
{
	struct frame f[4];
	int n = symbolizer__user(s, getpid(), ip, when, f, 4);

	if (k)
		*k = f[n - 1].kind;
	return f[n - 1].name;
}

static void test_tail(void)
{
	struct symbolizer_opts o = {.map_dir = dir, .jit_slack_ns = 1};
	struct symbolizer *s = symbolizer__new(&o);
	struct symbolizer_stats st;
	enum frame_kind k;

	unlink(map);
	append("100000 100 app/Main.loop\n100100 40 Interpreter\n1002");
	CHECK_INT(symbolizer__refresh(s, getpid(), 100 * MS), 0);
	CHECK_STR(name_at(s, JIT + 0x10, 90 * MS, &k), "app/Main.loop");
	CHECK_INT(k, FRAME_JAVA);
	CHECK_STR(name_at(s, JIT + 0x110, 90 * MS, &k), "Interpreter");
	CHECK_INT(k, FRAME_STUB);
	/* the partial line completes; garbage is counted; an address reused */
	append("00 10 app/Late.m\nnot a line\n100000 80 app/Reused.m\n");
	CHECK_INT(symbolizer__refresh(s, getpid(), 200 * MS), 0);
	CHECK_STR(name_at(s, JIT + 0x205, 150 * MS, NULL), "app/Late.m");
	CHECK_STR(name_at(s, JIT + 0x10, 90 * MS, NULL), "app/Main.loop");
	CHECK_STR(name_at(s, JIT + 0x10, 150 * MS, NULL), "app/Reused.m");
	CHECK_STR(name_at(s, JIT + 0x90, 150 * MS, NULL), "app/Main.loop");
	/* nothing new: cheap, nothing changes */
	CHECK_INT(symbolizer__refresh(s, getpid(), 300 * MS), 0);
	CHECK_STR(name_at(s, JIT + 0x10, 90 * MS, NULL), "app/Main.loop");
	symbolizer__stats(s, &st);
	CHECK_INT(st.map_lines_bad, 1);
	CHECK_INT(st.maps_stale, 0);
	symbolizer__free(s);
}

/*
 * symbolizer__version: gen stays while JIT lines are only added; jit
 * counts the lines eligible at the time; two versions name alike the
 * addresses no line between them covers.
 */
static void test_version(void)
{
	struct symbolizer_opts o = {.map_dir = dir, .jit_slack_ns = 1};
	struct symbolizer *s = symbolizer__new(&o);
	struct symbolizer_version a, b, c, d;
	const uint64_t reused = JIT + 0x10, kept = JIT + 0x90;

	symbolizer__version(s, getpid(), 50 * MS, &a);
	CHECK_INT(a.gen, 0); /* never refreshed: no promise */
	unlink(map);
	append("100000 100 app/Main.loop\n");
	CHECK_INT(symbolizer__refresh(s, getpid(), 100 * MS), 0);
	symbolizer__version(s, getpid(), 90 * MS, &a);
	CHECK(a.gen != 0);
	CHECK_INT(a.jit, 1); /* a first read: eligible at any time */
	CHECK_INT(symbolizer__refresh(s, getpid(), 200 * MS), 0);
	/* written in (200, 300] ms: eligible from 200 ms on (slack 1 ns) */
	append("100000 80 app/Reused.m\n101000 40 app/Other.m\n");
	CHECK_INT(symbolizer__refresh(s, getpid(), 300 * MS), 0);
	symbolizer__version(s, getpid(), 150 * MS, &b);
	symbolizer__version(s, getpid(), 250 * MS, &c);
	CHECK_INT(b.gen, a.gen);
	CHECK_INT(b.jit, 1);
	CHECK_INT(c.gen, a.gen);
	CHECK_INT(c.jit, 3);
	CHECK(symbolizer__same_names(s, getpid(), &a, &b, &reused, 1));
	CHECK(!symbolizer__same_names(s, getpid(), &a, &c, &reused, 1));
	CHECK(!symbolizer__same_names(s, getpid(), &c, &a, &reused, 1));
	CHECK(symbolizer__same_names(s, getpid(), &a, &c, &kept, 1));
	CHECK_STR(name_at(s, reused, 150 * MS, NULL), "app/Main.loop");
	CHECK_STR(name_at(s, reused, 250 * MS, NULL), "app/Reused.m");
	CHECK_STR(name_at(s, kept, 250 * MS, NULL), "app/Main.loop");
	d = c;
	d.gen++; /* the mappings changed */
	CHECK(!symbolizer__same_names(s, getpid(), &c, &d, &kept, 1));
	symbolizer__free(s);
}

/* A map older than the process is another process's: ignored, until
 * the live process writes it. */
static void test_stale(void)
{
	struct symbolizer_opts o = {.map_dir = dir};
	struct symbolizer *s = symbolizer__new(&o);
	struct timespec old[2] = {{946684800, 0}, {946684800, 0}};
	struct symbolizer_stats st;

	unlink(map);
	append("100000 100 stale/Old.m\n");
	CHECK_INT(utimensat(AT_FDCWD, map, old, 0), 0);
	CHECK_INT(symbolizer__refresh(s, getpid(), 100 * MS), 0);
	CHECK_INT(symbolizer__refresh(s, getpid(), 200 * MS), 0);
	CHECK_STR(name_at(s, JIT + 0x10, 150 * MS, NULL), "[unknown]");
	symbolizer__stats(s, &st);
	CHECK_INT(st.maps_stale, 1); /* counted once per map */
	/* the live process truncates and writes it: fresh */
	unlink(map);
	append("100000 100 live/New.m\n");
	CHECK_INT(symbolizer__refresh(s, getpid(), 300 * MS), 0);
	CHECK_STR(name_at(s, JIT + 0x10, 250 * MS, NULL), "live/New.m");
	symbolizer__free(s);
}

/* jcmd Compiler.perfmap rewrites the file in place: read it afresh. */
static void test_rewrite(void)
{
	struct symbolizer_opts o = {.map_dir = dir};
	struct symbolizer *s = symbolizer__new(&o);
	FILE *f;

	unlink(map);
	append("0x0000000000100000 0x0000000000000100 int app.First.m(int)\n");
	symbolizer__refresh(s, getpid(), 100 * MS);
	CHECK_STR(name_at(s, JIT + 0x10, 50 * MS, NULL), "app.First.m");
	f = fopen(map, "r+"); /* same inode, new and longer content */
	CHECK(f != NULL);
	if (f) {
		fputs("0x0000000000100000 0x0000000000000100 void "
		      "app.Second.m()\n"
		      "0x0000000000100200 0x0000000000000100 void "
		      "app.Third.m()\n",
		      f);
		fclose(f);
	}
	symbolizer__refresh(s, getpid(), 200 * MS);
	CHECK_STR(name_at(s, JIT + 0x10, 150 * MS, NULL), "app.Second.m");
	CHECK_STR(name_at(s, JIT + 0x210, 50 * MS, NULL), "app.Third.m");
	symbolizer__free(s);
}

static void test_no_inline(void)
{
	struct symbolizer_opts o = {.map_dir = dir, .no_inline = true};
	struct symbolizer *s = symbolizer__new(&o);
	struct frame f[4];

	unlink(map);
	append("100000 100 a/B.m->c/D.n\n");
	symbolizer__refresh(s, getpid(), 100 * MS);
	CHECK_INT(symbolizer__user(s, getpid(), JIT + 1, 150 * MS, f, 4), 1);
	CHECK_STR(f[0].name, "a/B.m->c/D.n");
	CHECK_INT(symbolizer__user(s, getpid(), JIT + 1, 150 * MS, f, 0),
		  -EINVAL);
	symbolizer__free(s);

	s = symbolizer__new(NULL);
	/* default map dir has no map for us: unknown, not an error */
	CHECK_INT(symbolizer__user(s, getpid(), JIT + 1, 1, f, 4), 1);
	CHECK_INT(f[0].kind, FRAME_UNKNOWN);
	symbolizer__free(s);
	symbolizer__free(NULL);
}

/*
 * Memory of a long run: a forgotten pid starts afresh on its next lookup;
 * expiry drops the lines of replaced code and changes no name or version
 * from its cutoff on.
 */
static void test_forget_expire(void)
{
	struct symbolizer_opts o = {.map_dir = dir, .jit_slack_ns = 1};
	struct symbolizer *s = symbolizer__new(&o);
	struct symbolizer_version v1, v2;
	struct symbolizer_stats st;
	char line[64];
	int i;

	unlink(map);
	/* more lines than a map needs before expiry looks at it */
	for (i = 0; i < 1100; i++) {
		snprintf(line, sizeof(line), "%x 10 app/Old%d.m\n",
			 (unsigned)(JIT + 16 * i), i);
		append(line);
	}
	CHECK_INT(symbolizer__refresh(s, getpid(), 100 * MS), 0);
	CHECK_STR(name_at(s, JIT + 16 * 7, 90 * MS, NULL), "app/Old7.m");
	/* all of it unloaded, the same addresses reused */
	for (i = 0; i < 1100; i++) {
		snprintf(line, sizeof(line), "%x 10 app/New%d.m\n",
			 (unsigned)(JIT + 16 * i), i);
		append(line);
	}
	CHECK_INT(symbolizer__refresh(s, getpid(), 200 * MS), 0);
	symbolizer__version(s, getpid(), 300 * MS, &v1);
	symbolizer__expire(s, 300 * MS);
	symbolizer__stats(s, &st);
	CHECK_INT(st.jit_expired, 1100);
	symbolizer__version(s, getpid(), 300 * MS, &v2);
	CHECK(v1.gen == v2.gen && v1.jit == v2.jit);
	CHECK_STR(name_at(s, JIT + 16 * 7, 300 * MS, NULL), "app/New7.m");
	CHECK_STR(name_at(s, JIT + 16 * 1099 + 5, 300 * MS, NULL),
		  "app/New1099.m");
	/* forgotten: the next lookup reads the process again */
	symbolizer__forget(s, getpid());
	symbolizer__forget(s, getpid()); /* no longer known: a no-op */
	symbolizer__stats(s, &st);
	CHECK_INT(st.procs_forgotten, 1);
	symbolizer__version(s, getpid(), 300 * MS, &v2);
	CHECK(v2.gen != v1.gen);
	/* the ELF files it mapped go at a sweep (every tenth expiry) */
	for (i = 0; i < 10; i++)
		symbolizer__expire(s, 300 * MS);
	symbolizer__stats(s, &st);
	CHECK(st.elfs_freed >= 1);
	CHECK_STR(name_at(s, JIT + 16 * 7, 300 * MS, NULL), "app/New7.m");
	CHECK_STR(name_at(s, (uintptr_t)test_forget_expire + 1, 300 * MS, NULL),
		  "test_forget_expire");
	/* mapped again: kept by the next sweep */
	for (i = 0; i < 10; i++)
		symbolizer__expire(s, 300 * MS);
	CHECK_STR(name_at(s, (uintptr_t)test_forget_expire + 1, 300 * MS, NULL),
		  "test_forget_expire");
	symbolizer__free(s);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/tmp/sym-proc-%d", sym_build_dir(),
		 getpid());
	snprintf(map, sizeof(map), "%s/perf-%d.map", dir, getpid());
	mkdir(sym_build_dir(), 0755);
	snprintf(map, sizeof(map), "%s/tmp", sym_build_dir());
	mkdir(map, 0755);
	CHECK_INT(mkdir(dir, 0755), 0);
	/* map_dir is a path inside the target's root: absolute */
	if (!realpath(dir, map))
		return 1;
	strcpy(dir, map);
	snprintf(map, sizeof(map), "%s/perf-%d.map", dir, getpid());
	test_tail();
	test_version();
	test_stale();
	test_rewrite();
	test_no_inline();
	test_forget_expire();
	unlink(map);
	rmdir(dir);
	return check_report();
}
