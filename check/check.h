/*
 * check: `mixprof check [-p PID]`, what this host allows, one line per
 * item: "OK   ..." or what is missing ("NO   ..." when a CPU profile
 * cannot work without it, "WARN ..." when only a part is lost) followed
 * by "     fix: " and the one line that gets it (hints.h). Exit status
 * 0 when a CPU profile (of PID, with -p) will work, 1 when not, 2 for a
 * bad command line. check.c the host, check_jvm.c the -p target.
 */
#ifndef MIXPROF_CHECK_H
#define MIXPROF_CHECK_H

#include <stdbool.h>
#include <stdint.h>

enum check_verdict { CHECK_OK, CHECK_WARN, CHECK_NO };

struct check {
	int nr_no; /* NO lines so far */
	bool caps; /* may load BPF and open per-CPU events */
};

/*
 * One line: the verdict, then fmt's text with every control character
 * replaced by '?' (names a target controls: comm, paths), then for a
 * non-OK line "     fix: fix" when fix is not NULL.
 */
void check__say(struct check *c, enum check_verdict v, const char *fix,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* One line per JDK found: JAVA_HOME, java on PATH, /usr/lib/jvm/\*. */
void check__jdks(struct check *c);
/* The -p lines for pid: a JVM? its tables read? its stacks walked? */
void check__jvm(struct check *c, uint32_t pid);
/* The command (main.c's table). */
int check__cmd(int argc, char **argv);

#endif
