/*
 * alloc.h: what the allocation probes (alloc.bpf.h) and user space
 * share. An --alloc key's kernel stack is one frame: the allocated
 * class's Klass* under a mark no pc can have (a non-canonical address),
 * which user space names from the JVM (jstacks__klass_name) as the leaf.
 */
#ifndef MIXPROF_ALLOC_H
#define MIXPROF_ALLOC_H

#define ALLOC_KLASS_BASE 0xa11c000000000000ULL
#define ALLOC_KLASS(k) (ALLOC_KLASS_BASE | (k))
#define ALLOC_IS_KLASS(ip) (((ip)&0xffff000000000000ULL) == ALLOC_KLASS_BASE)
#define ALLOC_KLASS_OF(ip) ((ip)&0x0000ffffffffffffULL)

/*
 * libjvm.so's allocation tracing hooks (AllocTracer, JDK 11 to 25), by
 * their .symtab names: HotSpot calls the first when an allocation takes
 * a new TLAB (Klass*, obj, tlab bytes, object bytes, thread) and the
 * second for an allocation outside any TLAB (Klass*, obj, bytes, thread),
 * whether or not JFR records them.
 */
#define ALLOC_SYM_NEW_TLAB                                                     \
	"_ZN11AllocTracer27send_allocation_in_new_"                            \
	"tlabEP5KlassPP12HeapWordImplmmP10JavaThread"
#define ALLOC_SYM_OUTSIDE                                                      \
	"_ZN11AllocTracer28send_allocation_outside_"                           \
	"tlabEP5KlassPP12HeapWordImplmP10JavaThread"

#endif
