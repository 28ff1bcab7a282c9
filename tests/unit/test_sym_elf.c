/*
 * ELF symbols end to end: fixture programs built by make (PIE, non-PIE,
 * stripped with .gnu_debuglink, stripped with a build-id debug file, C++)
 * run as children that print their functions' addresses; the symbolizer
 * names those addresses through /proc/PID/maps. Also a shared library
 * dlopen'ed here, the vdso, and naming after the child exited.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "check.h"
#include "symbolizer/demangle.h"
#include "symbolizer/elf_syms.h"
#include "test_sym_util.h"
#include "symbolizer/symbolizer.h"

struct child {
	pid_t pid;
	FILE *to, *from;
	unsigned long long addr[4];
	int naddr;
};

/* Start fixture `name` with "serve"; read the addresses it prints. */
static int spawn(const char *name, struct child *c)
{
	char path[PATH_MAX + 64], line[256];
	int in[2], out[2];

	snprintf(path, sizeof(path), "%s/tests/fixtures/symbolizer/%s",
		 sym_build_dir(), name);
	if (pipe(in) || pipe(out))
		return -1;
	c->pid = fork();
	if (c->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(path, path, "serve", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->to = fdopen(in[1], "w");
	c->from = fdopen(out[0], "r");
	if (!fgets(line, sizeof(line), c->from)) {
		fprintf(stderr, "%s printed nothing\n", path);
		return -1;
	}
	c->naddr = sscanf(line, "%llx %llx %llx %llx", &c->addr[0], &c->addr[1],
			  &c->addr[2], &c->addr[3]);
	return c->naddr > 0 ? 0 : -1;
}

static void reap(struct child *c)
{
	fclose(c->to); /* EOF on its stdin: it exits */
	fclose(c->from);
	waitpid(c->pid, NULL, 0);
}

static const char *name_at(struct symbolizer *s, pid_t pid, uint64_t ip,
			   enum frame_kind *kind)
{
	struct frame f[4];
	int n = symbolizer__user(s, pid, ip, 1, f, 4);

	if (kind)
		*kind = n > 0 ? f[0].kind : FRAME_UNKNOWN;
	return n > 0 ? f[n - 1].name : "(none)";
}

/* The four functions of prog.c, named in a running copy of `fixture`. */
static void check_prog(const char *fixture, const char *debug_root)
{
	struct symbolizer_opts o = {.debug_root = debug_root};
	struct symbolizer *s = symbolizer__new(&o);
	enum frame_kind k;
	struct child c;

	fprintf(stderr, "-- %s\n", fixture);
	if (spawn(fixture, &c) || c.naddr != 4) {
		CHECK(!"spawn");
		symbolizer__free(s);
		return;
	}
	CHECK_INT(symbolizer__refresh(s, c.pid, 1), 0);
	CHECK_STR(name_at(s, c.pid, c.addr[0], &k), "prog_alpha");
	CHECK_INT(k, FRAME_NATIVE);
	CHECK_STR(name_at(s, c.pid, c.addr[0] + 3, NULL), "prog_alpha");
	CHECK_STR(name_at(s, c.pid, c.addr[1] + 1, NULL), "prog_beta");
	CHECK_STR(name_at(s, c.pid, c.addr[2], NULL), "prog_local");
	/* zero-sized assembly symbol: covers up to the next symbol */
	CHECK_STR(name_at(s, c.pid, c.addr[3] + 1, NULL), "prog_asm");
	reap(&c);
	/* gone now: what refresh saw still names its frames */
	CHECK_INT(symbolizer__refresh(s, c.pid, 2), 0);
	CHECK_STR(name_at(s, c.pid, c.addr[1], NULL), "prog_beta");
	symbolizer__free(s);
}

static void check_cxx(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	struct child c;

	if (spawn("cxx", &c) || c.naddr != 2) {
		CHECK(!"spawn cxx");
		symbolizer__free(s);
		return;
	}
	symbolizer__refresh(s, c.pid, 1);
	CHECK_STR(name_at(s, c.pid, c.addr[0], NULL), "ns::Klass::method");
	CHECK_STR(name_at(s, c.pid, c.addr[1], NULL), "ns::twice<int>");
	reap(&c);
	symbolizer__free(s);
}

/* Stripped, no debug file found: the file's name in brackets. */
static void check_stripped(void)
{
	struct symbolizer_opts o = {.debug_root = "/nonexistent"};
	struct symbolizer *s = symbolizer__new(&o);
	struct symbolizer_stats st;
	enum frame_kind k;
	struct child c;

	if (spawn("byid", &c)) {
		CHECK(!"spawn byid");
		symbolizer__free(s);
		return;
	}
	symbolizer__refresh(s, c.pid, 1);
	CHECK_STR(name_at(s, c.pid, c.addr[0], &k), "[byid]");
	CHECK_INT(k, FRAME_UNKNOWN);
	/* never-mapped address of a live process: [unknown] */
	CHECK_STR(name_at(s, c.pid, 0x10, &k), "[unknown]");
	reap(&c);
	/* seen before, gone now: refresh still succeeds */
	CHECK_INT(symbolizer__refresh(s, c.pid, 3) == 0, 1);
	symbolizer__stats(s, &st);
	CHECK(st.frames == 2 && st.frames_unknown == 2);
	symbolizer__free(s);
}

/* In this process: a dlopen'ed library, the vdso, demangle of libstdc++. */
/*
 * Symbols are read on the first lookup: a process that exits before any
 * of its frames is named still gets them (the file stays mapped).
 */
static void check_lazy_after_exit(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	struct child c;

	if (spawn("pie", &c) || c.naddr != 4) {
		CHECK(!"spawn");
		symbolizer__free(s);
		return;
	}
	CHECK_INT(symbolizer__refresh(s, c.pid, 1), 0);
	reap(&c);
	CHECK_STR(name_at(s, c.pid, c.addr[1] + 1, NULL), "prog_beta");
	CHECK_STR(name_at(s, c.pid, c.addr[2], NULL), "prog_local");
	symbolizer__free(s);
}

static void check_self(void)
{
	char path[PATH_MAX + 64];
	struct symbolizer *s = symbolizer__new(NULL);
	void *h, *vdso, *fn;
	enum frame_kind k;

	snprintf(path, sizeof(path),
		 "%s/tests/fixtures/symbolizer/libshared.so", sym_build_dir());
	h = dlopen(path, RTLD_NOW);
	CHECK(h != NULL);
	CHECK_INT(symbolizer__refresh(s, getpid(), 1), 0);
	fn = h ? dlsym(h, "shared_fn") : NULL;
	CHECK(fn != NULL);
	if (fn)
		CHECK_STR(name_at(s, getpid(), (uintptr_t)fn + 2, &k),
			  "shared_fn");
	vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	fn = vdso ? dlsym(vdso, "__vdso_clock_gettime") : NULL;
	if (fn) {
		CHECK_STR(name_at(s, getpid(), (uintptr_t)fn + 1, &k),
			  "__vdso_clock_gettime");
		CHECK_INT(k, FRAME_NATIVE);
	}
	/* this very function, from our own .symtab */
	CHECK_STR(name_at(s, getpid(), (uintptr_t)check_self, NULL),
		  "check_self");
	/* a dead pid never seen */
	CHECK_INT(symbolizer__refresh(s, 0x7ffffff0, 1), -ESRCH);
	CHECK_STR(name_at(s, 0x7ffffff0, 0x1234, &k), "[unknown]");
	if (h)
		dlclose(h);
	symbolizer__free(s);
}

/* Pure API: a debug file must match the build-id. */
static void check_debug_mismatch(void)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];
	struct elfsyms *e;
	FILE *f;
	int fd;

	snprintf(a, sizeof(a), "%s/tests/fixtures/symbolizer/byid",
		 sym_build_dir());
	snprintf(b, sizeof(b), "%s/tests/fixtures/symbolizer/linked.debug",
		 sym_build_dir());
	f = fopen(a, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	e = elfsyms__from_fd(fileno(f));
	fclose(f);
	CHECK(e && !elfsyms__has_symtab(e));
	fd = open(b, O_RDONLY);
	CHECK_INT(elfsyms__add_debug_fd(e, fd), -ESTALE);
	close(fd);
	CHECK(elfsyms__from_mem("not an elf", 10) == NULL && errno == ENOEXEC);
	elfsyms__free(e);
	elfsyms__free(NULL);
}

static void check_demangle_one(const char *in, const char *want)
{
	char *got = demangle__name(in);

	CHECK_STR(got, want);
	free(got);
}

static void check_demangle(void)
{
	check_demangle_one("_ZN9JavaCalls11call_helperEP9JavaValueRK12"
			   "methodHandleP17JavaCallArgumentsP10JavaThread",
			   "JavaCalls::call_helper");
	check_demangle_one("_ZNK2ns5Klass6memberEd", "ns::Klass::member");
	check_demangle_one("_ZN12_GLOBAL__N_13fooEv",
			   "(anonymous namespace)::foo");
	check_demangle_one("_Znwm", "operator new");
	check_demangle_one("_ZN2ns5twiceIiEET_S1_", "ns::twice<int>");
	check_demangle_one("_ZlsRSoRKi", "operator<<");
	/* GCC clones: the function's own name, not "[clone .constprop.1]" */
	check_demangle_one("_Z3fooi.constprop.1", "foo");
	check_demangle_one("_ZN9JavaCalls11call_helperEv.isra.0.cold",
			   "JavaCalls::call_helper");
	CHECK(demangle__name("main") == NULL);
	CHECK(demangle__name("_Zgarbage!") == NULL);
}

int main(void)
{
	char debug_root[PATH_MAX + 64];

	signal(SIGPIPE, SIG_IGN);
	snprintf(debug_root, sizeof(debug_root),
		 "%s/tests/fixtures/symbolizer/debug", sym_build_dir());
	check_prog("pie", NULL);
	check_prog("nopie", NULL);
	check_prog("linked", NULL); /* .gnu_debuglink */
	check_prog("byid", debug_root); /* build-id tree */
	check_cxx();
	check_lazy_after_exit();
	check_stripped();
	check_self();
	check_debug_mismatch();
	check_demangle();
	return check_report();
}
