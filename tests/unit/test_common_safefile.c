/*
 * common/safefile: what a hostile user can plant is refused, quickly and
 * with the documented error; what is ours is read and written. Runs as
 * root (the tests do), so owners can be set to any uid.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "common/safefile.h"

#define OTHER_UID 54321 /* no such user needed: only the number counts */

static char dir[] = "/tmp/test_safefile.XXXXXX";

/* dir/name; two calls may share an argument list (own buffers) */
static char *at(const char *name)
{
	static char p[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	fputs(text, f);
	fclose(f);
}

static char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(at(name), "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static void test_read(void)
{
	struct safe_in any = {.uid = SAFE_ANY_UID};
	struct safe_in mine = {.uid = OTHER_UID + 1};
	struct safe_in small = {.uid = SAFE_ANY_UID, .max_size = 4};
	struct safe_in follow = {.uid = SAFE_ANY_UID, .follow = true};
	char buf[16];
	int fd;

	put("map", "1 2 a\n");
	put("secret", "secret\n");
	fd = safefile__open_in(AT_FDCWD, at("map"), &any);
	CHECK(fd >= 0);
	CHECK_INT(read(fd, buf, sizeof(buf)), 6);
	/* O_NONBLOCK cleared once the checks passed */
	CHECK(!(fcntl(fd, F_GETFL) & O_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	symlink(at("secret"), at("link.map"));
	CHECK_INT(safefile__open_in(AT_FDCWD, at("link.map"), &any), -ELOOP);
	fd = safefile__open_in(AT_FDCWD, at("link.map"), &follow);
	CHECK(fd >= 0);
	close(fd);

	/* a FIFO nobody writes: refused at once, not waited on */
	mkfifo(at("fifo.map"), 0666);
	CHECK_INT(safefile__open_in(AT_FDCWD, at("fifo.map"), &any), -EINVAL);
	CHECK_INT(safefile__open_in(AT_FDCWD, dir, &any), -EINVAL);

	/* root's files pass any owner rule; another user's do not */
	CHECK(safefile__check_fd(fd = open(at("map"), O_RDONLY), &mine) == 0);
	close(fd);
	chown(at("map"), OTHER_UID, OTHER_UID);
	CHECK_INT(safefile__open_in(AT_FDCWD, at("map"), &mine), -EPERM);
	mine.uid = OTHER_UID;
	fd = safefile__open_in(AT_FDCWD, at("map"), &mine);
	CHECK(fd >= 0);
	close(fd);

	CHECK_INT(safefile__open_in(AT_FDCWD, at("map"), &small), -EFBIG);
	CHECK(safefile__fopen_in(AT_FDCWD, at("fifo.map"), &any) == NULL &&
	      errno == EINVAL);
	CHECK_INT(safefile__open_in(AT_FDCWD, at("none"), &any), -ENOENT);
}

static void test_write(void)
{
	int dfd = safefile__outdir(dir, false), fd;
	FILE *f;

	CHECK(dfd >= 0);
	put("victim", "root's\n");
	chmod(at("victim"), 0600);

	/* a planted symlink: refused, its target untouched */
	symlink(at("victim"), at("out.svg"));
	CHECK_INT(safefile__create_at(dfd, "out.svg"), -ELOOP);
	CHECK_STR(get("victim"), "root's\n");

	/* a hard link to someone's file: refused before any truncation */
	link(at("victim"), at("hard.svg"));
	CHECK_INT(safefile__create_at(dfd, "hard.svg"), -EMLINK);
	CHECK_STR(get("victim"), "root's\n");

	mkfifo(at("fifo.svg"), 0666);
	CHECK_INT(safefile__create_at(dfd, "fifo.svg"), -EINVAL);

	/* another user's file in a directory that is not theirs */
	put("theirs.svg", "x\n");
	chown(at("theirs.svg"), OTHER_UID, OTHER_UID);
	CHECK_INT(safefile__create_at(dfd, "theirs.svg"), -EPERM);
	CHECK_STR(get("theirs.svg"), "x\n");

	CHECK_INT(safefile__create_at(dfd, "../x.svg"), -EXDEV);
	CHECK_INT(safefile__create_at(dfd, ".."), -EXDEV);
	CHECK_INT(safefile__create_at(dfd, ""), -EXDEV);
	CHECK(!safefile__name_ok("/etc/passwd") &&
	      safefile__name_ok("slice-0001.svg"));

	/* ours: created, and an old one truncated */
	put("old.svg", "a long old content\n");
	f = safefile__fcreate_at(dfd, "old.svg");
	CHECK(f != NULL);
	if (f) {
		fputs("new\n", f);
		fclose(f);
	}
	CHECK_STR(get("old.svg"), "new\n");
	fd = safefile__create_at(dfd, "fresh.svg");
	CHECK(fd >= 0);
	close(fd);
	f = safefile__fcreate(at("byname.svg"));
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK(safefile__fcreate(at("out.svg")) == NULL && errno == ELOOP);
	f = safefile__fcreate("/dev/null"); /* an operator's usual sink */
	CHECK(f != NULL);
	if (f)
		fclose(f);
	close(dfd);
}

static void test_dirs(void)
{
	char sub[300];
	int fd;

	/* a directory named by another user's link is not opened */
	symlink("/etc", at("linkdir"));
	lchown(at("linkdir"), OTHER_UID, OTHER_UID);
	CHECK_INT(safefile__outdir(at("linkdir"), true), -ELOOP);
	CHECK_INT(safefile__outdir(at("linkdir/"), false), -ELOOP);
	/* ours (or root's) is followed */
	symlink(dir, at("ourlink"));
	fd = safefile__outdir(at("ourlink"), false);
	CHECK(fd >= 0);
	close(fd);
	/* but not where another user could swap it (0777, not sticky) */
	mkdir(at("open"), 0777);
	chmod(at("open"), 0777);
	symlink(dir, at("open/link"));
	CHECK_INT(safefile__outdir(at("open/link"), false), -ELOOP);
	CHECK_INT(safefile__outdir(at("victim"), false), -ENOTDIR);
	snprintf(sub, sizeof(sub), "%s/made", dir);
	fd = safefile__outdir(sub, true);
	CHECK(fd >= 0);
	close(fd);
	fd = safefile__outdir(sub, true); /* already there: fine */
	CHECK(fd >= 0);

	/* a user's own directory: their plain file may be replaced */
	fchown(fd, OTHER_UID, OTHER_UID);
	put("made/users.svg", "u\n");
	chown(at("made/users.svg"), OTHER_UID, OTHER_UID);
	CHECK(safefile__create_at(fd, "users.svg") >= 0);
	CHECK_STR(get("made/users.svg"), "");
	close(fd);
	CHECK_STR(safefile__strerror(-ELOOP), "a symbolic link, not followed");
	CHECK_STR(safefile__strerror(-ENOENT), "No such file or directory");
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	test_read();
	test_write();
	test_dirs();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return check_report();
}
