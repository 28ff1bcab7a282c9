/*
 * cmd_montage: mixprof montage [OPTIONS] DIR
 */
#include <errno.h>
#include <string.h>
#include "cmd.h"

enum { OPT_HTML = OPT_CMD_FIRST };

/* clang-format off */
static const char usage[] =
"usage: mixprof montage [OPTIONS] DIR\n"
"Reads DIR/slices.tsv (written by mixprof -o DIR -i SECS), renders each\n"
"slice to DIR/slice-NNNN.svg and writes DIR/index.html: thumbnails in\n"
"time order with samples and top self frames, each opening its graph.\n"
"  --html              render slices as HTML pages instead of SVG\n"
FG_COMMON_USAGE_NO_OUTPUT;
/* clang-format on */

static const struct option longopts[] = {
    FG_COMMON_LONGOPTS,
    {"html", no_argument, NULL, OPT_HTML},
    {NULL, 0, NULL, 0},
};

int montage__cmd(int argc, char **argv)
{
	struct fg_opts o;
	bool html = false;
	int c, err;

	opts__init(&o);
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		err = cmd__option(&o, c, optarg);
		if (err < 0)
			return 2;
		if (!err)
			continue;
		if (c == OPT_HTML) {
			html = true;
		} else if (c == 'o') {
			fprintf(stderr, "mixprof: montage writes into DIR: "
					"leave out -o\n");
			return 2;
		} else if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (argc - optind != 1) {
		fputs(usage, stderr);
		return 2;
	}
	return montage__write(argv[optind], &o, html) ? 1 : 0;
}
