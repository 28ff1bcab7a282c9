/*
 * procinfo: path resolution inside another root (a temporary directory
 * stands for the JVM's /proc/PID/root), and the JVM test on live
 * processes. The /proc parsers are tested in test_common_procfs.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "attach/procinfo.h"

/* Absolute symlinks and ".." must stay inside the JVM's root. */
static void test_open_in_root(void)
{
	char dir[] = "/tmp/test_attach_procinfo.XXXXXX", path[64];
	struct stat want, got;
	int rootfd, fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	CHECK(!mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(!symlink("/tmp", path)); /* its /tmp, not ours */
	rootfd = open(dir, O_PATH | O_DIRECTORY);
	CHECK(rootfd >= 0);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	CHECK(!stat(path, &want));

	fd = procinfo__open_in_root(rootfd, "/link", O_PATH | O_DIRECTORY, 0);
	CHECK(fd >= 0 && !fstat(fd, &got) && got.st_ino == want.st_ino);
	if (fd >= 0)
		close(fd);
	fd = procinfo__open_in_root(rootfd, "/../../tmp", O_PATH, 0);
	CHECK(fd >= 0 && !fstat(fd, &got) && got.st_ino == want.st_ino);
	if (fd >= 0)
		close(fd);
	CHECK_INT(procinfo__open_in_root(rootfd, "/missing", O_RDONLY, 0),
		  -ENOENT);

	close(rootfd);
	snprintf(path, sizeof(path), "%s/link", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	rmdir(path);
	rmdir(dir);
}

/* We are no JVM; a pid that cannot exist is no process. */
static void test_is_jvm(void)
{
	CHECK_INT(procinfo__is_jvm(getpid()), 0);
	CHECK_INT(procinfo__is_jvm(0), -ESRCH);
	CHECK_INT(procinfo__is_jvm(0x7ffffff0), -ESRCH);
	CHECK_INT(procinfo__nspid(getpid()), getpid()); /* the test's own ns */
}

int main(void)
{
	test_is_jvm();
	test_open_in_root();
	return check_report();
}
