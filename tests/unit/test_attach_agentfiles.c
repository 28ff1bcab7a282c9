/*
 * agentfiles: which files at the agent's paths the agent refuses, and the
 * reason mixprof prints, from stat fixtures (no file system).
 */
#include <string.h>
#include <sys/stat.h>
#include "attach/agentfiles.h"
#include "check.h"

static struct stat st_of(mode_t mode, uid_t uid, nlink_t nlink)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = mode;
	st.st_uid = uid;
	st.st_nlink = nlink;
	return st;
}

static void test_map(void)
{
	struct stat st;
	char why[256];

	st = st_of(S_IFREG | 0644, 1000, 1);
	CHECK(!agentfile__refused(AGENTFILE_MAP, &st, 1000, why, sizeof(why)));
	/* another user's: the owner is named first, whatever its type */
	st = st_of(S_IFSOCK | 0644, 4242, 1);
	CHECK(agentfile__refused(AGENTFILE_MAP, &st, 1000, why, sizeof(why)));
	CHECK(!strncmp(why, "belongs to uid 4242", 19));
	CHECK(strstr(why, "not to the JVM's user uid 1000") != NULL);
	st = st_of(S_IFLNK | 0777, 1000, 1);
	CHECK(agentfile__refused(AGENTFILE_MAP, &st, 1000, why, sizeof(why)));
	CHECK_STR(why, "is a symbolic link");
	st = st_of(S_IFIFO | 0644, 1000, 1);
	CHECK(agentfile__refused(AGENTFILE_MAP, &st, 1000, why, sizeof(why)));
	CHECK_STR(why, "is not a regular file");
	st = st_of(S_IFREG | 0644, 1000, 2);
	CHECK(agentfile__refused(AGENTFILE_MAP, &st, 1000, why, sizeof(why)));
	CHECK_STR(why, "has 2 hard links");
}

static void test_socket(void)
{
	struct stat st;
	char why[256];

	st = st_of(S_IFSOCK | 0600, 0, 1);
	CHECK(!agentfile__refused(AGENTFILE_SOCKET, &st, 0, why, sizeof(why)));
	st = st_of(S_IFREG | 0600, 0, 1);
	CHECK(agentfile__refused(AGENTFILE_SOCKET, &st, 0, why, sizeof(why)));
	CHECK_STR(why, "is not a socket");
	st = st_of(S_IFSOCK | 0600, 0, 1);
	CHECK(agentfile__refused(AGENTFILE_SOCKET, &st, 77, why, sizeof(why)));
	CHECK(!strncmp(why, "belongs to uid 0", 16));
}

int main(void)
{
	test_map();
	test_socket();
	return check_report();
}
