/*
 * targets: an open-addressing hash of pid_info by pid (see targets.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/procfs.h"
#include "targets.h"

struct pidset {
	struct pid_info *slots; /* pid 0 marks a free slot */
	size_t cap, used; /* cap is a power of two */
};

struct pidset *pidset__new(void)
{
	struct pidset *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cap = 64;
	p->slots = calloc(p->cap, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	return p;
}

void pidset__free(struct pidset *p)
{
	if (!p)
		return;
	free(p->slots);
	free(p);
}

static struct pid_info *slot_of(struct pid_info *slots, size_t cap,
				uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (cap - 1);

	while (slots[i].pid && slots[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Double the table when it is half full. */
static int grow(struct pidset *p)
{
	size_t cap = p->cap * 2, i;
	struct pid_info *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < p->cap; i++)
		if (p->slots[i].pid)
			*slot_of(slots, cap, p->slots[i].pid) = p->slots[i];
	free(p->slots);
	p->slots = slots;
	p->cap = cap;
	return 0;
}

struct pid_info *pidset__find(struct pidset *p, uint32_t pid)
{
	struct pid_info *pi = slot_of(p->slots, p->cap, pid);

	return pi->pid ? pi : NULL;
}

struct pid_info *pidset__get(struct pidset *p, uint32_t pid, bool *added)
{
	struct pid_info *pi;

	*added = false;
	if (!pid)
		return NULL;
	if ((p->used + 1) * 2 > p->cap && grow(p))
		return NULL;
	pi = slot_of(p->slots, p->cap, pid);
	if (!pi->pid) {
		pi->pid = pid;
		p->used++;
		*added = true;
	}
	return pi;
}

int pidset__filter(struct pidset *p,
		   bool (*keep)(struct pid_info *pi, void *ctx), void *ctx)
{
	struct pid_info *slots = calloc(p->cap, sizeof(*slots));
	size_t i;

	if (!slots)
		return -ENOMEM;
	p->used = 0;
	for (i = 0; i < p->cap; i++) {
		if (!p->slots[i].pid || !keep(&p->slots[i], ctx))
			continue;
		*slot_of(slots, p->cap, p->slots[i].pid) = p->slots[i];
		p->used++;
	}
	free(p->slots);
	p->slots = slots;
	return 0;
}

void pidset__for_each(struct pidset *p,
		      void (*fn)(struct pid_info *pi, void *ctx), void *ctx)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		if (p->slots[i].pid)
			fn(&p->slots[i], ctx);
}

bool proc_alive(uint32_t pid)
{
	struct procfs_stat st;

	return !procfs__read_stat(pid, &st) && st.state != 'Z' &&
	       st.state != 'X';
}

uint64_t proc_age_ns(uint32_t pid)
{
	struct procfs_stat st;
	struct timespec now;
	uint64_t start_ns, now_ns;

	if (procfs__read_stat(pid, &st) ||
	    clock_gettime(CLOCK_BOOTTIME, &now))
		return 0;
	start_ns = procfs__ticks_ns(st.start_ticks);
	now_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	return now_ns > start_ns ? now_ns - start_ns : 1;
}

int proc_comm(uint32_t pid, char *comm)
{
	return procfs__read_comm(pid, comm);
}

int proc_tgid(uint32_t pid)
{
	struct procfs_status st;
	int err = procfs__read_status(pid, &st);

	return err ? err : st.tgid;
}

/* The map the symbolizer reads: perf-<pid it sees>.map in its own /tmp. */
bool proc_has_jit_map(uint32_t pid)
{
	struct procfs_status st;
	char path[96];

	return !procfs__read_status(pid, &st) &&
	       !procfs__perf_map_path(path, sizeof(path), pid, st.nspid,
				      NULL) &&
	       access(path, F_OK) == 0;
}
