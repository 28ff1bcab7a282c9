// SPDX-License-Identifier: GPL-2.0
/*
 * sym_bench: how fast the symbolizer names frames. Refreshes one live
 * process (argv[1], default: itself), draws N random addresses (argv[2],
 * default 1,000,000) from its executable mappings, half of them at JIT
 * map entries when it has a map, then times symbolizer__user over them,
 * and N kernel addresses through symbolizer__kernel.
 * Prints "user: N frames in S s = F frames/s" and the same for kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "symbolizer/symbolizer.h"

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time: what a shared, busy machine does not inflate */
static uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

struct range {
	uint64_t lo, hi;
};

/* Executable ranges of pid (or JIT entries of its map), appended to r. */
static size_t read_ranges(const char *path, bool jit, struct range **r,
			  size_t n)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return n;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;
		char perms[8];

		if (jit) {
			if (sscanf(line, "%llx %llx", &a, &b) != 2 || !b)
				continue;
			b += a;
		} else if (sscanf(line, "%llx-%llx %7s", &a, &b, perms) != 3 ||
			   perms[2] != 'x') {
			continue;
		}
		*r = realloc(*r, (n + 1) * sizeof(**r));
		if (!*r)
			exit(1);
		(*r)[n++] = (struct range){a, b};
	}
	fclose(f);
	return n;
}

static uint64_t cpu0;

static void report(const char *what, size_t n, uint64_t ns, size_t unknown)
{
	uint64_t cpu = cpu_ns() - cpu0;

	printf("%s: %zu frames in %.3f s (%.3f s CPU) = %.0f frames/s of CPU"
	       " (%zu unknown)\n",
	       what, n, ns / 1e9, cpu / 1e9, n / (cpu / 1e9), unknown);
}

int main(int argc, char **argv)
{
	uint32_t pid = argc > 1 ? atoi(argv[1]) : getpid();
	size_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000;
	struct range *maps = NULL, *jit = NULL;
	size_t nm, nj, unknown = 0;
	struct symbolizer *s = symbolizer__new(NULL);
	uint64_t *addrs = malloc(n * sizeof(*addrs)), t0, t1;
	char path[64];
	struct frame fr[8];

	if (!s || !addrs)
		return 1;
	cpu0 = cpu_ns();
	t0 = now_ns();
	if (symbolizer__refresh(s, pid, t0)) {
		fprintf(stderr, "sym_bench: cannot read process %u\n", pid);
		return 1;
	}
	t1 = now_ns();
	printf("refresh: %.3f s (%.3f s CPU)\n", (t1 - t0) / 1e9,
	       (cpu_ns() - cpu0) / 1e9);
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	nm = read_ranges(path, false, &maps, 0);
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	nj = read_ranges(path, true, &jit, 0);
	srand(42);
	for (size_t i = 0; i < n; i++) {
		struct range *r =
		    nj && (i & 1) ? &jit[rand() % nj] : &maps[rand() % nm];

		addrs[i] = r->lo + (uint64_t)rand() % (r->hi - r->lo);
	}
	/* cold: first sight of each symbol demangles it; warm: cached */
	for (int pass = 0; pass < 2; pass++) {
		unknown = 0;
		cpu0 = cpu_ns();
		t0 = now_ns();
		for (size_t i = 0; i < n; i++) {
			symbolizer__user(s, pid, addrs[i], t1, fr, 8);
			unknown += fr[0].kind == FRAME_UNKNOWN;
		}
		report(pass ? "user (warm)" : "user (cold)", n, now_ns() - t0,
		       unknown);
	}

	/* kernel: random addresses in the first 32 MiB of kernel text */
	symbolizer__kernel(s, 0, fr); /* load kallsyms outside the timing */
	{
		FILE *f = fopen("/proc/kallsyms", "r");
		unsigned long long base = 0;
		char type, name[256];

		while (f &&
		       fscanf(f, "%llx %c %255s%*[^\n]", &base, &type, name) ==
			   3 &&
		       strcmp(name, "_stext"))
			;
		if (f)
			fclose(f);
		for (size_t i = 0; i < n; i++)
			addrs[i] = base + (uint64_t)rand() % (32u << 20);
	}
	unknown = 0;
	cpu0 = cpu_ns();
	t0 = now_ns();
	for (size_t i = 0; i < n; i++) {
		symbolizer__kernel(s, addrs[i], fr);
		unknown += fr[0].kind == FRAME_UNKNOWN;
	}
	report("kernel", n, now_ns() - t0, unknown);
	symbolizer__free(s);
	free(addrs);
	free(maps);
	free(jit);
	return 0;
}
