/*
 * vthread: the continuation return barrier's code range from the two
 * StubRoutines statics in a fake JVM's memory: the range of the plain
 * stub and the exception variant's entry; stubs not generated yet ask
 * again (-EAGAIN); a pair not laid out as HotSpot makes it, or memory
 * that does not read, gives no range.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "jvm/vthread.h"

/* the two statics, at addresses 8 and 16; nothing else reads */
static uint64_t statics[2];

static int rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (len != 8 || (addr != 8 && addr != 16))
		return -EFAULT;
	memcpy(buf, &statics[addr / 8 - 1], 8);
	return 0;
}

static const struct hotspot_mem mem = {rd, NULL};

static void put(uint64_t rb, uint64_t rbx)
{
	statics[0] = rb;
	statics[1] = rbx;
}

int main(void)
{
	const uint64_t syms[VT_NR_SYMS] = {[VT_BARRIER] = 8,
					   [VT_BARRIER_EXC] = 16};
	const uint64_t far[VT_NR_SYMS] = {8, 24};
	struct vthread_barrier b = {};

	put(0x7f0000001000ULL, 0x7f0000001090ULL);
	CHECK_INT(vthread__barrier_read(&mem, syms, &b), 0);
	CHECK(b.lo == 0x7f0000001000ULL);
	CHECK(b.hi == 0x7f0000001091ULL);
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
	CHECK(b.lo == 0x7f0000001000ULL && b.hi == 0x7f0000001091ULL);
	/* not a JVM at all: no libjvm.so in our own maps */
	CHECK_INT(vthread__barrier(getpid(), &mem, &b), -ENOENT);
	return check_report();
}
