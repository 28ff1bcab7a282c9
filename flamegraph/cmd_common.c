/*
 * cmd_common: option values shared by flamegraph, heatmap and montage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "common/safefile.h"

/* A whole number in [lo, hi]; false unless arg is exactly one. */
static bool parse_uint(const char *arg, unsigned long lo, unsigned long hi,
		       unsigned int *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || n < lo || n > hi)
		return false;
	*v = n;
	return true;
}

static int parse_minwidth(struct fg_opts *o, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v < 0 || (*end && strcmp(end, "%"))) {
		fprintf(stderr,
			"mixprof: bad --minwidth '%s' (pixels, or "
			"a percentage like 0.5%%)\n",
			arg);
		return -EINVAL;
	}
	o->minwidth = v;
	o->minwidth_pct = *end == '%';
	return 0;
}

int cmd__option(struct fg_opts *o, int c, const char *arg)
{
	int s;

	switch (c) {
	case OPT_TITLE:
		o->title = arg;
		return 0;
	case OPT_SUBTITLE:
		o->subtitle = arg;
		return 0;
	case OPT_COUNTNAME:
		o->countname = arg;
		return 0;
	case OPT_INVERTED:
		o->inverted = true;
		return 0;
	case OPT_MINWIDTH:
		return parse_minwidth(o, arg);
	case OPT_WIDTH:
		if (parse_uint(arg, 100, 100000, &o->width))
			return 0;
		fprintf(stderr, "mixprof: bad --width '%s' (100 to 100000)\n",
			arg);
		return -EINVAL;
	case OPT_HEIGHT:
		if (parse_uint(arg, 4, 100, &o->frame_height))
			return 0;
		fprintf(stderr, "mixprof: bad --height '%s' (4 to 100)\n", arg);
		return -EINVAL;
	case OPT_COLORS:
		s = palette__scheme_parse(arg);
		if (s >= 0) {
			o->scheme = s;
			return 0;
		}
		fprintf(stderr, "mixprof: unknown --colors '%s' (one of: %s)\n",
			arg, palette__scheme_names());
		return -EINVAL;
	}
	return 1;
}

FILE *cmd__open_out(const char *path)
{
	FILE *out;

	if (!path || !strcmp(path, "-"))
		return stdout;
	/* never through a link or into another user's file (safefile.h) */
	out = safefile__fcreate(path);
	if (!out)
		fprintf(stderr, "mixprof: %s: %s\n", path,
			safefile__strerror(errno));
	return out;
}

int cmd__close_out(FILE *out, const char *path, int err)
{
	const char *shown = !path || !strcmp(path, "-") ? "<stdout>" : path;

	if (fflush(out) && !err)
		err = -errno; /* ENOSPC, not a bare I/O error */
	if (out != stdout && fclose(out) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "mixprof: %s: %s\n", shown, strerror(-err));
	return err ? 1 : 0;
}
