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
	CHECK_INT(fold_line__append_frames(&l, part.buf, part.len, part.ends,
					   part.types, part.n),
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

/* The line of test_types as the table hands it out. */
static int check_typed(const struct fold_frame *fr, uint32_t n, uint64_t count,
		       void *ctx)
{
	(void)ctx;
	CHECK(n == 9 && count == 2);
	CHECK(fr[1].t->kind == FOLD_THREAD && fr[1].t->tid == 7);
	CHECK(fr[2].t->kind == FOLD_JIT && fr[2].t->line == 12 &&
	      fr[2].len == 16 && !memcmp(fr[2].text, "pkg/A.run:12_[j]", 16));
	CHECK(fr[0].id != fr[2].id);
	return 1;
}

/* Frame i of l has kind k, a name of name bytes, method at m, line ln. */
static bool typed(const struct fold_line *l, uint32_t i, uint32_t k,
		  uint32_t name, uint32_t m, uint32_t ln)
{
	const struct fold_type *t = &l->types[i];

	return i < l->n && t->kind == k && t->name == name && t->method == m &&
	       t->line == ln;
}

/*
 * Frames are typed as they enter a line, by whoever named them: pushed
 * by kind, the head by role, the JVM's compiled chains and lines read as
 * text by their shape (fold_type__of, the one reader of it); the types
 * follow the frames through drop, a kept part and the table.
 */
static void test_types(void)
{
	struct frame f[] = {
	    {"pkg/A.run", FRAME_JAVA},	   {"B.x", FRAME_INTERP},
	    {"do_sys_open", FRAME_KERNEL}, {"JavaCalls::call", FRAME_NATIVE},
	    {"Interpreter", FRAME_STUB},
	};
	const struct fold_type th = {.kind = FOLD_THREAD, .name = 3, .tid = 7};
	struct fold_line l, p;
	struct fold *tab = fold__new();
	struct fold_frame *fr = NULL;
	size_t cap = 0;
	int n;

	fold_line__init(&l, true);
	fold_line__init(&p, false);
	CHECK_INT(fold_line__push_role(
		      &l, "java", &(struct fold_type){.kind = FOLD_PROCESS}),
		  0);
	CHECK_INT(fold_line__push_role(&l, "ma\x01 [7]", &th), 0);
	/* the JVM's frames come with their lines */
	CHECK_INT(fold_line__push_java(&l, "pkg/A.run", FOLD_JIT, 12, -1), 0);
	for (size_t i = 1; i < sizeof(f) / sizeof(f[0]); i++)
		CHECK_INT(fold_line__push(&l, &f[i]), 0);
	CHECK_INT(fold_line__append(&l, "p/C.m:3_[1];p/D.n_[i];x_[k]", 27), 0);
	CHECK_STR(l.buf, "java;ma\\x01 [7];pkg/A.run:12_[j];B.x_[0];"
			 "do_sys_open_[k];JavaCalls::call;Interpreter;"
			 "p/C.m:3_[1];p/D.n_[i];x_[k]");
	CHECK(typed(&l, 0, FOLD_PROCESS, 4, 0, 0));
	/* the thread's name as made safe: 6 bytes before " [7]" */
	CHECK(typed(&l, 1, FOLD_THREAD, 6, 0, 0) && l.types[1].tid == 7);
	CHECK(typed(&l, 2, FOLD_JIT, 9, 6, 12));
	CHECK(typed(&l, 3, FOLD_INTERP, 3, 2, 0));
	CHECK(typed(&l, 4, FOLD_KERNEL, 11, 0, 0));
	CHECK(typed(&l, 5, FOLD_CPP, 15, 0, 0));
	CHECK(typed(&l, 6, FOLD_NATIVE, 11, 0, 0));
	CHECK(typed(&l, 7, FOLD_C1, 5, 4, 3));
	CHECK(typed(&l, 8, FOLD_INLINED, 5, 4, 0));
	CHECK(typed(&l, 9, FOLD_KERNEL, 1, 0, 0));
	fold_line__drop(&l, 3);
	CHECK(typed(&l, 3, FOLD_KERNEL, 11, 0, 0) && l.n == 9);
	/* tiers written as _[j] for folded text, by their types: a frame
	 * named "x_[0]y" is no tier */
	CHECK(fold_line__tiers(&l));
	fold_line__reset(&p);
	CHECK_INT(
	    fold_line__append(&p, "j;M.m_[0];A.r:12_[1];B.f_[i];x_[0]y", 35),
	    0);
	CHECK(fold_line__tiers(&p));
	fold_line__untier(&p);
	CHECK_STR(p.buf, "j;M.m_[j];A.r:12_[j];B.f_[i];x_[0]y");
	CHECK(typed(&p, 1, FOLD_JIT, 3, 2, 0) &&
	      typed(&p, 2, FOLD_JIT, 3, 2, 12));
	CHECK(!fold_line__tiers(&p));
	fold_line__reset(&p);
	/* a kept part carries its types */
	CHECK_INT(
	    fold_line__append_frames(&p, l.buf, l.len, l.ends, l.types, l.n),
	    0);
	CHECK(typed(&p, 2, FOLD_JIT, 9, 6, 12) && p.n == 9);
	/* without annotation a Java frame is what its text shows */
	fold_line__reset(&p);
	CHECK_INT(fold_line__push(&p, &f[0]), 0);
	CHECK_INT(fold_line__push_java(&p, "A.m", FOLD_C1, 7, -1), 0);
	CHECK_STR(p.buf, "pkg/A.run;A.m:7");
	CHECK(typed(&p, 0, FOLD_NATIVE, 9, 0, 0));
	CHECK(typed(&p, 1, FOLD_NATIVE, 5, 0, 0));
	/* a line read as text: the head by its place and shape */
	CHECK_INT(fold_line__parse(&p, "j;virtual-5 on w-1 [9];a.b:0_[j]", 32),
		  0);
	CHECK(typed(&p, 0, FOLD_PROCESS, 1, 0, 0));
	CHECK(typed(&p, 1, FOLD_THREAD, 16, 13, 0) && p.types[1].tid == 9);
	CHECK(typed(&p, 2, FOLD_JIT, 5, 2, 0)); /* ":0" is no line */
	CHECK_INT(fold_line__parse(&p, "", 0), 0);
	CHECK(p.n == 1 && typed(&p, 0, FOLD_PROCESS, 0, 0, 0));
	/* the table keeps them, and hands them out with the frames */
	CHECK(tab != NULL);
	if (tab) {
		CHECK_INT(fold__add_frames(tab, l.buf, l.ends, l.types, l.n, 2),
			  0);
		n = fold_line__frames(&p, l.buf, l.len, &fr, &cap);
		CHECK_INT(n, 9);
		CHECK_INT(fold__count_frames(tab, fr, n), 2);
		CHECK_INT(fold__count_frames(tab, fr, n - 1), 0);
		CHECK_INT(fold__each_frames(tab, check_typed, NULL), 1);
	}
	free(fr);
	fold__free(tab);
	fold_line__release(&l);
	fold_line__release(&p);
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
		const struct fold_type t[] = {{.kind = FOLD_PROCESS, .name = 1},
					      {.kind = FOLD_NATIVE, .name = 1}};

		CHECK_INT(fold__add_frames(b, "x;a", ends, t, 2, 1), 0);
		CHECK_INT(fold__add_frames(b, "", ends, t, 0, 1), -EINVAL);
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

/* bci1 of each line's last frame, in order: fold__each_frames's fn */
static int last_bci(const struct fold_frame *fr, uint32_t n, uint64_t count,
		    void *ctx)
{
	uint32_t *seen = ctx;

	seen[seen[0]++ + 1] = fr[n - 1].t->bci1 * 100 + (uint32_t)count;
	return 0;
}

/*
 * A Java frame's bytecode index is in its type, not its text, and part
 * of its identity in a struct fold: one text at two bcis is two frames
 * (two lines of the same text), at one bci one; a frame without one is
 * the frame its text names.
 */
static void test_bci(void)
{
	struct fold *tab = fold__new();
	struct fold_line l;
	uint32_t seen[8] = {0};

	fold_line__init(&l, true);
	for (int i = 0; i < 4; i++) {
		int32_t bci = i == 3 ? -1 : i == 1 ? 7 : 3;

		fold_line__reset(&l);
		CHECK_INT(fold_line__push_name(&l, "java"), 0);
		/* bci 3, 7, 3, none */
		CHECK_INT(fold_line__push_java(&l, "p/A.m", FOLD_JIT, 12, bci),
			  0);
		CHECK_STR(l.buf, "java;p/A.m:12_[j]");
		CHECK_INT(l.types[1].bci1, bci + 1);
		CHECK_INT(
		    fold__add_frames(tab, l.buf, l.ends, l.types, l.n, 1 + i),
		    0);
	}
	CHECK_INT(fold__lines(tab), 3);
	CHECK_INT(fold__total(tab), 10);
	/* looked up as text: the frame without a bci */
	CHECK_INT(fold__count(tab, "java;p/A.m:12_[j]"), 4);
	CHECK_INT(fold__each_frames(tab, last_bci, seen), 0);
	CHECK_INT(seen[0], 3);
	/* bci 3 (1 + 3), bci 7 (2), none (4), in whatever order */
	CHECK_INT(seen[1] + seen[2] + seen[3], 404 + 802 + 4);
	fold_line__release(&l);
	fold__free(tab);
}

int main(void)
{
	test_bci();
	test_order();
	test_line();
	test_frames();
	test_types();
	test_fold();
	return check_report();
}
