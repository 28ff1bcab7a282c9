/*
 * maxstack: read and write /proc/sys/kernel/perf_event_max_stack.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "maxstack.h"

#define MAXSTACK_PATH "/proc/sys/kernel/perf_event_max_stack"

int maxstack__get(void)
{
	char buf[32];
	int fd = open(MAXSTACK_PATH, O_RDONLY), ret;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (n <= 0)
		return ret ? ret : -EIO;
	buf[n] = 0;
	return atoi(buf);
}

static int maxstack_set(int v)
{
	char buf[32];
	int fd = open(MAXSTACK_PATH, O_WRONLY), len, ret = 0;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	if (write(fd, buf, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

int maxstack__raise(int want, int *old)
{
	int cur = maxstack__get(), ret;

	*old = -1;
	if (cur < 0)
		return cur;
	if (cur >= want)
		return 0;
	ret = maxstack_set(want);
	if (!ret)
		*old = cur;
	return ret;
}

int maxstack__restore(int old)
{
	struct timespec ts = {0, 10 * 1000 * 1000};
	int i, ret = 0;

	if (old < 0)
		return 0;
	/* the stack map's callchain buffers go away asynchronously */
	for (i = 0; i < 200; i++) {
		ret = maxstack_set(old);
		if (ret != -EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return ret;
}
