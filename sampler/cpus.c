/*
 * cpus: parse CPU lists (see cpus.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpus.h"

/* A decimal at *p, advancing it; -1 when there is none. */
static long read_num(const char **p)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	v = strtol(*p, &end, 10);
	*p = end;
	return v;
}

int cpus__parse(const char *text, int **cpus, int *nr)
{
	const char *p = text;
	int *out = NULL, *tmp, n = 0;
	long a, b, c;

	while (*p && *p != '\n') {
		a = read_num(&p);
		b = a;
		if (*p == '-') {
			p++;
			b = read_num(&p);
		}
		if (a < 0 || b < a || (*p && *p != ',' && *p != '\n'))
			goto bad;
		if (*p == ',')
			p++;
		tmp = realloc(out, (n + b - a + 1) * sizeof(*out));
		if (!tmp) {
			free(out);
			return -ENOMEM;
		}
		out = tmp;
		for (c = a; c <= b; c++)
			out[n++] = c;
	}
	if (!n)
		goto bad;
	*cpus = out;
	*nr = n;
	return 0;
bad:
	free(out);
	return -EINVAL;
}

int cpus__online(int **cpus, int *nr)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int ret = -errno;

	if (!f)
		return ret;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return cpus__parse(buf, cpus, nr);
}
