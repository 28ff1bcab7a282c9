// SPDX-License-Identifier: GPL-2.0
/*
 * rowsoracle: rowgen's rows of each ELF given (FILE, or FILE:DEBUGFILE
 * for a separate debug file) made twice, by its own CFA reader and by
 * libdw's CFI interface (the oracle), compared row by row, with the
 * CPU time each took (-r N: the least of N runs each, taken in turns).
 * Exit status 1 if any file's rows differ.
 * tests/integration/rows_oracle.sh runs it; bench/rows.sh prints its
 * times.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rowgen_libdw.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU: the host is busy */
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct made {
	struct unwind_row *rows;
	size_t n;
	int err;
	double secs;
	struct rowgen_stats st;
};

static int runs = 1;

/* m's rows (its last run's) and the least time of the runs. */
static void make(Elf *elf, Elf *debug, const struct rowgen_cfi *via,
		 struct made *m)
{
	double t = now(), secs;

	free(m->rows);
	m->rows = NULL;
	m->err = via ? rowgen__elf_via(elf, debug, via, &m->rows, &m->n, &m->st)
		     : rowgen__elf_debug(elf, debug, &m->rows, &m->n, &m->st);
	secs = now() - t;
	if (!m->secs || secs < m->secs)
		m->secs = secs;
}

static void print_row(const char *who, const struct unwind_row *r)
{
	printf("  %s: pc %#x kind %u cfa_off %d rbp_slot %d\n", who, r->pc,
	       r->kind, r->cfa_off, r->rbp_slot);
}

/* 0 when own and oracle agree; the first difference printed. */
static int compare(const char *name, const struct made *own,
		   const struct made *ref)
{
	size_t i;

	if (own->err || ref->err) {
		printf("%s: %s (own %d, libdw %d)\n", name,
		       own->err == ref->err ? "same error" : "DIFFERENT errors",
		       own->err, ref->err);
		return own->err != ref->err;
	}
	for (i = 0; i < own->n && i < ref->n; i++)
		if (memcmp(&own->rows[i], &ref->rows[i], sizeof(own->rows[i])))
			break;
	if (i == own->n && i == ref->n) {
		printf("%s: %zu rows equal (%zu FDEs, %zu from .debug_frame); "
		       "CPU per row: own %.1f ns (%.2f M rows/s), libdw %.1f "
		       "ns (%.2f M rows/s): %.1fx\n",
		       name, own->n, own->st.fdes, own->st.debug_fdes,
		       own->secs * 1e9 / own->n, own->n / own->secs / 1e6,
		       ref->secs * 1e9 / ref->n, ref->n / ref->secs / 1e6,
		       own->secs > 0 ? ref->secs / own->secs : 0);
		return 0;
	}
	printf("%s: rows DIFFER at %zu (own %zu rows, libdw %zu)\n", name, i,
	       own->n, ref->n);
	if (i < own->n)
		print_row("own", &own->rows[i]);
	if (i < ref->n)
		print_row("libdw", &ref->rows[i]);
	return 1;
}

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY);
	return *fd < 0 ? NULL : elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

/* One FILE[:DEBUGFILE] argument: 0 equal, 1 different, 2 unreadable. */
static int check(char *arg)
{
	char *colon = strchr(arg, ':'), name[8300];
	int fd, dfd = -1, r;
	Elf *elf, *debug = NULL;
	struct made own = {0}, ref = {0};

	snprintf(name, sizeof(name), "%s", arg);
	if (colon) {
		*colon = 0;
		snprintf(name, sizeof(name), "%s with %s", arg, colon + 1);
	}
	elf = open_elf(arg, &fd);
	if (colon)
		debug = open_elf(colon + 1, &dfd);
	if (!elf || (colon && !debug)) {
		fprintf(stderr, "rowsoracle: %s: cannot read\n", arg);
		r = 2;
		goto out;
	}
	/* the oracle first: the file's pages are read in for both */
	for (int i = 0; i < runs; i++) {
		make(elf, debug, &rowgen_libdw, &ref);
		make(elf, debug, NULL, &own);
	}
	r = compare(name, &own, &ref);
	free(own.rows);
	free(ref.rows);
out:
	elf_end(elf);
	elf_end(debug);
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return r;
}

int main(int argc, char **argv)
{
	int i, r = 0, c;

	elf_version(EV_CURRENT);
	for (i = 1; i + 1 < argc && !strcmp(argv[i], "-r"); i += 2)
		runs = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
	for (; i < argc; i++) {
		c = check(argv[i]);
		r = c > r ? c : r;
	}
	return r;
}
