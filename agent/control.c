/*
 * control: the socket, its thread and the line protocol. See control.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "control.h"
#include "log.h"
#include "probes.h"

#define LINE_MAX_LEN 2048
#define HOLD_ENV "MIXPROF_JMAP_HOLD"
#define HOLD_MAX_S 10

/* control__hold: main waits here until the client says "go" or leaves */
static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static bool released; /* by "go" or the client leaving, maybe before */
static bool held; /* this JVM was held: its client polls counts */
static bool dying, last_read; /* control__hold_exit */

static JavaVM *jvm;
static int listen_fd = -1;
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

static int cmd_probe(JNIEnv *env, char *args, struct strbuf *r)
{
	char *save = NULL, *pat = strtok_r(args, " ", &save), *w, err[640];
	bool stacks = false, wait = false;
	unsigned id, n;

	if (!pat)
		return strbuf__adds(
		    r, "error usage: probe PATTERN [stacks] [wait]\n");
	while ((w = strtok_r(NULL, " ", &save))) {
		if (!strcmp(w, "stacks"))
			stacks = true;
		else if (!strcmp(w, "wait"))
			wait = true;
		else
			return strbuf__addf(r, "error unknown flag '%s'\n", w);
	}
	if (probes__add(env, pat, stacks, wait, &id, &n, err, sizeof(err)))
		return strbuf__addf(r, "error %s\n", err);
	return strbuf__addf(r, "ok %u %u\n", id, n);
}

static void release(void)
{
	pthread_mutex_lock(&hold_mu);
	released = true;
	last_read = dying; /* leaving counts as the last read */
	pthread_cond_broadcast(&hold_cv);
	pthread_mutex_unlock(&hold_mu);
}

/* The JVM is ending and the client has read the final counts. */
static void counts_read(void)
{
	pthread_mutex_lock(&hold_mu);
	if (dying) {
		last_read = true;
		pthread_cond_broadcast(&hold_cv);
	}
	pthread_mutex_unlock(&hold_mu);
}

int control__handle(JNIEnv *env, char *line, struct strbuf *r)
{
	char *args = strchr(line, ' ');
	unsigned np, ns;
	uint64_t strays;
	int n;

	if (args)
		*args++ = 0;
	if (!strcmp(line, "probe"))
		return cmd_probe(env, args ? args : "", r);
	if (args)
		return strbuf__addf(r, "error '%s' takes no arguments\n", line);
	if (!strcmp(line, "replaced")) {
		n = probes__replaced(env, r);
		return n < 0 ? n : strbuf__addf(r, "ok %d\n", n);
	}
	if (!strcmp(line, "counts") || !strcmp(line, "list")) {
		n = line[0] == 'c' ? probes__counts(env, r) : probes__list(r);
		if (line[0] == 'c')
			counts_read();
		if (n == -EIO) /* logged; the session goes on */
			return strbuf__adds(r, "error reading the counts\n");
		return n < 0 ? n : strbuf__addf(r, "ok %d\n", n);
	}
	if (!strcmp(line, "status")) {
		probes__status(env, &np, &ns, &strays);
		return strbuf__addf(r, "ok %u %u %llu\n", np, ns,
				    (unsigned long long)strays);
	}
	if (!strcmp(line, "clear")) {
		probes__clear(env);
		return strbuf__adds(r, "ok\n");
	}
	if (!strcmp(line, "go")) {
		release();
		return strbuf__adds(r, "ok\n");
	}
	return strbuf__addf(r,
			    "error unknown command '%.40s' "
			    "(probe, counts, list, replaced, status, clear, "
			    "go)\n",
			    line);
}

static void send_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* the client went away: the read sees it */
		p += w;
		n -= (size_t)w;
	}
}

/* Only root and the JVM's own user may probe it. */
static bool allowed(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		return false;
	return cr.uid == 0 || cr.uid == geteuid();
}

/* A second client while one is served: turn it away. */
static void refuse(const char *why)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	send_all(fd, why, strlen(why));
	close(fd);
}

/*
 * The thread is a JVM thread only while it works: a thread attached and
 * blocked in native code makes the JVM wait 300 ms for it at exit.
 */
static JNIEnv *attach(void)
{
	JavaVMAttachArgs aa = {JNI_VERSION_9, "mixprof-jmap probes", NULL};
	JNIEnv *env = NULL;

	if ((*jvm)->AttachCurrentThreadAsDaemon(jvm, (void **)&env, &aa))
		return NULL;
	return env;
}

static void detach(void)
{
	(*jvm)->DetachCurrentThread(jvm);
}

/* Run the complete lines in buf[0..*len); keep the partial rest. */
static int run_lines(int fd, char *buf, size_t *len, struct strbuf *r)
{
	char *nl, *p = buf;
	JNIEnv *env = memchr(buf, '\n', *len) ? attach() : NULL;

	if (memchr(buf, '\n', *len) && !env) {
		send_all(fd, "error the JVM is ending\n", 24);
		return -ESRCH;
	}

	while ((nl = memchr(p, '\n', *len - (size_t)(p - buf)))) {
		*nl = 0;
		if (nl > p && nl[-1] == '\r')
			nl[-1] = 0;
		strbuf__reset(r);
		if (control__handle(env, p, r)) {
			detach();
			return -ENOMEM;
		}
		send_all(fd, r->buf, r->len);
		p = nl + 1;
	}
	if (env)
		detach();
	*len -= (size_t)(p - buf);
	memmove(buf, p, *len);
	return *len >= LINE_MAX_LEN ? -E2BIG : 0;
}

/* Serve one client until it closes; then remove its probes. */
static void session(int fd)
{
	struct pollfd pf[2] = {{fd, POLLIN, 0}, {listen_fd, POLLIN, 0}};
	struct strbuf r = STRBUF_INIT;
	char buf[LINE_MAX_LEN];
	size_t len = 0;
	JNIEnv *env;
	ssize_t n;

	for (;;) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* the client first: when it has just left, the next one
		 * (already knocking) waits for the removal, not "busy" */
		if (!pf[0].revents) {
			if (pf[1].revents & POLLIN)
				refuse("error busy: another client is using "
				       "the probes\n");
			continue;
		}
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (run_lines(fd, buf, &len, &r))
			break;
	}
	close(fd);
	strbuf__release(&r);
	release(); /* a client that left without "go" must not stall main */
	env = attach();
	if (env) {
		probes__clear(env);
		detach();
	}
}

/* Whether nobody listens on socket name in dirfd (a dead JVM's). */
static bool unanswered(int dirfd, const char *name)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd, ret;

	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path),
			     "/proc/self/fd/%d/%s", dirfd,
			     name) >= sizeof(sa.sun_path))
		return false;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	ret = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	ret = ret && errno == ECONNREFUSED;
	close(fd);
	return ret;
}

/*
 * A JVM that was killed leaves its socket behind, and a JVM of another
 * user that gets its pid then cannot serve probes. Remove those of our
 * user in dir whose pid is gone: a socket (lstat, never followed), no
 * such process here, and nobody listening (a JVM in another pid
 * namespace sharing the directory may still use it).
 */
static void sweep_stale(const char *dir)
{
	const char *prefix = ".mixprof-jmap-";
	struct dirent *de;
	struct stat st;
	char *end;
	long pid;
	int dfd;
	DIR *d;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		pid = strtol(de->d_name + strlen(prefix), &end, 10);
		if (*end || pid <= 0 || pid == getpid() ||
		    !(kill((pid_t)pid, 0) && errno == ESRCH) ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISSOCK(st.st_mode) || st.st_uid != geteuid() ||
		    !unanswered(dfd, de->d_name))
			continue;
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

static void *serve(void *arg)
{
	char dir[sizeof(sock_path)];
	int fd;

	/* here, not in VMInit or the attach: reading the directory can take
	 * a while and the JVM need not wait for it */
	snprintf(dir, sizeof(dir), "%.*s",
		 (int)(strrchr(sock_path, '/') - sock_path), sock_path);
	sweep_stale(dir[0] ? dir : "/");
	for (;;) {
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			jmap_log("%s: accept: %s; probes disabled", sock_path,
				 strerror(errno));
			return NULL;
		}
		if (allowed(fd)) {
			session(fd);
			continue;
		}
		send_all(fd, "error permission denied\n", 24);
		close(fd);
	}
}

/* A stale socket of ours (same pid in an earlier JVM) may go; anything
 * else at the path is someone else's and stops us. */
static int clear_path(void)
{
	struct stat st;

	if (lstat(sock_path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid())
		return -EEXIST;
	return unlink(sock_path) ? -errno : 0;
}

static int bind_socket(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd, ret;

	ret = clear_path();
	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, sock_path, sizeof(sock_path));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    chmod(sock_path, 0600) || listen(fd, 4)) {
		ret = -errno;
		close(fd);
		unlink(sock_path);
		return ret;
	}
	listen_fd = fd;
	return 0;
}

int control__start(JavaVM *vm, const char *dir)
{
	pthread_attr_t at;
	pthread_t t;
	int ret;

	if (listen_fd >= 0)
		return 0;
	jvm = vm;
	if ((size_t)snprintf(sock_path, sizeof(sock_path),
			     "%s/.mixprof-jmap-%d", dir,
			     (int)getpid()) >= sizeof(sock_path)) {
		jmap_log("%s: socket path too long; probes disabled", dir);
		return -1;
	}
	ret = bind_socket();
	if (ret) {
		jmap_log("%s: %s; probes disabled", sock_path,
			 ret == -EEXIST ? "exists and is not our socket"
					: strerror(-ret));
		return -1;
	}
	if (pthread_attr_init(&at) ||
	    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) ||
	    pthread_create(&t, &at, serve, NULL)) {
		jmap_log("cannot start the probe thread; probes disabled");
		close(listen_fd);
		listen_fd = -1;
		unlink(sock_path);
		return -1;
	}
	pthread_attr_destroy(&at);
	return 0;
}

/*
 * Launched by mixprof -e (HOLD_ENV names our parent, so JVMs the program
 * starts in turn do not wait): keep main from running until the client
 * has added its probes, so calls from main's first lines are counted.
 */
void control__hold(void)
{
	const char *v = getenv(HOLD_ENV);
	struct timespec until;
	int ret = 0;

	if (!v || listen_fd < 0 || atoi(v) != (int)getppid())
		return;
	held = true;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HOLD_MAX_S;
	pthread_mutex_lock(&hold_mu);
	while (!released && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&hold_cv, &hold_mu, &until);
	pthread_mutex_unlock(&hold_mu);
	if (ret == ETIMEDOUT)
		jmap_log("no probe client within %d s; running", HOLD_MAX_S);
}

/*
 * A held JVM's counts live in the JVM: at VM death, wait (at most 1 s)
 * for the client's next "counts" so it reads the final ones, and can
 * name the stacks while the process still exists.
 */
void control__hold_exit(void)
{
	struct timespec until;
	int ret = 0;

	if (!held)
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 1;
	pthread_mutex_lock(&hold_mu);
	dying = true;
	while (!last_read && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&hold_cv, &hold_mu, &until);
	pthread_mutex_unlock(&hold_mu);
}

void control__stop(void)
{
	if (listen_fd >= 0)
		unlink(sock_path);
}
