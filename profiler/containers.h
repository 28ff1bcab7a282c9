/*
 * containers: --per-container's table of the containers a run has met,
 * each id once with the cgroup path it was first seen under
 * (common/cgroup.h reads them). The ids handed out stay valid, at the
 * same address, until containers__free: pid_info keeps the pointer, and
 * the pprof writer asks for the path of an id it meets in a line.
 */
#ifndef MIXPROF_CONTAINERS_H
#define MIXPROF_CONTAINERS_H

#include <stdint.h>

struct containers;

struct containers *containers__new(void); /* NULL and errno */
void containers__free(struct containers *c);

/*
 * The container id of process pid (NUL-terminated, CGROUP_ID_LEN hex
 * digits), or NULL when it is in none, is gone, or its cgroup cannot be
 * read (nothing said: a host-wide run meets processes as they exit).
 */
const char *containers__of_pid(struct containers *c, uint32_t pid);

/* The cgroup path (made safe) id was first seen under, or NULL. */
const char *containers__path(const struct containers *c, const char *id);

#endif
