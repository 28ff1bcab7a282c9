/* Unit tests of flamegraph/diff.c: deltas, normalising, colour choice. */
#include "check.h"
#include "flamegraph/diff.h"
#include "flamegraph/palette.h"

int main(void)
{
	struct fg_tree *t = tree__new();
	const struct fg_node *a, *b, *c;
	struct fg_diff d;

	/* BEFORE: a;b 10, a;c 10.  AFTER: a;b 30, a;c 5. */
	tree__add(t, "a;b", 3, 10, FG_SLOT_BASE, false);
	tree__add(t, "a;c", 3, 10, FG_SLOT_BASE, false);
	tree__add(t, "a;b", 3, 30, FG_SLOT_VALUE, false);
	tree__add(t, "a;c", 3, 5, FG_SLOT_VALUE, false);
	a = tree__node(t, tree__find(t, 0, "a", 1));
	b = tree__node(t, tree__find(t, tree__find(t, 0, "a", 1), "b", 1));
	c = tree__node(t, tree__find(t, tree__find(t, 0, "a", 1), "c", 1));
	diff__init(&d, t, false);
	CHECK(d.scale == 1);
	CHECK(diff__delta(&d, b) == 20);
	CHECK(diff__delta(&d, c) == -5);
	CHECK(diff__delta(&d, a) == 15);
	CHECK(d.max_delta == 20);
	CHECK(palette__diff_color(diff__delta(&d, b), d.max_delta) >> 16 ==
	      255);
	CHECK((palette__diff_color(diff__delta(&d, c), d.max_delta) & 0xff) ==
	      255);

	/* Normalised: BEFORE scaled to AFTER's 35 samples (x1.75). */
	diff__init(&d, t, true);
	CHECK(d.scale == 1.75);
	CHECK(diff__delta(&d, b) == 30 - 17.5);
	CHECK(diff__delta(&d, a) == 0);
	CHECK(palette__diff_color(diff__delta(&d, a), d.max_delta) == 0xffffff);
	tree__free(t);
	return check_report();
}
