/*
 * probectl: the client side of libjmap.so's probe control socket
 * (agent/control.h, protocol in agent/README.md). mixprof uses it for
 * `-e 'java:CLASS.METHOD'`: connect to the JVM's agent, add the probes,
 * read the counts, close. Closing the connection (or dying: the kernel
 * closes it) makes the agent remove every probe and restore the classes.
 *
 * Stacks come from the USDT probe PROBECTL_USDT_PROVIDER:
 * PROBECTL_USDT_NAME in the agent library (probectl__agent_path), fired
 * for sites of probes added with PROBECTL_STACKS, with arg0 = site id
 * (int) and arg1 = probe id (unsigned short): attach a BPF program with
 * libbpf's bpf_program__attach_usdt(prog, pid, path, "jmap",
 * "method_entry", NULL) before or after adding the probe.
 *
 * Errors: 0 or -errno; requests the agent refused give -EINVAL (bad
 * pattern), -ENOENT (nothing matches) or -EIO with the agent's message in
 * the caller's err buffer. Nothing is printed here.
 */
#ifndef MIXPROF_PROBECTL_H
#define MIXPROF_PROBECTL_H

#include <stddef.h>
#include <stdint.h>

#define PROBECTL_USDT_PROVIDER "jmap"
#define PROBECTL_USDT_NAME "method_entry"

#define PROBECTL_STACKS 1 /* fire the USDT probe at each entry */
#define PROBECTL_WAIT 2 /* keep a probe matching no loaded method yet */

struct probectl;

/*
 * Connect to the agent of host process pid, whose agent option dir= is
 * dir (NULL: /tmp). The socket is found through /proc/PID/root with the
 * JVM's own pid (containers work). Retries for timeout_ms while the socket
 * does not exist yet or refuses (a JVM just launched with the agent).
 * -ENOENT: no agent socket (agent not loaded, probes=off); -EBUSY:
 * another client holds the probes; -EACCES: not root nor the JVM's user.
 */
int probectl__open(int pid, const char *dir, int timeout_ms,
		   struct probectl **out);
void probectl__close(struct probectl *c);

/* Add one probe ("java:" prefix optional). *id and *nsites as replied. */
int probectl__add(struct probectl *c, const char *pattern, unsigned flags,
		  unsigned *id, unsigned *nsites, char *err, size_t errlen);

/* Every probed method so far with its call count since it was probed;
 * fn's non-zero return stops and is returned. name is the JVM's
 * "pkg/Class.method(DESC)". Returns 0 or -errno. */
typedef int (*probectl_count_fn)(void *arg, unsigned site, unsigned probe,
				 uint64_t count, const char *name);
int probectl__counts(struct probectl *c, probectl_count_fn fn, void *arg);

/* Send one raw request line; reply lines (the last "ok..." or "error...")
 * are copied NUL-terminated into out, cut at outlen. 0 when the reply is
 * "ok", -EIO for "error", -errno for a broken connection. */
int probectl__request(struct probectl *c, const char *line, char *out,
		      size_t outlen);

/* Path of the agent library as the host sees it (for attach_usdt):
 * /proc/PID/root/<path in the JVM's mapping of libjmap.so>. 0, -ENOENT. */
int probectl__agent_path(int pid, char *out, size_t outlen);

#endif
