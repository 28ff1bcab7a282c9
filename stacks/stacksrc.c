/*
 * stacksrc: the sampler behind naming's table of functions (stacksrc.h).
 */
#include "sampler/sampler_ctl.h"
#include "stacksrc.h"

static int stack(void *ctx, uint64_t key, const uint64_t **ips)
{
	return sampler__stack(ctx, key, ips);
}

static int interp(void *ctx, uint64_t id, struct interp_stack *out)
{
	return sampler__interp(ctx, id, out);
}

static int interp_chunk(void *ctx, uint64_t key, struct interp_stack *out)
{
	return sampler__interp_chunk(ctx, key, out);
}

static int set_interp(void *ctx, uint32_t pid, const struct interp_proc *p)
{
	return sampler__set_interp(ctx, pid, p);
}

static int clear_interp(void *ctx, uint32_t pid)
{
	return sampler__clear_interp(ctx, pid);
}

static int set_thread(void *ctx, uint32_t tgid, uint32_t tid, uint64_t thread)
{
	return sampler__set_thread(ctx, tgid, tid, thread);
}

static int clear_thread(void *ctx, uint32_t tgid, uint32_t tid)
{
	return sampler__clear_thread(ctx, tgid, tid);
}

void stacksrc__sampler(struct stacksrc *src, struct sampler *smp)
{
	*src = (struct stacksrc){stack,	       interp,	     interp_chunk,
				 set_interp,   clear_interp, set_thread,
				 clear_thread, smp};
}
