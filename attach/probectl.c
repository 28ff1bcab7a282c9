/*
 * probectl: connect, request, parse replies. See probectl.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "common/nsec.h"
#include "common/stop.h"
#include "probectl.h"
#include "procinfo.h"

#define REPLY_TIMEOUT_MS 120000 /* retransforming many classes is slow */
#define STOP_POLL_MS 50 /* told to stop: how often to look at the clock */

struct probectl {
	int fd;
	char buf[8192];
	size_t len; /* buffered reply bytes */
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / NSEC_PER_MSEC;
}

/* A socket whose backlog is full would hold connect for good: bounded. */
static int try_connect(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;
	struct timeval tv = {.tv_sec = 1};

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (!connect(fd, (const struct sockaddr *)sa, sizeof(*sa)))
		return fd;
	ret = -errno;
	close(fd);
	return ret;
}

/* Read until a complete reply (last line "ok..." or "error...") is in
 * c->buf; returns its length. */
static int read_reply(struct probectl *c)
{
	struct pollfd pf = {c->fd, POLLIN, 0};
	char *line;
	ssize_t n;

	for (;;) {
		for (line = c->buf; line < c->buf + c->len;) {
			char *nl = memchr(line, '\n',
					  c->len - (size_t)(line - c->buf));

			if (!nl)
				break;
			if (!strncmp(line, "ok", 2) ||
			    !strncmp(line, "error", 5))
				return (int)(nl + 1 - c->buf);
			line = nl + 1;
		}
		if (c->len == sizeof(c->buf))
			return -E2BIG;
		/* told to stop: waited for in short steps, and past the
		 * grace not at all (the agent cleans up when we close) */
		n = poll(&pf, 1,
			 stop__asked() ? STOP_POLL_MS : REPLY_TIMEOUT_MS);
		if (n <= 0 && stop__hurry())
			return -EINTR;
		if (n == 0 && !stop__asked())
			return -ETIMEDOUT;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		n = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -ECONNRESET;
		c->len += (size_t)n;
	}
}

/* The final line of a reply of len bytes in c->buf. */
static const char *last_line(struct probectl *c, int len)
{
	const char *p = c->buf + len - 1;

	while (p > c->buf && p[-1] != '\n')
		p--;
	return p;
}

static void consume(struct probectl *c, int len)
{
	c->len -= (size_t)len;
	memmove(c->buf, c->buf + len, c->len);
}

static int send_line(struct probectl *c, const char *line)
{
	size_t n = strlen(line);
	char nl = '\n';

	if (memchr(line, '\n', n))
		return -EINVAL;
	if (send(c->fd, line, n, MSG_NOSIGNAL) != (ssize_t)n ||
	    send(c->fd, &nl, 1, MSG_NOSIGNAL) != 1)
		return -errno;
	return 0;
}

int probectl__request(struct probectl *c, const char *line, char *out,
		      size_t outlen)
{
	int ret = send_line(c, line), len;

	if (ret)
		return ret;
	len = read_reply(c);
	if (len < 0)
		return len;
	if (outlen)
		snprintf(out, outlen, "%.*s", len, c->buf);
	ret = strncmp(last_line(c, len), "ok", 2) ? -EIO : 0;
	consume(c, len);
	return ret;
}

/* The first exchange: a refused client gets one error line and EOF,
 * possibly before our request is even sent (then send fails, the line is
 * still there to read). */
static int hello(struct probectl *c)
{
	char reply[128];
	int len;

	send_line(c, "status");
	len = read_reply(c);
	if (len < 0)
		return len;
	snprintf(reply, sizeof(reply), "%.*s", len, c->buf);
	consume(c, len);
	if (!strncmp(reply, "ok", 2))
		return 0;
	if (strstr(reply, "busy"))
		return -EBUSY;
	return strstr(reply, "permission") ? -EACCES : -EIO;
}

int probectl__open(int pid, const char *dir, int timeout_ms,
		   struct probectl **out)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	long end = now_ms() + timeout_ms;
	struct probectl *c;
	int ns = procinfo__nspid(pid), fd;

	if (ns < 0)
		return ns;
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path),
			     "/proc/%d/root%s/.mixprof-jmap-%d", pid,
			     dir ? dir : "/tmp", ns) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	while ((fd = try_connect(&sa)) < 0 &&
	       (fd == -ENOENT || fd == -ECONNREFUSED) && now_ms() < end)
		usleep(20000);
	if (fd < 0)
		return fd == -ECONNREFUSED ? -ENOENT : fd;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	fd = hello(c);
	if (fd) {
		probectl__close(c);
		return fd;
	}
	*out = c;
	return 0;
}

void probectl__close(struct probectl *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}

/* The agent's "error MESSAGE" into err; -EINVAL/-ENOENT/-EIO by kind. */
static int agent_error(const char *reply, char *err, size_t errlen)
{
	const char *msg = strstr(reply, "error ");

	msg = msg ? msg + 6 : reply;
	if (errlen)
		snprintf(err, errlen, "%.*s", (int)strcspn(msg, "\n"), msg);
	if (!strncmp(msg, "bad pattern", 11))
		return -EINVAL;
	if (!strncmp(msg, "no loaded method", 16))
		return -ENOENT;
	return -EIO;
}

int probectl__add(struct probectl *c, const char *pattern, unsigned flags,
		  unsigned *id, unsigned *nsites, char *err, size_t errlen)
{
	char line[1200], reply[1024];
	int ret;

	if (strpbrk(pattern, " \n")) {
		snprintf(err, errlen, "bad pattern '%s': spaces", pattern);
		return -EINVAL;
	}
	snprintf(line, sizeof(line), "probe %s%s%s", pattern,
		 flags & PROBECTL_STACKS ? " stacks" : "",
		 flags & PROBECTL_WAIT ? " wait" : "");
	ret = probectl__request(c, line, reply, sizeof(reply));
	if (ret == -EIO)
		return agent_error(reply, err, errlen);
	if (ret)
		return ret;
	return sscanf(reply, "ok %u %u", id, nsites) == 2 ? 0 : -EPROTO;
}

/* Parse "SITE PROBE COUNT NAME" lines of a counts reply. */
static int each_count(char *p, probectl_count_fn fn, void *arg)
{
	unsigned site, probe;
	uint64_t count;
	char *nl;
	int off, ret;

	for (; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		if (!strncmp(p, "ok", 2))
			return 0;
		if (sscanf(p, "%u %u %" SCNu64 " %n", &site, &probe, &count,
			   &off) != 3)
			return -EPROTO;
		ret = fn(arg, site, probe, count, p + off);
		if (ret)
			return ret;
	}
	return -EPROTO;
}

int probectl__counts(struct probectl *c, probectl_count_fn fn, void *arg)
{
	int ret = send_line(c, "counts"), len;
	char *copy;

	if (ret)
		return ret;
	/* the reply may exceed the buffer: parse complete lines as they come */
	for (;;) {
		len = read_reply(c);
		if (len != -E2BIG)
			break;
		copy = memrchr(c->buf, '\n', c->len);
		if (!copy)
			return -EPROTO;
		len = (int)(copy + 1 - c->buf);
		copy = strndup(c->buf, (size_t)len);
		if (!copy)
			return -ENOMEM;
		ret = each_count(copy, fn, arg);
		free(copy);
		consume(c, len);
		if (ret != -EPROTO)
			return ret ? ret : -EPROTO;
	}
	if (len < 0)
		return len;
	copy = strndup(c->buf, (size_t)len);
	consume(c, len);
	if (!copy)
		return -ENOMEM;
	ret = each_count(copy, fn, arg);
	free(copy);
	return ret;
}

int probectl__agent_path(int pid, char *out, size_t outlen)
{
	const char *p, *end;
	struct procfs_map m;
	int ret, r;
	size_t len;
	char *buf;

	ret = procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &buf, &len);
	if (ret)
		return ret;
	ret = -ENOENT;
	/* r < 0: a line that does not parse, skipped */
	for (p = buf, end = buf + len;
	     ret == -ENOENT && (r = procfs__maps_next(&p, end, &m));) {
		/* the file itself: not one shown " (deleted)" */
		if (r < 0 || m.path_len < 11 || m.path[0] != '/' ||
		    memcmp(m.path + m.path_len - 11, "/libjmap.so", 11))
			continue;
		ret = (size_t)snprintf(out, outlen, "/proc/%d/root%.*s", pid,
				       (int)m.path_len, m.path) >= outlen
			  ? -ENAMETOOLONG
			  : 0;
	}
	free(buf);
	return ret;
}
