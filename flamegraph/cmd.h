/*
 * cmd: what the three subcommands share (internal to flamegraph/): the
 * rendering options every one of them takes, and output handling.
 */
#ifndef MIXPROF_FG_CMD_H
#define MIXPROF_FG_CMD_H

#include <getopt.h>
#include <stdio.h>
#include "render.h"

enum {
	OPT_TITLE = 0x100,
	OPT_SUBTITLE,
	OPT_WIDTH,
	OPT_MINWIDTH,
	OPT_COUNTNAME,
	OPT_COLORS,
	OPT_INVERTED,
	OPT_HEIGHT,
	OPT_CMD_FIRST, /* a command's own options start here */
};

/* Option tables read better aligned by hand. */
/* clang-format off */
#define FG_COMMON_LONGOPTS						\
	{ "title", required_argument, NULL, OPT_TITLE },		\
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },		\
	{ "width", required_argument, NULL, OPT_WIDTH },		\
	{ "height", required_argument, NULL, OPT_HEIGHT },		\
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },		\
	{ "countname", required_argument, NULL, OPT_COUNTNAME },	\
	{ "colors", required_argument, NULL, OPT_COLORS },		\
	{ "colours", required_argument, NULL, OPT_COLORS },		\
	{ "inverted", no_argument, NULL, OPT_INVERTED },		\
	{ "output", required_argument, NULL, 'o' },			\
	{ "help", no_argument, NULL, 'h' }

/* -o is every renderer's but montage's, which writes into its DIR */
#define FG_COMMON_USAGE FG_COMMON_USAGE_NO_OUTPUT				\
"  -o, --output FILE   write FILE instead of standard output\n"

#define FG_COMMON_USAGE_NO_OUTPUT						\
"  --title TEXT        title (default: Flame Graph)\n"			\
"  --subtitle TEXT     second title line\n"				\
"  --width PIXELS      image width (default 1200)\n"			\
"  --height PIXELS     frame height (default 16)\n"			\
"  --minwidth N[%]     leave out frames narrower than N pixels, or N%\n" \
"                      of all samples (default 0.1 pixels)\n"		\
"  --countname NAME    what counts are (default: samples)\n"		\
"  --colors SCHEME     java (default), hot, mem, io, red, green, blue,\n" \
"                      aqua, yellow, orange\n"				\
"  --inverted          icicle graph: root at the top\n"
/* clang-format on */

/*
 * Apply shared option c with argument arg. 0 when handled, 1 when c is
 * not a shared option, -EINVAL after printing what is wrong.
 */
int cmd__option(struct fg_opts *o, int c, const char *arg);

/* Open path for writing, "-" or NULL being stdout; error printed. */
FILE *cmd__open_out(const char *path);
/* Close what cmd__open_out() gave; report err or a failed close
 * naming path. Returns the exit status: 0 or 1. */
int cmd__close_out(FILE *out, const char *path, int err);

#endif
