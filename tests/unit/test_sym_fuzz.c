/*
 * Robustness: random bytes, and valid fixtures with random bytes flipped,
 * cut or spliced, through every symbolizer parser (fuzz/parsers.h), with
 * a fixed seed so a failure repeats. Passing means no crash; run under
 * ASan (make CFLAGS='-O1 -g -fsanitize=address,undefined' ...) for more.
 */
#include "check.h"
#include "symbolizer/fuzz/parsers.h"
#include "test_sym_util.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 16;
}

/* Mutate a copy of base: flips, cuts, inserted junk, duplicated spans. */
static size_t mutate(const char *base, size_t len, char *out, size_t cap)
{
	size_t n = len < cap ? len : cap;
	int edits = 1 + next() % 16;

	memcpy(out, base, n);
	while (edits-- && n) {
		size_t at = next() % n;
		static const char junk[] = " \t\n\r0x:;->()[]/.fF9\xff";

		switch (next() % 4) {
		case 0:
			out[at] = next();
			break;
		case 1:
			out[at] = junk[next() % (sizeof(junk) - 1)];
			break;
		case 2:
			n = at; /* cut */
			break;
		default: {
			size_t span = next() % 64;

			if (at + span <= n && n + span <= cap) {
				memmove(out + at + span, out + at, n - at);
				n += span;
			}
		}
		}
	}
	return n;
}

int main(void)
{
	static const char *fixtures[] = {
	    "perf-mixed.map",
	    "kallsyms.txt",
	    "maps.txt",
	};
	char *buf = malloc(1 << 16);
	int iters = 0;

	for (int i = 0; i < 3000; i++, iters++) { /* pure noise */
		size_t len = next() % 512;

		for (size_t j = 0; j < len; j++)
			buf[j] = i & 1 ? (char)next()
				       : " 0123456789abcdefx\n-:"[next() % 21];
		sym_fuzz_one((uint8_t *)buf, len);
	}
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		size_t len;
		char *text = sym_fixture(fixtures[f], &len);

		CHECK(text != NULL);
		for (int i = 0; text && i < 2000; i++, iters++) {
			size_t n = mutate(text, len, buf, 1 << 16);

			sym_fuzz_one((uint8_t *)buf, n);
		}
		free(text);
	}
	/* ELF: our own fixture binary, mutated */
	{
		char path[PATH_MAX + 64];
		FILE *f;
		size_t len = 0;

		snprintf(path, sizeof(path),
			 "%s/tests/fixtures/symbolizer/libshared.so",
			 sym_build_dir());
		f = fopen(path, "r");
		CHECK(f != NULL);
		if (f) {
			char *elf = malloc(1 << 16);

			len = fread(elf, 1, 1 << 16, f);
			fclose(f);
			for (int i = 0; i < 500; i++, iters++) {
				size_t n = len;

				memcpy(buf, elf, n);
				for (int k = 0; k < 8; k++)
					buf[next() % n] = next();
				sym_fuzz_one((uint8_t *)buf, n);
			}
			free(elf);
		}
	}
	CHECK(iters > 0);
	free(buf);
	printf("%d inputs\n", iters);
	return check_report();
}
