/*
 * jvms: discovery and BPF programming of the run's JVMs on a fake sampler
 * and fake JVMs (fakejvm.h), without root or BPF: the retry rules (a
 * process gone, a JVM starting, mixprof itself), what the BPF walk is
 * given from a layout (the interpreter, the unwinder's fields, --lines'
 * bci), a full map, forgetting; the threads' anchors (issue 29).
 * Leaks and double frees are the ASan build's (make test-asan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "fakejvm.h"
#include "jvm/jnamer.h"
#include "jvm/jvms.h"

#define MS 1000000ULL
#define TICK (100 * MS) /* more than jvms.c's TICK_NS */

static pid_t child;
static int opens, open_err;

/* A process that is no JVM (yet): open_err says why; counts the looks. */
static struct hotspot *open_none(uint32_t pid)
{
	(void)pid;
	opens++;
	errno = open_err;
	return NULL;
}

static struct hotspot *open_count(uint32_t pid)
{
	opens++;
	return open_fake(pid);
}

/* A JVM whose code cache and nmethods the walk can read. */
static struct hotspot *open_unwind(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};
	struct hotspot_layout l = fake_layout;

	l.cm_size = 48;
	l.u = (struct hotspot_unwind){
	    .ok = true,
	    .code_is_offset = true,
	    .hb_size = 16,
	    .off_cb_size = 12,
	    .off_cb_frame_size = 20,
	    .off_cb_code = 24,
	    .off_nm_method = 40,
	    .off_nm_compile_id = 48,
	    .off_nm_comp_level = 52,
	    .nheaps = 2,
	    .heap = {
		{.lo = JIT, .hi = JIT + 0x8000, .segmap = TMEM, .log2_seg = 7},
		{.lo = JIT + 0x8000, .hi = JIT + 0x10000, .log2_seg = 7}}};
	opens++;
	return hotspot__from_mem(pid, &m, &l);
}

static void reset(void)
{
	opens = open_err = set_interps = clear_interps = set_interp_err = 0;
	memset(&last_proc, 0, sizeof(last_proc));
}

/* A process that is gone is never looked at again; mixprof never. */
static void test_not_jvm(void)
{
	struct jvms *v = jvms__new(&src, open_none, 0);
	struct jvm *j;

	CHECK(v != NULL);
	if (!v)
		return;
	reset();
	open_err = ESRCH;
	j = jvms__seen(v, child, 1 * TICK);
	CHECK(j && j->state == JVM_NOT);
	CHECK_INT(opens, 1);
	CHECK_INT(clear_interps, 1); /* its pending walk stopped */
	jvms__seen(v, child, 20 * TICK);
	CHECK_INT(opens, 1);
	CHECK(jvms__hotspot(v, child) == NULL);
	CHECK(jvms__describe(v, child, (char[8]){0}, 8) == -ENOENT);
	/* ourselves: we map libjvm.so files, but are no target */
	CHECK(jvms__seen(v, getpid(), 21 * TICK) == NULL);
	CHECK(jvms__find(v, getpid()) == NULL);
	CHECK_INT(opens, 1);
	jvms__forget(v, child);
	CHECK(jvms__find(v, child) == NULL);
	jvms__free(v);
}

/*
 * A JVM starting (EAGAIN) is looked at once a tick however long it
 * takes, never between, and never given up while young.
 */
static void test_starting(void)
{
	struct jvms *v = jvms__new(&src, open_none, 0);
	struct jvm *j = NULL;

	CHECK(v != NULL);
	if (!v)
		return;
	reset();
	open_err = EAGAIN;
	for (int t = 1; t <= 100; t++)
		j = jvms__seen(v, child, t * TICK);
	CHECK(j && j->state == JVM_TRY);
	CHECK_INT(opens, 100);
	CHECK_INT(j->tries, 0);
	jvms__seen(v, child, 100 * TICK + MS); /* the same tick */
	CHECK_INT(opens, 100);
	CHECK_INT(clear_interps, 0);
	jvms__free(v);
}

/* A JVM: its layout given to BPF field by field, once; then forgotten. */
static void test_jvm(void)
{
	struct jvms *v = jvms__new(&src, open_count, JVMS_LINES);
	struct jvms_stats st;
	struct jvm *j;
	char d[512];

	CHECK(v != NULL);
	if (!v)
		return;
	reset();
	j = jvms__seen(v, child, 1 * TICK);
	CHECK(j && j->state == JVM_YES && j->h);
	CHECK_INT(opens, 1);
	CHECK_INT(set_interps, 1);
	CHECK(last_proc.code_start == INTERP &&
	      last_proc.code_end == INTERP + 0x1000);
	CHECK_INT(last_proc.method_slot, INTERP_METHOD_SLOT);
	CHECK_INT(last_proc.off_const_method, 8);
	CHECK_INT(last_proc.off_name_index, 16);
	CHECK_INT(last_proc.cp_base, 32);
	CHECK_INT(last_proc.off_sym_hash, INTERP_NO_OFF);
	CHECK_INT(last_proc.nheaps, 0); /* no code cache: no unwinder */
	CHECK_INT(last_proc.flags, 0);
	CHECK(jvms__hotspot(v, child) == j->h);
	CHECK(jvms__describe(v, child, d, sizeof(d)) > 0);
	jvms__seen(v, child, 30 * TICK);
	CHECK_INT(opens, 1); /* opened once */
	jvms__stats(v, &st);
	CHECK_INT(st.jvms, 1);
	CHECK_INT(st.unwound, 0);
	jvms__forget(v, child);
	CHECK_INT(clear_interps, 1); /* its slot in the BPF map freed */
	CHECK(jvms__find(v, child) == NULL);
	jvms__seen(v, child, 31 * TICK); /* back: learnt again */
	CHECK_INT(opens, 2);
	jvms__free(v);
}

/*
 * The unwinder's fields and --lines: the code heaps and CodeBlob offsets
 * copied, the compiled frames listed (UNWIND_NAMES) until the namer
 * cannot open (a fake pid has no libjvm.so: counted, and the listing
 * and the bcis taken back from BPF).
 */
static void test_unwind(void)
{
	struct jvms *v = jvms__new(&src, open_unwind, JVMS_LINES);
	struct jvms_stats st;
	struct jvm *j;

	CHECK(v != NULL);
	if (!v)
		return;
	reset();
	j = jvms__seen(v, child, 1 * TICK);
	CHECK(j && j->state == JVM_YES);
	CHECK_INT(set_interps, 2);
	CHECK_INT(last_proc.nheaps, 2);
	CHECK(last_proc.heap[0].lo == JIT &&
	      last_proc.heap[1].hi == JIT + 0x10000);
	CHECK_INT(last_proc.heap[0].log2_seg, 7);
	CHECK_INT(last_proc.hb_size, 16);
	CHECK_INT(last_proc.off_cb_frame_size, 20);
	CHECK_INT(last_proc.off_nm_method, 40);
	CHECK_INT(last_proc.off_nm_cid, 48);
	CHECK_INT(last_proc.off_nm_level, 4);
	CHECK(last_proc.flags & UNWIND_CODE_OFFSET);
	CHECK(!(last_proc.flags & UNWIND_ANCHORS)); /* no thread fields */
	CHECK(!(last_proc.flags & UNWIND_NAMES)); /* taken back */
	CHECK_INT(last_proc.cm_size, 0);
	CHECK(j->jn == NULL);
	jvms__stats(v, &st);
	CHECK_INT(st.unwound, 1);
	CHECK_INT(st.no_names, 1);
	CHECK_INT(st.no_names_pid, child);
	jvms__free(v);
}

/* A full map (1024 JVMs at once): the JVM is left unnamed, nothing kept. */
static void test_full(void)
{
	struct jvms *v = jvms__new(&src, open_count, 0);
	struct jvm *j;

	CHECK(v != NULL);
	if (!v)
		return;
	reset();
	set_interp_err = -ENOSPC;
	j = jvms__seen(v, child, 1 * TICK);
	CHECK(j && j->state == JVM_NOT && !j->h);
	CHECK(jvms__hotspot(v, child) == NULL);
	jvms__seen(v, child, 30 * TICK);
	CHECK_INT(opens, 1);
	jvms__free(v);
}

/*
 * Issue 29, case 4, through jvms: a JVM (child) whose ThreadsList names
 * its own thread and two of other processes (this test's, init's), then
 * drops them. Only child's own thread is written, under child's tgid;
 * the others are refused once and counted; no write or delete ever names
 * another tgid; forgetting the JVM deletes its entry.
 */
static void test_threads(void)
{
	struct jvms *in = jvms__new(&src, open_threads, 0);
	const uint32_t listed[] = {child, getpid(), 1};
	struct jvms_anchored a[4];
	struct jvms_stats st;

	CHECK(in != NULL);
	if (!in)
		return;
	reset();
	set_threads = clear_threads = 0;
	put_threads(listed, 3);
	jvms__prepare(in, child);
	CHECK_INT(set_threads, 1);
	CHECK_INT(set_tgid, child);
	CHECK_INT(set_tid, child);
	jvms__stats(in, &st);
	CHECK_INT(st.threads_foreign, 2);
	CHECK_INT(st.threads_foreign_pid, child);
	CHECK_INT(jvms__anchored(in, a, 4), 1);
	CHECK(a[0].pid == (uint32_t)child && a[0].threads == 1);

	/* the next tick: listed again, then dropped; nothing else written */
	jvms__seen(in, child, 100 * MS);
	put_threads(listed, 1); /* the same JavaThread* */
	jvms__seen(in, child, 300 * MS);
	CHECK_INT(set_threads, 1);
	CHECK_INT(clear_threads, 0);
	jvms__stats(in, &st);
	CHECK_INT(st.threads_foreign, 2);

	jvms__forget(in, child);
	CHECK_INT(clear_threads, 1);
	CHECK_INT(clear_tgid, child);
	CHECK_INT(clear_tid, child);
	CHECK_INT(jvms__anchored(in, a, 4), 0);
	jvms__free(in);
}

int main(void)
{
	child = fakejvm__child();
	CHECK(child > 0);
	if (child > 0) {
		test_not_jvm();
		test_starting();
		test_jvm();
		test_unwind();
		test_full();
		test_threads();
		fakejvm__reap(child);
	}
	return check_report();
}
