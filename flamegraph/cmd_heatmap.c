/*
 * cmd_heatmap: mixprof heatmap [OPTIONS] TIMED_FILE > heat.html
 */
#include <errno.h>
#include <string.h>
#include "cmd.h"

/* clang-format off */
static const char usage[] =
"usage: mixprof heatmap [OPTIONS] TIMED_FILE > heat.html\n"
"Timed samples (\"OFFSET_MS frame;...;frame COUNT\", - is stdin) to a\n"
"subsecond-offset heat map: seconds across, 20 ms rows down; drag across\n"
"cells to see the flame graph of that time range.\n"
FG_COMMON_USAGE;
/* clang-format on */

static const struct option longopts[] = {
    FG_COMMON_LONGOPTS,
    {NULL, 0, NULL, 0},
};

int heatmap__cmd(int argc, char **argv)
{
	const char *output = NULL;
	struct fg_timed *tm;
	struct fg_opts o;
	FILE *out;
	int c, err;

	opts__init(&o);
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		err = cmd__option(&o, c, optarg);
		if (err < 0)
			return 2;
		if (!err)
			continue;
		if (c == 'o') {
			output = optarg;
		} else if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fputs(usage, stderr);
		return 2;
	}
	tm = timed__new();
	if (!tm) {
		fprintf(stderr, "mixprof: %s\n", strerror(errno));
		return 1;
	}
	err = timed__load_path(tm, optind < argc ? argv[optind] : "-");
	out = err ? NULL : cmd__open_out(output);
	if (!out) {
		timed__free(tm);
		return 1;
	}
	err = heatmap__write_html(tm, &o, out);
	timed__free(tm);
	return cmd__close_out(out, output, err);
}
