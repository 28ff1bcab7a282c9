/*
 * Unit tests for agent/perfmap.c and agent/safefile.c: the map file is
 * taken safely, once per process, and records are never torn.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "agent/perfmap.h"

static char dir[] = "/tmp/test_agent_perfmap.XXXXXX";
static char path[256];

static char *slurp(const char *p, size_t *len)
{
	static char buf[1 << 23];
	int fd = open(p, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	n = n < 0 ? 0 : n;
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void test_open_write(void)
{
	struct perfmap *pm = NULL, *pm2 = NULL;
	const char *p = NULL;
	struct stat st;

	umask(077); /* the map must still come out 0644 */
	CHECK_INT(perfmap__open(dir, 4242, &pm, &p), 0);
	CHECK_STR(p, path);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	CHECK_INT(perfmap__write(pm, "1 2 a\n", 6), 0);
	CHECK_INT(perfmap__write(pm, "3 4 b\n", 6), 0);
	CHECK_STR(slurp(path, NULL), "1 2 a\n3 4 b\n");
	/* a second writer in the same process: refused, nothing truncated */
	CHECK_INT(perfmap__open(dir, 4242, &pm2, &p), -EBUSY);
	CHECK(pm2 == NULL);
	CHECK_STR(p, path);
	CHECK_STR(slurp(path, NULL), "1 2 a\n3 4 b\n");
	perfmap__close(pm);
	CHECK_INT(perfmap__write(pm, "5 6 c\n", 6), -EBADF);
	perfmap__free(pm);
	/* a stale map of ours: taken over and truncated */
	CHECK_INT(perfmap__open(dir, 4242, &pm, NULL), 0);
	CHECK_STR(slurp(path, NULL), "");
	perfmap__free(pm);
	perfmap__free(NULL);
	unlink(path);
}

static void test_refusals(void)
{
	struct perfmap *pm = NULL;
	char target[300], other[300];
	const char *p;

	snprintf(target, sizeof(target), "%s/target", dir);
	FILE *f = fopen(target, "w");
	fputs("precious\n", f);
	fclose(f);

	CHECK(symlink(target, path) == 0);
	CHECK_INT(perfmap__open(dir, 4242, &pm, &p), -ELOOP);
	CHECK_STR(p, path);
	CHECK_STR(slurp(target, NULL), "precious\n");
	unlink(path);

	CHECK(link(target, path) == 0);
	CHECK_INT(perfmap__open(dir, 4242, &pm, NULL), -EMLINK);
	CHECK_STR(slurp(target, NULL), "precious\n");
	unlink(path);

	/* a FIFO would block a writer forever: refused at once */
	CHECK(mkfifo(path, 0600) == 0);
	CHECK_INT(perfmap__open(dir, 4242, &pm, NULL), -EINVAL);
	unlink(path);

	CHECK(mkdir(path, 0700) == 0);
	CHECK(perfmap__open(dir, 4242, &pm, NULL) < 0);
	rmdir(path);

	if (geteuid() == 0) { /* CI runs as root: another owner's file */
		f = fopen(path, "w");
		fputs("theirs\n", f);
		fclose(f);
		CHECK(chown(path, 65534, 65534) == 0);
		CHECK_INT(perfmap__open(dir, 4242, &pm, NULL), -EPERM);
		CHECK_STR(slurp(path, NULL), "theirs\n");
		unlink(path);
	}
	snprintf(other, sizeof(other), "%s/missing", dir);
	CHECK_INT(perfmap__open(other, 4242, &pm, NULL), -ENOENT);
	CHECK(pm == NULL);
	unlink(target);
}

/* Writers on several threads: every line whole, none lost. */
enum { THREADS = 4, RECORDS = 3000 };

static void *writer(void *arg)
{
	struct perfmap *pm = arg;
	char rec[512];
	int i, j, n;

	for (i = 0; i < RECORDS; i++) {
		n = snprintf(rec, sizeof(rec), "%lx %x ", (long)pthread_self(),
			     i);
		for (j = 0; j < i % 300; j++)
			rec[n++] = 'x';
		rec[n++] = '\n';
		if (perfmap__write(pm, rec, n))
			return (void *)1;
	}
	return NULL;
}

static void test_threads(void)
{
	struct perfmap *pm = NULL;
	pthread_t t[THREADS];
	void *ret;
	char *buf, *line, *save = NULL;
	int i, lines = 0, bad = 0;

	CHECK_INT(perfmap__open(dir, 4243, &pm, NULL), 0);
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, writer, pm);
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &ret);
		CHECK(ret == NULL);
	}
	perfmap__free(pm);
	snprintf(path, sizeof(path), "%s/perf-4243.map", dir);
	buf = slurp(path, NULL);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long tid;
		unsigned int idx;
		int off = 0;

		lines++;
		if (sscanf(line, "%lx %x %n", &tid, &idx, &off) != 2 ||
		    strspn(line + off, "x") != idx % 300 ||
		    line[off + idx % 300] != '\0')
			bad++;
	}
	CHECK_INT(lines, THREADS * RECORDS);
	CHECK_INT(bad, 0);
	unlink(path);
}

/*
 * A write that fails half-way (file size limit here, disk full in life)
 * must not leave a torn line for the next record to continue. Runs in a
 * child: the limit is process-wide.
 */
static void test_partial_write(void)
{
	static const char rec[] = "7f0000 10 p/Class.method\n"; /* 25 */
	struct perfmap *pm = NULL;
	struct rlimit rl = {90, 90}; /* room for 3 records and a part */
	size_t len;
	pid_t child;
	int status = -1, i;

	fflush(NULL);
	child = fork();
	if (child == 0) {
		int fails = 0;

		signal(SIGXFSZ, SIG_IGN);
		if (perfmap__open(dir, 4244, &pm, NULL) ||
		    setrlimit(RLIMIT_FSIZE, &rl))
			_exit(2);
		for (i = 0; i < 5; i++)
			fails += perfmap__write(pm, rec, sizeof(rec) - 1) != 0;
		perfmap__free(pm);
		_exit(fails == 2 ? 0 : 3);
	}
	waitpid(child, &status, 0);
	CHECK_INT(status, 0);
	snprintf(path, sizeof(path), "%s/perf-4244.map", dir);
	slurp(path, &len);
	CHECK_INT(len, 3 * (sizeof(rec) - 1));
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	test_open_write();
	test_refusals();
	test_threads();
	test_partial_write();
	rmdir(dir);
	return check_report();
}
