/*
 * check_jvm: `mixprof check`'s Java lines (check.h): the JDKs installed,
 * and with -p a target's lines: a HotSpot JVM? its VMStructs tables read
 * (jvm/hotspot.h, as a run reads them)? its stacks walked (a real 1 s
 * profile of it, by this same binary, its folded lines counted)?
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check/check.h"
#include "common/procfs.h"
#include "common/safefile.h"
#include "check/hints.h"
#include "jvm/hotspot.h"
#include "stacks/stackfold.h"

#define MAX_JDKS 32
#define SAMPLE_SECS "1" /* the -p profile: ~99 samples of a busy thread */

/* The JDK homes seen so far (real paths), to list each once. */
struct jdks {
	char *home[MAX_JDKS];
	int n;
};

/*
 * JAVA_VERSION and IMPLEMENTOR of home/release, into ver and who. A home
 * on PATH or in JAVA_HOME may be anyone's: a regular file only, no link,
 * no FIFO to wait on.
 */
static void jdk_release(const char *home, char *ver, char *who, size_t len)
{
	static const struct safe_in release = {.uid = SAFE_ANY_UID,
					       .max_size = 64 << 10};
	char path[PATH_MAX + 16], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/release", home);
	f = safefile__fopen_in(AT_FDCWD, path, &release);
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "JAVA_VERSION=\"", 14))
			snprintf(ver, len, "%.*s",
				 (int)strcspn(line + 14, "\"\n"), line + 14);
		if (!strncmp(line, "IMPLEMENTOR=\"", 13))
			snprintf(who, len, "%.*s",
				 (int)strcspn(line + 13, "\"\n"), line + 13);
	}
	if (f)
		fclose(f);
}

/* A JDK home (any path to it) listed once, named by how it was found. */
static void jdk_add(struct check *c, struct jdks *j, const char *dir,
		    const char *how)
{
	char java[PATH_MAX + 16], ver[64] = "?", who[64] = "?";
	char *home = realpath(dir, NULL);
	bool hotspot;

	snprintf(java, sizeof(java), "%s/bin/java", home ? home : "");
	if (!home || access(java, X_OK) || j->n == MAX_JDKS) {
		free(home);
		return;
	}
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->home[i], home)) {
			free(home);
			return;
		}
	j->home[j->n++] = home;
	jdk_release(home, ver, who, sizeof(ver));
	snprintf(java, sizeof(java), "%s/lib/server/libjvm.so", home);
	hotspot = !access(java, R_OK);
	check__say(c, hotspot ? CHECK_OK : CHECK_WARN,
		   hints__need(HINT_HOTSPOT), "JDK %s (%s) at %s (%s)%s", ver,
		   who, home, how,
		   hotspot ? "" : ": no lib/server/libjvm.so, not HotSpot");
}

/* The JDK of the first executable "java" on PATH: dir of dir of it. */
static void jdk_on_path(struct check *c, struct jdks *j)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : ""), *save, *d;
	char java[PATH_MAX + 8], *real;

	for (d = strtok_r(copy, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(java, sizeof(java), "%s/java", d);
		if (access(java, X_OK))
			continue;
		real = realpath(java, NULL);
		if (real && strlen(real) > 9 &&
		    !strcmp(real + strlen(real) - 9, "/bin/java")) {
			real[strlen(real) - 9] = 0;
			jdk_add(c, j, real, "java on PATH");
		}
		free(real);
		break;
	}
	free(copy);
}

void check__jdks(struct check *c)
{
	struct jdks j = {};
	struct dirent **e = NULL;
	char dir[PATH_MAX];
	int n;

	if (getenv("JAVA_HOME"))
		jdk_add(c, &j, getenv("JAVA_HOME"), "JAVA_HOME");
	jdk_on_path(c, &j);
	n = scandir("/usr/lib/jvm", &e, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "/usr/lib/jvm/%s", e[i]->d_name);
		if (e[i]->d_name[0] != '.')
			jdk_add(c, &j, dir, "/usr/lib/jvm");
		free(e[i]);
	}
	free(e);
	if (!j.n)
		check__say(c, CHECK_WARN, hints__need(HINT_JDK),
			   "JDKs: none found (JAVA_HOME, java on PATH, "
			   "/usr/lib/jvm)");
	for (int i = 0; i < j.n; i++)
		free(j.home[i]);
}

/* Why the tables could not be read, and what to do. */
static const char *tables_fix(int err, char *buf, size_t len)
{
	struct hints_host h;

	hints__host(&h);
	switch (err) {
	case EPERM:
	case EACCES:
		return hints__grant(&h, "SYS_PTRACE", buf, len);
	case EAGAIN:
		return hints__need(HINT_JVM_STARTING);
	case ENOENT:
		return hints__need(HINT_JVM_LAYOUT);
	default:
		return hints__need(HINT_JVM_WALK);
	}
}

/* The tables, as a run reads them: true when read. */
static bool check_tables(struct check *c, uint32_t pid)
{
	struct hotspot_thread t[1];
	const struct hotspot_layout *l;
	struct hotspot *h = hotspot__open(pid);
	char fix[256];
	int threads;

	if (!h) {
		check__say(c, CHECK_NO, tables_fix(errno, fix, sizeof(fix)),
			   "pid %u: VMStructs tables: %s (%s)", pid,
			   strerror(errno), strerrorname_np(errno));
		return false;
	}
	l = hotspot__layout(h);
	threads = hotspot__threads_read(hotspot__mem(h), &l->u, t, 1);
	check__say(c, l->u.ok ? CHECK_OK : CHECK_WARN,
		   hints__need(HINT_JVM_WALK),
		   "pid %u: VMStructs tables read: interpreter at %#llx, %u "
		   "code heaps, Java threads %s, compiled-frame unwinding %s",
		   pid, (unsigned long long)l->interp_start, l->u.nheaps,
		   threads > 0 ? "listed" : "not listed",
		   l->u.ok ? "known" : "unknown");
	hotspot__free(h);
	return true;
}

/* What a profile of the target said, counted from its folded lines. */
struct walked {
	unsigned long long samples, whole, java;
};

/* One folded line "comm;outermost;...;leaf count" (user stacks only). */
static void count_line(struct walked *w, const char *line)
{
	const char *first = strchr(line, ';'), *sp = strrchr(line, ' ');
	unsigned long long n;

	if (!first || !sp || sscanf(sp, " %llu", &n) != 1)
		return;
	w->samples += n;
	first++;
	if (stackfold__is_root(first, strcspn(first, "; ")))
		w->whole += n;
	if (strstr(line, "_[j];") || strstr(line, "_[j] ") ||
	    strstr(line, "_[0]") || strstr(line, "_[i]"))
		w->java += n;
}

/*
 * A real profile of pid for SAMPLE_SECS by this binary (user stacks,
 * quiet), its folded lines counted into *w; its stderr kept in *err
 * (a memfd) for a failure. The child's exit status, or -errno.
 */
static int profile_pid(uint32_t pid, struct walked *w, int err)
{
	char arg[16], *line = NULL;
	size_t cap = 0;
	int out[2], st;
	pid_t child;
	FILE *f;

	snprintf(arg, sizeof(arg), "%u", pid);
	if (pipe2(out, O_CLOEXEC))
		return -errno;
	child = fork();
	if (child == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		execl("/proc/self/exe", "mixprof", "-q", "-U", "-p", arg,
		      SAMPLE_SECS, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	f = child > 0 ? fdopen(out[0], "r") : NULL;
	while (f && getline(&line, &cap, f) > 0)
		count_line(w, line);
	free(line);
	if (f)
		fclose(f);
	else
		close(out[0]);
	if (child < 0 || waitpid(child, &st, 0) < 0)
		return -ECHILD;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last line the profile wrote on stderr, into buf. */
static void last_err(int fd, char *buf, size_t len)
{
	char all[4096];
	ssize_t n = pread(fd, all, sizeof(all) - 1, 0);
	char *p;

	all[n > 0 ? n : 0] = 0;
	while ((p = strrchr(all, '\n')) && !p[1])
		*p = 0;
	p = strrchr(all, '\n');
	p = p ? p + 1 : all;
	n = strnlen(p, len - 1);
	memcpy(buf, p, n);
	buf[n] = 0;
}

static void check_stacks(struct check *c, uint32_t pid)
{
	int err = memfd_create("mixprof-check", MFD_CLOEXEC);
	struct walked w = {};
	char msg[512];
	bool ok;
	int st = err < 0 ? -errno : profile_pid(pid, &w, err);

	if (st) {
		if (err >= 0)
			last_err(err, msg, sizeof(msg));
		check__say(c, CHECK_NO, "the lines above, or run it with -v",
			   "pid %u: a %s s profile failed (%d): %s", pid,
			   SAMPLE_SECS, st, err >= 0 ? msg : strerror(-st));
	} else if (!w.samples) {
		check__say(c, CHECK_WARN, hints__need(HINT_JVM_IDLE),
			   "pid %u: no samples in %s s (idle?)", pid,
			   SAMPLE_SECS);
	} else {
		/* whole: most stacks reach a root; Java: some are named */
		ok = w.java && w.whole * 2 >= w.samples;
		check__say(
		    c, ok ? CHECK_OK : CHECK_WARN, hints__need(HINT_JVM_WALK),
		    "pid %u: stacks walked: %.0f%% of %llu samples in %s "
		    "s reach their thread's root, %.0f%% with Java "
		    "frames",
		    pid, 100.0 * w.whole / w.samples, w.samples, SAMPLE_SECS,
		    100.0 * w.java / w.samples);
	}
	if (err >= 0)
		close(err);
}

void check__jvm(struct check *c, uint32_t pid)
{
	char comm[16] = "?", path[4096];
	int tgid = procfs__tgid(pid);

	if (tgid <= 0 || !procfs__alive(tgid)) {
		check__say(c, CHECK_NO, "give the pid of a running JVM",
			   "pid %u: no such process", pid);
		return;
	}
	procfs__read_comm(tgid, comm);
	if (hotspot__libjvm(tgid, path, sizeof(path))) {
		check__say(c, CHECK_NO, hints__need(HINT_JVM_PID),
			   "pid %d (%s): not a HotSpot JVM (no libjvm.so "
			   "mapped)",
			   tgid, comm);
		return;
	}
	check__say(c, CHECK_OK, NULL, "pid %d (%s): a HotSpot JVM (%s)", tgid,
		   comm, path);
	if (!check_tables(c, tgid))
		return;
	if (c->caps)
		check_stacks(c, tgid);
	else
		check__say(c, CHECK_NO, "the privileges above",
			   "pid %d: stacks not walked without privileges",
			   tgid);
}
