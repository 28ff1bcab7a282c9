/*
 * mixprof: the command-line entry. Subcommands dispatch to their own
 * modules; anything else is a profile run.
 */
#include <string.h>
#include "attach.h"
#include "profile.h"
#include "render.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "attach"))
		return attach_cmd(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "flamegraph"))
		return flamegraph_cmd(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "heatmap"))
		return heatmap_cmd(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "montage"))
		return montage_cmd(argc - 1, argv + 1);
	return profile_cmd(argc, argv);
}
