/*
 * alloc.h: what the allocation probes (alloc.bpf.h) and user space
 * share. An --alloc key's kernel stack is one frame: the allocated
 * class's Klass* under a mark no pc can have (a non-canonical address),
 * which user space names from the JVM (jstacks__klass_name) as the leaf.
 * The hooks the probes sit on, and their arguments, are HotSpot's:
 * jvm/hsprobes.h, jvm/jalloc.bpf.h.
 */
#ifndef MIXPROF_ALLOC_H
#define MIXPROF_ALLOC_H

#define ALLOC_KLASS_BASE 0xa11c000000000000ULL
#define ALLOC_KLASS(k) (ALLOC_KLASS_BASE | (k))
#define ALLOC_IS_KLASS(ip) (((ip)&0xffff000000000000ULL) == ALLOC_KLASS_BASE)
#define ALLOC_KLASS_OF(ip) ((ip)&0x0000ffffffffffffULL)

#endif
