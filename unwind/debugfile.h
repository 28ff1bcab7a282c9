/*
 * debugfile: the separate debug file that holds a mapped ELF's
 * .debug_frame (code built without asynchronous unwind tables, its
 * debug sections split out with objcopy --only-keep-debug), found as
 * the symbolizer finds debug files for symbols (symbolizer/debuginfo.h):
 * by build-id under /usr/lib/debug, then by .gnu_debuglink next to the
 * file, in the process's root and then in ours.
 */
#ifndef MIXPROF_UNWIND_DEBUGFILE_H
#define MIXPROF_UNWIND_DEBUGFILE_H

#include <libelf.h>
#include <stdbool.h>

/*
 * The debug file of elf, mapped by pid at path (its path inside the
 * process's root), when elf has no .debug_frame of its own and the
 * debug file has one (and the same build-id, when both carry one): an
 * Elf, its fd in *fd (the caller ends the Elf, then closes the fd). NULL
 * when there is none.
 */
Elf *debugfile__open(Elf *elf, int pid, const char *path, int *fd);

/* Does elf have a .debug_frame section with contents? */
bool debugfile__has_frame(Elf *elf);

#endif
