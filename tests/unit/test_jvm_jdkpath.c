/*
 * Unit tests: jdkpath__libjvm on a fake JDK in a temporary directory: a
 * bin/java by its path, on PATH, through a link (as Debian's
 * /usr/bin/java -> /etc/alternatives -> the JDK), and what is not one (a
 * java outside a bin/, a JDK without lib/server/libjvm.so, a java not
 * executable, a name on no PATH entry).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "jvm/jdkpath.h"

static char top[] = "/tmp/mixprof-jdkpath-XXXXXX";

/* An empty file at top/rel with mode m, its folders made. */
static void touch(const char *rel, mode_t m)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	for (char *s = strchr(p + strlen(top) + 1, '/'); s;
	     s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, m);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

static void test_jdk(void)
{
	char cmd[PATH_MAX], want[PATH_MAX], got[PATH_MAX], path[PATH_MAX * 2];

	touch("jdk/bin/java", 0755);
	touch("jdk/lib/server/libjvm.so", 0644);
	touch("nojvm/bin/java", 0755);
	touch("notbin/java", 0755);
	touch("noexec/bin/java", 0644);
	touch("noexec/lib/server/libjvm.so", 0644);
	snprintf(want, sizeof(want), "%s/jdk/lib/server/libjvm.so", top);

	snprintf(cmd, sizeof(cmd), "%s/jdk/bin/java", top);
	CHECK_INT(jdkpath__libjvm(cmd, NULL, got, sizeof(got)), 0);
	CHECK_STR(got, want);
	/* on PATH, the first directory that has it, as execvp */
	snprintf(path, sizeof(path), "%s/none:%s/jdk/bin:%s/nojvm/bin", top,
		 top, top);
	CHECK_INT(jdkpath__libjvm("java", path, got, sizeof(got)), 0);
	CHECK_STR(got, want);
	snprintf(path, sizeof(path), "%s/nojvm/bin:%s/jdk/bin", top, top);
	CHECK_INT(jdkpath__libjvm("java", path, got, sizeof(got)), -ENOENT);
	/* a link's target is the JDK */
	snprintf(cmd, sizeof(cmd), "%s/link/java", top);
	touch("link/x", 0644);
	snprintf(want, sizeof(want), "%s/jdk/bin/java", top);
	CHECK_INT(symlink(want, cmd), 0);
	CHECK_INT(jdkpath__libjvm(cmd, NULL, got, sizeof(got)), 0);
	CHECK(strstr(got, "/jdk/lib/server/libjvm.so") != NULL);

	snprintf(cmd, sizeof(cmd), "%s/notbin/java", top);
	CHECK_INT(jdkpath__libjvm(cmd, NULL, got, sizeof(got)), -ENOENT);
	snprintf(cmd, sizeof(cmd), "%s/nojvm/bin/java", top);
	CHECK_INT(jdkpath__libjvm(cmd, NULL, got, sizeof(got)), -ENOENT);
	snprintf(cmd, sizeof(cmd), "%s/noexec/bin/java", top);
	CHECK_INT(jdkpath__libjvm(cmd, NULL, got, sizeof(got)), -ENOENT);
	snprintf(path, sizeof(path), "%s/none", top);
	CHECK_INT(jdkpath__libjvm("java", path, got, sizeof(got)), -ENOENT);
}

int main(void)
{
	char rm[PATH_MAX + 16];

	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_jdk();
	snprintf(rm, sizeof(rm), "rm -rf '%s'", top);
	if (system(rm))
		fprintf(stderr, "leaving %s\n", top);
	return check_report();
}
