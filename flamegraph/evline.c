// SPDX-License-Identifier: GPL-2.0
/*
 * evline: an --events line read back (evline.h).
 */
#include <stdlib.h>
#include <string.h>
#include "evline.h"

bool evline__parse(char *line, struct fg_evline *e)
{
	static const char *const drawn[] = {"gc", "safepoint", "compile",
					    "deopt"};
	const char *t;
	char *end, *tab;

	line[strcspn(line, "\n")] = 0;
	e->t0 = strtoull(line, &end, 10);
	if (*end != '\t')
		return false;
	e->t1 = strtoull(end + 1, &end, 10);
	if (*end != '\t' || e->t1 < e->t0)
		return false;
	e->kind = end + 1;
	tab = strchr(e->kind, '\t');
	if (!tab)
		return false;
	*tab = 0;
	e->detail = tab + 1;
	t = strstr(e->detail, " tier=");
	e->tier = t && t[6] >= '1' && t[6] <= '4' ? t[6] - '0' : 0;
	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++)
		if (!strcmp(e->kind, drawn[i]))
			return true;
	return false;
}
