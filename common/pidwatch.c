// SPDX-License-Identifier: GPL-2.0
/* pidwatch: processes' liveness by pidfd, else by /proc (see pidwatch.h) */
#include "pidwatch.h"
#include <poll.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "procfs.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

struct pidwatch {
	int n;
	struct {
		uint32_t pid;
		int fd; /* its pidfd, or -1: /proc is read instead */
	} p[];
};

struct pidwatch *pidwatch__new(const uint32_t *pids, int n)
{
	struct pidwatch *w;

	if (n < 0 || !(w = calloc(1, sizeof(*w) + n * sizeof(w->p[0]))))
		return NULL;
	w->n = n;
	for (int i = 0; i < n; i++) {
		w->p[i].pid = pids[i];
		w->p[i].fd = (int)syscall(SYS_pidfd_open, pids[i], 0);
	}
	return w;
}

static int alive(uint32_t pid, int fd)
{
	struct pollfd q = {.fd = fd, .events = POLLIN};

	if (fd < 0)
		return procfs__alive(pid);
	/* readable once it exited; an error: asked the slow way */
	if (poll(&q, 1, 0) < 0 || (q.revents & (POLLERR | POLLNVAL)))
		return procfs__alive(pid);
	return !(q.revents & POLLIN);
}

int pidwatch__alive(const struct pidwatch *w)
{
	int n = 0;

	for (int i = 0; w && i < w->n; i++)
		n += alive(w->p[i].pid, w->p[i].fd);
	return n;
}

void pidwatch__free(struct pidwatch *w)
{
	for (int i = 0; w && i < w->n; i++)
		if (w->p[i].fd >= 0)
			close(w->p[i].fd);
	free(w);
}
