/*
 * attach_creds: borrow a JVM's effective uid/gid for the length of an
 * attach. HotSpot answers only peers with its own euid and egid (or root);
 * files made for it (the trigger file, a copy of the agent) must be its
 * own, and only its own user can tell whether it can read the agent.
 *
 * seteuid()/setegid() apply to every thread of the process (glibc), so a
 * multi-threaded caller must not do file work in other threads meanwhile.
 */
#ifndef MIXPROF_ATTACH_CREDS_H
#define MIXPROF_ATTACH_CREDS_H

#include <stdbool.h>
#include <sys/types.h>

struct attach_creds {
	uid_t euid; /* ours, to restore */
	gid_t egid;
	gid_t *groups; /* our supplementary groups, to restore */
	int ngroups;
	bool switched;
};

/*
 * Take on euid/egid (and no supplementary groups but egid). Returns 0
 * (nothing to do when they are ours already), -EPERM when they differ and
 * we are not root, -errno when a set*id call fails (nothing changed then).
 */
int attach_creds__become(struct attach_creds *saved, uid_t euid, gid_t egid);

/* Go back to the saved credentials; 0 or -errno. Safe if not switched. */
int attach_creds__restore(struct attach_creds *saved);

#endif
