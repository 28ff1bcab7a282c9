/*
 * fakejvm: a fake sampler (stacksrc.h: stacks, interpreted-frame lists,
 * the JVM maps' writes counted) and a fake HotSpot JVM (its layout over
 * a page of "target" memory, tmem at TMEM), for the unit tests of naming
 * and of the JVM runtime (jvm/jvms.h, jvm/jstacks.h): no root, no BPF.
 * One per test binary (static state).
 */
#ifndef MIXPROF_TEST_FAKEJVM_H
#define MIXPROF_TEST_FAKEJVM_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>
#include "jvm/hotspot.h"
#include "stacks/stacksrc.h"

#define JIT 0x100000ULL /* compiled code, named by the perf map */
#define INTERP 0x200000ULL /* the fake JVM's interpreter */
#define TMEM 0x300000ULL /* the fake JVM's memory (tmem) */

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
static int set_interp_err; /* what set_interp returns: -ENOSPC, a full map */
static struct interp_proc last_proc;

/* A stack under key for the rest of the run (the first added under a
 * key is the one found: each test uses keys of its own). */
static inline void add_stack(uint64_t key, int n, const uint64_t *ips)
{
	stacks[nstacks].key = key;
	stacks[nstacks].n = n;
	memcpy(stacks[nstacks].ips, ips, n * sizeof(*ips));
	nstacks++;
}

static inline int f_stack(void *ctx, uint64_t key, const uint64_t **ips)
{
	(void)ctx;
	for (int i = 0; i < nstacks; i++)
		if (stacks[i].key == key) {
			*ips = stacks[i].ips;
			return stacks[i].n;
		}
	return -ENOENT;
}

static inline int f_interp(void *ctx, uint64_t id, struct interp_stack *out)
{
	(void)ctx;
	for (int i = 0; i < 2; i++)
		if (list_ids[i] && list_ids[i] == id) {
			*out = lists[i];
			return 0;
		}
	return -ENOENT;
}

static inline int f_chunk(void *ctx, uint64_t key, struct interp_stack *out)
{
	(void)ctx, (void)key, (void)out;
	return -ENOENT;
}

static inline int f_set_interp(void *ctx, uint32_t pid,
			       const struct interp_proc *p)
{
	(void)ctx, (void)pid;
	set_interps++;
	if (set_interp_err)
		return set_interp_err;
	last_proc = *p;
	return 0;
}

static inline int f_clear_interp(void *ctx, uint32_t pid)
{
	(void)ctx, (void)pid;
	clear_interps++;
	return 0;
}

/* java_threads writes: (tgid, tid) of the last, and how many */
static uint32_t set_tgid, set_tid, clear_tgid, clear_tid;
static int set_threads, clear_threads;

static inline int f_thread(void *ctx, uint32_t tgid, uint32_t tid,
			   uint64_t thread)
{
	(void)ctx, (void)thread;
	set_tgid = tgid;
	set_tid = tid;
	set_threads++;
	return 0;
}

static inline int f_clear_thread(void *ctx, uint32_t tgid, uint32_t tid)
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

static inline int t_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr < TMEM || addr - TMEM > sizeof(tmem) ||
	    len > sizeof(tmem) - (addr - TMEM))
		return -EFAULT;
	memcpy(buf, tmem + (addr - TMEM), len);
	return 0;
}

/* A Symbol at TMEM + off (u4 hash and refcount, u2 length, body). */
static inline uint64_t put_symbol(size_t off, const char *text)
{
	uint16_t len = strlen(text);

	memcpy(tmem + off + 4, &len, 2);
	memcpy(tmem + off + 6, text, len);
	return TMEM + off;
}

static inline void put_u64(size_t off, uint64_t v)
{
	memcpy(tmem + off, &v, 8);
}

/*
 * A Method at TMEM + 0x200 of class ksym named by pool slot 2 (nsym):
 * what a pending walk records, its Symbols read later from the Method*.
 */
static inline uint64_t put_method(uint64_t ksym, uint64_t nsym)
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

static inline struct hotspot *open_fake(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};

	return hotspot__from_mem(pid, &m, &fake_layout);
}

/*
 * The fake JVM with frame anchors: its ThreadsList (TMEM + 0x840, its
 * address at TMEM + 0x800) lists JavaThreads (TMEM + 0x900 on,
 * 0x40 apart, each with its OSThread 0x20 in) whose tids the test puts.
 */
static inline struct hotspot *open_threads(uint32_t pid)
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

static inline void put_threads(const uint32_t *tids, uint32_t n)
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

/*
 * A process that only waits: a live pid that is neither the test's own
 * (jvms leaves mixprof's own pid alone) nor a JVM (no libjvm.so: no
 * namer opens). Killed with the test, or by fakejvm__reap.
 */
static inline pid_t fakejvm__child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* even if the test dies */
		for (;;)
			pause();
	}
	return pid;
}

static inline void fakejvm__reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#endif
