/*
 * tree: interned names plus a node array. Two open-addressing tables make
 * adding a stack O(frames): names by text, children by (parent, name).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tree.h"
#include "common/array.h"

/* The key lives in the slot so a lookup touches one cache line, not the
 * slot and then the node. */
struct child_slot {
	uint32_t parent, name, id;
};

struct fg_tree {
	char **names;
	uint32_t *name_len;
	size_t nr_names, cap_names, cap_len;
	uint32_t *name_tab; /* slot -> name id + 1, 0 empty */
	size_t name_tab_size; /* power of two */

	struct fg_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct child_slot *child_tab; /* id 0: empty */
	size_t child_tab_size;
	uint32_t max_depth;
};

/* FNV-1a: cheap, and good enough spread for frame names. */
static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* splitmix64's finaliser: every input bit reaches the low (index) bits. */
static uint64_t hash_child(uint32_t parent, uint32_t name)
{
	uint64_t h = (uint64_t)parent << 32 | name;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* Double the name table, re-placing every name. */
static int name_tab_grow(struct fg_tree *t)
{
	size_t size = t->name_tab_size ? t->name_tab_size * 2 : 1024, i, j;
	uint32_t *tab = calloc(size, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < t->nr_names; i++) {
		j = hash_bytes(t->names[i], t->name_len[i]) & (size - 1);
		while (tab[j])
			j = (j + 1) & (size - 1);
		tab[j] = i + 1;
	}
	free(t->name_tab);
	t->name_tab = tab;
	t->name_tab_size = size;
	return 0;
}

static int child_tab_grow(struct fg_tree *t)
{
	size_t size = t->child_tab_size ? t->child_tab_size * 2 : 4096, i, j;
	struct child_slot *tab = calloc(size, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (i = 1; i < t->nr_nodes; i++) {
		j = hash_child(t->nodes[i].parent, t->nodes[i].name) &
		    (size - 1);
		while (tab[j].id)
			j = (j + 1) & (size - 1);
		tab[j] = (struct child_slot){t->nodes[i].parent,
					     t->nodes[i].name, i};
	}
	free(t->child_tab);
	t->child_tab = tab;
	t->child_tab_size = size;
	return 0;
}

struct fg_tree *tree__new(void)
{
	struct fg_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	/* The root is named "all", as flame graph readers expect. */
	if (tree__intern(t, "all", 3) < 0 ||
	    array__grow((void **)&t->nodes, &t->cap_nodes, 1,
			sizeof(*t->nodes)) ||
	    child_tab_grow(t)) {
		tree__free(t);
		errno = ENOMEM;
		return NULL;
	}
	memset(t->nodes, 0, sizeof(*t->nodes));
	t->nr_nodes = 1;
	return t;
}

void tree__free(struct fg_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->name_len);
	free(t->name_tab);
	free(t->nodes);
	free(t->child_tab);
	free(t);
}

int64_t tree__intern(struct fg_tree *t, const char *name, size_t len)
{
	size_t j, n = t->nr_names;
	char *copy;

	if ((n + 1) * 2 > t->name_tab_size && name_tab_grow(t))
		return -ENOMEM;
	j = hash_bytes(name, len) & (t->name_tab_size - 1);
	for (; t->name_tab[j]; j = (j + 1) & (t->name_tab_size - 1)) {
		uint32_t id = t->name_tab[j] - 1;

		if (t->name_len[id] == len && !memcmp(t->names[id], name, len))
			return id;
	}
	if (array__grow((void **)&t->names, &t->cap_names, n + 1,
			sizeof(char *)) ||
	    array__grow((void **)&t->name_len, &t->cap_len, n + 1,
			sizeof(uint32_t)))
		return -ENOMEM;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, len);
	copy[len] = '\0';
	t->names[n] = copy;
	t->name_len[n] = len;
	t->name_tab[j] = n + 1;
	t->nr_names++;
	return n;
}

/* Slot of (parent, name) in the child table: its node or an empty slot. */
static size_t find_slot(const struct fg_tree *t, uint32_t parent, uint32_t name)
{
	size_t mask = t->child_tab_size - 1;
	size_t j = hash_child(parent, name) & mask;

	for (; t->child_tab[j].id; j = (j + 1) & mask)
		if (t->child_tab[j].parent == parent &&
		    t->child_tab[j].name == name)
			break;
	return j;
}

/* The child of parent named name, created when missing; 0 on ENOMEM. */
static uint32_t child_get(struct fg_tree *t, uint32_t parent, uint32_t name)
{
	struct fg_node *c, *p;
	size_t j;
	uint32_t id;

	if ((t->nr_nodes + 1) * 2 > t->child_tab_size && child_tab_grow(t))
		return 0;
	j = find_slot(t, parent, name);
	if (t->child_tab[j].id)
		return t->child_tab[j].id;
	if (t->nr_nodes >= UINT32_MAX - 1 ||
	    array__grow((void **)&t->nodes, &t->cap_nodes, t->nr_nodes + 1,
			sizeof(*t->nodes)))
		return 0;
	id = t->nr_nodes++;
	p = &t->nodes[parent];
	c = &t->nodes[id];
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->parent = parent;
	c->depth = p->depth + 1;
	c->next = p->child;
	p->child = id;
	t->child_tab[j] = (struct child_slot){parent, name, id};
	if (c->depth > t->max_depth)
		t->max_depth = c->depth;
	return id;
}

/* Step from *cur to its child named [s, s + l), counting the samples. */
static int add_frame(struct fg_tree *t, uint32_t *cur, const char *s, size_t l,
		     uint64_t count, int slot)
{
	int64_t name;

	if (!l)
		return 0;
	name = tree__intern(t, s, l);
	if (name < 0)
		return -ENOMEM;
	*cur = child_get(t, *cur, name);
	if (!*cur)
		return -ENOMEM;
	t->nodes[*cur].total[slot] =
	    tree__sat_add(t->nodes[*cur].total[slot], count);
	return 0;
}

int tree__add(struct fg_tree *t, const char *stack, size_t len, uint64_t count,
	      int slot, bool reverse)
{
	uint32_t leaf;

	return tree__add_at(t, stack, len, count, slot, reverse, &leaf);
}

int tree__add_at(struct fg_tree *t, const char *stack, size_t len,
		 uint64_t count, int slot, bool reverse, uint32_t *leaf)
{
	const char *end = stack + len, *p, *q;
	uint32_t cur = 0;
	int err = 0;

	t->nodes[0].total[slot] = tree__sat_add(t->nodes[0].total[slot], count);
	if (!reverse) {
		for (p = stack; p <= end && !err; p = q + 1) {
			q = memchr(p, ';', end - p);
			if (!q)
				q = end;
			err = add_frame(t, &cur, p, q - p, count, slot);
		}
	} else {
		for (q = end; q >= stack && !err; q = p - 1) {
			p = q;
			while (p > stack && p[-1] != ';')
				p--;
			err = add_frame(t, &cur, p, q - p, count, slot);
		}
	}
	if (err)
		return err;
	t->nodes[cur].self[slot] =
	    tree__sat_add(t->nodes[cur].self[slot], count);
	*leaf = cur;
	return 0;
}

int tree__add_frames(struct fg_tree *t, const char *text, const uint32_t *ends,
		     uint32_t n, uint64_t count, int slot)
{
	uint32_t cur = 0, start = 0;
	int err = 0;

	t->nodes[0].total[slot] = tree__sat_add(t->nodes[0].total[slot], count);
	for (uint32_t i = 0; i < n && !err; start = ends[i++] + 1)
		err = add_frame(t, &cur, text + start, ends[i] - start, count,
				slot);
	if (err)
		return err;
	t->nodes[cur].self[slot] =
	    tree__sat_add(t->nodes[cur].self[slot], count);
	return 0;
}

static const struct fg_tree *sort_tree;

static int by_name(const void *a, const void *b)
{
	const struct fg_node *x = &sort_tree->nodes[*(const uint32_t *)a];
	const struct fg_node *y = &sort_tree->nodes[*(const uint32_t *)b];

	return strcmp(sort_tree->names[x->name], sort_tree->names[y->name]);
}

int tree__sort(struct fg_tree *t)
{
	uint32_t *ids = NULL, c;
	size_t cap = 0, n, i, k;

	for (i = 0; i < t->nr_nodes; i++) {
		n = 0;
		for (c = t->nodes[i].child; c; c = t->nodes[c].next) {
			if (array__grow((void **)&ids, &cap, n + 1,
					sizeof(*ids))) {
				free(ids);
				return -ENOMEM;
			}
			ids[n++] = c;
		}
		if (n < 2)
			continue;
		sort_tree = t;
		qsort(ids, n, sizeof(*ids), by_name);
		t->nodes[i].child = ids[0];
		for (k = 0; k < n; k++)
			t->nodes[ids[k]].next = k + 1 < n ? ids[k + 1] : 0;
	}
	free(ids);
	return 0;
}

size_t tree__nr_nodes(const struct fg_tree *t)
{
	return t->nr_nodes;
}

size_t tree__nr_names(const struct fg_tree *t)
{
	return t->nr_names;
}

uint32_t tree__max_depth(const struct fg_tree *t)
{
	return t->max_depth;
}

const struct fg_node *tree__node(const struct fg_tree *t, uint32_t id)
{
	return id < t->nr_nodes ? &t->nodes[id] : NULL;
}

const char *tree__name(const struct fg_tree *t, uint32_t name)
{
	return name < t->nr_names ? t->names[name] : NULL;
}

uint32_t tree__find(const struct fg_tree *t, uint32_t parent, const char *name,
		    size_t len)
{
	uint32_t c;

	for (c = t->nodes[parent].child; c; c = t->nodes[c].next)
		if (!strncmp(t->names[t->nodes[c].name], name, len) &&
		    !t->names[t->nodes[c].name][len])
			return c;
	return 0;
}

int tree__walk(const struct fg_tree *t, double min, fg_visit_fn fn, void *ctx)
{
	struct cursor {
		uint32_t next; /* the next child to look at */
		uint64_t x; /* where it starts */
	} * st;
	const struct fg_node *c;
	uint64_t x;
	uint32_t id;
	int sp = 0, ret;

	st = malloc((t->max_depth + 2) * sizeof(*st));
	if (!st)
		return -ENOMEM;
	ret = fn(t, 0, 0, ctx);
	st[0].next = t->nodes[0].child;
	st[0].x = 0;
	while (!ret && sp >= 0) {
		id = st[sp].next;
		if (!id) {
			sp--;
			continue;
		}
		c = &t->nodes[id];
		st[sp].next = c->next;
		x = st[sp].x; /* saturated counts: x never wraps back */
		st[sp].x = tree__sat_add(x, c->total[FG_SLOT_VALUE]);
		if (!c->total[FG_SLOT_VALUE] || c->total[FG_SLOT_VALUE] < min)
			continue;
		ret = fn(t, id, x, ctx);
		if (c->child) {
			sp++;
			st[sp].next = c->child;
			st[sp].x = x;
		}
	}
	free(st);
	return ret;
}
