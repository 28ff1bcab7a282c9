/*
 * palette: a frame's colour from its name alone, so one frame has one
 * colour in every graph (all slices of a montage, the heat map's graphs).
 *
 * The java scheme follows the rules Java flame graph readers know
 * (flamegraph.pl --color=java): "_[j]" JIT green, "_[i]" inlined aqua,
 * "_[k]" kernel orange, and as async-profiler's graphs: "_[0]"
 * interpreted pale green, "_[1]" C1-compiled yellow-green, C++ "::" yellow, unannotated java/ javax/ jdk/
 * sun/ com/ org/ net/ io/ (or with '.') green, the "-" delimiter grey,
 * other native red. Within a kind the shade comes from a hash of the name.
 */
#ifndef MIXPROF_FG_PALETTE_H
#define MIXPROF_FG_PALETTE_H

#include <stdint.h>

enum fg_kind {
	FG_KIND_NATIVE, /* red */
	FG_KIND_JIT, /* green: _[j] or a Java package */
	FG_KIND_INLINED, /* aqua: _[i] */
	FG_KIND_KERNEL, /* orange: _[k] */
	FG_KIND_CPP, /* yellow: C++ "::" */
	FG_KIND_DELIM, /* grey: "-" */
	FG_KIND_INTERP, /* pale green: _[0] */
	FG_KIND_C1, /* yellow-green: _[1] */
};

enum fg_scheme {
	FG_SCHEME_JAVA,
	FG_SCHEME_HOT,
	FG_SCHEME_MEM,
	FG_SCHEME_IO,
	FG_SCHEME_RED,
	FG_SCHEME_GREEN,
	FG_SCHEME_BLUE,
	FG_SCHEME_AQUA,
	FG_SCHEME_YELLOW,
	FG_SCHEME_ORANGE,
};

/* The scheme called name, or -EINVAL. */
int palette__scheme_parse(const char *name);
/* The comma-separated list of scheme names, for usage text. */
const char *palette__scheme_names(void);

enum fg_kind palette__classify(const char *name);

/* The length of name without a trailing "_[j]"/"_[i]"/"_[k]"/"_[0]"/"_[1]". */
size_t palette__strip_len(const char *name);

/* 0xRRGGBB for a frame. */
uint32_t palette__color(enum fg_scheme s, const char *name);

/*
 * A differential frame's colour: white when unchanged, redder as it grew,
 * bluer as it shrank; intensity is |delta| / max_delta (both in the same
 * unit, e.g. samples or normalised shares), saturating at 1.
 */
uint32_t palette__diff_color(double delta, double max_delta);

#endif
