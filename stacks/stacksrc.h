/*
 * stacksrc: what naming and the JVM runtime need of the sampler, as a
 * table of functions, so stackfold and jvm/ (jvms, jstacks) run on a fake
 * one in the unit tests (tests/unit/fakejvm.h: no root, no BPF). The
 * run fills one from its sampler (stacksrc__sampler); a test fills one
 * from its own arrays.
 *
 * Reads (naming): a stack by its key, an interpreted-frame list by its id.
 * Writes (JVM discovery, jvms__seen): where a JVM's interpreter lies
 * and its threads' anchors, into the sampler's maps. Each function is as
 * its sampler__ namesake (sampler_ctl.h) says: 0 or -errno.
 */
#ifndef MIXPROF_STACKSRC_H
#define MIXPROF_STACKSRC_H

#include <linux/types.h> /* the ABI header's __u32, __u64 */
#include <stdint.h>
#include "sampler/sampler_abi.h"

struct stacksrc {
	/* frames of stack key, leaf first: their number, or -ENOENT */
	int (*stack)(void *ctx, uint64_t key, const uint64_t **ips);
	/* interpreted-frame list id (sample_key.interp_id), or a chunk of
	 * a deep one (its prev link) */
	int (*interp)(void *ctx, uint64_t id, struct interp_stack *out);
	int (*interp_chunk)(void *ctx, uint64_t key, struct interp_stack *out);
	/* discovery: walk pid's interpreter as p says, or stop */
	int (*set_interp)(void *ctx, uint32_t pid, const struct interp_proc *p);
	int (*clear_interp)(void *ctx, uint32_t pid);
	/* discovery: Java thread tid of JVM tgid: its JavaThread*, or
	 * forget it (jthreadsync.h decides which) */
	int (*set_thread)(void *ctx, uint32_t tgid, uint32_t tid,
			  uint64_t thread);
	int (*clear_thread)(void *ctx, uint32_t tgid, uint32_t tid);
	void *ctx;
};

struct sampler;

/* Fill *src with smp's functions (smp is used, not owned). */
void stacksrc__sampler(struct stacksrc *src, struct sampler *smp);

#endif
