/*
 * jvmevents: HotSpot's USDT probes (and the uprobe on its uncommon trap
 * entry) of one JVM attached, their hits read from the ring buffer.
 *
 * The probes are uprobes through the uprobe PMU (libbpf's USDT support: no
 * tracefs); those of HotSpot 17 and 25 have no semaphore, and one that had
 * would get it counted up by the kernel (libbpf passes ref_ctr_offset).
 * Attaching works before libjvm.so is mapped (launch mode): the kernel
 * installs the breakpoints when the JVM maps it.
 */
#ifndef MIXPROF_JVMEVENTS_H
#define MIXPROF_JVMEVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "events/events_abi.h"
#include "jvm/jevcfg.h"

struct jvmevents;

/* Called for each event read, in the order they were written. */
typedef void (*jvmevents_fn)(void *ctx, const struct jvm_event *e);

/*
 * Load events.bpf.o and attach its programs to the probes of libjvm.so at
 * lib (a path this process opens: /proc/PID/root/...) for process pid.
 * A probe this libjvm lacks is left out (jvmevents__attached counts the
 * rest). NULL and errno, with the failing step and input named in err.
 */
struct jvmevents *jvmevents__open(int pid, const char *lib, char *err,
				  size_t errlen);
/* How many probes are attached, and their names, comma-separated. */
int jvmevents__attached(const struct jvmevents *j, char *buf, size_t cap);
/* The JVM's offsets the programs read by (jvm/jevcfg.h), once known. */
void jvmevents__set_offsets(struct jvmevents *j, const struct jev_cfg *c);
/* fn on every event waiting: how many, or a negative errno. */
int jvmevents__poll(struct jvmevents *j, jvmevents_fn fn, void *ctx);
/* Events the ring buffer had no room for. */
uint64_t jvmevents__lost(const struct jvmevents *j);
/* Detaches the probes first; NULL is fine. */
void jvmevents__free(struct jvmevents *j);

#endif
