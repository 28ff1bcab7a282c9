/*
 * A minimal unit-test harness: CHECK() records a failure with its line and
 * goes on; main returns non-zero when any check failed, and tests/run counts
 * each binary's checks from the last line it prints ("N checks, N failed").
 */
#ifndef MIXPROF_CHECK_H
#define MIXPROF_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_count, check_failed;

#define CHECK(cond)                                                            \
	do {                                                                   \
		check_count++;                                                 \
		if (!(cond)) {                                                 \
			check_failed++;                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		check_count++;                                                 \
		if (!g_ || strcmp(g_, w_)) {                                   \
			check_failed++;                                        \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n",        \
				__FILE__, __LINE__, g_ ? g_ : "(null)", w_);   \
		}                                                              \
	} while (0)

#define CHECK_INT(got, want)                                                   \
	do {                                                                   \
		long long g_ = (got), w_ = (want);                             \
		check_count++;                                                 \
		if (g_ != w_) {                                                \
			check_failed++;                                        \
			fprintf(stderr, "%s:%d: %s = %lld, want %lld\n",       \
				__FILE__, __LINE__, #got, g_, w_);             \
		}                                                              \
	} while (0)

static inline int check_report(void)
{
	printf("%d checks, %d failed\n", check_count, check_failed);
	return check_failed ? 1 : 0;
}

#endif
