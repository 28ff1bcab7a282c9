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
static int try_file(const struct debuginfo_want *w, const char *path,
		    bool follow)
{
	const struct safe_in in = {
	    .uid = SAFE_ANY_UID, .max_size = DEBUG_MAX, .follow = follow};
	int fd = safefile__open_in(AT_FDCWD, path, &in);
	int err;

	if (fd < 0)
		return -ENOENT;
	err = w->take(fd, w->arg);
	close(fd);
	return err;
}

static int by_build_id(const struct debuginfo_want *w, const char *root,
		       const char *debug_root)
{
	char p[PATH_MAX], hex[129];
	int n;

	if (!w->id || w->id_len < 2 || w->id_len > 64)
		return -ENOENT;
	for (size_t i = 0; i < w->id_len; i++)
		sprintf(hex + 2 * i, "%02x", w->id[i]);
	n = snprintf(p, sizeof(p), "%s%s/.build-id/%.2s/%s.debug", root,
		     debug_root, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(p))
		return -ENOENT;
	return try_file(w, p, true);
}

static int by_debuglink(const struct debuginfo_want *w, const char *root,
			const char *path, const char *debug_root)
{
	const char *link = w->link, *slash;
	char p[PATH_MAX];
	int dlen;

	if (!link || !path || !(slash = strrchr(path, '/')) ||
	    strchr(link, '/'))
		return -ENOENT;
	dlen = slash - path;
	if (snprintf(p, sizeof(p), "%s%.*s/%s", root, dlen, path, link) <
		(int)sizeof(p) &&
	    !try_file(w, p, false))
		return 0;
	if (snprintf(p, sizeof(p), "%s%.*s/.debug/%s", root, dlen, path, link) <
		(int)sizeof(p) &&
	    !try_file(w, p, false))
		return 0;
	if (snprintf(p, sizeof(p), "%s%s%.*s/%s", root, debug_root, dlen, path,
		     link) < (int)sizeof(p) &&
	    !try_file(w, p, false))
		return 0;
	return -ENOENT;
}

int debuginfo__find(const struct debuginfo_want *w, const char *root,
		    const char *path, const char *debug_root)
{
	const char *roots[] = {root ? root : "", ""};
	int nroots = root && *root ? 2 : 1;

	for (int i = 0; i < nroots; i++) {
		if (!by_build_id(w, roots[i], debug_root) ||
		    !by_debuglink(w, roots[i], path, debug_root))
			return 0;
	}
	return -ENOENT;
}

static int take_symtab(int fd, void *arg)
{
	return elfsyms__add_debug_fd(arg, fd);
}

int debuginfo__add(struct elfsyms *e, const char *root, const char *path,
		   const char *debug_root)
{
	struct debuginfo_want w = {
	    .link = elfsyms__debuglink(e), .take = take_symtab, .arg = e};

	w.id = elfsyms__build_id(e, &w.id_len);
	return debuginfo__find(&w, root, path, debug_root);
}
