/*
 * itails: where the template interpreter returns past a frame it removed
 * (jvm/blobkinds.h's interpreter return: "leave", then "pop REG", "mov
 * rsp, SP", then "jmp REG"), found once per JVM in its interpreter's code
 * (which HotSpot generates at start-up and never changes). Every return
 * bytecode's template, early return, exception unwinding and the native
 * entries end this way.
 *
 * Why the BPF walk wants them (jvm/hotspot.bpf.h, interp_tail): a leaf
 * caught there has no frame any more, rbp is already its caller's; read
 * as an interpreted frame it broke the walk or named its caller as the
 * leaf (21 of 19,985 samples of samples/Visitors.java on JDK 25, the
 * workload of tests/integration/unwind_visitors.sh). Found here, not by decoding code at sample time: the scan
 * knows where the instructions start, a pc alone does not.
 */
#ifndef MIXPROF_ITAILS_H
#define MIXPROF_ITAILS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "hotspot.h"
#include "sampler/sampler_abi.h"

/* the most code scanned: an interpreter is ~100 KB (JDK 17 to 25) */
#define ITAILS_MAX_CODE (1u << 20)

/*
 * The returns past a frame in the n bytes of interpreter code at code
 * (its first ITAILS_MAX_CODE), at most max of them in out, sorted (their
 * at: offsets in code). Their count, or -E2BIG: more than max.
 */
int itails__scan(const uint8_t *code, size_t n, struct interp_tail *out,
		 int max);

/*
 * The same (of the first ITAILS_MAX_CODE bytes), for the interpreter at
 * [start, end) of the target m, read a window at a time: the count, or
 * -errno (-EFAULT: unreadable, -E2BIG).
 */
int itails__read(const struct hotspot_mem *m, uint64_t start, uint64_t end,
		 struct interp_tail *out, int max);

#endif
