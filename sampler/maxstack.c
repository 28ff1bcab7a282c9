/*
 * maxstack: read /proc/sys/kernel/perf_event_max_stack (maxstack.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "maxstack.h"

#define MAXSTACK_PATH "/proc/sys/kernel/perf_event_max_stack"

int maxstack__get(void)
{
	char buf[32];
	int fd = open(MAXSTACK_PATH, O_RDONLY | O_CLOEXEC), ret;
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
