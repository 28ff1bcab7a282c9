/*
 * symtab: sorting (already sorted, and the radix path), aliases, ends of
 * zero-sized symbols, lazy demangling including GCC clone suffixes, and
 * the chunked /proc/kallsyms reader against the whole-text parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "symbolizer/demangle.h"
#include "stacks/fold.h"
#include "symbolizer/kallsyms.h"
#include "symbolizer/symtab.h"

static void add(struct symtab *t, uint64_t start, uint64_t end,
		const char *name)
{
	CHECK_INT(symtab__add(t, start, end, name, strlen(name),
			      !strncmp(name, "_Z", 2)),
		  0);
}

/* Out of order, across many bytes of the address: the radix sort. */
static void check_unsorted(void)
{
	struct symtab *t = symtab__new();

	add(t, 0x7f0000401000, 0x7f0000401100, "high");
	add(t, 0x1000, 0x1010, "low");
	add(t, 0x2000, 0x2000, "zero_size");
	add(t, 0x1000, 0x1080, "low_alias"); /* same start: first name wins */
	add(t, 0x3000, 0x3000, "last_zero");
	add(t, 0x10500, 0x10600, "mid");
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_INT(symtab__count(t), 5);
	CHECK_INT(symtab__min(t), 0x1000);
	CHECK_STR(symtab__find(t, 0x1000), "low");
	/* the alias's bigger extent is kept under the first name */
	CHECK_STR(symtab__find(t, 0x107f), "low");
	CHECK(symtab__find(t, 0x1080) == NULL);
	/* zero-sized: up to the next symbol, at most max_gap */
	CHECK_STR(symtab__find(t, 0x2fff), "zero_size");
	CHECK_STR(symtab__find(t, 0x3fff), "last_zero");
	CHECK(symtab__find(t, 0x4000) == NULL);
	CHECK_STR(symtab__find(t, 0x105ff), "mid");
	CHECK_STR(symtab__find(t, 0x7f00004010ff), "high");
	CHECK(symtab__find(t, 0x7f0000401100) == NULL);
	CHECK(symtab__find(t, 0xfff) == NULL);
	symtab__free(t);
}

/* Sorted but for a short tail (kallsyms with BPF programs last): merged. */
static void check_sorted_tail(void)
{
	struct symtab *t = symtab__new();
	char name[32];

	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		add(t, 0x1000 + i * 0x100, 0x1000 + i * 0x100 + 0x80, name);
	}
	add(t, 0x1000 + 50 * 0x100, 0x1000 + 50 * 0x100 + 0x10, "dup50");
	add(t, 0x1000 + 10 * 0x100 + 0x80, 0x1000 + 11 * 0x100, "bpf_b");
	add(t, 0x800, 0x900, "bpf_a");
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_INT(symtab__count(t), 102);
	CHECK_STR(symtab__find(t, 0x850), "bpf_a");
	CHECK_STR(symtab__find(t, 0x1000), "k0");
	CHECK_STR(symtab__find(t, 0x1000 + 10 * 0x100 + 0x90), "bpf_b");
	CHECK_STR(symtab__find(t, 0x1000 + 50 * 0x100), "k50"); /* first */
	CHECK_STR(symtab__find(t, 0x1000 + 99 * 0x100 + 0x7f), "k99");
	symtab__free(t);
}

/* Names left in the caller's string table, read on lookup only. */
static void check_refs(void)
{
	static const char strtab[] = "\0plain\0_Z3fooi.cold\0_Zbad!\0";
	struct symtab *t = symtab__new();

	CHECK_INT(symtab__set_names(t, 1, strtab, sizeof(strtab) - 1, NULL, 0),
		  0);
	CHECK_INT(symtab__set_names(t, 4, strtab, 1, NULL, 0), -EINVAL);
	CHECK_INT(symtab__add_ref(t, 0x1000, 0x1100, 1, 1, true), 0);
	CHECK_INT(symtab__add_ref(t, 0x2000, 0x2100, 1, 7, true), 0);
	CHECK_INT(symtab__add_ref(t, 0x3000, 0x3100, 1, 20, true), 0);
	CHECK_INT(symtab__add_ref(t, 0x4000, 0x4100, 1, 0, true), 0); /* "" */
	CHECK_INT(symtab__add_ref(t, 0x5000, 0x5100, 1, 999, true), 0);
	CHECK_INT(symtab__add_ref(t, 0x6000, 0x6100, 0, 1, true), -EINVAL);
	add(t, 0x7000, 0x7100, "copied");
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_STR(symtab__find(t, 0x1001), "plain");
	CHECK_STR(symtab__find(t, 0x2001), "foo");
	CHECK_STR(symtab__find(t, 0x3001), "_Zbad!"); /* kept as written */
	CHECK(symtab__find(t, 0x4001) == NULL);
	CHECK(symtab__find(t, 0x5001) == NULL); /* past the table */
	CHECK_STR(symtab__find(t, 0x7001), "copied");
	symtab__free(t);
}

/* Mid-build sort: what is named already, and later adds still count. */
static void check_sort_has(void)
{
	struct symtab *t = symtab__new();

	add(t, 0x3000, 0x3100, "c");
	add(t, 0x1000, 0x1100, "a");
	CHECK(!symtab__has(t, 0x1000)); /* not sorted yet */
	CHECK_INT(symtab__sort(t), 0);
	CHECK(symtab__has(t, 0x1000));
	CHECK(symtab__has(t, 0x3000));
	CHECK(!symtab__has(t, 0x2000));
	add(t, 0x2000, 0x2100, "b");
	add(t, 0x1000, 0x1200, "a_dyn"); /* callers skip these; still safe */
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_INT(symtab__count(t), 3);
	CHECK_STR(symtab__find(t, 0x1000), "a");
	CHECK_STR(symtab__find(t, 0x2050), "b");
	CHECK_STR(symtab__find(t, 0x30ff), "c");
	symtab__free(t);
}

/* A big shuffled table names every symbol as a sorted one does. */
static void check_big(void)
{
	struct symtab *t = symtab__new();
	char name[32];
	size_t n = 50000, ok = 0;

	CHECK_INT(symtab__reserve(t, n, n * 16), 0);
	for (size_t i = 0; i < n; i++) {
		/* a permutation of 0..n-1 (n and the step are coprime) */
		uint64_t k = (i * 7919) % n;

		snprintf(name, sizeof(name), "f%zu", (size_t)k);
		add(t, 0x400000 + k * 0x40, 0x400000 + k * 0x40 + 0x20, name);
	}
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_INT(symtab__count(t), n);
	for (size_t k = 0; k < n; k++) {
		const char *got = symtab__find(t, 0x400000 + k * 0x40 + 0x1f);

		snprintf(name, sizeof(name), "f%zu", k);
		ok += got && !strcmp(got, name);
	}
	CHECK_INT(ok, n);
	/* again: now through the recent-lookup cache */
	ok = 0;
	for (size_t k = 0; k < n; k++) {
		const char *got = symtab__find(t, 0x400000 + k * 0x40 + 0x1f);

		snprintf(name, sizeof(name), "f%zu", k);
		ok += got && !strcmp(got, name);
	}
	CHECK_INT(ok, n);
	CHECK(symtab__find(t, 0x400020) == NULL); /* between two symbols */
	symtab__free(t);
}

/* GCC clones are named as their function: one frame, never split. */
static void check_clones(void)
{
	struct symtab *t = symtab__new();
	struct fold_line l;
	struct frame f = {.kind = FRAME_NATIVE};
	char *d;

	d = demangle__name("_Z3fooi.constprop.1");
	CHECK_STR(d, "foo");
	free(d);
	d = demangle__name("_ZN2ns5Klass3barEv.isra.0");
	CHECK_STR(d, "ns::Klass::bar");
	free(d);
	d = demangle__name("_ZNK2ns5Klass6memberEd.part.0.cold");
	CHECK_STR(d, "ns::Klass::member");
	free(d);
	d = demangle__name("_ZN2ns5twiceIiEET_S1_.cold");
	CHECK_STR(d, "ns::twice<int>");
	free(d);

	add(t, 0x1000, 0x1100, "_Z3fooi");
	add(t, 0x2000, 0x2100, "_Z3fooi.constprop.1");
	add(t, 0x3000, 0x3100, "_Z3fooi.cold");
	add(t, 0x4000, 0x4100, "plain_c.constprop.0"); /* C: as written */
	CHECK_INT(symtab__finish(t, 4096), 0);
	CHECK_STR(symtab__find(t, 0x1001), "foo");
	CHECK_STR(symtab__find(t, 0x2001), "foo");
	CHECK_STR(symtab__find(t, 0x3001), "foo");
	CHECK_STR(symtab__find(t, 0x4001), "plain_c.constprop.0");

	fold_line__init(&l, false);
	f.name = symtab__find(t, 0x2001);
	CHECK_INT(fold_line__push_name(&l, "java"), 0);
	CHECK_INT(fold_line__push(&l, &f), 0);
	f.name = symtab__find(t, 0x3001);
	CHECK_INT(fold_line__push(&l, &f), 0);
	CHECK_STR(l.buf, "java;foo;foo");
	fold_line__release(&l);
	symtab__free(t);
}

/*
 * kallsyms__read_fd through a pipe (short reads, lines across chunk
 * borders, no '\n' at the end) names what kallsyms__parse names.
 */
static void check_read_fd(void)
{
	size_t cap = 300000, len = 0, n = 6000;
	char *text = malloc(cap);
	struct symtab *a, *b;
	uint64_t bad_a = 0, bad_b = 0;
	size_t same = 0;
	int fds[2];
	pid_t pid;

	for (size_t i = 0; i < n; i++)
		len += snprintf(text + len, cap - len, "%016llx %c sym_%zu%s\n",
				0xffffffff81000000ULL + i * 0x30,
				i % 7 ? 't' : 'd', i, i % 11 ? "" : "\t[mod]");
	len += snprintf(text + len, cap - len, "zz bad line\n");
	len += snprintf(text + len, cap - len,
			"ffffffffc1000000 T last_no_newline");
	a = kallsyms__parse(text, len, &bad_a);
	CHECK(pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (size_t off = 0; off < len; off += 777) /* odd writes */
			if (write(fds[1], text + off,
				  len - off < 777 ? len - off : 777) < 0)
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	b = kallsyms__read_fd(fds[0], &bad_b);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	CHECK(a && b);
	CHECK_INT(bad_a, 1);
	CHECK_INT(bad_b, 1);
	CHECK_INT(symtab__count(b), symtab__count(a));
	for (size_t i = 0; a && b && i < n; i++) {
		uint64_t ip = 0xffffffff81000000ULL + i * 0x30 + 4;
		const char *x = symtab__find(a, ip), *y = symtab__find(b, ip);

		same += x == y || (x && y && !strcmp(x, y));
	}
	CHECK_INT(same, n);
	CHECK_STR(symtab__find(b, 0xffffffff81000000ULL + 0x30 + 1), "sym_1");
	CHECK_STR(symtab__find(b, 0xffffffff81000000ULL + 11 * 0x30), "sym_11");
	CHECK_STR(symtab__find(b, 0xffffffffc1000004ULL), "last_no_newline");
	symtab__free(a);
	symtab__free(b);
	free(text);
}

int main(void)
{
	check_unsorted();
	check_sorted_tail();
	check_refs();
	check_sort_has();
	check_big();
	check_clones();
	check_read_fd();
	return check_report();
}
