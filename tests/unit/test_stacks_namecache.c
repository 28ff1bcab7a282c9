/*
 * Unit tests: namecache (a part is found under its id only, keeps its
 * versions and counts, is replaced by a newer naming, and past the budget
 * the parts not asked for since the last sweep go first).
 */
#include <string.h>
#include "check.h"
#include "stacks/namecache.h"

static struct part *get(struct namecache *nc, uint64_t stack, uint32_t pid)
{
	struct part_id id = {stack, 0, pid};

	return namecache__get(nc, &id);
}

static int put(struct namecache *nc, uint64_t stack, uint32_t pid, uint64_t gen,
	       const char *text)
{
	struct part_id id = {stack, 0, pid};
	struct part_counts c = {.frames = 2, .unknown = 1};
	uint64_t v[PART_VERSIONS] = {gen, 7, 9};
	uint32_t ends[16], n = 0;
	struct fold_type types[16];
	size_t i, len = strlen(text);

	for (i = 0; i < len && n < 16; i++) /* the fixture's frames */
		if (text[i] == ';') {
			types[n] = (struct fold_type){.kind = n, .line = 7};
			ends[n++] = i;
		}
	if (len) {
		types[n] = (struct fold_type){.kind = n, .line = 7};
		ends[n++] = len;
	}
	return namecache__put(nc, &id, v, &c, text, len, ends, types, n);
}

static void test_parts(void)
{
	struct namecache *nc = namecache__new(1 << 20);
	struct part_id other = {5, 9, 100};
	struct part *p;

	CHECK(nc != NULL);
	CHECK(get(nc, 5, 100) == NULL);
	CHECK_INT(put(nc, 5, 100, 1, "a;b_[j]"), 0);
	p = get(nc, 5, 100);
	CHECK(p != NULL);
	if (p) {
		CHECK_STR(p->text, "a;b_[j]");
		CHECK_INT(p->len, 7);
		CHECK_INT(p->n, 2); /* where its frames end, kept */
		CHECK(p->ends[0] == 1 && p->ends[1] == 7);
		/* each frame's type kept beside its end */
		CHECK(p->types[0].kind == 0 && p->types[1].kind == 1 &&
		      p->types[1].line == 7);
		CHECK_INT(p->c.frames, 2);
		CHECK_INT(p->c.unknown, 1);
		CHECK(p->v[0] == 1 && p->v[1] == 7 && p->v[2] == 9);
	}
	CHECK(get(nc, 5, 101) == NULL); /* another process */
	CHECK(get(nc, 6, 100) == NULL); /* another stack */
	CHECK(namecache__get(nc, &other) == NULL); /* another list */

	CHECK_INT(put(nc, 5, 100, 2, "a;c_[j]"), 0); /* named again */
	p = get(nc, 5, 100);
	CHECK(p && !strcmp(p->text, "a;c_[j]") && p->v[0] == 2);
	CHECK_INT(put(nc, 6, 0, 1, ""), 0); /* an empty part is a part */
	p = get(nc, 6, 0);
	CHECK(p && p->len == 0 && p->text[0] == 0 && p->n == 0);
	namecache__free(nc);
}

/*
 * Past the budget, the parts asked for since the last sweep stay, the
 * others go; memory stays within the budget; the newest is kept.
 */
static void test_budget(void)
{
	char text[1000];
	struct namecache *nc = namecache__new(32 * 1024);
	int kept = 0, peak = 0, lost = 0, i;

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	CHECK_INT(put(nc, 1, 1, 1, text), 0);
	for (i = 2; i <= 200; i++) {
		CHECK_INT(put(nc, i, 1, 1, text), 0);
		lost += get(nc, 1, 1) == NULL; /* in use all along */
		/* held before the next sweep (by their bytes: asking for
		 * them all would mark them used) */
		kept = namecache__bytes(nc) / sizeof(text);
		peak = kept > peak ? kept : peak;
	}
	CHECK_INT(lost, 0);
	CHECK(get(nc, 200, 1) != NULL); /* the newest */
	kept = 0;
	for (i = 1; i <= 200; i++)
		kept += get(nc, i, 1) != NULL;
	CHECK(kept <= 32); /* 32 KiB of 1 KiB parts */
	/* a sweep comes when the budget is full, not before */
	CHECK(peak >= 24);
	namecache__free(nc);
}

int main(void)
{
	test_parts();
	test_budget();
	return check_report();
}
