/*
 * stackfold and interp's naming on a fake sampler (stacksrc.h), without
 * root or BPF: the folded line's shape (comm, thread, frames root first,
 * "-" between user and kernel, the _[j] _[i] _[k] _[0] suffixes, unwind
 * marks, lost and truncated stacks), the cache of named callers and the
 * versions that keep it true (a JIT line replacing a caller's code, a
 * renamed Symbol), and interpreted frames used only where the list and
 * the stack agree.
 *
 * User frames are named by a perf map in a private map_dir, for a child
 * process that only waits (interp leaves mixprof's own pid alone); the
 * addresses lie where no process of the test maps anything. The JVM is
 * a fake layout over a small array of "target" memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include <linux/types.h>
#include "jvm/hotspot.h"
#include "profiler/interp.h"
#include "profiler/locknames.h"
#include "stacks/stackfold.h"
#include "sampler/lock.h"

#define MS 1000000ULL
#define JIT 0x100000ULL /* compiled code, named by the perf map */
#define INTERP 0x200000ULL /* the fake JVM's interpreter */
#define TMEM 0x300000ULL /* the fake JVM's memory (tmem) */
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

/* ---- the fake sampler ---------------------------------------------------- */

struct fake_stack {
	uint64_t key;
	int n;
	uint64_t ips[16];
};

static struct fake_stack stacks[16];
static int nstacks;
static struct interp_stack lists[2];
static uint64_t list_ids[2];
static int set_interps, clear_interps;
static struct interp_proc last_proc;

/* A stack under key for the rest of the run (the first added under a
 * key is the one found: each test uses keys of its own). */
static void add_stack(uint64_t key, int n, const uint64_t *ips)
{
	stacks[nstacks].key = key;
	stacks[nstacks].n = n;
	memcpy(stacks[nstacks].ips, ips, n * sizeof(*ips));
	nstacks++;
}

static int f_stack(void *ctx, uint64_t key, const uint64_t **ips)
{
	(void)ctx;
	for (int i = 0; i < nstacks; i++)
		if (stacks[i].key == key) {
			*ips = stacks[i].ips;
			return stacks[i].n;
		}
	return -ENOENT;
}

static int f_interp(void *ctx, uint64_t id, struct interp_stack *out)
{
	(void)ctx;
	for (int i = 0; i < 2; i++)
		if (list_ids[i] && list_ids[i] == id) {
			*out = lists[i];
			return 0;
		}
	return -ENOENT;
}

static int f_chunk(void *ctx, uint64_t key, struct interp_stack *out)
{
	(void)ctx, (void)key, (void)out;
	return -ENOENT;
}

static int f_set_interp(void *ctx, uint32_t pid, const struct interp_proc *p)
{
	(void)ctx, (void)pid;
	set_interps++;
	last_proc = *p;
	return 0;
}

static int f_clear_interp(void *ctx, uint32_t pid)
{
	(void)ctx, (void)pid;
	clear_interps++;
	return 0;
}

/* java_threads writes: (tgid, tid) of the last, and how many */
static uint32_t set_tgid, set_tid, clear_tgid, clear_tid;
static int set_threads, clear_threads;

static int f_thread(void *ctx, uint32_t tgid, uint32_t tid, uint64_t thread)
{
	(void)ctx, (void)thread;
	set_tgid = tgid;
	set_tid = tid;
	set_threads++;
	return 0;
}

static int f_clear_thread(void *ctx, uint32_t tgid, uint32_t tid)
{
	(void)ctx;
	clear_tgid = tgid;
	clear_tid = tid;
	clear_threads++;
	return 0;
}

static const struct stacksrc src = {
    f_stack,	    f_interp, f_chunk,	      f_set_interp,
    f_clear_interp, f_thread, f_clear_thread, NULL,
};

/* ---- the fake JVM -------------------------------------------------------- */

static unsigned char tmem[4096] __attribute__((aligned(4096)));

static int t_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr < TMEM || addr - TMEM > sizeof(tmem) ||
	    len > sizeof(tmem) - (addr - TMEM))
		return -EFAULT;
	memcpy(buf, tmem + (addr - TMEM), len);
	return 0;
}

/* A Symbol at TMEM + off (u4 hash and refcount, u2 length, body). */
static uint64_t put_symbol(size_t off, const char *text)
{
	uint16_t len = strlen(text);

	memcpy(tmem + off + 4, &len, 2);
	memcpy(tmem + off + 6, text, len);
	return TMEM + off;
}

static void put_u64(size_t off, uint64_t v)
{
	memcpy(tmem + off, &v, 8);
}

/*
 * A Method at TMEM + 0x200 of class ksym named by pool slot 2 (nsym):
 * what a pending walk records, its Symbols read later from the Method*.
 */
static uint64_t put_method(uint64_t ksym, uint64_t nsym)
{
	uint16_t ni = 2;

	put_u64(0x200 + 8, TMEM + 0x300); /* Method::_constMethod */
	put_u64(0x300 + 8, TMEM + 0x400); /* ConstMethod::_constants */
	memcpy(tmem + 0x300 + 16, &ni, 2); /* ConstMethod::_name_index */
	put_u64(0x400 + 8, TMEM + 0x500); /* ConstantPool::_pool_holder */
	put_u64(0x400 + 32 + 2 * 8, nsym); /* its slot 2 */
	put_u64(0x500 + 8, ksym); /* Klass::_name */
	return TMEM + 0x200;
}

static const struct hotspot_layout fake_layout = {
    .interp_start = INTERP,
    .interp_end = INTERP + 0x1000,
    .off_sym_length = 4,
    .off_sym_body = 6,
    .off_sym_hash = HOTSPOT_NO_OFF,
    /* Method* -> ConstMethod* -> ConstantPool* -> holder Klass* */
    .off_const_method = 8,
    .off_constants = 8,
    .off_name_index = 16,
    .off_pool_holder = 8,
    .cp_size = 32,
    .off_klass_name = 8,
};

static struct hotspot *open_fake(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};

	return hotspot__from_mem(pid, &m, &fake_layout);
}

/*
 * The fake JVM with frame anchors: its ThreadsList (TMEM + 0x840, its
 * address at TMEM + 0x800) lists JavaThreads (TMEM + 0x900 on,
 * 0x40 apart, each with its OSThread 0x20 in) whose tids the test puts.
 */
static struct hotspot *open_threads(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};
	struct hotspot_layout l = fake_layout;

	l.u =
	    (struct hotspot_unwind){.ok = true,
				    .off_nm_method = HOTSPOT_NO_OFF,
				    .off_nm_compile_id = HOTSPOT_NO_OFF,
				    .threads_ok = true,
				    .threads_list_addr = TMEM + 0x800,
				    .off_tl_threads = 8,
				    .off_jt_anchor = 0x100,
				    .off_jt_osthread = 8,
				    .off_os_tid = 4,
				    .off_fa_pc = 8,
				    .off_fa_fp = 16,
				    .nheaps = 1,
				    .heap = {{.lo = JIT, .hi = JIT + 0x10000}}};
	return hotspot__from_mem(pid, &m, &l);
}

static void put_threads(const uint32_t *tids, uint32_t n)
{
	put_u64(0x800, TMEM + 0x840);
	memcpy(tmem + 0x840, &n, 4);
	put_u64(0x840 + 8, TMEM + 0x880);
	for (uint32_t i = 0; i < n; i++) {
		size_t jt = 0x900 + 0x40 * i;

		put_u64(0x880 + 8 * i, TMEM + jt);
		put_u64(jt + 8, TMEM + jt + 0x20);
		memcpy(tmem + jt + 0x20 + 4, &tids[i], 4);
	}
}

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
		CHECK(st->thread_name == strlen("virtual-77 on worker-1"));
		CHECK(st->carrier == strlen("virtual-77 on "));
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

/*
 * Interpreted frames: the run's interp learns the fake JVM (its
 * interpreter given to the sampler), and names a listed frame only where
 * the stack holds an interpreter pc at its position; a renamed Symbol is
 * read again a tick later and the cached callers named anew.
 */
static void test_interp(void)
{
	struct symbolizer *sym = new_sym();
	struct interp *in = interp__new(&src, open_fake);
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

	interp__seen(in, &k, 100 * MS);
	CHECK_INT(set_interps, 1);
	CHECK(last_proc.code_start == INTERP &&
	      last_proc.code_end == INTERP + 0x1000);
	CHECK(interp__in_interpreter(in, child, INTERP + 0x10));
	CHECK(!interp__in_interpreter(in, child, JIT + 0x10));
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
	interp__seen(in, &k, 100 * MS + 2000 * MS);
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
	interp__seen(in, &k, 100 * MS + 3000 * MS);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "app/Pend.ing_[0];app/Main.work_[j]");
	st = stackfold__stats(sf); /* three lines of 0x77, one of 0x78 */
	CHECK_INT(st->interp_misaligned, 2 * 3 + 1);
	k.interp_id = 0x77;

	/* without the JVM's names the interpreter's frames are its stub's */
	interp__forget(in, child);
	CHECK_INT(clear_interps, 1);
	CHECK_STR(stackfold__line(sf, &k, 1, 200 * MS, NULL),
		  "java;app/Main.main_[j];Interpreter;app/Main.loop_[j];"
		  "Interpreter;app/Main.work_[j]");
	stackfold__free(sf);
	interp__free(in);
	symbolizer__free(sym);
}

/*
 * Issue 29, case 4, through interp: a JVM (child) whose ThreadsList names
 * its own thread and two of other processes (this test's, init's), then
 * drops them. Only child's own thread is written, under child's tgid;
 * the others are refused once and counted; no write or delete ever names
 * another tgid; forgetting the JVM deletes its entry.
 */
static void test_threads(void)
{
	struct interp *in = interp__new(&src, open_threads);
	const uint32_t listed[] = {child, getpid(), 1};
	struct interp_anchored a[4];
	struct interp_stats st;
	struct sample_key k = key(0x11, STACK_NONE);

	CHECK(in != NULL);
	if (!in)
		return;
	set_threads = clear_threads = 0;
	put_threads(listed, 3);
	interp__prepare(in, child);
	CHECK_INT(set_threads, 1);
	CHECK_INT(set_tgid, child);
	CHECK_INT(set_tid, child);
	interp__stats(in, &st);
	CHECK_INT(st.threads_foreign, 2);
	CHECK_INT(st.threads_foreign_pid, child);
	CHECK_INT(interp__anchored(in, a, 4), 1);
	CHECK(a[0].pid == (uint32_t)child && a[0].threads == 1);

	/* the next tick: listed again, then dropped; nothing else written */
	interp__seen(in, &k, 100 * MS);
	put_threads(listed, 1); /* the same JavaThread* */
	interp__seen(in, &k, 300 * MS);
	CHECK_INT(set_threads, 1);
	CHECK_INT(clear_threads, 0);
	interp__stats(in, &st);
	CHECK_INT(st.threads_foreign, 2);

	interp__forget(in, child);
	CHECK_INT(clear_threads, 1);
	CHECK_INT(clear_tgid, child);
	CHECK_INT(clear_tid, child);
	CHECK_INT(interp__anchored(in, a, 4), 0);
	interp__free(in);
}

/*
 * --lock's side: the owner, then the lock's class as the leaf, named
 * when the key is seen; an owner the JVM cannot tell is "unknown", a
 * class it cannot read "[unknown class]".
 */
static void test_lock(void)
{
	struct symbolizer *sym = new_sym();
	struct interp *in = interp__new(&src, open_fake);
	struct locknames *ln = in ? locknames__new(in) : NULL;
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
	interp__seen(in, &k, 100 * MS);
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
	interp__free(in);
	symbolizer__free(sym);
}

int main(void)
{
	int fd;

	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* even if the test dies */
		for (;;)
			pause();
	}
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
		test_per_thread();
		test_marks();
		test_cache();
		test_interp();
		test_threads();
		test_lock();
	}
	unlink(map);
	rmdir(dir);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return check_report();
}
