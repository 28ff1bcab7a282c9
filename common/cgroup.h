/*
 * cgroup: the container a process runs in, read from its cgroup path as
 * /proc/PID/cgroup shows it, and the folded frame that names it.
 *
 * Container runtimes name a container's cgroup after its id, 64 lowercase
 * hex digits (the rule the OpenTelemetry eBPF profiler's container
 * metadata and the OpenTelemetry SDKs' container detector apply to the
 * same paths):
 *
 *   Docker, systemd driver     /system.slice/docker-ID.scope
 *   Docker, cgroupfs driver    /docker/ID
 *   Kubernetes, cgroupfs       /kubepods/burstable/podUID/ID
 *   Kubernetes, systemd        /kubepods.slice/.../cri-containerd-ID.scope,
 *                              .../crio-ID.scope, .../docker-ID.scope
 *   Podman                     /machine.slice/libpod-ID.scope
 *
 * and a process may sit in a cgroup below it (docker-ID.scope/init). So
 * the id is the innermost path component that is ID, or ID with one of
 * those prefixes and an optional ".scope". Exactly 64 hex digits: a
 * looser rule (any run of hex after a '-') takes "session-3.scope" of
 * every login for a container "3".
 *
 * The parsers are pure (text and length, never past the end); the path
 * is the target's to choose (a process in a cgroup it may create), so
 * what leaves here is made safe (common/safename.h).
 */
#ifndef MIXPROF_COMMON_CGROUP_H
#define MIXPROF_COMMON_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>

#define CGROUP_ID_LEN 64
/* "[container ID]": the folded frame under the process frame */
#define CGROUP_FRAME_PREFIX "[container "
#define CGROUP_FRAME_LEN (sizeof(CGROUP_FRAME_PREFIX) - 1 + CGROUP_ID_LEN + 1)

/*
 * The cgroup path in the text of /proc/PID/cgroup: the cgroup v2 line's
 * ("0::PATH"), else the first line's of a v1 hierarchy ("N:ctrl:PATH").
 * *path points into text (*plen bytes, no newline). 0, or -ENOENT when
 * no line has a path.
 */
int cgroup__path(const char *text, size_t len, const char **path, size_t *plen);

/*
 * The container id the path (len bytes) names into id (CGROUP_ID_LEN + 1
 * bytes, NUL-terminated): true, or false when it names none.
 */
bool cgroup__container_id(const char *path, size_t len, char *id);

/*
 * Read /proc/PID/cgroup (as procfs.h reads a target's files): its
 * container id into id ("" when none) and, when path is not NULL, its
 * cgroup path made safe into a malloc'd *path (the caller frees; NULL
 * when there is no container). 0, -ESRCH (gone) or -errno.
 */
int cgroup__read_pid(uint32_t pid, char *id, char **path);

/* Are s's n bytes lowercase hex digits, as a container id's are? */
static inline bool cgroup__all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * Is s (n bytes) a container frame, "[container " ID "]"? Then its id
 * is s + sizeof(CGROUP_FRAME_PREFIX) - 1, CGROUP_ID_LEN bytes. Inline:
 * folded text's one reader (stacks/fold.c) links no /proc reader.
 */
static inline bool cgroup__is_frame(const char *s, size_t n)
{
	size_t pl = sizeof(CGROUP_FRAME_PREFIX) - 1;

	return n == CGROUP_FRAME_LEN && !memcmp(s, CGROUP_FRAME_PREFIX, pl) &&
	       s[n - 1] == ']' && cgroup__all_hex(s + pl, CGROUP_ID_LEN);
}

#endif
