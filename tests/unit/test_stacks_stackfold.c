/*
 * stackfold and jstacks' naming on a fake sampler (stacksrc.h), without
 * root or BPF: the folded line's shape (comm, thread, frames root first,
 * "-" between user and kernel, the _[j] _[i] _[k] _[0] suffixes, unwind
 * marks, lost and truncated stacks), the cache of named callers and the
 * versions that keep it true (a JIT line replacing a caller's code, a
 * renamed Symbol), and interpreted frames used only where the list and
 * the stack agree.
 *
 * User frames are named by a perf map in a private map_dir, for a child
 * process that only waits (jvms leaves mixprof's own pid alone); the
 * addresses lie where no process of the test maps anything. The JVM is
 * a fake layout over a small array of "target" memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include <linux/types.h>
#include "jvm/hotspot.h"
#include "jvm/jstacks.h"
#include "jvm/jvms.h"
#include "jvm/locknames.h"
#include "stacks/stackfold.h"
#include "sampler/lock.h"
#include "fakejvm.h"

#define MS 1000000ULL
#define K(x) (0xffffffff81000000ULL + (x))

static const char map_text[] = "100000 100 app/Main.main\n"
			       "100100 100 app/Main.loop\n"
			       "100200 100 app/Main.work\n"
			       "100300 100 app/A.outer->app/B.inner\n"
			       "100400 100 start_thread\n"
			       "100500 100 app/Old.m\n"
			       "200000 1000 Interpreter\n";
static const char kallsyms[] = "ffffffff81000000 T do_syscall_64\n"
			       "ffffffff81001000 T ksys_read\n"
			       "ffffffff81002000 T vfs_read\n";

static char dir[PATH_MAX], map[PATH_MAX + 64];
static pid_t child;

/* ---- helpers ------------------------------------------------------------- */

static struct sample_key key(uint64_t user, uint64_t kern)
{
	struct sample_key k = {
	    .pid = child, .user_stack = user, .kern_stack = kern};

	memcpy(k.comm, "java", 4);
	return k;
}

static struct symbolizer *new_sym(void)
{
	struct symbolizer_opts o = {.map_dir = dir, .jit_slack_ns = 1};
	struct symbolizer *s = symbolizer__new(&o);

	CHECK(s != NULL);
	if (!s)
		return NULL;
	CHECK_INT(symbolizer__load_kallsyms(s, kallsyms, strlen(kallsyms)), 0);
	CHECK_INT(symbolizer__refresh(s, child, 100 * MS), 0);
	return s;
}

static void append_map(const char *text)
{
	FILE *f = fopen(map, "a");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const struct stackfold_cfg cfg = {
    .user = true,
    .kernel = true,
    .delimit = true,
    .annotate = true,
    .depth = 8,
};

/* leaf first: work, then loop and main calling (return addresses) */
static const uint64_t u_main[] = {JIT + 0x210, JIT + 0x110 + 1, JIT + 0x10 + 1};
static const uint64_t k_read[] = {K(0x2010), K(0x1010) + 1, K(0x10) + 1};

/* ---- tests --------------------------------------------------------------- */

static void test_shape(void)
{
	struct symbolizer *sym = new_sym();
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, NULL);
	const uint64_t inl[] = {JIT + 0x310, JIT + 0x10 + 1};
	struct sample_key k = key(0x11, 0x21);
	const struct stackfold_stats *st;

	add_stack(0x11, 3, u_main);
	add_stack(0x21, 3, k_read);
	add_stack(0x12, 2, inl);
	CHECK(sf != NULL);
	if (!sf)
		return;
	CHECK_STR(stackfold__line(sf, &k, 3, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Main.loop_[j];app/Main.work_[j];"
		  "-;do_syscall_64_[k];ksys_read_[k];vfs_read_[k]");
	/* an inline chain: the outer method, then what it inlined */
	k = key(0x12, STACK_NONE);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/A.outer_[j];app/B.inner_[i]");
	/* a kernel thread: no user part, no "-" */
	k = key(STACK_NONE, 0x21);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;do_syscall_64_[k];ksys_read_[k];vfs_read_[k]");
	/* a thread other than the main one has no comm: the process's */
	k = key(0x11, STACK_NONE);
	memset(k.comm, 0, sizeof(k.comm));
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, "jproc"),
		  "jproc;app/Main.main_[j];app/Main.loop_[j];"
		  "app/Main.work_[j]");
	/* --per-container: its frame right under the process */
	k = key(STACK_NONE, 0x21);
	CHECK_STR(stackfold__stack(sf, &k, 1, 200 * MS, NULL,
				   "0123456789abcdef0123456789abcdef"
				   "0123456789abcdef0123456789abcdef")
		      ->line->buf,
		  "java;[container 0123456789abcdef0123456789abcdef"
		  "0123456789abcdef0123456789abcdef];do_syscall_64_[k];"
		  "ksys_read_[k];vfs_read_[k]");
	st = stackfold__stats(sf);
	CHECK_INT(st->user_samples, 3 + 1 + 1);
	CHECK_INT(st->user_lost + st->kern_lost + st->truncated, 0);
	stackfold__free(sf);
	symbolizer__free(sym);
}

/*
 * stackfold__forget: the per-process table keeps only processes not
 * forgotten (a host-wide run sees a new pid every few milliseconds); the
 * forgotten ones' counts stay in the totals and the top ten.
 */
static void test_forget(void)
{
	/* pids above any pid_max, 1024 apart: all have one home slot in a
	 * table of up to 1024, so removals must shift the run */
	enum { NP = 300, BASE = 4000000, STEP = 1024 };
	struct symbolizer *sym = new_sym();
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, NULL);
	struct sample_key k = key(0x11, STACK_NONE);
	const struct stackfold_root *t;
	const struct stackfold_gone *g;
	uint64_t rows_samples = 0, with = 0;
	size_t cap, live = 0, wrong = 0;

	add_stack(0x11, 3, u_main);
	CHECK(sf != NULL);
	if (!sf)
		return;
	for (uint32_t i = 0; i < NP; i++) {
		k.pid = BASE + i * STEP;
		CHECK(stackfold__line(sf, &k, i + 1, 200 * MS, NULL) != NULL);
	}
	for (uint32_t i = 0; i < NP; i++) {
		if (i == 7 || i == NP - 1)
			continue;
		stackfold__forget(sf, BASE + i * STEP, i % 2 == 0);
		with += i % 2 == 0;
		rows_samples += i % 2 == 0 ? i + 1 : 0;
	}
	stackfold__forget(sf, BASE + NP * STEP, true); /* never seen */
	/* the ones left are found where the removals moved them */
	k.pid = BASE + 7 * STEP;
	CHECK(stackfold__line(sf, &k, 1, 200 * MS, NULL) != NULL);
	k.pid = BASE + (NP - 1) * STEP;
	CHECK(stackfold__line(sf, &k, 1, 200 * MS, NULL) != NULL);
	cap = stackfold__roots(sf, &t);
	for (size_t i = 0; i < cap; i++) {
		if (!t[i].pid)
			continue;
		live++;
		wrong += !(t[i].pid == BASE + 7 * STEP && t[i].samples == 9) &&
			 !(t[i].pid == BASE + (NP - 1) * STEP &&
			   t[i].samples == NP + 1);
	}
	CHECK_INT(live, 2);
	CHECK_INT(wrong, 0);
	g = stackfold__gone(sf);
	CHECK_INT(g->procs, NP - 2);
	CHECK_INT(g->with_rows, with);
	CHECK_INT(g->rows.samples, rows_samples);
	/* the most samples first: pids NP-2, NP-3, ... */
	for (int i = 0; i < GONE_TOP; i++)
		CHECK_INT(g->top[i].samples, NP - 1 - i);
	stackfold__free(sf);
	symbolizer__free(sym);
}

/* Samples named as of the first second's end or before count in first
 * (and first_root when whole), later ones not; forgotten ones with rows
 * carry theirs into the totals. */
static void test_first(void)
{
	static const uint64_t u_root[] = {JIT + 0x210, JIT + 0x410 + 1};
	struct symbolizer *sym = new_sym();
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, NULL);
	struct sample_key whole = key(0x71, STACK_NONE),
			  broken = key(0x72, STACK_NONE);
	const struct stackfold_root *t;
	size_t cap, i;

	add_stack(0x71, 2, u_root); /* work <- start_thread: a root */
	add_stack(0x72, 3, u_main); /* main is no thread's root */
	CHECK(sf != NULL);
	if (!sf)
		return;
	stackfold__first_until(sf, 250 * MS);
	CHECK(stackfold__line(sf, &whole, 3, 200 * MS, NULL) != NULL);
	CHECK(stackfold__line(sf, &broken, 2, 250 * MS, NULL) != NULL);
	CHECK(stackfold__line(sf, &whole, 5, 1250 * MS, NULL) != NULL);
	cap = stackfold__roots(sf, &t);
	for (i = 0; i < cap && t[i].pid != (uint32_t)child; i++)
		;
	CHECK(i < cap);
	if (i < cap) {
		CHECK_INT(t[i].samples, 10);
		CHECK_INT(t[i].root, 8);
		CHECK_INT(t[i].first, 5);
		CHECK_INT(t[i].first_root, 3);
	}
	stackfold__forget(sf, child, true);
	CHECK_INT(stackfold__gone(sf)->rows.first, 5);
	CHECK_INT(stackfold__gone(sf)->rows.first_root, 3);
	stackfold__free(sf);
	symbolizer__free(sym);
}

static void test_lost(void)
{
	struct symbolizer *sym = new_sym();
	struct stackfold_cfg c = cfg;
	struct stackfold *sf;
	struct sample_key k = key(STACK_LOST, 0x99); /* 0x99: gone */
	const uint64_t deep[] = {JIT + 0x210, JIT + 0x110 + 1, JIT + 0x110 + 1,
				 JIT + 0x10 + 1};
	const struct stackfold_stats *st;
	char want[128];

	c.depth = 4;
	sf = stackfold__new(&c, &src, sym, NULL);
	add_stack(0x13, 4, deep);
	CHECK(sf != NULL);
	if (!sf)
		return;
	CHECK_STR(stackfold__line(sf, &k, 2, 200 * MS, NULL),
		  "java;[lost user stack];-;[lost kernel stack]");
	st = stackfold__stats(sf);
	CHECK_INT(st->user_lost, 2);
	CHECK_INT(st->kern_lost, 2);
	/* as deep as the sampler takes: cut, and said so under the comm */
	k = key(0x13, STACK_NONE);
	CHECK_STR(stackfold__line(sf, &k, 5, 200 * MS, NULL),
		  "java;[truncated];app/Main.main_[j];app/Main.loop_[j];"
		  "app/Main.loop_[j];app/Main.work_[j]");
	CHECK_INT(st->truncated, 5);
	/* no comm at all, and no process comm known: the pid names it */
	memset(k.comm, 0, sizeof(k.comm));
	k.user_stack = 0x11;
	snprintf(want, sizeof(want),
		 "[pid %u];app/Main.main_[j];app/Main.loop_[j];"
		 "app/Main.work_[j]",
		 (unsigned int)child);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL), want);
	stackfold__free(sf);
	symbolizer__free(sym);
}

static void test_per_thread(void)
{
	struct symbolizer *sym = new_sym();
	struct stackfold_cfg c = cfg;
	struct stackfold *sf;
	struct sample_key k = key(0x11, STACK_NONE);
	const uint64_t vt[] = {JIT + 0x210, JIT + 0x110 + 1, JIT + 0x10 + 1,
			       VTHREAD_MARK(77)};
	const struct fold_stack *st;

	c.per_thread = true;
	c.kernel = false;
	sf = stackfold__new(&c, &src, sym, NULL);
	CHECK(sf != NULL);
	if (!sf)
		return;
	k.tid = 4242;
	memcpy(k.comm, "worker-1", 9);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, "java"),
		  "java;worker-1 [4242];app/Main.main_[j];app/Main.loop_[j];"
		  "app/Main.work_[j]");
	/* a virtual thread mounted on it: named in the head, no frame */
	add_stack(0x31, 4, vt);
	k.user_stack = 0x31;
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, "java"),
		  "java;virtual-77 on worker-1 [4242];app/Main.main_[j];"
		  "app/Main.loop_[j];app/Main.work_[j]");
	/* the sinks get the frames and the thread apart, not to split */
	st = stackfold__stack(sf, &k, 1, 200 * MS, "java", NULL);
	CHECK(st != NULL);
	if (st) {
		size_t len;
		const char *t = fold_line__frame(st->line, st->thread, &len);

		CHECK_INT(st->line->n, 5);
		CHECK_INT(st->thread, 1);
		CHECK_INT(st->tid, 4242);
		CHECK(st->line->types[1].kind == FOLD_THREAD &&
		      st->line->types[1].tid == 4242);
		CHECK(st->line->types[1].name ==
		      strlen("virtual-77 on worker-1"));
		CHECK(st->line->types[1].method == strlen("virtual-77 on "));
		CHECK(st->line->types[0].kind == FOLD_PROCESS);
		CHECK(st->line->types[4].kind == FOLD_JIT &&
		      st->line->types[4].method == strlen("app/Main."));
		CHECK(len == strlen("virtual-77 on worker-1 [4242]") &&
		      !memcmp(t, "virtual-77 on worker-1 [4242]", len));
		t = fold_line__frame(st->line, 4, &len);
		CHECK(len == strlen("app/Main.work_[j]") &&
		      !memcmp(t, "app/Main.work_[j]", len));
	}
	stackfold__free(sf);
	symbolizer__free(sym);
}

/*
 * A walk that broke ends (root side) in a mark naming why, counted; one
 * that broke just past a thread's root frame lost nothing: no mark.
 */
static void test_marks(void)
{
	struct symbolizer *sym = new_sym();
	struct stackfold_cfg c = cfg;
	struct stackfold *sf;
	const uint64_t broken[] = {JIT + 0x210, JIT + 0x110 + 1,
				   UNWIND_MARK(UNWIND_BAD_FP)};
	const uint64_t at_root[] = {JIT + 0x210, JIT + 0x410 + 1,
				    UNWIND_MARK(UNWIND_NO_ROW)};
	const uint64_t whole[] = {JIT + 0x210, JIT + 0x410 + 1};
	struct sample_key k = key(0x14, STACK_NONE);
	const struct stackfold_stats *st;

	c.annotate = false; /* root frames are told by their plain name */
	c.kernel = false;
	sf = stackfold__new(&c, &src, sym, NULL);
	add_stack(0x14, 3, broken);
	add_stack(0x15, 3, at_root);
	add_stack(0x16, 2, whole);
	CHECK(sf != NULL);
	if (!sf)
		return;
	CHECK_STR(stackfold__line(sf, &k, 2, 200 * MS, NULL),
		  "java;[unwind: bad fp];app/Main.loop;app/Main.work");
	k.user_stack = 0x15;
	CHECK_STR(stackfold__line(sf, &k, 3, 200 * MS, NULL),
		  "java;start_thread;app/Main.work");
	k.user_stack = 0x16;
	CHECK_STR(stackfold__line(sf, &k, 4, 200 * MS, NULL),
		  "java;start_thread;app/Main.work");
	st = stackfold__stats(sf);
	CHECK_INT(st->user_samples, 9);
	CHECK_INT(st->root_samples, 7);
	CHECK_INT(st->broken[UNWIND_BAD_FP], 2);
	CHECK_INT(st->broken[UNWIND_NO_ROW], 0);
	stackfold__free(sf);
	symbolizer__free(sym);
}

/*
 * Callers named once are taken from the cache while what names them
 * stays; a JIT line that replaces a caller's code (a later sample) makes
 * them named again; a line that covers none of them keeps them.
 */
static void test_cache(void)
{
	struct symbolizer *sym = new_sym();
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, NULL);
	const uint64_t u[] = {JIT + 0x210, JIT + 0x510 + 1, JIT + 0x10 + 1};
	struct sample_key k = key(0x17, STACK_NONE);
	const struct stackfold_stats *st;
	uint64_t cached;

	add_stack(0x17, 3, u);
	CHECK(sf != NULL);
	if (!sf)
		return;
	st = stackfold__stats(sf);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Old.m_[j];app/Main.work_[j]");
	CHECK_INT(st->frames, 0); /* named now, not from the cache */
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Old.m_[j];app/Main.work_[j]");
	CHECK_INT(st->frames, 2); /* the two callers, from the cache */
	/* new code elsewhere: the callers' names still hold */
	append_map("100700 100 app/Else.where\n");
	CHECK_INT(symbolizer__refresh(sym, child, 300 * MS), 0);
	CHECK_STR(stackfold__line(sf, &k, 1, 400 * MS, NULL),
		  "java;app/Main.main_[j];app/Old.m_[j];app/Main.work_[j]");
	CHECK_INT(st->frames, 4);
	/* the code of a caller replaced: later samples name the new one */
	append_map("100500 100 app/New.m\n");
	CHECK_INT(symbolizer__refresh(sym, child, 500 * MS), 0);
	cached = st->frames;
	CHECK_STR(stackfold__line(sf, &k, 1, 600 * MS, NULL),
		  "java;app/Main.main_[j];app/New.m_[j];app/Main.work_[j]");
	CHECK_INT(st->frames, cached);
	/* an earlier sample still gets the code it ran */
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Old.m_[j];app/Main.work_[j]");
	stackfold__free(sf);
	symbolizer__free(sym);
}

/* Does jstacks place pc (a caller's) of k's process in the interpreter? */
static bool in_interpreter(struct jstacks *js, const struct sample_key *k,
			   uint64_t pc)
{
	const uint64_t pcs[] = {0, pc};
	const char *stubs[2];
	uint32_t first[2], njava[2];
	bool interp[2];
	struct jstack s = {
	    .first = first, .njava = njava, .interp = interp, .stubs = stubs};
	struct sample_key nolist = *k;

	nolist.interp_id = 0; /* its list's counts stay the test's */
	jstacks__stack(js, &nolist, pcs, 2, &s);
	return interp[1];
}

/* The run's two calls for a key seen (run_tick.c). */
static void seen(struct jvms *jv, struct jstacks *js,
		 const struct sample_key *k, uint64_t now_ns)
{
	jvms__seen(jv, k->pid, now_ns);
	jstacks__seen(js, k, now_ns);
}

/*
 * Interpreted frames: the run's jvms learns the fake JVM (its
 * interpreter given to the sampler), and names a listed frame only where
 * the stack holds an interpreter pc at its position; a renamed Symbol is
 * read again a tick later and the cached callers named anew.
 */
static void test_interp(void)
{
	struct symbolizer *sym = new_sym();
	struct jvms *jv = jvms__new(&src, open_fake, 0);
	struct jstacks *in = jv ? jstacks__new(&src, jv) : NULL;
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, in);
	/* work <- Foo.bar (interpreted) <- loop <- Interpreter <- main */
	const uint64_t u[] = {JIT + 0x210, INTERP + 0x100 + 1, JIT + 0x110 + 1,
			      INTERP + 0x200 + 1, JIT + 0x10 + 1};
	struct sample_key k = key(0x18, STACK_NONE);
	uint64_t ks = put_symbol(0, "app/Foo"), ns = put_symbol(64, "bar");
	struct interp_stack *l = &lists[0];
	const struct stackfold_stats *st;

	CHECK(in && sf);
	if (!in || !sf)
		return;
	add_stack(0x18, 5, u);
	list_ids[0] = 0x77;
	l->nr = 4;
	/* named, where the stack has an interpreter pc */
	l->f[0] = (struct interp_frame){.idx = 1, .klass_name = ks, .name = ns};
	/* past the stack's end, and a pc that is not the stack's */
	l->f[1] = (struct interp_frame){.idx = 9, .klass_name = ks, .name = ns};
	l->f[2] = (struct interp_frame){
	    .idx = 2, .ip = INTERP + 0x300, .klass_name = ks, .name = ns};
	/* unreadable Symbols: the interpreter's frame keeps its stub name */
	l->f[3] =
	    (struct interp_frame){.idx = 3, .klass_name = 0x10, .name = 0x20};
	k.interp_id = 0x77;

	seen(jv, in, &k, 100 * MS);
	CHECK_INT(set_interps, 1);
	CHECK(last_proc.code_start == INTERP &&
	      last_proc.code_end == INTERP + 0x1000);
	CHECK(in_interpreter(in, &k, INTERP + 0x10));
	CHECK(!in_interpreter(in, &k, JIT + 0x10 + 1));
	CHECK_STR(stackfold__line(sf, &k, 2, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "app/Foo.bar_[0];app/Main.work_[j]");
	st = stackfold__stats(sf);
	CHECK_INT(st->interp_jvms, 1);
	CHECK_INT(st->interp_named, 2);
	CHECK_INT(st->interp_unnamed, 2);
	CHECK_INT(st->interp_samples, 2);
	CHECK_INT(st->interp_misaligned, 2);
	CHECK_INT(st->interp_unreadable, 1);

	/* the Symbol now says another name: a tick later, read again */
	put_symbol(64, "baz");
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "app/Foo.bar_[0];app/Main.work_[j]");
	seen(jv, in, &k, 100 * MS + 2000 * MS);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "app/Foo.baz_[0];app/Main.work_[j]");

	/*
	 * A pending walk (the JVM not known at sample time) kept each
	 * frame's pc and Method*: a frame is named from its Method* where
	 * the stack holds that very pc, and is off its stack elsewhere.
	 */
	lists[1].nr = 2;
	lists[1].f[0] = (struct interp_frame){
	    .idx = 1,
	    .ip = INTERP + 0x100 + 1,
	    .method = put_method(put_symbol(128, "app/Pend"),
				 put_symbol(192, "ing"))};
	lists[1].f[1] = (struct interp_frame){
	    .idx = 3, .ip = INTERP + 0x280, .method = TMEM + 0x200};
	list_ids[1] = 0x78;
	k.interp_id = 0x78;
	seen(jv, in, &k, 100 * MS + 3000 * MS);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "app/Pend.ing_[0];app/Main.work_[j]");
	st = stackfold__stats(sf); /* three lines of 0x77, one of 0x78 */
	CHECK_INT(st->interp_misaligned, 2 * 3 + 1);
	k.interp_id = 0x77;

	/* without the JVM's names the interpreter's frames are its stub's */
	jstacks__forget(in, child);
	jvms__forget(jv, child);
	CHECK_INT(clear_interps, 1);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "Interpreter;app/Main.work_[j]");
	stackfold__free(sf);
	jstacks__free(in);
	jvms__free(jv);
	symbolizer__free(sym);
}

/*
 * --lock's side: the owner, then the lock's class as the leaf, named
 * when the key is seen; an owner the JVM cannot tell is "unknown", a
 * class it cannot read "[unknown class]".
 */
static void test_lock(void)
{
	struct symbolizer *sym = new_sym();
	struct jvms *jv = jvms__new(&src, open_fake, 0);
	struct jstacks *in = jv ? jstacks__new(&src, jv) : NULL;
	struct locknames *ln = in ? locknames__new(jv) : NULL;
	struct stackfold *sf = stackfold__new(&cfg, &src, sym, in);
	const uint64_t lk[] = {LOCK_MARK(LOCK_CLASS_BASE, TMEM + 0xf00),
			       LOCK_MARK(LOCK_OWNER_BASE, 0x7f0000001000ULL)};
	const uint64_t bad[] = {LOCK_MARK(LOCK_CLASS_BASE, 0x10)};
	struct sample_key k = key(0x11, 0x41);

	CHECK(in && ln && sf);
	if (!in || !ln || !sf)
		goto out;
	put_u64(0xf00 + 8, put_symbol(0xe00, "app/Cache"));
	add_stack(0x41, 2, lk);
	add_stack(0x42, 1, bad);
	stackfold__locks(sf, ln);
	seen(jv, in, &k, 100 * MS);
	stackfold__lock_seen(sf, &k);
	CHECK_STR(stackfold__line(sf, &k, 5, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Main.loop_[j];app/Main.work_[j];"
		  "-;[owner] unknown;[lock] app/Cache");
	k.kern_stack = 0x42;
	CHECK_STR(stackfold__line(sf, &k, 5, 200 * MS, NULL),
		  "java;app/Main.main_[j];app/Main.loop_[j];app/Main.work_[j];"
		  "-;[lock] [unknown class]");
	CHECK(!locknames__is_frame(K(0x10)) && !locknames__is_frame(JIT));
out:
	stackfold__free(sf);
	locknames__free(ln);
	jstacks__free(in);
	jvms__free(jv);
	symbolizer__free(sym);
}

int main(void)
{
	int fd;

	child = fakejvm__child();
	CHECK(child > 0);
	snprintf(dir, sizeof(dir), "/tmp/mixprof-unit.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(map, sizeof(map), "%s/perf-%d.map", dir, (int)child);
	fd = child > 0 ? open(map, O_WRONLY | O_CREAT | O_EXCL, 0644) : -1;
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(write(fd, map_text, strlen(map_text)) ==
		      (ssize_t)strlen(map_text));
		close(fd);
		test_shape();
		test_lost();
		test_forget();
		test_first();
		test_per_thread();
		test_marks();
		test_cache();
		test_interp();
		test_lock();
	}
	unlink(map);
	rmdir(dir);
	if (child > 0) {
		fakejvm__reap(child);
	}
	return check_report();
}
