/*
 * palette: name classification and the colour formulas.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "palette.h"

static const char *const scheme_names[] = {
    [FG_SCHEME_JAVA] = "java",	   [FG_SCHEME_HOT] = "hot",
    [FG_SCHEME_MEM] = "mem",	   [FG_SCHEME_IO] = "io",
    [FG_SCHEME_RED] = "red",	   [FG_SCHEME_GREEN] = "green",
    [FG_SCHEME_BLUE] = "blue",	   [FG_SCHEME_AQUA] = "aqua",
    [FG_SCHEME_YELLOW] = "yellow", [FG_SCHEME_ORANGE] = "orange",
};

int palette__scheme_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(scheme_names) / sizeof(*scheme_names); i++)
		if (!strcmp(name, scheme_names[i]))
			return i;
	return -EINVAL;
}

const char *palette__scheme_names(void)
{
	return "java, hot, mem, io, red, green, blue, aqua, yellow, orange";
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

size_t palette__strip_len(const char *name)
{
	size_t len = strlen(name);

	if (ends_with(name, len, "_[j]") || ends_with(name, len, "_[i]") ||
	    ends_with(name, len, "_[k]") || ends_with(name, len, "_[0]") ||
	    ends_with(name, len, "_[1]"))
		return len - 4;
	return len;
}

/* A Java package prefix: java/, javax., jdk/ ... (an 'L' type prefix ok). */
static int java_package(const char *name)
{
	static const char *const pkgs[] = {"java", "javax", "jdk", "sun",
					   "com",  "org",   "net", "io"};
	size_t i, n;

	if (name[0] == 'L')
		name++;
	for (i = 0; i < sizeof(pkgs) / sizeof(*pkgs); i++) {
		n = strlen(pkgs[i]);
		if (!strncmp(name, pkgs[i], n) &&
		    (name[n] == '/' || name[n] == '.'))
			return 1;
	}
	return 0;
}

enum fg_kind palette__classify(const char *name)
{
	size_t len = strlen(name);

	/* The annotation is what the profiler knew; it wins over guesses. */
	if (ends_with(name, len, "_[j]"))
		return FG_KIND_JIT;
	if (ends_with(name, len, "_[i]"))
		return FG_KIND_INLINED;
	if (ends_with(name, len, "_[k]"))
		return FG_KIND_KERNEL;
	if (ends_with(name, len, "_[0]"))
		return FG_KIND_INTERP;
	if (ends_with(name, len, "_[1]"))
		return FG_KIND_C1;
	if (!strcmp(name, "-") || !strcmp(name, "--"))
		return FG_KIND_DELIM;
	if (java_package(name))
		return FG_KIND_JIT;
	if (strstr(name, "::"))
		return FG_KIND_CPP;
	return FG_KIND_NATIVE;
}

/*
 * Three shades in [0, 1) from the name, stable across runs and graphs.
 * The annotation is left out so a frame keeps its shade across kinds.
 */
static void name_shades(const char *name, double v[3])
{
	size_t len = palette__strip_len(name), i;
	uint32_t h = 2166136261u;
	int k;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 16777619u;
	}
	for (k = 0; k < 3; k++) {
		h ^= h >> 15;
		h *= 0x2c1b3c6dU;
		h ^= h >> 12;
		v[k] = (h & 0xffff) / 65536.0;
	}
}

static uint32_t rgb(double r, double g, double b)
{
	return (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* A base hue with a hashed shade, one formula per colour family. */
static uint32_t family(int f, const double v[3])
{
	switch (f) {
	case FG_SCHEME_RED:
		return rgb(200 + 55 * v[0], 50 + 80 * v[0], 50 + 80 * v[0]);
	case FG_SCHEME_GREEN:
		return rgb(50 + 60 * v[0], 190 + 60 * v[0], 50 + 60 * v[0]);
	case FG_SCHEME_BLUE:
		return rgb(80 + 60 * v[0], 80 + 60 * v[0], 190 + 55 * v[0]);
	case FG_SCHEME_AQUA:
		return rgb(50 + 60 * v[0], 165 + 55 * v[0], 165 + 55 * v[0]);
	case FG_SCHEME_YELLOW:
		return rgb(175 + 55 * v[0], 175 + 55 * v[0], 50 + 20 * v[0]);
	case FG_SCHEME_ORANGE:
		return rgb(190 + 65 * v[0], 90 + 65 * v[0], 0);
	case FG_SCHEME_MEM:
		return rgb(0, 190 + 50 * v[1], 0 + 210 * v[0]);
	case FG_SCHEME_IO:
		return rgb(80 + 60 * v[0], 80 + 60 * v[0], 190 + 55 * v[1]);
	default: /* hot */
		return rgb(205 + 50 * v[2], 230 * v[0], 55 * v[1]);
	}
}

uint32_t palette__color(enum fg_scheme s, const char *name)
{
	static const int java_family[] = {
	    [FG_KIND_NATIVE] = FG_SCHEME_RED,
	    [FG_KIND_JIT] = FG_SCHEME_GREEN,
	    [FG_KIND_INLINED] = FG_SCHEME_AQUA,
	    [FG_KIND_KERNEL] = FG_SCHEME_ORANGE,
	    [FG_KIND_CPP] = FG_SCHEME_YELLOW,
	};
	double v[3];
	enum fg_kind k;

	name_shades(name, v);
	if (s != FG_SCHEME_JAVA)
		return family(s, v);
	k = palette__classify(name);
	if (k == FG_KIND_DELIM)
		return 0xa0a0a0;
	/* the tiers apart from C2's green, in async-profiler's hues */
	if (k == FG_KIND_INTERP)
		return rgb(160 + 40 * v[0], 215 + 30 * v[0], 160 + 40 * v[0]);
	if (k == FG_KIND_C1)
		return rgb(190 + 30 * v[0], 220 + 30 * v[0], 90 + 40 * v[0]);
	return family(java_family[k], v);
}

uint32_t palette__diff_color(double delta, double max_delta)
{
	double f = max_delta > 0 ? fabs(delta) / max_delta : 0;
	uint32_t fade;

	if (f > 1)
		f = 1;
	/* Keep a visible tint for any change: white means exactly equal. */
	fade = delta == 0 ? 255 : (uint32_t)(230 - 210 * f);
	if (delta > 0)
		return 255u << 16 | fade << 8 | fade;
	if (delta < 0)
		return fade << 16 | fade << 8 | 255u;
	return 0xffffff;
}
