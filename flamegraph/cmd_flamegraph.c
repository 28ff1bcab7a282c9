/*
 * cmd_flamegraph: mixprof flamegraph [OPTIONS] [IN.folded ...]
 * Folded files (or stdin) in, one SVG or HTML flame graph out.
 */
#include <errno.h>
#include <string.h>
#include "cmd.h"
#include "folded.h"

enum { OPT_HTML = OPT_CMD_FIRST, OPT_REVERSE, OPT_DIFF, OPT_NORMALIZE };

/* clang-format off */
static const char usage[] =
"usage: mixprof flamegraph [OPTIONS] [IN.folded ...] > out.svg\n"
"       mixprof flamegraph --diff [OPTIONS] BEFORE.folded AFTER.folded\n"
"Folded stacks (\"frame;...;frame COUNT\"; files merged, - or none is\n"
"stdin; pprof profiles and JFR recordings too) to an interactive flame\n"
"graph: click zooms, Ctrl-F searches.\n"
"  --html              an HTML page drawn on a canvas (big graphs)\n"
"  --reverse           reverse stacks: leaf functions at the root\n"
"  --diff              differential: widths from AFTER, red grew, blue\n"
"                      shrank (one file: \"stack BEFORE AFTER\" lines)\n"
"  --normalize         diff: scale BEFORE to AFTER's sample total\n"
FG_COMMON_USAGE;
/* clang-format on */

static const struct option longopts[] = {
    FG_COMMON_LONGOPTS,
    {"html", no_argument, NULL, OPT_HTML},
    {"reverse", no_argument, NULL, OPT_REVERSE},
    {"diff", no_argument, NULL, OPT_DIFF},
    {"normalize", no_argument, NULL, OPT_NORMALIZE},
    {NULL, 0, NULL, 0},
};

struct args {
	struct fg_opts o;
	const char *output;
	bool html, reverse;
};

/* 0, 1 after --help, or -EINVAL after printing why. */
static int parse_args(int argc, char **argv, struct args *a)
{
	int c, ret;

	opts__init(&a->o);
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		ret = cmd__option(&a->o, c, optarg);
		if (ret <= 0) {
			if (ret)
				return ret;
			continue;
		}
		switch (c) {
		case 'o':
			a->output = optarg;
			break;
		case OPT_HTML:
			a->html = true;
			break;
		case OPT_REVERSE:
			a->reverse = true;
			break;
		case OPT_DIFF:
			a->o.diff = true;
			break;
		case OPT_NORMALIZE:
			a->o.normalize = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			fputs(usage, stderr);
			return -EINVAL;
		}
	}
	if (a->o.diff && (argc - optind < 1 || argc - optind > 2)) {
		fprintf(stderr,
			"mixprof: --diff takes BEFORE and AFTER files "
			"(or one file of \"stack BEFORE AFTER\" lines)\n");
		return -EINVAL;
	}
	return 0;
}

/* Load the inputs named by argv[first..]; errors printed. */
static int load_inputs(struct fg_tree *t, const struct args *a, int argc,
		       char **argv, int first)
{
	struct fg_load_opts lo = {.reverse = a->reverse};
	int i, err = 0;

	if (a->o.diff) {
		if (argc - first == 1) {
			lo.two_counts = true;
			return folded__load_path(t, argv[first], &lo);
		}
		lo.slot = FG_SLOT_BASE;
		err = folded__load_path(t, argv[first], &lo);
		lo.slot = FG_SLOT_VALUE;
		return err ? err : folded__load_path(t, argv[first + 1], &lo);
	}
	if (first == argc)
		return folded__load_path(t, "-", &lo);
	for (i = first; i < argc && !err; i++)
		err = folded__load_path(t, argv[i], &lo);
	return err;
}

int flamegraph__cmd(int argc, char **argv)
{
	struct args a = {0};
	struct fg_tree *t;
	FILE *out;
	int err;

	err = parse_args(argc, argv, &a);
	if (err)
		return err > 0 ? 0 : 2;
	t = tree__new();
	if (!t) {
		fprintf(stderr, "mixprof: %s\n", strerror(errno));
		return 1;
	}
	err = load_inputs(t, &a, argc, argv, optind);
	if (!err && !tree__node(t, 0)->total[FG_SLOT_VALUE]) {
		fprintf(stderr, "mixprof: %s: no samples\n",
			argc - optind == 1 ? argv[optind]
			: argc == optind   ? "<stdin>"
					   : "input");
		err = -ENODATA;
	}
	if (err) {
		tree__free(t);
		return 1;
	}
	out = cmd__open_out(a.output);
	if (!out) {
		tree__free(t);
		return 1;
	}
	err = a.html ? flamegraph__write_html(t, &a.o, out)
		     : flamegraph__write_svg(t, &a.o, out);
	tree__free(t);
	return cmd__close_out(out, a.output, err);
}
