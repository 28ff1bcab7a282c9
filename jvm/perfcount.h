/*
 * perfcount: where a HotSpot JVM keeps one of its PerfData counters
 * (jvmstat's, as jstat reads them), found in its own memory through
 * VMStructs: PerfMemory::_prologue -> PerfDataPrologue (entry_offset,
 * num_entries, used) -> the PerfDataEntry list, each a name and a data
 * offset (HotSpot's perfMemory.hpp). The BPF walk reads
 * java.cls.unloadedClasses at sample time: while it does not change, no
 * class was unloaded and an interpreted frame's names can be kept from
 * one sample to the next (sampler/sampler.bpf.c, names_memo). A JVM run
 * with -XX:-UsePerfData keeps its counters elsewhere: -ENOENT, names
 * read at each sample as before.
 */
#ifndef MIXPROF_PERFCOUNT_H
#define MIXPROF_PERFCOUNT_H

#include <stdint.h>
#include "hotspot.h"
#include "vmstructs.h"

/*
 * The address (in the target) of the scalar long counter named name in
 * *addr: 0, or -ENOENT (no PerfData in the JVM's memory, no such
 * counter, or a table that does not read as HotSpot lays it out: the
 * target's memory is not trusted: every entry is bounded by the region).
 */
int perfcount__find(const struct vmstructs *vs, const struct hotspot_mem *m,
		    const char *name, uint64_t *addr);

#endif
