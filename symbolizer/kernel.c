// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel frames: names from the kernel source (symbolizer.h) when one is
 * set, asked in batches and cached per address, else from /proc/kallsyms.
 * A profile shows a few thousand kernel addresses; the source names just
 * those, where /proc/kallsyms makes the kernel format all of its symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/stop.h"
#include "kallsyms.h"
#include "sym_internal.h"

/* kcache values that are not names */
static const char WANTED[] = "wanted"; /* in kwant, not asked yet */
static const char NO_NAME[] = "none"; /* the source had no name */

int symbolizer__load_kallsyms(struct symbolizer *s, const char *text,
			      size_t len)
{
	struct symtab *t = kallsyms__parse(text, len, NULL);

	if (!t)
		return -errno;
	symtab__free(s->ksyms); /* only before any lookup handed names out */
	s->ksyms = t;
	s->ksyms_tried = true;
	return 0;
}

/* ip's name from /proc/kallsyms, read once, on first need; or NULL. */
static const char *kallsyms_name(struct symbolizer *s, uint64_t ip)
{
	int fd;

	/* told to stop, past the grace: not a 200,000-line read now */
	if (!s->ksyms_tried && stop__hurry())
		return NULL;
	if (!s->ksyms_tried) {
		s->ksyms_tried = true;
		fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			s->ksyms = kallsyms__read_fd(fd, NULL);
			close(fd);
		}
	}
	if (s->ksyms && ip >= symtab__min(s->ksyms))
		return symtab__find(s->ksyms, ip);
	return NULL;
}

void symbolizer__kernel_source(struct symbolizer *s,
			       const struct ksym_source *src)
{
	s->ksrc = *src;
}

/* The source failed: forget it and what it was asked; kallsyms names. */
static void drop_source(struct symbolizer *s)
{
	s->ksrc.name = NULL;
	s->nkwant = 0;
	u64map__clear(&s->kcache, NULL);
}

void symbolizer__kernel_want(struct symbolizer *s, uint64_t ip)
{
	uint64_t *w;
	void **slot;
	bool added;

	if (!s->ksrc.name || !ip)
		return;
	if (s->nkwant == s->kwant_cap) {
		size_t cap = s->kwant_cap ? s->kwant_cap * 2 : 256;

		w = realloc(s->kwant, cap * sizeof(*w));
		if (!w)
			return; /* named alone when looked up */
		s->kwant = w;
		s->kwant_cap = cap;
	}
	slot = u64map__add(&s->kcache, ip, &added);
	if (!slot || !added)
		return;
	*slot = (void *)WANTED;
	s->kwant[s->nkwant++] = ip;
}

/* Ask the source for every wanted address, a batch at a time. */
static void name_wanted(struct symbolizer *s)
{
	const char *out[SYMBOLIZER_KSYM_BATCH];
	size_t done, n, i;
	void **slot;

	for (done = 0; done < s->nkwant; done += n) {
		/* told to stop, past the grace: the rest stay unnamed (a
		 * host's thousands of addresses take a second or more) */
		if (stop__hurry()) {
			memmove(s->kwant, s->kwant + done,
				(s->nkwant - done) * sizeof(*s->kwant));
			s->nkwant -= done;
			return;
		}
		n = s->nkwant - done;
		if (n > SYMBOLIZER_KSYM_BATCH)
			n = SYMBOLIZER_KSYM_BATCH;
		if (s->ksrc.name(s->ksrc.ctx, s->kwant + done, n, out)) {
			drop_source(s);
			return;
		}
		for (i = 0; i < n; i++) {
			slot = u64map__find(&s->kcache, s->kwant[done + i]);
			if (!slot)
				continue;
			*slot = out[i] ? (void *)strpool__intern(
					     s->pool, out[i], strlen(out[i]))
				       : NULL;
			if (!*slot)
				*slot = (void *)NO_NAME; /* or no memory */
		}
	}
	s->nkwant = 0;
}

/*
 * ip's name from the source, or NULL: kallsyms is to say unless *asked
 * (the source answered it has none: kallsyms, the same tables, would not
 * name it either; a host-wide run's were BPF programs unloaded since,
 * and reading all of /proc/kallsyms for them cost 40-60 ms of CPU).
 */
static const char *source_name(struct symbolizer *s, uint64_t ip, bool *asked)
{
	void **slot = u64map__find(&s->kcache, ip);

	if (!slot) {
		symbolizer__kernel_want(s, ip);
		slot = u64map__find(&s->kcache, ip);
	}
	if (slot && *slot == WANTED) {
		name_wanted(s);
		slot = s->ksrc.name ? u64map__find(&s->kcache, ip) : NULL;
	}
	*asked = slot && *slot == NO_NAME;
	if (!slot || *slot == WANTED || *slot == NO_NAME)
		return NULL;
	return *slot;
}

int symbolizer__kernel(struct symbolizer *s, uint64_t ip, struct frame *out)
{
	bool asked = false;
	const char *name = s->ksrc.name ? source_name(s, ip, &asked) : NULL;

	if (!name && !asked)
		name = kallsyms_name(s, ip);
	if (name)
		return sym__one(s, out, name, FRAME_KERNEL);
	return sym__one(s, out, "[kernel.kallsyms]", FRAME_UNKNOWN);
}

void kernel__free(struct symbolizer *s)
{
	symtab__free(s->ksyms);
	u64map__release(&s->kcache);
	free(s->kwant);
}
