/*
 * rowcache: entries stored and read back, a hit marking its entry used,
 * and the bound: stale files (another version, an old temporary) go
 * first, then the least recently used until 3/4 of the bound.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "unwind/rowcache.h"

static char dir[64];

static bool exists(const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* name's mtime set to t seconds after the epoch (an order of use) */
static void age(const char *name, time_t t)
{
	struct timespec ts[2] = {{t, 0}, {t, 0}};
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	CHECK(utimensat(AT_FDCWD, p, ts, 0) == 0);
}

static void touch(const char *name)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	close(fd);
}

int main(void)
{
	struct unwind_row rows[100] = {0}, *back = NULL;
	struct rowcache *c;
	size_t n = 0;
	bool dbg = true;
	char key[32];
	int i;

	snprintf(dir, sizeof(dir), "/tmp/rowcache-test.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	chmod(dir, 0700);
	setenv("MIXPROF_CACHE_DIR", dir, 1);
	c = rowcache__open();
	CHECK(c != NULL);
	for (i = 0; i < 100; i++)
		rows[i].pc = i * 4;
	/* four entries of 100 rows, used in the order 0 1 2 3 */
	for (i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "v%d-b-%02d", ROWCACHE_VERSION, i);
		CHECK_INT(rowcache__put(c, key, rows, 100, false), 0);
		age(key, 1000 + i);
	}
	touch("v0-b-old"); /* another version: goes */
	touch(".v1-b-x.123"); /* a temporary file an hour old: goes */
	age(".v1-b-x.123", 1000);
	touch(".v1-b-y.456"); /* one being written now: stays */
	/* a hit on entry 0 makes it the most recently used */
	snprintf(key, sizeof(key), "v%d-b-00", ROWCACHE_VERSION);
	CHECK_INT(rowcache__get(c, key, &back, &n, &dbg), 0);
	CHECK_INT(n, 100);
	CHECK(!dbg && back && back[99].pc == 396);
	free(back);
	/* within the bound: only the stale go */
	CHECK_INT(rowcache__prune(c, 1 << 20), 2);
	CHECK_INT(rowcache__prune(c, 1 << 20), 0); /* a second scan: none */
	CHECK(!exists("v0-b-old") && !exists(".v1-b-x.123"));
	CHECK(exists(".v1-b-y.456"));
	/* a bound of 3 entries: down to 3/4 of it (2 entries), the least
	 * recently used (1 and 2) first */
	CHECK_INT(rowcache__prune(c, 3 * (100 * 8 + 24)), 2);
	snprintf(key, sizeof(key), "v%d-b-01", ROWCACHE_VERSION);
	CHECK(!exists(key));
	snprintf(key, sizeof(key), "v%d-b-02", ROWCACHE_VERSION);
	CHECK(!exists(key));
	snprintf(key, sizeof(key), "v%d-b-00", ROWCACHE_VERSION);
	CHECK(exists(key));
	snprintf(key, sizeof(key), "v%d-b-03", ROWCACHE_VERSION);
	CHECK(exists(key));
	rowcache__close(c);
	for (i = 0; i < 4; i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/v%d-b-%02d", dir, ROWCACHE_VERSION,
			 i);
		unlink(p);
	}
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/.v1-b-y.456", dir);
		unlink(p);
	}
	CHECK(rmdir(dir) == 0);
	return check_report();
}
