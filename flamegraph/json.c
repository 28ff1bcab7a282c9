/*
 * json: one pass per array over the visible frames.
 */
#include <inttypes.h>
#include "draw.h"
#include "escape.h"
#include "json.h"

enum column { COL_N, COL_V, COL_X, COL_D, COL_B, COL_C };

struct col {
	FILE *out;
	enum column which;
	const struct fg_opts *o;
	const struct fg_diff *diff;
	bool first;
};

static int column_cb(const struct fg_tree *t, uint32_t id, uint64_t x,
		     void *ctx)
{
	struct col *c = ctx;
	const struct fg_node *n = tree__node(t, id);

	if (!c->first)
		putc(',', c->out);
	c->first = false;
	switch (c->which) {
	case COL_N:
		fprintf(c->out, "%u", n->name);
		break;
	case COL_V:
		fprintf(c->out, "%" PRIu64, n->total[FG_SLOT_VALUE]);
		break;
	case COL_X:
		fprintf(c->out, "%" PRIu64, x);
		break;
	case COL_D:
		fprintf(c->out, "%u", n->depth);
		break;
	case COL_B:
		fprintf(c->out, "%.0f",
			c->diff->scale * n->total[FG_SLOT_BASE]);
		break;
	case COL_C:
		fprintf(c->out, "%u", opts__frame_color(t, id, c->o, c->diff));
		break;
	}
	return 0;
}

void json__put_names(FILE *out, const struct fg_tree *t, enum fg_scheme scheme)
{
	size_t i, nr = tree__nr_names(t);

	for (i = 0; i < nr; i++) {
		if (i)
			putc(',', out);
		escape__json(out, tree__name(t, i));
	}
	fputs("],\"colors\":[", out);
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%u", i ? "," : "",
			palette__color(scheme, tree__name(t, i)));
}

int json__write_tree(struct fg_tree *t, const struct fg_opts *o, FILE *out)
{
	static const char *const keys[] = {"n", "v", "x", "d", "b", "c"};
	struct fg_diff diff = {.scale = 1};
	struct col c = {.out = out, .o = o, .diff = &diff};
	double min;
	int err, k;

	err = tree__sort(t);
	if (err)
		return err;
	if (o->diff)
		diff__init(&diff, t, o->normalize);
	min = opts__min_samples(o, tree__node(t, 0)->total[FG_SLOT_VALUE]);
	putc('{', out);
	escape__json_key(out, "title", opts__title(o));
	escape__json_key(out, "subtitle", o->subtitle);
	escape__json_key(out, "countname", o->countname);
	fprintf(out,
		"\"inverted\":%d,\"diff\":%d,\"total\":%" PRIu64 ",\"names\":[",
		o->inverted, o->diff, tree__node(t, 0)->total[FG_SLOT_VALUE]);
	json__put_names(out, t, o->scheme);
	putc(']', out);
	for (k = COL_N; k <= (o->diff ? COL_C : COL_D); k++) {
		fprintf(out, ",\"%s\":[", keys[k]);
		c.which = k;
		c.first = true;
		err = tree__walk(t, min, column_cb, &c);
		if (err)
			return err;
		putc(']', out);
	}
	putc('}', out);
	return 0;
}
