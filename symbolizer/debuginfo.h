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

int debuginfo__add(struct elfsyms *e, const char *root, const char *path,
		   const char *debug_root);

#endif
