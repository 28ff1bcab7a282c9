/*
 * vthread: a JVM's continuation layout from the statics in a fake JVM's
 * memory. The return barrier: the plain stub's range and the exception
 * variant's entry; stubs not generated yet ask again (-EAGAIN); a pair not
 * laid out as HotSpot makes it, or memory that does not read, gives no
 * range. The chunk walk's offsets: taken as read, -EAGAIN while a class's
 * offsets or enterSpecial are not made yet, -EINVAL for offsets no object
 * has, -ENOENT without JVMCI's table.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "jvm/vthread.h"

/* the statics: word i at address 8 * (i + 1); nothing else reads */
#define WORDS 32
static uint64_t statics[WORDS];

static int rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr < 8 || addr >= 8 * (WORDS + 1) || len > 8 * (WORDS + 1) - addr)
		return -EFAULT;
	memcpy(buf, (uint8_t *)statics + addr - 8, len);
	return 0;
}

static const struct hotspot_mem mem = {rd, NULL};

static void put(uint64_t rb, uint64_t rbx)
{
	statics[0] = rb;
	statics[1] = rbx;
}

static void barrier(void)
{
	const uint64_t syms[VT_NR_SYMS] = {
	    [VT_BARRIER] = 8, [VT_BARRIER_EXC] = 16};
	const uint64_t far[VT_NR_SYMS] = {8, 8 * (WORDS + 1)};
	struct vthread_layout b = {};

	put(0x7f0000001000ULL, 0x7f0000001090ULL);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), 0);
	CHECK(b.barrier_lo == 0x7f0000001000ULL);
	CHECK(b.barrier_hi == 0x7f0000001091ULL);
	/* a JVM starting: the stubs not generated yet */
	put(0, 0);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), -EAGAIN);
	put(0x7f0000001000ULL, 0);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), -EAGAIN);
	/* the exception variant before the plain one, or far after it */
	put(0x7f0000001090ULL, 0x7f0000001000ULL);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), -EINVAL);
	put(0x7f0000001000ULL, 0x7f0000101000ULL);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), -EINVAL);
	put(0x7f0000001000ULL, 0x7f0000001000ULL);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), -EINVAL);
	/* a static that does not read */
	CHECK_INT(vthread__barrier_read(&mem, far, &b), -EFAULT);
	/* nothing changed by a failure */
	CHECK(b.barrier_lo == 0x7f0000001000ULL &&
	      b.barrier_hi == 0x7f0000001091ULL);
}

/* the chunk statics at words 2.. (int offsets, then the rest) */
static void chunks(void)
{
	uint64_t syms[VC_NR_SYMS];
	struct vthread_layout l = {};

	for (int i = 0; i < VC_NR_SYMS; i++)
		syms[i] = 8 * (i + 3);
	for (int i = VC_TAIL; i <= VC_STACK; i++)
		statics[i + 2] = 12 + 4 * i;
	statics[VC_OOPS + 2] = 1;
	statics[VC_BASE + 2] = 0x800000000ULL;
	statics[VC_SHIFT + 2] = 3;
	statics[VC_ENTRY_PC + 2] = 0x7f0000002000ULL;
	statics[VC_TID + 2] = 80;
	/* JVMCI's table missing: JavaThread::_cont_entry unknown */
	CHECK_INT(vthread__chunks_read(&mem, syms, NULL, &l), -ENOENT);
	CHECK(!l.chunks);
	/* enterSpecial not made yet: no virtual thread ran */
	statics[VC_ENTRY_PC + 2] = 0;
	CHECK_INT(vthread__chunks_read(&mem, syms, NULL, &l), -EAGAIN);
	/* StackChunk's offsets not computed yet, or nonsense */
	statics[VC_SP + 2] = 0;
	CHECK_INT(vthread__chunks_read(&mem, syms, NULL, &l), -EAGAIN);
	statics[VC_SP + 2] = 0x7fffffff;
	CHECK_INT(vthread__chunks_read(&mem, syms, NULL, &l), -EINVAL);
	statics[VC_SP + 2] = 12 + 4 * VC_SP;
	statics[VC_ENTRY_PC + 2] = 0x7f0000002000ULL;
	statics[VC_SHIFT + 2] = 40;
	CHECK_INT(vthread__chunks_read(&mem, syms, NULL, &l), -EINVAL);
	CHECK(!l.chunks);
}

int main(void)
{
	struct vthread_syms vs;
	struct vthread_layout b = {};
	int chunk_err = 0;

	barrier();
	chunks();
	/* not a JVM at all: no libjvm.so in our own maps */
	vthread__syms(getpid(), &vs);
	CHECK_INT(vs.vt_err, -ENOENT);
	CHECK_INT(vthread__read(&mem, &vs, &b, &chunk_err), -ENOENT);
	CHECK_INT(chunk_err, -ENOENT);
	return check_report();
}
