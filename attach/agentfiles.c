/*
 * agentfiles: the agent's files in a JVM's /tmp, judged as the agent
 * judges them (agentfiles.h; agent/safefile.c, agent/control.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "agentfiles.h"
#include "procinfo.h"

/* "uid 1001 (bob)", or "uid 1001" for a uid with no name here. */
static void uid_text(uid_t uid, char *out, size_t len)
{
	struct passwd pw, *res = NULL;
	char buf[1024];

	if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &res) && res)
		snprintf(out, len, "uid %u (%s)", (unsigned)uid, res->pw_name);
	else
		snprintf(out, len, "uid %u", (unsigned)uid);
}

bool agentfile__refused(enum agentfile kind, const struct stat *st,
			uid_t jvm_uid, char *why, size_t whylen)
{
	char owner[300], jvm[300];

	if (S_ISLNK(st->st_mode)) {
		snprintf(why, whylen, "is a symbolic link");
		return true;
	}
	if (st->st_uid != jvm_uid) {
		uid_text(st->st_uid, owner, sizeof(owner));
		uid_text(jvm_uid, jvm, sizeof(jvm));
		snprintf(why, whylen, "belongs to %s, not to the JVM's user %s",
			 owner, jvm);
		return true;
	}
	if (kind == AGENTFILE_MAP && !S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "is not a regular file");
		return true;
	}
	if (kind == AGENTFILE_SOCKET && !S_ISSOCK(st->st_mode)) {
		snprintf(why, whylen, "is not a socket");
		return true;
	}
	if (kind == AGENTFILE_MAP && st->st_nlink > 1) {
		snprintf(why, whylen, "has %lu hard links",
			 (unsigned long)st->st_nlink);
		return true;
	}
	return false;
}

int agentfile__check(pid_t pid, enum agentfile kind, bool *present, char *msg,
		     size_t msglen)
{
	struct procfs_status ps;
	char name[64], why[700];
	struct stat st;
	int ret, tmpfd;

	*present = false;
	ret = procfs__read_status(pid, &ps);
	if (ret)
		return ret;
	snprintf(name, sizeof(name),
		 kind == AGENTFILE_MAP ? "perf-%d.map" : ".mixprof-jmap-%d",
		 (int)ps.nspid);
	/* its /tmp resolved inside its root: a link there is not ours */
	tmpfd = procinfo__open_tmp(pid);
	if (tmpfd < 0)
		return tmpfd;
	ret = fstatat(tmpfd, name, &st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
	close(tmpfd);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	*present = true;
	if (!agentfile__refused(kind, &st, ps.euid, why, sizeof(why)))
		return 0;
	snprintf(msg, msglen, "/tmp/%s %s", name, why);
	return 1;
}
