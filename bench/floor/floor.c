// SPDX-License-Identifier: GPL-2.0
/*
 * floor_bench: what this machine's kernel and memory make a sample cost
 * (floor.h), on a running process or a launched command:
 *
 *   floor_bench [-F HZ] -p PID SECS
 *   floor_bench [-F HZ] -- COMMAND [ARG...]
 *
 * Prints a line a mode on standard output: its name, ns in its work,
 * the target's ticks in it, the ticks where the work applied, frames
 * found, and what it does (tab-separated; bench/walkcost.sh reads them).
 * A launched command that does not exit 0 makes the exit status 1.
 * A bench instrument, not part of mixprof: it is built by `make` beside
 * the other bench tools and run by `make bench`.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench/floor/floor.h"
#include "bench/floor/floor.skel.h"

#define FLOOR_MAX_CPUS 1024

#define FLOOR_NAME(n, s) #n,
static const char *const mode_name[] = {FLOOR_MODE_LIST(FLOOR_NAME)};
#undef FLOOR_NAME
#define FLOOR_WHAT(n, s) s,
static const char *const mode_what[] = {FLOOR_MODE_LIST(FLOOR_WHAT)};
#undef FLOOR_WHAT

struct run {
	int hz, secs; /* secs: -p's; 0 for a launched command */
	pid_t pid;
	char **cmd; /* a launched command, or NULL */
	int go[2]; /* the child execs once the sampler is on */
	int ex[2]; /* close-on-exec: EOF once it ran, else its errno */
	int status,
	    reaped; /* the launched command's wait status, once reaped */
	int fds[FLOOR_MAX_CPUS], nfds;
	struct bpf_link *links[FLOOR_MAX_CPUS];
};

static int usage(void)
{
	fprintf(stderr, "usage: floor_bench [-F HZ] -p PID SECS | floor_bench "
			"[-F HZ] -- COMMAND [ARG...]\n");
	return 2;
}

/* A number in [lo, hi] from s, or -1 with a message naming what. */
static long number(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr,
			"floor_bench: %s '%s': not a number from %ld to %ld\n",
			what, s, lo, hi);
		return -1;
	}
	return v;
}

static int parse(struct run *r, int argc, char **argv)
{
	int i = 1;

	r->hz = 999;
	if (i + 1 < argc && !strcmp(argv[i], "-F")) {
		if ((r->hz = (int)number(argv[i + 1], "-F", 1, 10000)) < 0)
			return -1;
		i += 2;
	}
	if (i + 3 == argc && !strcmp(argv[i], "-p")) {
		long p = number(argv[i + 1], "-p", 1, 0x7fffffff), s;

		if (p < 0 || (s = number(argv[i + 2], "SECS", 1, 3600)) < 0)
			return -1;
		if (kill((pid_t)p, 0) && errno == ESRCH) {
			fprintf(stderr,
				"floor_bench: -p %ld: no such process\n", p);
			return -1;
		}
		r->pid = (pid_t)p;
		r->secs = (int)s;
		return 0;
	}
	if (i + 1 < argc && !strcmp(argv[i], "--")) {
		r->cmd = argv + i + 1;
		return 0;
	}
	return usage();
}

/* The launched command, held until the sampler is on (r->go). */
static int launch(struct run *r)
{
	char c;

	if (pipe(r->go) || pipe2(r->ex, O_CLOEXEC)) {
		perror("floor_bench: pipe");
		return -1;
	}
	r->pid = fork();
	if (r->pid < 0) {
		perror("floor_bench: fork");
		return -1;
	}
	if (!r->pid) {
		int e;

		close(r->go[1]);
		close(r->ex[0]);
		if (read(r->go[0], &c, 1) != 1)
			_exit(127);
		execvp(r->cmd[0], r->cmd);
		e = errno;
		if (write(r->ex[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(r->go[0]);
	close(r->ex[1]);
	return 0;
}

/* Let the command run: 0 once it runs, or -1 with why it could not. */
static int start(struct run *r)
{
	int e = 0;
	ssize_t n;

	if (write(r->go[1], "g", 1) != 1) {
		perror("floor_bench: starting the command");
		return -1;
	}
	n = read(r->ex[0], &e, sizeof(e)); /* EOF at its exec */
	if (n == sizeof(e)) {
		fprintf(stderr, "floor_bench: %s: %s\n", r->cmd[0],
			strerror(e));
		return -1;
	}
	return 0;
}

/* The program on each CPU's cpu-clock at r->hz. */
static int attach(struct run *r, struct floor_bpf *s)
{
	int n = libbpf_num_possible_cpus();

	if (n < 0 || n > FLOOR_MAX_CPUS) {
		fprintf(stderr, "floor_bench: %d CPUs: not supported\n", n);
		return -1;
	}
	for (int c = 0; c < n; c++) {
		struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE,
					    .config = PERF_COUNT_SW_CPU_CLOCK,
					    .size = sizeof(a),
					    .freq = 1,
					    .sample_freq = (__u64)r->hz};
		int fd = (int)syscall(SYS_perf_event_open, &a, -1, c, -1, 0);

		if (fd < 0 && errno == ENODEV)
			continue; /* a CPU not online */
		if (fd < 0) {
			fprintf(stderr,
				"floor_bench: perf_event_open on CPU %d: %s\n",
				c, strerror(errno));
			return -1;
		}
		r->fds[r->nfds] = fd;
		r->links[r->nfds] =
		    bpf_program__attach_perf_event(s->progs.floor_tick, fd);
		r->nfds++;
		if (!r->links[r->nfds - 1]) {
			fprintf(stderr, "floor_bench: attach on CPU %d: %s\n",
				c, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Turn the modes until the target ends (or -p's SECS pass). */
static void turn(struct run *r, struct floor_bpf *s)
{
	struct timespec turn = {0, FLOOR_TURN_MS * 1000000L};
	long turns = r->secs * 1000L / FLOOR_TURN_MS;

	for (long i = 0; r->cmd || i < turns; i++) {
		s->bss->mode = (__u32)(i % FLOOR_MODES);
		nanosleep(&turn, NULL);
		if (r->cmd && waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
			r->reaped = 1;
			break;
		}
		if (!r->cmd && kill(r->pid, 0) && errno == ESRCH)
			break;
	}
}

static int report(struct floor_bpf *s)
{
	int n = libbpf_num_possible_cpus();
	struct floor_sum *v = calloc((size_t)n, sizeof(*v));

	if (!v) {
		fprintf(stderr, "floor_bench: out of memory\n");
		return -1;
	}
	for (__u32 m = 0; m < FLOOR_MODES; m++) {
		struct floor_sum t = {0};

		if (bpf_map_lookup_elem(bpf_map__fd(s->maps.sums), &m, v)) {
			fprintf(stderr, "floor_bench: reading the sums: %s\n",
				strerror(errno));
			free(v);
			return -1;
		}
		for (int c = 0; c < n; c++) {
			t.ns += v[c].ns;
			t.ticks += v[c].ticks;
			t.done += v[c].done;
			t.frames += v[c].frames;
		}
		printf("%s\t%llu\t%llu\t%llu\t%llu\t%s\n", mode_name[m], t.ns,
		       t.ticks, t.done, t.frames, mode_what[m]);
	}
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = {0};
	struct floor_bpf *s = NULL;
	int err = 1, st;

	if (parse(&r, argc, argv))
		return 2;
	if (r.cmd && launch(&r))
		return 1;
	s = floor_bpf__open();
	if (!s) {
		fprintf(stderr, "floor_bench: opening the BPF program: %s\n",
			strerror(errno));
		goto out;
	}
	s->rodata->tgid = (__u32)r.pid;
	if (floor_bpf__load(s)) {
		fprintf(stderr,
			"floor_bench: loading the BPF program: %s (root?)\n",
			strerror(errno));
		goto out;
	}
	if (attach(&r, s))
		goto out;
	if (r.cmd && start(&r))
		goto out;
	turn(&r, s);
	for (int i = 0; i < r.nfds; i++) { /* no tick after this */
		bpf_link__destroy(r.links[i]);
		r.links[i] = NULL;
	}
	err = report(s) ? 1 : 0;
	if (r.reaped && !(WIFEXITED(r.status) && !WEXITSTATUS(r.status))) {
		fprintf(stderr, "floor_bench: %s: exited with status %d\n",
			r.cmd[0],
			WIFEXITED(r.status) ? WEXITSTATUS(r.status)
					    : 128 + WTERMSIG(r.status));
		err = 1;
	}
out:
	for (int i = 0; i < r.nfds; i++) {
		bpf_link__destroy(r.links[i]);
		close(r.fds[i]);
	}
	if (r.cmd && r.pid > 0) {
		close(r.go[1]); /* an unstarted child reads EOF and exits */
		close(r.ex[0]);
	}
	if (r.cmd && r.pid > 0 && !r.reaped) { /* failed before it ran */
		if (waitpid(r.pid, &st, WNOHANG) == 0) {
			kill(r.pid, SIGKILL);
			waitpid(r.pid, &st, 0);
		}
	}
	floor_bpf__destroy(s);
	return err;
}
