/*
 * jvmkids: name the JVMs below a -p pid that is not one (see jvmkids.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jvmkids.h"
#include "attach/procinfo.h"
#include "targets.h"

/* descendants looked at, JVMs or not (a shell's whole tree) */
#define DESC_MAX 4096

static bool seen(const uint32_t *out, size_t nr, uint32_t pid)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (out[i] == pid)
			return true;
	return false;
}

size_t jvmkids__descendants(const struct proc_link *l, size_t n, uint32_t root,
			    uint32_t *out, size_t max)
{
	size_t nr = 0, gen = 0, i;
	uint32_t parent;

	/* out[gen] is the next parent whose children are looked for */
	for (parent = root;; parent = out[gen++]) {
		for (i = 0; i < n && nr < max; i++)
			if (l[i].ppid == parent && l[i].pid != root &&
			    !seen(out, nr, l[i].pid))
				out[nr++] = l[i].pid;
		if (gen >= nr)
			return nr;
	}
}

/* "pid (comm) S ppid ...": the ppid of one /proc/PID/stat, or -1. */
static long read_ppid(const char *pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* a comm may hold ") " itself */
	if (!p || strlen(p) < 4)
		return -1;
	return strtol(p + 4, NULL, 10);
}

/* Every process's (pid, ppid), malloc'ed into *out; count or -errno. */
static long read_links(struct proc_link **out)
{
	struct proc_link *l = NULL, *nl;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc");
	long ppid;

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		ppid = read_ppid(d->d_name);
		if (ppid < 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			nl = realloc(l, cap * sizeof(*l));
			if (!nl) {
				free(l);
				closedir(dir);
				return -ENOMEM;
			}
			l = nl;
		}
		l[n].pid = strtoul(d->d_name, NULL, 10);
		l[n++].ppid = ppid;
	}
	closedir(dir);
	*out = l;
	return n;
}

/* The parent of pid among the links, or 0. */
static uint32_t parent_of(const struct proc_link *l, size_t n, uint32_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i].pid == pid)
			return l[i].ppid;
	return 0;
}

/* The first JVM shows the way; the others are counted. */
static void hint(uint32_t pid, uint32_t jvm, int nr, bool child)
{
	char comm[16] = "", jcomm[16] = "";

	proc_comm(pid, comm);
	proc_comm(jvm, jcomm);
	fprintf(stderr,
		"mixprof: pid %u (%s) is not a JVM; its %s %u (%s) is: "
		"mixprof -p %u\n",
		pid, comm, child ? "child" : "descendant", jvm, jcomm, jvm);
	if (nr > 1)
		fprintf(stderr,
			"mixprof:   (%d more JVMs below pid %u; processes "
			"that ran before the start are not followed)\n",
			nr - 1, pid);
}

int jvmkids__hint(uint32_t pid)
{
	uint32_t *desc, jvm = 0;
	struct proc_link *l = NULL;
	long n = 0;
	size_t nd, i;
	int nr = 0;

	if (procinfo_is_jvm(pid) != 0)
		return 0; /* a JVM, gone, or unreadable: nothing to hint */
	desc = malloc(DESC_MAX * sizeof(*desc));
	if (desc)
		n = read_links(&l);
	if (n <= 0) {
		free(desc);
		return 0;
	}
	nd = jvmkids__descendants(l, n, pid, desc, DESC_MAX);
	for (i = 0; i < nd; i++) {
		if (!proc_is_jvm(desc[i]))
			continue;
		if (!nr++)
			jvm = desc[i];
	}
	if (nr)
		hint(pid, jvm, nr, parent_of(l, n, jvm) == pid);
	free(desc);
	free(l);
	return nr;
}
