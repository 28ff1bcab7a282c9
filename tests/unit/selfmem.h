/*
 * selfmem: the tests' own memory read as process_vm_readv reads a JVM's
 * (a struct hotspot_mem's read): -EFAULT where nothing is mapped, so a
 * fake table can end at an unmapped page.
 */
#ifndef MIXPROF_TEST_SELFMEM_H
#define MIXPROF_TEST_SELFMEM_H

#include <errno.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

static int self_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = {buf, len}, r = {(void *)(uintptr_t)addr, len};

	(void)ctx;
	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len
		   ? 0
		   : -EFAULT;
}

#endif
