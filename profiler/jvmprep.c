/*
 * jvmprep: ready a running JVM for `mixprof -p` (see jvmprep.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach/agentfiles.h"
#include "attach/agentpath.h"
#include "common/procfs.h"
#include "attach/attach.h"
#include "agent/jmap_status.h"
#include "jvmprep.h"
#include "launch.h"

/* Is our agent (or the attacher's copy of it) mapped into pid? */
static bool has_agent(uint32_t pid)
{
	const char *p, *end;
	struct procfs_map m;
	bool found = false;
	size_t len;
	char *buf;
	int r;

	if (procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &buf, &len))
		return false;
	/* r < 0: a line that does not parse, skipped */
	for (p = buf, end = buf + len;
	     !found && (r = procfs__maps_next(&p, end, &m));)
		found = r > 0 && memmem(m.path, m.path_len, "libjmap", 7);
	free(buf);
	return found;
}

/* Load the map agent into JVM pid; says why not, once. */
static void attach_agent(uint32_t pid)
{
	char *agent = agentpath__find(), err[256] = "";
	int status = 0, ret;

	if (!agent) {
		fprintf(stderr,
			"mixprof: %u: libjmap.so not found (next to "
			"mixprof, in ../lib/mixprof, or $MIXPROF_AGENT); "
			"Java frames will show as [unknown]\n",
			pid);
		return;
	}
	ret = attach__jvm(pid, agent, NULL, ATTACH_TIMEOUT_MS, &status, err,
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

enum file_state { FILE_ABSENT, FILE_OK, FILE_REFUSED };

/*
 * The agent's file of kind for pid. When another user's file (or a link,
 * a FIFO...) squats the map's path, say which, whose and what to do; a
 * squatted socket is named by the probe run, which finds no socket.
 */
static enum file_state agent_file(uint32_t pid, enum agentfile kind)
{
	char msg[1024];
	bool present;
	int ret = agentfile__check(pid, kind, &present, msg, sizeof(msg));

	if (ret < 0)
		return FILE_ABSENT; /* the attach names the problem */
	if (!ret)
		return present ? FILE_OK : FILE_ABSENT;
	if (kind == AGENTFILE_MAP)
		fprintf(stderr,
			"mixprof: %u: %s: the agent will not write this JVM's "
			"map through it, so its Java frames show as "
			"[unknown]; remove it and run mixprof again\n",
			pid, msg);
	return FILE_REFUSED;
}

void jvmprep__launched(uint32_t pid)
{
	agent_file(pid, AGENTFILE_MAP);
}

/*
 * A JVM profiled with -p needs our agent for Java names (and for probes
 * its control socket), and frame pointers in compiled code for whole
 * stacks. The agent is loaded when the JVM lacks it, and for probes also
 * when its socket is missing: loading it where it runs is harmless and
 * makes it retry the socket (a file was in the way, removed since). A
 * file squatting the map's path is named instead of loading: the agent
 * would refuse it again.
 */
void jvmprep__target(uint32_t pid, bool attach, bool probes)
{
	enum file_state map, sock = FILE_OK;

	if (!procinfo__jvm(pid))
		return;
	map = agent_file(pid, AGENTFILE_MAP);
	if (probes)
		sock = agent_file(pid, AGENTFILE_SOCKET);
	if (attach && map != FILE_REFUSED &&
	    ((map == FILE_ABSENT && !has_agent(pid)) || sock == FILE_ABSENT)) {
		/* -e without --agent: the one case mixprof loads code into
		 * a JVM unasked; say so */
		if (probes)
			fprintf(stderr,
				"mixprof: -e: loading the map agent "
				"(libjmap.so) into JVM %u: the probes "
				"need it\n",
				pid);
		attach_agent(pid);
	}
	/* the HotSpot unwinder needs no flag: the summary tells how many
	 * stacks reached their thread's root */
	if (launch__needs_fp() && !attach__preserves_fp(pid))
		fprintf(stderr,
			"mixprof: %u: JVM runs without "
			"-XX:+PreserveFramePointer: callers of compiled Java "
			"code are lost or wrong; restart it with that flag, "
			"or launch it through mixprof\n",
			pid);
}
