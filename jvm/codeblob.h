/*
 * codeblob: the CodeBlob holding a pc of a HotSpot JVM's code cache and
 * its name ("StubRoutines (1)", "I2C/C2I adapters", "nmethod"...), found
 * from outside through the code heap's segment map (heap.cpp: a byte per
 * segment, 0 at a block's first, n: the block starts at least n
 * segments back, 0xff: free), as the BPF unwinder finds it. For the stub
 * frames the walk does not list (no frame size: the call stub), which a
 * JVM without our agent's map would leave unnamed.
 * A JVM's memory is untrusted: every read is checked, hops are bounded.
 */
#ifndef MIXPROF_CODEBLOB_H
#define MIXPROF_CODEBLOB_H

#include <stddef.h>
#include <stdint.h>
#include "hotspot.h"

/* segment map hops back to a block's start: the BPF walk's
 * UNWIND_SEGMAP_HOPS (sampler_abi.h, asserted equal in jvm/jvms.c) */
#define CODEBLOB_HOPS 32

/*
 * The name of the CodeBlob at pc into buf (NUL-terminated, printable
 * characters only): its length; -ENOENT (not in a code heap, free, or
 * past the blob's size), -E2BIG (more hops), -EFAULT, -EINVAL (no name).
 */
/*
 * The address of the CodeBlob holding pc (an nmethod's header, for
 * compiled code) into *blob: 0, or -ENOENT, -E2BIG, -EFAULT as below,
 * -EINVAL when the layout has no code heaps.
 */
int codeblob__start(const struct hotspot_mem *m, const struct hotspot_unwind *u,
		    uint64_t pc, uint64_t *blob);
int codeblob__name(const struct hotspot_mem *m, const struct hotspot_unwind *u,
		   uint64_t pc, char *buf, size_t cap);

#endif
