/* Unit tests of flamegraph/tree.c: merging, reverse, sorting, walking. */
#include <stdlib.h>
#include "check.h"
#include "flamegraph/tree.h"

static uint32_t path(struct fg_tree *t, const char *const *names)
{
	uint32_t id = 0;

	for (; *names; names++) {
		id = tree__find(t, id, *names, strlen(*names));
		if (!id)
			return 0;
	}
	return id;
}

struct seen {
	int n;
	uint32_t id[16];
	uint64_t x[16];
};

static int record(const struct fg_tree *t, uint32_t id, uint64_t x, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		s->id[s->n] = id;
		s->x[s->n] = x;
	}
	s->n++;
	return 0;
}

/*
 * A stack given as frames (a run's own, stacks/fold.h) merges with the
 * same stack given as text, and a frame is never split at a ';'.
 */
static void test_frames(void)
{
	struct fg_tree *t = tree__new();
	const char *ab[] = {"a", "b", NULL}, *semi[] = {"a", "x;y", NULL};
	const uint32_t ends[] = {1, 3}, ends2[] = {1, 5};

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_INT(tree__add(t, "a;b", 3, 5, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add_frames(t, "a;b", ends, 2, 2, FG_SLOT_VALUE), 0);
	CHECK_INT(tree__add_frames(t, "a;x;y", ends2, 2, 1, FG_SLOT_VALUE), 0);
	CHECK_INT(tree__node(t, 0)->total[FG_SLOT_VALUE], 8);
	CHECK_INT(tree__node(t, path(t, ab))->total[FG_SLOT_VALUE], 7);
	CHECK_INT(tree__node(t, path(t, ab))->self[FG_SLOT_VALUE], 7);
	CHECK(path(t, semi) != 0);
	CHECK_INT(tree__nr_nodes(t), 4); /* root, a, a;b, a;x;y */
	tree__free(t);
}

int main(void)
{
	struct fg_tree *t = tree__new();
	const char *ab[] = {"a", "b", NULL}, *ac[] = {"a", "c", NULL};
	const char *ba[] = {"b", "a", NULL}, *sp[] = {"x y", "z w", NULL};
	const struct fg_node *n;
	struct seen s = {0};
	uint32_t id;

	test_frames();
	CHECK(t != NULL);
	CHECK_INT(tree__add(t, "a;b", 3, 5, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add(t, "a;c", 3, 2, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add(t, "a;b", 3, 1, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add(t, "a", 1, 4, FG_SLOT_VALUE, false), 0);
	/* Empty frames (";;") are skipped, not drawn as blank boxes. */
	CHECK_INT(tree__add(t, "a;;c;", 5, 1, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__node(t, 0)->total[FG_SLOT_VALUE], 13);
	id = path(t, ab);
	CHECK(id != 0);
	CHECK_INT(tree__node(t, id)->total[FG_SLOT_VALUE], 6);
	CHECK_INT(tree__node(t, id)->depth, 2);
	n = tree__node(t, path(t, ac));
	CHECK_INT(n->total[FG_SLOT_VALUE], 3);
	n = tree__node(t, tree__find(t, 0, "a", 1));
	CHECK_INT(n->total[FG_SLOT_VALUE], 13);
	CHECK_INT(n->self[FG_SLOT_VALUE], 4);
	CHECK_INT(tree__nr_nodes(t), 4);
	CHECK_INT(tree__max_depth(t), 2);

	/* Reversed stacks: leaf first. */
	CHECK_INT(tree__add(t, "a;b", 3, 7, FG_SLOT_BASE, true), 0);
	id = path(t, ba);
	CHECK(id != 0);
	CHECK_INT(tree__node(t, id)->total[FG_SLOT_BASE], 7);
	CHECK_INT(tree__node(t, id)->total[FG_SLOT_VALUE], 0);

	/* Names with spaces stay whole. */
	CHECK_INT(tree__add(t, "x y;z w", 7, 1, FG_SLOT_VALUE, false), 0);
	CHECK(path(t, sp) != 0);

	/* Sorted walk: siblings by name, x accumulates, zero frames skipped
	 * ("b" has only BEFORE samples), min drops small frames. */
	CHECK_INT(tree__sort(t), 0);
	CHECK_INT(tree__walk(t, 0, record, &s), 0);
	CHECK_INT(s.n, 6); /* all, a, a;b, a;c, x y, x y;z w */
	CHECK_STR(tree__name(t, tree__node(t, s.id[1])->name), "a");
	CHECK_STR(tree__name(t, tree__node(t, s.id[2])->name), "b");
	CHECK_INT(s.x[2], 0);
	CHECK_STR(tree__name(t, tree__node(t, s.id[3])->name), "c");
	CHECK_INT(s.x[3], 6);
	CHECK_STR(tree__name(t, tree__node(t, s.id[4])->name), "x y");
	CHECK_INT(s.x[4], 13);
	memset(&s, 0, sizeof(s));
	CHECK_INT(tree__walk(t, 4, record, &s), 0);
	CHECK_INT(s.n, 3); /* all, a, a;b */

	/* Many names and nodes: the tables grow. */
	{
		char buf[64];
		int i, ok = 1;

		for (i = 0; i < 20000; i++) {
			int l =
			    snprintf(buf, sizeof(buf), "r;f%d;g%d", i % 500, i);
			ok &= !tree__add(t, buf, l, 1, FG_SLOT_VALUE, false);
		}
		CHECK(ok);
		id = tree__find(t, 0, "r", 1);
		CHECK_INT(tree__node(t, id)->total[FG_SLOT_VALUE], 20000);
		id = tree__find(t, id, "f7", 2);
		CHECK_INT(tree__node(t, id)->total[FG_SLOT_VALUE], 40);
	}
	tree__free(t);
	tree__free(NULL);

	/* Counts saturate: two stacks of 2^63 do not wrap the total to 0,
	 * and the walk's x stays in [0, UINT64_MAX]. */
	t = tree__new();
	CHECK_INT(tree__add(t, "a;b", 3, 1ULL << 63, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add(t, "a;c", 3, 1ULL << 63, FG_SLOT_VALUE, false), 0);
	CHECK_INT(tree__add(t, "a;c", 3, 5, FG_SLOT_VALUE, false), 0);
	CHECK(tree__node(t, 0)->total[FG_SLOT_VALUE] == UINT64_MAX);
	id = tree__find(t, 0, "a", 1);
	CHECK(tree__node(t, id)->total[FG_SLOT_VALUE] == UINT64_MAX);
	id = tree__find(t, id, "c", 1);
	CHECK(tree__node(t, id)->total[FG_SLOT_VALUE] == (1ULL << 63) + 5);
	CHECK(tree__node(t, id)->self[FG_SLOT_VALUE] == (1ULL << 63) + 5);
	CHECK_INT(tree__sort(t), 0);
	memset(&s, 0, sizeof(s));
	CHECK_INT(tree__walk(t, 0, record, &s), 0);
	CHECK_INT(s.n, 4); /* all, a, a;b, a;c */
	CHECK(s.x[2] == 0 && s.x[3] == 1ULL << 63);
	CHECK(tree__sat_add(UINT64_MAX, 1) == UINT64_MAX);
	CHECK(tree__sat_add(UINT64_MAX - 1, 1) == UINT64_MAX);
	CHECK(tree__sat_add(2, 3) == 5);
	tree__free(t);
	return check_report();
}
