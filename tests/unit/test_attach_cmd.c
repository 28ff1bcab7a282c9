/*
 * attach_cmd: the command line and the option check done before any JVM
 * is touched (through the agent's own parser), with the exit codes and
 * the one-line messages. No JVM is needed: the targets here are a pid
 * that cannot exist and this test itself, which is not a Java VM (and
 * must survive: no SIGQUIT may be sent to it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "attach/attach.h"
#include "check.h"

static char out[4096];

/* Run attach__cmd, capturing what it prints on stderr and stdout. */
static int run(int argc, char **argv)
{
	FILE *f = tmpfile();
	int saved_err = dup(2), saved_out = dup(1), ret;
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(f), 2);
	dup2(fileno(f), 1);
	ret = attach__cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	return ret;
}

#define RUN(...)                                                               \
	({                                                                     \
		char *argv_[] = {"attach", __VA_ARGS__, NULL};                 \
		run(sizeof(argv_) / sizeof(argv_[0]) - 1, argv_);              \
	})

/* One line only, and it starts with "mixprof: ". */
static int one_error_line(void)
{
	char *nl = strchr(out, '\n');

	return !strncmp(out, "mixprof: ", 9) && nl && !nl[1];
}

int main(void)
{
	char self[32];

	snprintf(self, sizeof(self), "%d", (int)getpid());

	/* bad options: exit 2, named, before the pid is even looked at */
	CHECK_INT(RUN("2147483647", "frobnicate"), ATTACH_EXIT_USAGE);
	CHECK(one_error_line());
	CHECK(strstr(out, "bad agent options") && strstr(out, "frobnicate"));
	CHECK_INT(RUN(self, "dotted,,lines"), ATTACH_EXIT_USAGE);
	CHECK(one_error_line());
	CHECK_INT(RUN(self, "dotted,dotted"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN(self, "dir=relative"), ATTACH_EXIT_USAGE);
	CHECK(strstr(out, "bad agent options"));

	/* "help" lists the agent's options and attaches nothing */
	CHECK_INT(RUN("2147483647", "help"), ATTACH_EXIT_OK);
	CHECK(strstr(out, "dotted") && strstr(out, "dir="));

	/* the command line */
	CHECK_INT(RUN("--help"), ATTACH_EXIT_OK);
	CHECK(strstr(out, "usage: mixprof attach PID") &&
	      strstr(out, "Examples"));
	CHECK_INT(run(1, (char *[]){"attach", NULL}), ATTACH_EXIT_USAGE);
	CHECK(one_error_line() && strstr(out, "missing PID"));
	CHECK_INT(RUN("12x"), ATTACH_EXIT_USAGE);
	CHECK(one_error_line() && strstr(out, "'12x'"));
	CHECK_INT(RUN("0"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("-5"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "dotted", "extra"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "--timeout", "0"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "--timeout", "soon"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "--timeout"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "--frob"), ATTACH_EXIT_USAGE);
	CHECK_INT(RUN("1", "--agent", "/nonexistent/libjmap.so"),
		  ATTACH_EXIT_USAGE);
	CHECK(one_error_line() && strstr(out, "/nonexistent/libjmap.so"));

	/* good options reach the process checks: no process, not a JVM */
	CHECK_INT(RUN("2147483647", "dotted", "--agent", "/proc/self/exe"),
		  ATTACH_EXIT_FAILED);
	CHECK(one_error_line());
	CHECK_STR(out, "mixprof: no process 2147483647\n");
	CHECK_INT(RUN(self, "--agent=/proc/self/exe", "--timeout=1"),
		  ATTACH_EXIT_FAILED);
	CHECK(one_error_line() && strstr(out, "is not a Java VM"));
	return check_report();
}
