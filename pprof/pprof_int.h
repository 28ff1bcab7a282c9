/*
 * pprof_int.h: what the pprof writer and reader share, not for others.
 */
#ifndef MIXPROF_PPROF_INT_H
#define MIXPROF_PPROF_INT_H

#include <stddef.h>

/* Length of a frame kind suffix ("_[j]", "_[i]", "_[0]", "_[1]", "_[k]")
 * ending s[0..n), or 0. */
size_t pprof__suffix_len(const char *s, size_t n);

#endif
