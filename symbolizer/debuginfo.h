/*
 * debuginfo: find and add the separate debug file of a stripped ELF.
 *
 * Tries, in order, the first that exists, is ELF, has a .symtab and (when
 * both carry one) the same build-id:
 *   <root><debug_root>/.build-id/xx/yyyy.debug      (by build-id)
 *   <root><dir>/<debuglink>                          (.gnu_debuglink)
 *   <root><dir>/.debug/<debuglink>
 *   <root><debug_root><dir>/<debuglink>
 * then the same with root "" (the profiler's own filesystem: debug files
 * are often installed on the host, not in the container). root is the
 * target's "/proc/PID/root" (or "" for our own namespace), path the file's
 * path inside it, debug_root e.g. "/usr/lib/debug". The .gnu_debuglink
 * CRC is not checked; the build-id check covers files that have one.
 *
 * Returns 0 when a debug file was added, -ENOENT when none was found.
 */
#ifndef MIXPROF_DEBUGINFO_H
#define MIXPROF_DEBUGINFO_H

#include "elf_syms.h"

/*
 * The same search for any use (the unwind loader wants .debug_frame): w
 * names the binary's build-id (may be NULL) and debuglink (may be NULL);
 * each candidate found is opened and handed to take(fd, arg), which
 * returns 0 to end the search (dup the fd to keep it: it is closed
 * after) or -errno to go on. Returns 0 when take said 0, else -ENOENT.
 */
struct debuginfo_want {
	const uint8_t *id;
	size_t id_len;
	const char *link;
	int (*take)(int fd, void *arg);
	void *arg;
};

int debuginfo__find(const struct debuginfo_want *w, const char *root,
		    const char *path, const char *debug_root);

int debuginfo__add(struct elfsyms *e, const char *root, const char *path,
		   const char *debug_root);

#endif
