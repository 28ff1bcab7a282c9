/*
 * attach_jvm: HotSpot's dynamic attach, client side.
 *
 * The JVM listens on the UNIX socket /tmp/.java_pid<nspid> (in its own
 * mount namespace) only after someone asked: a file .attach_pid<nspid>
 * in its working directory or /tmp, owned by its user, then SIGQUIT.
 * Everything in the JVM's namespace is reached through /proc/PID/root and
 * /proc/PID/cwd, opened while we are still ourselves; the socket is
 * connected through /proc/self/fd/N/, which also keeps sun_path short.
 *
 * Two attaches at once must send one SIGQUIT: a second one that arrives
 * after the listener started makes the JVM print a thread dump on its
 * stdout. Attachers serialise "is there a socket? trigger, signal, wait"
 * with flock on /proc/PID/environ: only root and the JVM's own user can
 * open it, so no stranger can hold the lock, and it needs no file of
 * ours anywhere.
 *
 * The JVM's user controls all of it, so nothing may wait on them for
 * good: the trigger is opened non-blocking (a FIFO is refused), connect
 * and send are bounded by SO_SNDTIMEO, every wait is sliced and gives up
 * when SIGINT, SIGTERM or SIGHUP is pending (mixprof -p blocks them to
 * take them in its loop, which then still writes the whole result).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "attach.h"
#include "common/stop.h"
#include "attach_agentfile.h"
#include "attach_creds.h"
#include "attach_proto.h"
#include "common/nsec.h"
#include "common/safefile.h"
#include "common/safename.h"

#define REPLY_MAX 8192
#define REPLY_TIMEOUT_MS 30000 /* Agent_OnAttach may replay a big code cache */
#define WAIT_SLICE_MS 100 /* how late a pending signal is noticed */
#define SEND_TIMEOUT_S 5 /* connect and send to a full socket */

struct target {
	pid_t pid;
	struct procfs_status st;
	int rootfd, tmpfd, cwdfd; /* the JVM's /, /tmp and cwd (O_PATH) */
	int lockfd; /* /proc/PID/environ, serialises SIGQUIT; -1: none */
	char sock[32]; /* ".java_pid<nspid>" below tmpfd */
	char trigger[32]; /* ".attach_pid<nspid>" */
};

/*
 * Format a reason into err and return the error, for one-line exits. The
 * reason may name what the target chose (its comm, a path under its
 * root): made safe to print (common/safename.h).
 */
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		safename__show(err, errlen, why);
	}
	return code;
}

static void target_close(struct target *t)
{
	if (t->rootfd >= 0)
		close(t->rootfd);
	if (t->tmpfd >= 0)
		close(t->tmpfd);
	if (t->cwdfd >= 0)
		close(t->cwdfd);
	if (t->lockfd >= 0)
		close(t->lockfd);
}

/*
 * Learn who pid is and open its directories while we are still root:
 * /proc/PID/root and /proc/PID/cwd need ptrace-read access, which the
 * JVM's own user may lack when the JVM is not dumpable.
 */
static int target_open(struct target *t, pid_t pid, char *err, size_t errlen)
{
	char path[64];
	int ret;

	t->pid = pid;
	t->rootfd = t->tmpfd = t->cwdfd = t->lockfd = -1;
	ret = procfs__read_status(pid, &t->st);
	if (ret == -ESRCH)
		return fail(err, errlen, ret, "no process %d", (int)pid);
	if (ret)
		return fail(err, errlen, ret, "/proc/%d/status: %s", (int)pid,
			    strerror(-ret));
	/* before reading its maps, which only its user (or root) may do */
	if (geteuid() != 0 && geteuid() != t->st.euid)
		return fail(err, errlen, -EPERM,
			    "process %d (%s) runs as uid %u: attach as that "
			    "user or as root",
			    (int)pid, t->st.name, (unsigned)t->st.euid);
	ret = procinfo__is_jvm(pid);
	if (ret == 0)
		return fail(err, errlen, -ENOEXEC,
			    "process %d (%s) is not a Java VM", (int)pid,
			    t->st.name);
	if (ret < 0)
		return fail(err, errlen, ret, "/proc/%d/maps: %s", (int)pid,
			    strerror(-ret));
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	t->rootfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->rootfd < 0)
		return fail(err, errlen, -errno, "%s: %s", path,
			    strerror(errno));
	ret =
	    procinfo__open_in_root(t->rootfd, "/tmp", O_PATH | O_DIRECTORY, 0);
	if (ret < 0)
		return fail(err, errlen, ret, "%s/tmp: %s", path,
			    strerror(-ret));
	t->tmpfd = ret;
	/* no cwd (deleted, unreadable) is fine: the trigger can go to /tmp */
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	t->cwdfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* while still root: a JVM that is not dumpable denies its user */
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	t->lockfd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(t->sock, sizeof(t->sock), ".java_pid%d", (int)t->st.nspid);
	snprintf(t->trigger, sizeof(t->trigger), ".attach_pid%d",
		 (int)t->st.nspid);
	return 0;
}

static bool socket_exists(struct target *t)
{
	struct stat st;

	return !fstatat(t->tmpfd, t->sock, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISSOCK(st.st_mode);
}

/*
 * Create the trigger in dirfd as the JVM's user. HotSpot ignores a file
 * owned by anyone but itself or root, and some file systems (NFS with
 * root squash, FUSE) give new files another owner: check and remove it.
 */
static int make_trigger(struct target *t, int dirfd)
{
	struct stat st;
	int fd, err = 0;

	if (dirfd < 0)
		return -ENOENT;
	/* non-blocking: a FIFO planted there must not hold us */
	fd = openat(dirfd, t->trigger,
		    O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL; /* not ours to remove */
	else if (st.st_uid != t->st.euid)
		err = -EPERM;
	close(fd);
	if (err == -EPERM)
		unlinkat(dirfd, t->trigger, 0);
	return err;
}

/*
 * Whether the user asked us to stop: the profiler's stop flag (its
 * handler took the signal), or a signal a caller keeps blocked, pending.
 */
static bool stop_pending(void)
{
	sigset_t p;

	if (stop__asked())
		return true;
	return !sigpending(&p) &&
	       (sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1 ||
		sigismember(&p, SIGHUP) == 1);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / NSEC_PER_MSEC;
}

/*
 * Take the attach lock of the JVM, waiting until wait_end at most: an
 * attacher holds it only until the socket appears (milliseconds), so a
 * long wait means a stuck JVM or a peer that went astray; then go on
 * unserialised, as without the lock. true when taken.
 */
static bool lock_listener(struct target *t, long wait_end)
{
	struct timespec nap = {0, 5000000};

	if (t->lockfd < 0)
		return false;
	while (flock(t->lockfd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return false;
		if (now_ms() >= wait_end)
			return false;
		nanosleep(&nap, NULL);
	}
	return true;
}

/* Trigger, SIGQUIT and wait for the socket, unless a racing attacher has
 * already made the JVM start its listener. */
static int ask_listener(struct target *t, long deadline, int timeout_ms,
			char *err, size_t errlen)
{
	int dirfd = t->cwdfd, ret = 0;
	struct timespec nap = {0, 0};

	if (socket_exists(t))
		return 0;
	/* SIGQUIT's default action kills: only send it to a handler */
	if (!t->st.quit_caught)
		return fail(err, errlen, -EHOSTDOWN,
			    "JVM %d does not handle SIGQUIT (run with -Xrs, or "
			    "still starting); not signalling it",
			    (int)t->pid);
	if (attach_flags__jvm_flag(t->pid, "DisableAttachMechanism") == 1)
		return fail(err, errlen, -EHOSTDOWN,
			    "JVM %d runs with -XX:+DisableAttachMechanism",
			    (int)t->pid);
	if (make_trigger(t, dirfd)) {
		dirfd = t->tmpfd;
		ret = make_trigger(t, dirfd);
		if (ret)
			return fail(err, errlen, ret,
				    "cannot create %s for JVM %d in its "
				    "working directory or /tmp: %s",
				    t->trigger, (int)t->pid,
				    safefile__strerror(ret));
	}
	if (kill(t->pid, SIGQUIT)) {
		ret = fail(err, errlen, -errno, "cannot signal JVM %d: %s",
			   (int)t->pid, strerror(errno));
		goto out_unlink;
	}
	/* short naps first: a live JVM answers in a few milliseconds */
	while (!socket_exists(t)) {
		if (stop_pending()) {
			ret = fail(err, errlen, -EINTR,
				   "interrupted while attaching to JVM %d",
				   (int)t->pid);
			break;
		}
		if (kill(t->pid, 0) && errno == ESRCH) {
			ret =
			    fail(err, errlen, -ESRCH,
				 "JVM %d exited while attaching", (int)t->pid);
			break;
		}
		if (now_ms() >= deadline) {
			ret = fail(err, errlen, -ETIMEDOUT,
				   "JVM %d did not start its attach listener "
				   "within %d ms (busy, or attach disabled "
				   "with -XX:+DisableAttachMechanism?)",
				   (int)t->pid, timeout_ms);
			break;
		}
		if (nap.tv_nsec < 200000000)
			nap.tv_nsec += 10000000;
		nanosleep(&nap, NULL);
	}
out_unlink:
	unlinkat(dirfd, t->trigger, 0);
	return ret;
}

/* Ask the JVM to start its attach listener and wait for the socket. */
static int start_listener(struct target *t, int timeout_ms, char *err,
			  size_t errlen)
{
	long deadline = now_ms() + timeout_ms;
	bool locked = lock_listener(t, deadline - timeout_ms / 2);
	int ret = ask_listener(t, deadline, timeout_ms, err, errlen);

	if (locked)
		flock(t->lockfd, LOCK_UN);
	return ret;
}

/* Connect to the JVM's socket; an fd or -errno. */
static int connect_jvm(struct target *t, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = SEND_TIMEOUT_S};
	struct stat st;
	int fd;

	if (fstatat(t->tmpfd, t->sock, &st, AT_SYMLINK_NOFOLLOW))
		return fail(err, errlen, -errno, "JVM %d: /tmp/%s: %s",
			    (int)t->pid, t->sock, strerror(errno));
	if (st.st_uid != t->st.euid)
		return fail(err, errlen, -EACCES,
			    "JVM %d: /tmp/%s belongs to uid %u, not to the "
			    "JVM's uid %u",
			    (int)t->pid, t->sock, (unsigned)st.st_uid,
			    (unsigned)t->st.euid);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
		 t->tmpfd, t->sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(err, errlen, -errno, "socket: %s", strerror(errno));
	/* a socket nobody accepts on would hold connect and send for good */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(fd);
		return fail(err, errlen, e == ECONNREFUSED ? -ECONNREFUSED : -e,
			    "JVM %d: connect to /tmp/%s: %s", (int)t->pid,
			    t->sock, strerror(e));
	}
	return fd;
}

static int send_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Read the whole reply (the JVM closes the socket after it); its length. */
static int read_reply(int fd, char *buf, size_t size, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	size_t len = 0;
	ssize_t n;
	int left;

	while (len < size) {
		left = (int)(deadline - now_ms());
		if (left <= 0)
			return -ETIMEDOUT;
		if (stop_pending())
			return -EINTR;
		n = poll(&p, 1, left < WAIT_SLICE_MS ? left : WAIT_SLICE_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			continue;
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += n;
	}
	return (int)len;
}

/* Send "load" and interpret the answer. */
static int load(struct target *t, int fd, const char *lib, const char *opts,
		int timeout_ms, int *agent_status, char *err, size_t errlen)
{
	char buf[REPLY_MAX];
	struct attach_reply r;
	int len;

	len =
	    attach_proto__request(buf, sizeof(buf), "load", lib, "true", opts);
	if (len < 0)
		return fail(err, errlen, len,
			    "agent path or options too long (%d bytes at most)",
			    ATTACH_ARG_MAX);
	len = send_all(fd, buf, len);
	if (len < 0)
		return fail(err, errlen, len, "JVM %d: sending the request: %s",
			    (int)t->pid, strerror(-len));
	len = read_reply(fd, buf, sizeof(buf), timeout_ms);
	if (len < 0)
		return fail(err, errlen, len == -ETIMEDOUT ? -ETIMEDOUT : len,
			    "JVM %d: no reply to the load request: %s",
			    (int)t->pid, strerror(-len));
	if (attach_proto__parse_load_reply(buf, len, &r))
		return fail(err, errlen, -EPROTO,
			    "JVM %d: unexpected reply '%.*s'", (int)t->pid,
			    len > 80 ? 80 : len, buf);
	if (!r.ran)
		return fail(err, errlen, -ELIBACC,
			    "JVM %d could not load %s: %s", (int)t->pid, lib,
			    r.msg[0] ? r.msg : "no reason given");
	*agent_status = r.agent_rc;
	return 0;
}

/* The part done as the JVM's user: agent file, listener, request. */
static int attach_as_jvm_user(struct target *t, struct attach_agentfile *af,
			      const char *options, int timeout_ms,
			      int *agent_status, char *err, size_t errlen)
{
	char lib[ATTACH_ARG_MAX + 1];
	int ret, fd;

	/* it would answer (or take SIGQUIT) only once resumed */
	if (t->st.state == 'T' || t->st.state == 't')
		return fail(
		    err, errlen, -EHOSTDOWN,
		    "JVM %d is stopped (SIGSTOP or a debugger); not attaching",
		    (int)t->pid);
	ret =
	    attach_agentfile__place(af, t->rootfd, t->tmpfd, lib, sizeof(lib));
	if (ret)
		return fail(
		    err, errlen, ret,
		    "cannot make %s visible to JVM %d (copy into its /tmp): %s",
		    af->path, (int)t->pid, strerror(-ret));
	fd = socket_exists(t) ? connect_jvm(t, err, errlen) : -ENOENT;
	/*
	 * Nobody listening: a socket left by a killed JVM that had the same
	 * pid (in containers the JVM is often pid 1 every time). HotSpot
	 * would not notice it is dead; remove it and ask for a new one.
	 */
	if (fd == -ECONNREFUSED && !unlinkat(t->tmpfd, t->sock, 0))
		fd = -ENOENT;
	if (fd == -ENOENT) {
		ret = start_listener(t, timeout_ms, err, errlen);
		if (ret)
			return ret;
		fd = connect_jvm(t, err, errlen);
	}
	if (fd < 0)
		return fd;
	if (timeout_ms < REPLY_TIMEOUT_MS)
		timeout_ms = REPLY_TIMEOUT_MS;
	ret = load(t, fd, lib, options, timeout_ms, agent_status, err, errlen);
	close(fd);
	return ret;
}

int attach__jvm(pid_t pid, const char *agent_path, const char *options,
		int timeout_ms, int *agent_status, char *err, size_t errlen)
{
	struct attach_agentfile af = {.fd = -1};
	struct attach_creds creds;
	struct target t;
	int ret, ret2;

	if (errlen)
		err[0] = '\0';
	ret = target_open(&t, pid, err, errlen);
	if (ret)
		goto out_target;
	ret = attach_agentfile__open(&af, agent_path);
	if (ret) {
		fail(err, errlen, ret, "%s: %s", agent_path, strerror(-ret));
		goto out_target;
	}
	ret = attach_creds__become(&creds, t.st.euid, t.st.egid);
	if (ret) {
		fail(err, errlen, ret,
		     "cannot switch to uid %u gid %u of JVM %d: %s",
		     (unsigned)t.st.euid, (unsigned)t.st.egid, (int)pid,
		     strerror(-ret));
		goto out_agent;
	}
	ret = attach_as_jvm_user(&t, &af, options, timeout_ms, agent_status,
				 err, errlen);
	ret2 = attach_creds__restore(&creds);
	if (ret2 && !ret)
		ret =
		    fail(err, errlen, ret2,
			 "cannot restore our credentials: %s", strerror(-ret2));
out_agent:
	attach_agentfile__close(&af);
out_target:
	target_close(&t);
	return ret;
}
