/*
 * stop: the stop flag and its signal handler (stop.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include "stop.h"

static volatile sig_atomic_t asked, writing;
static uint64_t asked_ns; /* written before asked, in the handler */

static void on_stop(int sig)
{
	static const char msg[] = "mixprof: interrupted again while writing: "
				  "exiting at once, outputs may be cut short\n";

	if (asked && writing) {
		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(128 + sig);
		_exit(128 + sig);
	}
	if (asked)
		return;
	/* clock_gettime is async-signal-safe */
	__atomic_store_n(&asked_ns, nsec__now(), __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	asked = sig;
}

int stop__install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = on_stop, .sa_flags = SA_RESTART};
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaddset(&sa.sa_mask, sigs[i]); /* one handler at a time */
		sigaddset(&set, sigs[i]);
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return -pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

bool stop__asked(void)
{
	return asked;
}

bool stop__hurry(void)
{
	if (!asked)
		return false;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return nsec__now() - __atomic_load_n(&asked_ns, __ATOMIC_RELAXED) >=
	       STOP_GRACE_NS;
}

void stop__writing(bool on)
{
	writing = on;
}
