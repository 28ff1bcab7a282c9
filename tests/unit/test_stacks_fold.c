/* fold: annotation, sanitising, aggregation, merge, sorted output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "stacks/fold.h"

static void test_line(void)
{
	struct fold_line l;
	struct frame f[] = {
	    {"java/lang/Thread.run", FRAME_JAVA},
	    {"pkg/A.inl", FRAME_INLINED},
	    {"Interpreter", FRAME_STUB},
	    {"pkg/B.interp", FRAME_INTERP},
	    {"JavaCalls::call_helper", FRAME_NATIVE},
	    {"do_syscall_64", FRAME_KERNEL},
	    {"[libc.so.6]", FRAME_UNKNOWN},
	    {"Lbad;name\nwith\rbreaks", FRAME_NATIVE},
	    {"\e]0;OWN\a\e[2J\tx\xc2\x9b\xff\\", FRAME_JAVA},
	};

	fold_line__init(&l, true);
	CHECK_INT(fold_line__push_name(&l, "java"), 0);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		CHECK_INT(fold_line__push(&l, &f[i]), 0);
	CHECK_STR(l.buf,
		  "java;java/lang/Thread.run_[j];pkg/A.inl_[i];"
		  "Interpreter;pkg/B.interp_[0];JavaCalls::call_helper;"
		  "do_syscall_64_[k];[libc.so.6];Lbad:name\\x0awith\\x0dbreaks;"
		  "\\x1b]0:OWN\\x07\\x1b[2J\\x09x\\xc2\\x9b\\xff\\x5c_[j]");
	fold_line__reset(&l);
	CHECK_INT(l.len, 0);
	l.annotate = false;
	fold_line__push(&l, &f[0]);
	fold_line__push_name(&l, "a;b c");
	CHECK_STR(l.buf, "java/lang/Thread.run;a:b c");
	fold_line__release(&l);
	fold_line__release(&l); /* twice is fine */
}

/* Frame i of l is want (NUL-terminated)? */
static bool frame_is(const struct fold_line *l, uint32_t i, const char *want)
{
	size_t len;
	const char *p = i < l->n ? fold_line__frame(l, i, &len) : NULL;

	return p && len == strlen(want) && !memcmp(p, want, len);
}

/* A line knows its frames, however they came: pushed, appended, kept. */
static void test_frames(void)
{
	struct fold_line l, part;
	struct frame f = {"x;y", FRAME_JAVA};

	fold_line__init(&l, true);
	fold_line__init(&part, true);
	CHECK_INT(fold_line__push_name(&l, "java"), 0);
	CHECK_INT(fold_line__push(&l, &f), 0); /* its ';' is no boundary */
	CHECK_INT(fold_line__append(&l, "a_[j];b_[i]", 11), 0);
	CHECK_INT(fold_line__push_name(&part, "c"), 0);
	CHECK_INT(fold_line__push_name(&part, "d"), 0);
	CHECK_INT(
	    fold_line__append_frames(&l, part.buf, part.len, part.ends, part.n),
	    0);
	CHECK_STR(l.buf, "java;x:y_[j];a_[j];b_[i];c;d");
	CHECK_INT(l.n, 6);
	CHECK(frame_is(&l, 0, "java") && frame_is(&l, 1, "x:y_[j]") &&
	      frame_is(&l, 2, "a_[j]") && frame_is(&l, 3, "b_[i]") &&
	      frame_is(&l, 4, "c") && frame_is(&l, 5, "d"));
	fold_line__drop(&l, 1);
	CHECK_STR(l.buf, "java;a_[j];b_[i];c;d");
	CHECK(l.n == 5 && frame_is(&l, 1, "a_[j]") && frame_is(&l, 4, "d"));
	fold_line__drop(&l, 0);
	CHECK(l.n == 4 && frame_is(&l, 0, "a_[j]") && frame_is(&l, 3, "d"));
	fold_line__truncate(&l, 2);
	CHECK_STR(l.buf, "a_[j];b_[i]");
	CHECK(l.n == 2 && frame_is(&l, 1, "b_[i]"));
	fold_line__truncate(&l, 0);
	CHECK(l.n == 0 && l.len == 0 && !l.buf[0]);
	fold_line__reset(&part);
	CHECK_INT(part.n, 0);
	fold_line__release(&part);
	fold_line__release(&l); /* twice is fine */
}

/* fold__each_frames's lines: "x;b" counted in *ctx, all frames summed. */
static int frames_of(const struct fold_frame *fr, uint32_t n, uint64_t count,
		     void *ctx)
{
	uint64_t *seen = ctx;

	seen[0] += count;
	seen[1] += n;
	if (n == 2 && fr[0].len == 1 && !memcmp(fr[0].text, "x", 1) &&
	    fr[1].len == 1 && !memcmp(fr[1].text, "b", 1))
		seen[2] += count;
	return 0;
}

static void test_fold(void)
{
	struct fold *a = fold__new(), *b = fold__new();
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;
	char line[64];

	CHECK(a && b);
	CHECK_INT(fold__add(a, "x;b", 2), 0);
	CHECK_INT(fold__add(a, "x;a", 1), 0);
	CHECK_INT(fold__add(a, "x;b", 3), 0);
	CHECK_INT(fold__lines(a), 2);
	CHECK_INT(fold__total(a), 6);
	{ /* its lines as frames: no text rebuilt, none split */
		uint64_t seen[3] = {0};

		CHECK_INT(fold__each_frames(a, frames_of, seen), 0);
		CHECK(seen[0] == 6 && seen[1] == 4 && seen[2] == 5);
	}
	CHECK_INT(fold__add(b, "x;a", 3), 0);
	{ /* a run's stack, by its frames: the same line as its text */
		const uint32_t ends[] = {1, 3};

		CHECK_INT(fold__add_frames(b, "x;a", ends, 2, 1), 0);
		CHECK_INT(fold__add_frames(b, "", ends, 0, 1), -EINVAL);
		CHECK_INT(fold__count(b, "x;a"), 4);
	}
	CHECK_INT(fold__add(b, "X", 1), 0);
	/* many lines force the table to grow */
	for (int i = 0; i < 5000; i++) {
		snprintf(line, sizeof(line), "grow;%d", i);
		CHECK_INT(fold__add(b, line, 1) | 0, 0);
	}
	CHECK_INT(fold__merge(a, b), 0);
	CHECK_INT(fold__lines(a), 5003);
	CHECK_INT(fold__total(a), 6 + 5 + 5000);
	f = open_memstream(&out, &outlen);
	CHECK_INT(fold__write(a, f), 0);
	fclose(f);
	/* bytewise: "X" (0x58) before "grow", "x;a" before "x;b" */
	CHECK(!strncmp(out, "X 1\ngrow;0 1\ngrow;1 1\ngrow;10 1\n", 31));
	CHECK(strstr(out, "\nx;a 5\nx;b 5\n") != NULL);
	CHECK(out[outlen - 1] == '\n');
	free(out);
	fold__free(a);
	fold__free(b);
	fold__free(NULL);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(const char *line, uint64_t count, void *ctx)
{
	char ***next = ctx;

	CHECK_STR(line, **next);
	CHECK_INT(count, 1);
	(*next)++;
	return 0;
}

/*
 * Lines kept as frame ids come out in strcmp's order of their text: frames
 * that are prefixes of others, bytes below and above ';', empty frames.
 */
static void test_order(void)
{
	static const char *const parts[] = {"a", "a!", "a:",  "a<",   "ab",
					    "",	 "b",  "a;a", "\x1b", "B"};
	enum { NR = 400 };
	char *lines[NR], **next = lines, buf[128];
	struct fold *f = fold__new();
	size_t n = 0;

	CHECK(f != NULL);
	srand(7);
	for (int i = 0; i < NR * 4 && n < NR; i++) {
		int frames = 1 + rand() % 4;

		buf[0] = '\0';
		for (int k = 0; k < frames; k++) {
			if (k)
				strcat(buf, ";");
			strcat(buf, parts[rand() % 10]);
		}
		if (fold__count(f, buf))
			continue;
		CHECK_INT(fold__add(f, buf, 1), 0);
		CHECK_INT(fold__count(f, buf), 1);
		lines[n++] = strdup(buf);
	}
	CHECK_INT(fold__lines(f), n);
	CHECK_INT(fold__count(f, "never;seen"), 0);
	CHECK_INT(fold__count(f, "a;never"), 0);
	qsort(lines, n, sizeof(*lines), str_cmp);
	CHECK_INT(fold__each(f, collect, &next), 0);
	CHECK(next == lines + n);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	fold__free(f);
}

int main(void)
{
	test_order();
	test_line();
	test_frames();
	test_fold();
	return check_report();
}
