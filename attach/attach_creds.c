/*
 * attach_creds: switch the effective uid/gid to a JVM's and back.
 */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_creds.h"

/* Save our supplementary groups so restore can put them back. */
static int save_groups(struct attach_creds *saved)
{
	int n = getgroups(0, NULL);

	if (n < 0)
		return -errno;
	saved->groups = calloc(n ? n : 1, sizeof(gid_t));
	if (!saved->groups)
		return -ENOMEM;
	saved->ngroups = getgroups(n, saved->groups);
	if (saved->ngroups < 0) {
		free(saved->groups);
		saved->groups = NULL;
		return -errno;
	}
	return 0;
}

int attach_creds__become(struct attach_creds *saved, uid_t euid, gid_t egid)
{
	int err;

	memset(saved, 0, sizeof(*saved));
	saved->euid = geteuid();
	saved->egid = getegid();
	if (saved->euid == euid && saved->egid == egid)
		return 0;
	if (saved->euid != 0)
		return -EPERM;
	err = save_groups(saved);
	if (err)
		return err;
	/* groups and gid first: once euid is not 0 they can't change */
	if (setgroups(1, &egid) || setegid(egid) || seteuid(euid)) {
		err = -errno;
		saved->switched = true;
		attach_creds__restore(saved);
		return err;
	}
	saved->switched = true;
	return 0;
}

int attach_creds__restore(struct attach_creds *saved)
{
	int err = 0;

	if (!saved->switched)
		return 0;
	if (seteuid(saved->euid) || setgroups(saved->ngroups, saved->groups) ||
	    setegid(saved->egid))
		err = -errno;
	free(saved->groups);
	saved->groups = NULL;
	saved->switched = false;
	return err;
}
