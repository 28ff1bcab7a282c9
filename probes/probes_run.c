/*
 * probes_run: one probe run's connection to the agent (probes_run.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "attach/agentfiles.h"
#include "attach/probectl.h"
#include "common/nsec.h"
#include "common/safename.h"
#include "probes_run.h"
#include "attach/procinfo.h"

#define OPEN_STEP_MS 100

struct probes_run {
	struct probes_run_cfg cfg;
	struct probectl *c;
	struct probe_count *table;
	unsigned sites;
	bool gone; /* connection lost: counts are the last read */
	int tmpfd; /* the JVM's /tmp (O_PATH), for its socket once it dies */
	char replaced[8192]; /* the agent's last "replaced" reply */
	struct procfs_status st; /* the JVM's uid and pid as it sees it */
};

/*
 * Keep what removing the agent's socket needs after the JVM is gone:
 * its /tmp (through /proc/PID/root, which dies with it), its uid, its
 * own pid number. -1 in tmpfd when any is missing: nothing is removed.
 */
static void keep_socket_dir(struct probes_run *pr)
{
	if (!procfs__read_status(pr->cfg.pid, &pr->st))
		pr->tmpfd = procinfo__open_tmp(pr->cfg.pid);
	if (pr->tmpfd < 0)
		pr->tmpfd = -1;
}

/* Whether the JVM has ended (a zombie has: its agent is gone). */
static bool jvm_ended(int pid)
{
	struct procfs_status st;
	int ret = procfs__read_status(pid, &st);

	return ret == -ESRCH || (!ret && (st.state == 'Z' || st.state == 'X'));
}

/*
 * A JVM killed (SIGKILL, a crash) cannot remove its control socket, and
 * a stale one of another user makes the next JVM with that pid refuse to
 * serve probes. Remove it when the JVM has ended: only a socket (never a
 * link, never followed) that belongs to the JVM's user.
 */
static void remove_dead_socket(struct probes_run *pr)
{
	char name[64];
	struct stat st;

	if (pr->tmpfd < 0 || !jvm_ended(pr->cfg.pid))
		return;
	snprintf(name, sizeof(name), ".mixprof-jmap-%d", (int)pr->st.nspid);
	if (!fstatat(pr->tmpfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISSOCK(st.st_mode) && st.st_uid == pr->st.euid)
		unlinkat(pr->tmpfd, name, 0);
}

static void open_error(int pid, int ret)
{
	char msg[1024];
	bool present;

	if (ret == -ENOENT && !procinfo__jvm(pid))
		fprintf(stderr, "mixprof: -e: process %d is not a JVM\n", pid);
	else if (ret == -ENOENT &&
		 agentfile__check(pid, AGENTFILE_SOCKET, &present, msg,
				  sizeof(msg)) == 1)
		fprintf(stderr,
			"mixprof: -e: JVM %d: %s: its agent will not serve "
			"probes on it; remove it and run mixprof again\n",
			pid, msg);
	else if (ret == -ENOENT)
		fprintf(stderr,
			"mixprof: -e: JVM %d has no probe control socket "
			"(agent not loaded, --no-attach, or started with "
			"probes=off or dir=)\n",
			pid);
	else if (ret == -EBUSY)
		fprintf(stderr,
			"mixprof: -e: another client holds the probes of "
			"JVM %d\n",
			pid);
	else if (ret != -EINTR)
		fprintf(stderr, "mixprof: -e: JVM %d: %s\n", pid,
			strerror(-ret));
}

int probes_run__open(const struct probes_run_cfg *cfg, int timeout_ms,
		     bool (*give_up)(void *arg), void *arg,
		     struct probes_run **out)
{
	struct probes_run *pr = calloc(1, sizeof(*pr));
	int ret = -ENOMEM, left = timeout_ms;

	if (pr)
		pr->tmpfd = -1;
	if (!pr || !(pr->table = probe_count__new()))
		goto fail;
	pr->cfg = *cfg;
	/* in steps, so a launched JVM that dies or a Ctrl-C ends the wait */
	for (;;) {
		int step = left < OPEN_STEP_MS ? left : OPEN_STEP_MS;

		ret = probectl__open(cfg->pid, NULL, step, &pr->c);
		left -= step;
		if (ret != -ENOENT || left <= 0)
			break;
		if (give_up && give_up(arg)) {
			ret = -EINTR;
			break;
		}
	}
	if (ret)
		goto fail;
	keep_socket_dir(pr);
	*out = pr;
	return 0;
fail:
	open_error(cfg->pid, ret);
	probes_run__close(pr);
	return ret;
}

/*
 * "mixprof: -e 'P': why". The agent's messages name the pattern again
 * and speak its protocol ("add 'wait'"): keep only the reason.
 */
/*
 * A pattern whose class has no package ("java:Servlet.doGet": one '.'
 * before any '(' and no '/'): classes match with their package, which
 * users of other tools often leave out.
 */
static bool lacks_package(const char *pattern)
{
	const char *p = strchr(pattern, ':'), *end;
	int dots = 0;

	p = p ? p + 1 : pattern;
	end = strchr(p, '(');
	for (; *p && p != end; p++) {
		if (*p == '/' || *p == '*')
			return false;
		dots += *p == '.';
	}
	return dots == 1;
}

static void add_error(const char *pattern, int ret, char *err)
{
	char shown[SAFENAME_SIZE(512)];
	const char *why = err;
	char *p;

	if (ret == -ENOENT && lacks_package(pattern)) {
		const char *m = strchr(pattern, ':');

		fprintf(stderr,
			"mixprof: -e '%s': no loaded method matches (a class "
			"is matched with its package: if it has one, try "
			"'java:*.%s')\n",
			pattern, m ? m + 1 : pattern);
		return;
	}
	if (ret == -ENOENT)
		why = "no loaded method matches";
	else if (ret == -EINVAL && (p = strstr(err, "': ")))
		why = p + 3;
	else if (!*err)
		why = strerror(-ret);
	/* the agent's words: a hostile JVM writes them */
	fprintf(stderr, "mixprof: -e '%s': %s%s\n", pattern,
		ret == -EINVAL ? "bad pattern: " : "",
		safename__show(shown, sizeof(shown), why));
}

int probes_run__add(struct probes_run *pr)
{
	unsigned flags = (pr->cfg.stacks ? PROBECTL_STACKS : 0) |
			 (pr->cfg.wait ? PROBECTL_WAIT : 0);
	unsigned id, n;
	char err[512];
	int i, ret;

	for (i = 0; i < pr->cfg.nr_patterns; i++) {
		const char *p = pr->cfg.patterns[i];

		err[0] = 0;
		ret = probectl__add(pr->c, p, flags, &id, &n, err, sizeof(err));
		if (ret) {
			add_error(p, ret, err);
			return ret;
		}
		pr->sites += n;
	}
	probe_count__tick(pr->table, nsec__now()); /* counting starts */
	return 0;
}

int probes_run__go(struct probes_run *pr)
{
	char reply[128];

	return probectl__request(pr->c, "go", reply, sizeof(reply));
}

unsigned probes_run__sites(const struct probes_run *pr)
{
	return pr->sites;
}

static int on_count(void *arg, unsigned site, unsigned probe, uint64_t count,
		    const char *name)
{
	return probe_count__set(arg, site, count, name);
}

int probes_run__poll(struct probes_run *pr)
{
	int ret;

	if (pr->gone)
		return -EPIPE;
	probe_count__tick(pr->table, nsec__now());
	ret = probectl__counts(pr->c, on_count, pr->table);
	if (ret && ret != -ENOMEM)
		pr->gone = true; /* the JVM went away: keep what we have */
	return ret && ret != -ENOMEM ? -EPIPE : ret;
}

struct probe_count *probes_run__table(struct probes_run *pr)
{
	return pr->table;
}

void probes_run__watch(struct probes_run *pr)
{
	if (!pr->gone && probectl__request(pr->c, "replaced", pr->replaced,
					   sizeof(pr->replaced)))
		pr->replaced[0] = 0; /* an agent without it, or gone */
}

/* [p, end) on stderr, what the JVM side sent, made safe (a hostile JVM
 * writes the reply); a class name dotted. */
static void put_clean(const char *p, const char *end, bool dots)
{
	size_t cap = SAFENAME_SIZE(end - p);
	char *s = malloc(cap);

	if (!s)
		return;
	safename__copy(s, cap, p, end - p, 0);
	for (char *c = s; dots && (c = strchr(c, '/')); c++)
		*c = '.';
	fputs(s, stderr);
	free(s);
}

/*
 * The calls the agent still finds inside old versions of the probed
 * classes' methods (agent/replaced.h), one line each: they run
 * interpreted until they return, also once the probes are gone.
 */
static void report_replaced(const struct probes_run *pr)
{
	const char *p = pr->replaced, *nl, *sp;
	bool head = false;

	for (; (nl = strchr(p, '\n')) && strncmp(p, "ok", 2); p = nl + 1) {
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (!sp)
			break;
		if (!head)
			fputs("mixprof: these calls were running when the "
			      "probes replaced their class and still run its "
			      "old version, interpreted (HotSpot never "
			      "compiles a replaced method), until they "
			      "return, also after mixprof ends:\n",
			      stderr);
		head = true;
		fprintf(stderr, "mixprof:   ");
		put_clean(p, sp, true);
		fprintf(stderr, " in thread '");
		put_clean(sp + 1, nl, false);
		fprintf(stderr, "'\n");
	}
}

/* A stopped JVM (SIGSTOP, a debugger) answers nothing: do not ask. */
static bool jvm_stopped(int pid)
{
	struct procfs_status st;

	return !procfs__read_status(pid, &st) &&
	       (st.state == 'T' || st.state == 't');
}

void probes_run__end(struct probes_run *pr)
{
	if (pr->c && !pr->gone && !jvm_stopped(pr->cfg.pid)) {
		probes_run__watch(pr);
		report_replaced(pr);
	}
	if (pr->c)
		probectl__close(pr->c);
	pr->c = NULL;
	pr->gone = true;
}

void probes_run__close(struct probes_run *pr)
{
	if (!pr)
		return;
	probes_run__end(pr);
	remove_dead_socket(pr);
	if (pr->tmpfd >= 0)
		close(pr->tmpfd);
	probe_count__free(pr->table);
	free(pr);
}
