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
#include "common/procfs.h"

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

/* Every process's (pid, ppid), malloc'ed into *out; count or -errno. */
static long read_links(struct proc_link **out)
{
	struct proc_link *l = NULL, *nl;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc");
	struct procfs_stat st;
	uint32_t pid;

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = strtoul(d->d_name, NULL, 10);
		if (procfs__read_stat(pid, &st))
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
		l[n].pid = pid;
		l[n++].ppid = st.ppid;
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
	char comm[PROCFS_COMM_SHOW], jcomm[PROCFS_COMM_SHOW];

	fprintf(stderr,
		"mixprof: pid %u (%s) is not a JVM; its %s %u (%s) is: "
		"mixprof -p %u\n",
		pid, procfs__comm_show(pid, comm),
		child ? "child" : "descendant", jvm,
		procfs__comm_show(jvm, jcomm), jvm);
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

	if (procinfo__is_jvm(pid) != 0)
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
		if (!procinfo__jvm(desc[i]))
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
