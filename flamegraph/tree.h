/*
 * tree: the frame tree every renderer draws. Stacks are added root first
 * (or leaf first with reverse); equal prefixes share nodes, so a node's
 * total is the samples of every stack passing through it. Node 0 is the
 * root ("all"). Each node holds two counts: slot 0, the graph's own
 * samples, and slot 1, a differential graph's BEFORE samples.
 *
 * Names are interned: a name id is the same for every node with that
 * frame, which the palette and the search use. The tree owns every string.
 * Nodes are a plain array; walk it with tree__node() after
 * tree__sort(), which orders siblings by name as flame graphs do.
 */
#ifndef MIXPROF_FG_TREE_H
#define MIXPROF_FG_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { FG_SLOT_VALUE, FG_SLOT_BASE, FG_NR_SLOTS };

struct fg_node {
	uint32_t name; /* interned name id */
	uint32_t parent; /* the root's parent is itself */
	uint32_t child; /* first child, 0 for none */
	uint32_t next; /* next sibling, 0 for none */
	uint32_t depth; /* the root is 0 */
	uint64_t total[FG_NR_SLOTS]; /* this frame and its callees */
	uint64_t self[FG_NR_SLOTS]; /* stacks ending here */
};

/*
 * a + b, held at UINT64_MAX: counts come from files anyone can write, and
 * a wrapped total would draw a graph of nothing (or widths past the page).
 */
static inline uint64_t tree__sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

struct fg_tree;

struct fg_tree *tree__new(void); /* NULL and errno on failure */
void tree__free(struct fg_tree *t);

/*
 * Add count samples of one stack: len bytes of ';'-separated frames, root
 * first, or leaf first when reverse. Empty frames are skipped. Counts
 * saturate at UINT64_MAX (tree__sat_add). 0 or -ENOMEM (the tree stays
 * usable).
 */
int tree__add(struct fg_tree *t, const char *stack, size_t len, uint64_t count,
	      int slot, bool reverse);

/* Same, and *leaf is the stack's last node (the root for no frames). */
int tree__add_at(struct fg_tree *t, const char *stack, size_t len,
		 uint64_t count, int slot, bool reverse, uint32_t *leaf);

/*
 * Add count samples of a stack whose n frames are known, root first: frame
 * i is text[start .. ends[i]), start being 0 or ends[i - 1] + 1 (a run's
 * own stacks, stacks/fold.h: a name is never split). 0 or -ENOMEM.
 */
int tree__add_frames(struct fg_tree *t, const char *text, const uint32_t *ends,
		     uint32_t n, uint64_t count, int slot);

/* Order every node's children by name (bytewise). 0 or -ENOMEM. */
int tree__sort(struct fg_tree *t);

size_t tree__nr_nodes(const struct fg_tree *t);
size_t tree__nr_names(const struct fg_tree *t);
uint32_t tree__max_depth(const struct fg_tree *t);
const struct fg_node *tree__node(const struct fg_tree *t, uint32_t id);
const char *tree__name(const struct fg_tree *t, uint32_t name);
/* Intern a name (without adding a frame); the id or -ENOMEM. */
int64_t tree__intern(struct fg_tree *t, const char *name, size_t len);
/* The child of parent named name (len bytes), or 0 when there is none. */
uint32_t tree__find(const struct fg_tree *t, uint32_t parent, const char *name,
		    size_t len);

/*
 * Visit nodes in preorder, siblings in list order, each with x: the
 * samples drawn left of it. Nodes with no samples in slot 0, or fewer than
 * min, are skipped with everything below them (they keep their room: x
 * still counts them). fn returns non-zero to stop the walk, which then
 * returns that value; 0 at the end, -ENOMEM if it cannot start.
 */
typedef int (*fg_visit_fn)(const struct fg_tree *t, uint32_t id, uint64_t x,
			   void *ctx);
int tree__walk(const struct fg_tree *t, double min, fg_visit_fn fn, void *ctx);

#endif
