/*
 * jvmprep: ready a running JVM for `mixprof -p` (see jvmprep.h).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach.h"
#include "jmap_status.h"
#include "jvmprep.h"
#include "launch.h"

/* Path of libjmap.so next to the mixprof binary, or NULL if absent. */
char *agent_path(void)
{
	char exe[4096], *path = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	if (asprintf(&path, "%s/libjmap.so", dirname(exe)) < 0)
		return NULL;
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* Is our agent (or the attacher's copy of it) mapped into pid? */
static bool has_agent(uint32_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = strstr(line, "libjmap") != NULL;
	free(line);
	fclose(f);
	return found;
}

/* Load the map agent into JVM pid; says why not, once. */
static void attach_agent(uint32_t pid)
{
	char *agent = agent_path(), err[256] = "";
	int status = 0, ret;

	if (!agent) {
		fprintf(stderr,
			"mixprof: %u: libjmap.so not found next to "
			"mixprof; Java frames will show as [unknown]\n",
			pid);
		return;
	}
	ret = hotspot_attach(pid, agent, NULL, ATTACH_TIMEOUT_MS, &status, err,
			     sizeof(err));
	free(agent);
	if (ret)
		fprintf(stderr,
			"mixprof: cannot load the map agent: %s; Java "
			"frames will show as [unknown]\n",
			err);
	else if (status != JMAP_OK)
		fprintf(stderr,
			"mixprof: %u: map agent failed: %s; Java "
			"frames will show as [unknown]\n",
			pid, jmap_status_str(status));
}

/*
 * A JVM profiled with -p needs our agent for Java names, and frame
 * pointers in compiled code for whole stacks.
 */
void jvmprep(uint32_t pid, bool attach)
{
	if (!proc_is_jvm(pid))
		return;
	if (attach && !has_agent(pid))
		attach_agent(pid);
	/* the HotSpot unwinder needs no flag: the summary tells how many
	 * stacks reached their thread's root */
	if (launch__needs_fp() && !hotspot_preserves_fp(pid))
		fprintf(stderr,
			"mixprof: %u: JVM runs without "
			"-XX:+PreserveFramePointer: callers of compiled Java "
			"code are lost or wrong; restart it with that flag, "
			"or launch it through mixprof\n",
			pid);
}
