/*
 * targets: pid_info by pid in a common/u64map (see targets.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/u64map.h"
#include "targets.h"

struct targets {
	struct u64map m; /* pid -> struct pid_info * (pid 0 is no key) */
};

struct targets *targets__new(void)
{
	return calloc(1, sizeof(struct targets));
}

void targets__free(struct targets *p)
{
	if (!p)
		return;
	u64map__clear(&p->m, free);
	u64map__release(&p->m);
	free(p);
}

struct pid_info *targets__find(struct targets *p, uint32_t pid)
{
	void **slot = u64map__find(&p->m, pid);

	return slot ? *slot : NULL;
}

struct pid_info *targets__get(struct targets *p, uint32_t pid, bool *added)
{
	struct pid_info *pi;
	void **slot = u64map__find(&p->m, pid);

	*added = false;
	if (slot) /* the common case: one lookup */
		return *slot;
	slot = u64map__add(&p->m, pid, added);
	if (!slot)
		return NULL;
	pi = calloc(1, sizeof(*pi));
	if (!pi) {
		u64map__del(&p->m, pid);
		*added = false;
		return NULL;
	}
	pi->pid = pid;
	*slot = pi;
	return pi;
}

int targets__filter(struct targets *p,
		    bool (*keep)(struct pid_info *pi, void *ctx), void *ctx)
{
	/* keys to drop, gathered first: no delete while walking the table */
	uint64_t *drop = malloc((p->m.n ? p->m.n : 1) * sizeof(*drop));
	size_t i, n = 0;

	if (!drop)
		return -ENOMEM;
	for (i = 0; i < p->m.cap; i++)
		if (p->m.keys[i] && !keep(p->m.vals[i], ctx))
			drop[n++] = p->m.keys[i];
	for (i = 0; i < n; i++)
		free(u64map__del(&p->m, drop[i]));
	free(drop);
	return 0;
}

void targets__for_each(struct targets *p,
		       void (*fn)(struct pid_info *pi, void *ctx), void *ctx)
{
	for (size_t i = 0; i < p->m.cap; i++)
		if (p->m.keys[i])
			fn(p->m.vals[i], ctx);
}

double targets__busy(uint32_t pid)
{
	struct procfs_stat st;
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK);
	double now;

	if (procfs__read_stat(pid, &st) || hz <= 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &ts))
		return -1;
	now = ts.tv_sec * (double)hz + ts.tv_nsec * (double)hz / 1e9;
	return (st.state == 'R') + (now > st.start_ticks + 1.0
					? st.cpu_ticks / (now - st.start_ticks)
					: 0.0);
}

uint64_t targets__age_ns(uint32_t pid)
{
	return procfs__age_ns(pid);
}

int targets__comm(uint32_t pid, char *comm)
{
	return procfs__read_comm(pid, comm);
}

/* The map the symbolizer reads: perf-<pid it sees>.map in its own /tmp. */
bool targets__has_jit_map(uint32_t pid)
{
	struct procfs_status st;
	char path[96];

	return !procfs__read_status(pid, &st) &&
	       !procfs__perf_map_path(path, sizeof(path), pid, st.nspid,
				      NULL) &&
	       access(path, F_OK) == 0;
}
