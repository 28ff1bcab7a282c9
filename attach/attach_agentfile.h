/*
 * attach_agentfile: the path under which a JVM can load our agent.
 *
 * The load request carries a path that the JVM resolves in its own mount
 * namespace, with its own credentials. When that path is our file and the
 * JVM's user can read it, it is sent as is; otherwise (a container, a
 * private build directory) the library is copied into the JVM's /tmp as
 * mixprof-libjmap-<euid>.so, owned by the JVM's user, and left there so a
 * second attach finds the same path (the JVM then sees the library as
 * already loaded instead of loading a second copy).
 */
#ifndef MIXPROF_ATTACH_AGENTFILE_H
#define MIXPROF_ATTACH_AGENTFILE_H

#include <stddef.h>
#include <sys/stat.h>

struct attach_agentfile {
	const char *path; /* absolute, in our mount namespace */
	int fd; /* open for reading while we are still us */
	struct stat st;
};

/*
 * Open the agent at path (absolute) with our own credentials, so it can be
 * copied later even if the JVM's user could not read it. 0 or -errno.
 */
int attach_agentfile__open(struct attach_agentfile *af, const char *path);

/*
 * With the JVM's credentials in effect: write to out the path to send in
 * the load request. rootfd is the JVM's root directory, tmpfd its /tmp
 * (both O_PATH). Returns 0, -ENAMETOOLONG, or -errno from the copy.
 */
int attach_agentfile__place(struct attach_agentfile *af, int rootfd, int tmpfd,
			    char *out, size_t outlen);

/* Close the library; accepts a never-opened (zeroed, fd -1) struct. */
void attach_agentfile__close(struct attach_agentfile *af);

#endif
