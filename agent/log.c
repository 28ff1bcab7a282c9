/*
 * log: "jmap: " lines on stderr. Formats on the stack: logging must work
 * when memory is short, and messages are short.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "log.h"

void jmap_log(const char *fmt, ...)
{
	char line[1024];
	int saved = errno, n;
	va_list ap;

	n = snprintf(line, sizeof(line), "jmap: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	n = strlen(line);
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		(void)0; /* nowhere left to report it */
	errno = saved;
}
