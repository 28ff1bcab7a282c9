/*
 * mixprof: the command-line entry. Subcommands dispatch to their own
 * modules; anything else is a profile run. Every subcommand prints its
 * errors under the one prefix "mixprof:" (getopt takes argv[0] for it).
 */
#include <stdio.h>
#include <string.h>
#include "attach/attach.h"
#include "check/check.h"
#include "profile.h"
#include "flamegraph/render.h"
#include "profiler/version.h"

struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct subcmd subcmds[] = {
    {"attach", attach__cmd},	     {"check", check__cmd},
    {"flamegraph", flamegraph__cmd}, {"heatmap", heatmap__cmd},
    {"montage", montage__cmd},	     {NULL, NULL},
};

static const struct subcmd *subcmd_of(const char *name)
{
	for (const struct subcmd *s = subcmds; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/* mixprof help [SUBCOMMAND]: that command's --help. */
static int help_cmd(int argc, char **argv)
{
	char *args[] = {"mixprof", "--help", NULL};
	const struct subcmd *s;

	if (argc < 2)
		return profile__cmd(2, args);
	s = subcmd_of(argv[1]);
	if (!s || argc > 2) {
		fprintf(stderr,
			"mixprof: help: no such command '%s' (attach, "
			"check, flamegraph, heatmap, montage, or none: "
			"profiling)\n",
			argv[1]);
		return 2;
	}
	return s->run(2, args);
}

int main(int argc, char **argv)
{
	const struct subcmd *s;

	if (argc > 1 &&
	    (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("mixprof %s\n", MIXPROF_VERSION);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "help"))
		return help_cmd(argc - 1, argv + 1);
	s = argc > 1 ? subcmd_of(argv[1]) : NULL;
	if (!s)
		return profile__cmd(argc, argv);
	argv[1] = "mixprof";
	return s->run(argc - 1, argv + 1);
}
