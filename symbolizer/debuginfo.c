// SPDX-License-Identifier: GPL-2.0
/* Separate debug files: the build-id tree and .gnu_debuglink places. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common/safefile.h"
#include "debuginfo.h"

#define DEBUG_MAX (4ULL << 30) /* no debug file is bigger */

/*
 * A debug file's name comes from the binary (.gnu_debuglink), whose owner
 * may be any user: it is opened as what others control (safefile.h), so a
 * FIFO or a device cannot hang us. Links are followed only in the
 * build-id tree, which distributions fill with links.
 */
static int try_file(struct elfsyms *e, const char *path, bool follow)
{
	const struct safe_in in = {
	    .uid = SAFE_ANY_UID, .max_size = DEBUG_MAX, .follow = follow};
	int fd = safe_open_in(AT_FDCWD, path, &in);
	int err;

	if (fd < 0)
		return -ENOENT;
	err = elfsyms__add_debug_fd(e, fd);
	close(fd);
	return err;
}

static int by_build_id(struct elfsyms *e, const char *root,
		       const char *debug_root)
{
	char p[PATH_MAX], hex[129];
	const uint8_t *id;
	size_t len;
	int n;

	id = elfsyms__build_id(e, &len);
	if (!id || len < 2)
		return -ENOENT;
	for (size_t i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	n = snprintf(p, sizeof(p), "%s%s/.build-id/%.2s/%s.debug", root,
		     debug_root, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(p))
		return -ENOENT;
	return try_file(e, p, true);
}

static int by_debuglink(struct elfsyms *e, const char *root, const char *path,
			const char *debug_root)
{
	const char *link = elfsyms__debuglink(e), *slash;
	char p[PATH_MAX];
	int dlen;

	if (!link || !path || !(slash = strrchr(path, '/')) ||
	    strchr(link, '/'))
		return -ENOENT;
	dlen = slash - path;
	if (snprintf(p, sizeof(p), "%s%.*s/%s", root, dlen, path, link) <
		(int)sizeof(p) &&
	    !try_file(e, p, false))
		return 0;
	if (snprintf(p, sizeof(p), "%s%.*s/.debug/%s", root, dlen, path, link) <
		(int)sizeof(p) &&
	    !try_file(e, p, false))
		return 0;
	if (snprintf(p, sizeof(p), "%s%s%.*s/%s", root, debug_root, dlen, path,
		     link) < (int)sizeof(p) &&
	    !try_file(e, p, false))
		return 0;
	return -ENOENT;
}

int debuginfo__add(struct elfsyms *e, const char *root, const char *path,
		   const char *debug_root)
{
	const char *roots[] = {root ? root : "", ""};
	int nroots = root && *root ? 2 : 1;

	for (int i = 0; i < nroots; i++) {
		if (!by_build_id(e, roots[i], debug_root) ||
		    !by_debuglink(e, roots[i], path, debug_root))
			return 0;
	}
	return -ENOENT;
}
