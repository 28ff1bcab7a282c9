/*
 * profile: the profile command. Sets the run up (run_setup: privileges,
 * stack depth, BPF, naming, outputs; run_child: the launched command),
 * starts it (its run_mode: run_cpu or run_probe), then ticks: every TICK_MS it tails
 * the JIT maps and checks whether the run is over, and every DRAIN_MS it
 * drains new keys and finished time buckets from the kernel into folded
 * lines (run_tick). At the end it detaches first, drains everything, writes,
 * and sums up (run_report).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "common/pidwatch.h"
#include "common/stop.h"
#include "containers.h"
#include "check/hints.h"
#include "jvm/jvmkids.h"
#include "jvmprep.h"
#include "probes/probes_run.h"
#include "profile.h"
#include "output/render_out.h"
#include "run.h"
#include "run_child.h"
#include "run_events.h"
#include "run_lock.h"
#include "run_vtwait.h"
#include "run_cpu.h"
#include "run_probe.h"
#include "run_report.h"
#include "run_setup.h"
#include "run_tick.h"
#include "sampler/cpus.h"
#include "sampler/ksymbpf.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"
#include "targets.h"

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	return verbose ? vfprintf(stderr, fmt, args) : 0;
}

/* Is the run over: time is up, or nothing is left to profile? */
static bool over(struct run *r, uint64_t deadline)
{
	if (deadline && r->now_ns >= deadline)
		return true;
	if (r->launched)
		return r->child_done;
	return r->o.nr_pids > 0 && !pidwatch__alive(r->watch);
}

static int loop(struct run *r, const sigset_t *sigs)
{
	uint64_t deadline =
	    r->o.duration_ns ? r->tb.start_ns + r->o.duration_ns : 0;
	uint64_t wait_ns, now = nsec__now();
	/* the first tick a period in: a probe run's first tick asks the agent
	 * for the calls left in replaced code, and one asked right after the
	 * replacing dropped the OSR loop's frame for good (agent/replaced.c:
	 * a frame not "still there" once is forgotten), eprobe_osr */
	uint64_t next_tick = now + TICK_MS * NSEC_PER_MSEC;
	struct timespec ts;
	unsigned int tick = 0;
	int ret;

	for (;;) {
		if (stop__asked())
			return 0;
		wait_ns = next_tick > now ? next_tick - now : 0;
		if (wait_ns > DRAIN_MS * NSEC_PER_MSEC)
			wait_ns = DRAIN_MS * NSEC_PER_MSEC;
		/* a launched JVM starting: looked at between ticks */
		if (r->child_early && wait_ns > EARLY_MS * NSEC_PER_MSEC)
			wait_ns = EARLY_MS * NSEC_PER_MSEC;
		/* wake at the deadline itself, so the run lasts what was asked */
		if (deadline && deadline > now && deadline - now < wait_ns)
			wait_ns = deadline - now;
		ts.tv_sec = wait_ns / NSEC_PER_SEC;
		ts.tv_nsec = wait_ns % NSEC_PER_SEC;
		/* SIGCHLD; a stop signal's handler ends the wait (EINTR) */
		sigtimedwait(sigs, NULL, &ts);
		if (stop__asked())
			return 0;
		r->now_ns = now = nsec__now();
		run_child__reap(r);
		if (over(r, deadline))
			return 0;
		run_child__identify(r);
		if (now < next_tick) {
			/* between ticks: the keys new since the last drain,
			 * their methods named while their classes live */
			if ((ret = run_tick__drain(r)))
				return ret;
			continue;
		}
		/* the tick's period, not drifting by the drains' lateness */
		next_tick += TICK_MS * NSEC_PER_MSEC;
		if (next_tick <= now)
			next_tick =
			    now + (TICK_MS - DRAIN_MS / 2) * NSEC_PER_MSEC;
		r->full = tick++ % 10 == 0;
		run_tick__refresh(r);
		/* JIT maps tailed first: the drain's new keys may need them */
		if ((ret = run_tick__drain(r)))
			return ret;
		if (r->full)
			run_tick__expire(r);
		/* after the drain, which identifies new JVMs: loading a big
		 * library's rows must not delay that */
		run_tick__unwind(r);
		if (r->launched && !r->child_done)
			sampler__unwind_refresh(r->smp, r->child.pid, now);
		if (r->mode->tick)
			r->mode->tick(r, tick);
		run_events__tick(r);
	}
}

/* Detach first, so nothing can count any more; then drain it all. */
static int finish(struct run *r)
{
	int ret, ev;

	sampler__detach(r->smp);
	r->now_ns = r->end_ns = nsec__now();
	ret = sampler__offcpu_end(r->smp, r->end_ns, &r->open_waits);
	if (ret)
		fprintf(stderr,
			"mixprof: waits open at the end not counted: %s\n",
			strerror(-ret));
	if (r->mode->stop)
		r->mode->stop(r);
	ev = run_events__stop(r);
	run_child__reap(r);
	status__clear(&r->status);
	r->full = true;
	run_tick__refresh(r);
	r->final = true;
	ret = run_tick__drain(r);
	/* nothing is left in a target (probes, trigger files): a second
	 * Ctrl-C may cut the writing short */
	stop__writing(true);
	r->out_lines = sliceout__lines(r->out);
	r->heap = mallinfo2(); /* the output still held: the run's peak */
	if (!ret)
		ret = sliceout__finish(r->out, r->end_ns);
	if (ret && !run_report__reported(r, ret))
		fprintf(stderr, "mixprof: writing %s: %s\n",
			r->o.output ? r->o.output : "output", strerror(-ret));
	/* the renderers print their own errors, naming their files */
	if (!ret && r->ro && (ret = run_report__render(r)))
		r->render_failed = true;
	if (!ret && r->mode->write)
		ret = r->mode->write(r);
	if (!r->o.quiet) {
		run_child__report(r);
		run_report__summary(r);
		run_events__summary(r);
	}
	return ret ? ret : ev;
}

static int run_profile(struct run *r, const sigset_t *sigs)
{
	char caps[64];
	int i, ret, fin;

	r->mode = r->o.nr_probes ? &run_probe_mode : &run_cpu_mode;
	if (hints__missing_caps(caps, sizeof(caps))) {
		hints__perm_error(caps);
		return EXIT_PROF_PERM;
	}
	if (run_setup__pids(r))
		return EXIT_PROF_FAIL;
	/* over() asks at every drain: a pidfd each, not /proc (pidwatch.h) */
	if (!(r->watch = pidwatch__new(r->o.pids, r->o.nr_pids))) {
		fprintf(stderr, "mixprof: %s\n", strerror(ENOMEM));
		return EXIT_PROF_FAIL;
	}
	if (run_setup__outputs(r))
		return EXIT_PROF_FAIL;
	for (i = 0; i < r->o.nr_pids; i++) {
		jvmprep__target(r->o.pids[i], r->o.attach, r->o.nr_probes > 0);
		jvmkids__hint(r->o.pids[i]);
	}
	ret = cpus__online(&r->cpus, &r->nr_cpus);
	if (ret) {
		fprintf(stderr, "mixprof: online CPUs: %s\n", strerror(-ret));
		return EXIT_PROF_FAIL;
	}
	run_setup__depth(r);
	ret = run_setup__bpf(r);
	if (ret)
		return ret == -EPERM || ret == -EACCES ? EXIT_PROF_PERM
						       : EXIT_PROF_FAIL;
	if (run_setup__naming(r) || (r->o.cmd && run_child__launch(r)))
		return EXIT_PROF_FAIL;
	ret = r->mode->start(r);
	if (ret == -EINVAL && r->pr) /* a pattern the agent refused */
		return EXIT_PROF_USAGE;
	if (ret)
		return ret == -EPERM || ret == -EACCES ? EXIT_PROF_PERM
						       : EXIT_PROF_FAIL;
	ret = loop(r, sigs);
	if (ret && !run_report__reported(r, ret))
		fprintf(stderr, "mixprof: %s\n", strerror(-ret));
	fin = finish(r);
	if (run_report__reader_left(r, ret))
		ret = 0;
	if (run_report__reader_left(r, fin))
		fin = 0;
	return fin || ret ? EXIT_PROF_FAIL : run_child__exit_status(r);
}

static void teardown(struct run *r)
{
	if (r->launched && r->child.go_fd >= 0) {
		/* never started: let it die without running unprofiled */
		close(r->child.go_fd);
		waitpid(r->child.pid, NULL, 0);
	}
	probes_run__close(r->pr); /* before anything else: the probes go */
	run_events__free(r);
	if (r->table && r->table != stdout)
		fclose(r->table);
	stackfold__free(r->sf);
	run_lock__free(r);
	run_vtwait__free(r);
	jstacks__free(r->jstacks);
	jvms__free(r->jvms);
	sampler__free(r->smp);
	symbolizer__free(r->sym);
	ksymbpf__free(r->ksym);
	targets__free(r->pids);
	pidwatch__free(r->watch);
	containers__free(r->ct);
	sliceout__free(r->out);
	renderout__free(r->ro);
	free(r->cpus);
	profile_opts__release(&r->o);
}

static void on_sigpipe(int sig)
{
}

int profile__cmd(int argc, char **argv)
{
	struct run r = {.child.go_fd = -1};
	char err[256];
	sigset_t sigs;
	int ret;

	ret = profile_opts__parse(&r.o, argc, argv, err, sizeof(err));
	if (ret == OPTS_HELP) {
		/* one write: `mixprof -h | grep -q` must not see EPIPE when
		 * the text is longer than a pipe's default stdio buffer */
		static char buf[1 << 16];

		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
		profile_opts__usage(stdout, "mixprof");
		return EXIT_PROF_OK;
	}
	if (ret) {
		fprintf(stderr, "mixprof: %s\n", err);
		profile_opts__release(&r.o);
		return EXIT_PROF_USAGE;
	}
	verbose = r.o.verbose;
	libbpf_set_print(libbpf_print);
	/*
	 * A child's exit arrives through sigtimedwait in the loop; SIGINT,
	 * SIGTERM and SIGHUP set the stop flag (common/stop.h) that the loop
	 * and every loop reading a target poll. The launched command gets
	 * the mask we had.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &r.old_mask);
	ret = stop__install();
	if (ret) {
		fprintf(stderr, "mixprof: signal handlers: %s\n",
			strerror(-ret));
		profile_opts__release(&r.o);
		return EXIT_PROF_FAIL;
	}
	/*
	 * A closed stdout gives EPIPE, not a death without summary. A handler,
	 * not SIG_IGN, so a command we launch gets the default back at exec.
	 */
	sigaction(SIGPIPE, &(struct sigaction){.sa_handler = on_sigpipe}, NULL);
	ret = run_profile(&r, &sigs);
	teardown(&r);
	sigprocmask(SIG_SETMASK, &r.old_mask, NULL);
	return ret;
}
