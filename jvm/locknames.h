/*
 * locknames: --lock's JVM and frames. A --lock run profiles one JVM:
 * this module reads, through the JVM jvms.h opened, where the probes
 * find a lock's class and owner (jvm/jlocks.h: struct lock_cfg, for
 * sampler__attach_lock), and names the two frames a wait's key carries
 * (sampler/lock.h): the lock's class, `[lock] pkg/Class` (its internal
 * name, as the and async-profiler's lock profiles write it), and
 * the owner when the wait began, `[owner] NAME [tid]` (NAME the whole
 * java.lang.Thread name). Nothing here prints.
 */
#ifndef MIXPROF_LOCKNAMES_H
#define MIXPROF_LOCKNAMES_H

#include <stdbool.h>
#include <stdint.h>

struct jvms;
struct lock_cfg;
struct locknames;

/* NULL and errno (ENOMEM). in (not owned) has the JVMs' tables. */
struct locknames *locknames__new(struct jvms *jv);
void locknames__free(struct locknames *ln);

/*
 * Read JVM pid's lock view: 0; -EAGAIN (not a JVM whose tables are read
 * yet: ask again); -errno of jlocks__open (then *what says which step).
 */
int locknames__open(struct locknames *ln, uint32_t pid, const char **what);
/* The probes' offsets (after a successful open). */
const struct lock_cfg *locknames__cfg(const struct locknames *ln);
/*
 * AbstractOwnableSynchronizer's Klass* (j.u.c. locks), looked for again
 * when it was not loaded at the open: it, or 0.
 */
uint64_t locknames__aos(struct locknames *ln);

/* Is ip one of --lock's frames (lock.h)? */
bool locknames__is_frame(uint64_t ip);
/*
 * The text of --lock frame ip of JVM pid: "[lock] java/lang/Object",
 * "[owner] worker-1 [1234]"; not made safe (fold.c does). Lives until
 * locknames__free.
 */
const char *locknames__frame(struct locknames *ln, uint32_t pid, uint64_t ip);

#endif
