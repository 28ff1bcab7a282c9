/*
 * attach_cmd: `mixprof attach PID [OPTIONS]`, the command line around
 * attach__jvm(). It checks the agent options with the agent's own
 * parser before the JVM is touched, and prints one line on failure.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agentpath.h"
#include "attach.h"
#include "agent/jmap_status.h"
#include "agent/options.h"

struct attach_args {
	pid_t pid;
	const char *options; /* NULL: the agent's defaults */
	const char
	    *agent; /* NULL: libjmap.so where agentpath__find() finds it */
	int timeout_ms;
};

static const char usage_text[] =
    "usage: mixprof attach PID [OPTIONS] [--agent PATH] [--timeout SECS]\n"
    "\n"
    "Load the libjmap agent into the running HotSpot JVM PID, which then\n"
    "writes /tmp/perf-<pid>.map for its JIT-compiled code (the pid the JVM\n"
    "sees: in a container, its namespace pid, under its own /tmp).\n"
    "\n"
    "  OPTIONS         agent options, key[=value] separated by commas;\n"
    "                  checked before the JVM is touched; 'help' lists them\n"
    "  --agent PATH    the agent (default: libjmap.so as mixprof finds it:\n"
    "                  $MIXPROF_AGENT, next to mixprof, ../lib/mixprof)\n"
    "  --timeout SECS  wait this long for the JVM's attach listener (5)\n"
    "  -h, --help      show this text\n"
    "\n"
    "Exit status: 0 attached (again: harmless); 1 attach failed (no such\n"
    "process, not a JVM, not answering, refused); 2 bad command line or\n"
    "agent options; 3 the agent started but returned an error.\n"
    "\n"
    "Examples:\n"
    "  mixprof attach 1234\n"
    "  mixprof attach 1234 dotted,lines\n"
    "  mixprof attach 1234 dir=/var/tmp --timeout 10\n"
    "  mixprof attach 1234 help\n";

static int usage_error(const char *fmt, const char *what)
{
	fprintf(stderr, "mixprof: attach: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, " (see 'mixprof attach --help')\n");
	return ATTACH_EXIT_USAGE;
}

/* A positive pid written in decimal, nothing else. */
static bool parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v <= 0 || v > INT_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

/* Seconds, fractions allowed, up to an hour. */
static bool parse_timeout(const char *s, int *ms)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v > 0) || v > 3600)
		return false;
	*ms = (int)(v * 1000 + 0.5);
	if (*ms == 0)
		*ms = 1;
	return true;
}

/* Fill *a from argv; returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, struct attach_args *a)
{
	int npos = 0;

	a->timeout_ms = ATTACH_TIMEOUT_MS;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			fputs(usage_text, stdout);
			return ATTACH_EXIT_OK;
		}
		if (!strcmp(arg, "--agent") || !strcmp(arg, "--timeout")) {
			if (i + 1 >= argc)
				return usage_error("%s needs a value", arg);
			val = argv[++i];
		} else if (!strncmp(arg, "--agent=", 8) ||
			   !strncmp(arg, "--timeout=", 10)) {
			val = strchr(arg, '=') + 1;
		}
		if (val && !strncmp(arg, "--agent", 7)) {
			a->agent = val;
		} else if (val) {
			if (!parse_timeout(val, &a->timeout_ms))
				return usage_error("bad --timeout '%s'", val);
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error("unknown option '%s'", arg);
		} else if (npos == 0) {
			if (!parse_pid(arg, &a->pid))
				return usage_error("bad PID '%s'", arg);
			npos++;
		} else if (npos == 1) {
			a->options = arg;
			npos++;
		} else {
			return usage_error("unexpected argument '%s'", arg);
		}
	}
	if (npos == 0)
		return usage_error("%s", "missing PID");
	return -1;
}

/* The agent as an absolute path without symlinks, as the JVM will need. */
static int resolve_agent(const char *given, char *out)
{
	char *found = given ? NULL : agentpath__find();
	int ret = -1;

	if (!given && !found) {
		fprintf(stderr,
			"mixprof: libjmap.so not found (next to "
			"mixprof, in ../lib/mixprof, or $MIXPROF_AGENT)\n");
		return ATTACH_EXIT_FAILED;
	}
	if (!realpath(given ? given : found, out)) {
		fprintf(stderr, "mixprof: agent %s: %s\n",
			given ? given : found, strerror(errno));
		ret = given ? ATTACH_EXIT_USAGE : ATTACH_EXIT_FAILED;
	}
	free(found);
	return ret;
}

/* Where the JVM's map can be read from here. */
static void report_success(pid_t pid, const struct jmap_options *o)
{
	int nspid = procinfo__nspid(pid);

	if (nspid > 0 && nspid != pid)
		printf("mixprof: attached to JVM %d; map: "
		       "/proc/%d/root%s/perf-%d.map\n",
		       (int)pid, (int)pid, strcmp(o->dir, "/") ? o->dir : "",
		       nspid);
	else
		printf("mixprof: attached to JVM %d; map: %s/perf-%d.map\n",
		       (int)pid, strcmp(o->dir, "/") ? o->dir : "", (int)pid);
}

int attach__cmd(int argc, char **argv)
{
	struct attach_args a = {0};
	struct jmap_options opts;
	char agent[PATH_MAX], err[512];
	int ret, status = 0;

	ret = parse_args(argc, argv, &a);
	if (ret >= 0)
		return ret;
	if (jmap_options__parse(a.options, &opts, err, sizeof(err))) {
		fprintf(stderr, "mixprof: bad agent options: %s\n", err);
		return ATTACH_EXIT_USAGE;
	}
	if (opts.help) {
		fputs(jmap_options__help(), stdout);
		return ATTACH_EXIT_OK;
	}
	ret = resolve_agent(a.agent, agent);
	if (ret >= 0)
		return ret;
	ret = attach__jvm(a.pid, agent, a.options, a.timeout_ms, &status, err,
			  sizeof(err));
	if (ret) {
		fprintf(stderr, "mixprof: %s\n", err);
		return ATTACH_EXIT_FAILED;
	}
	if (status != JMAP_OK) {
		fprintf(stderr,
			"mixprof: agent in JVM %d failed: %s (see the JVM's "
			"stderr)\n",
			(int)a.pid, jmap_status_str(status));
		return ATTACH_EXIT_AGENT;
	}
	report_success(a.pid, &opts);
	return ATTACH_EXIT_OK;
}
