/*
 * stop: a run's one "the user asked us to stop" flag. SIGINT, SIGTERM
 * and SIGHUP set it from a handler (stop__install); the main loop, every
 * wait, and every loop whose length a target or the host decides (a
 * JVM's tables, threads and methods, a process's maps, an ELF file's
 * symbols or unwind rows) poll it, so a run ends within a second in any
 * state and still writes what it has.
 *
 * Two levels, both cheap to poll (a flag; the clock only once it is set):
 *   stop__asked()  a stop signal came: the main loop ends, waits give up.
 *   stop__hurry()  it came more than STOP_GRACE_NS ago: readers of a
 *                  target give up at once (-EINTR), so names not got by
 *                  then are shown as unnamed ones are.
 * The grace lets an ordinary Ctrl-C still name the run's last second
 * (tens of ms for a JVM), while a target whose reading would take longer
 * cannot hold the end. Without stop__install (unit tests, other
 * commands) neither is ever true.
 *
 * A second stop signal after stop__writing(true) exits at once with
 * 128 + the signal: the outputs being written may be cut short.
 */
#ifndef MIXPROF_COMMON_STOP_H
#define MIXPROF_COMMON_STOP_H

#include <stdbool.h>
#include "nsec.h"

#define STOP_GRACE_NS (300 * NSEC_PER_MSEC)

/*
 * Handle SIGINT, SIGTERM and SIGHUP (SA_RESTART) and unblock them in the
 * calling thread. Threads should be created with them blocked. 0 or
 * negative errno.
 */
int stop__install(void);

bool stop__asked(void);
bool stop__hurry(void);

/* The outputs are being written: a second stop signal exits at once. */
void stop__writing(bool on);

#endif
