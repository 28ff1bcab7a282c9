/*
 * jstacks: the Java frames of sampled stacks named on a fake sampler and
 * a fake JVM (fakejvm.h), without root or BPF: Symbols named under the
 * identity hashes the sample read (a Symbol freed and reused names
 * neither an old sample nor a new one wrongly), listed frames used only
 * where the stack agrees, versions, lists dropped when unused, compiled
 * frames no namer can name, class names, forgetting a JVM, a deep list
 * whose deeper chunk is gone.
 * Leaks and double frees are the ASan build's (make test-asan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "fakejvm.h"
#include "jvm/jstacks.h"
#include "jvm/jvms.h"

#define MS 1000000ULL
#define SEC (1000 * MS)

static pid_t child;

/* The fake JVM whose Symbols carry identity hashes (at offset 0). */
static struct hotspot *open_hashed(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};
	struct hotspot_layout l = fake_layout;

	l.off_sym_hash = 0;
	return hotspot__from_mem(pid, &m, &l);
}

/* A Symbol at TMEM + off with identity hash h (the upper 16 bits). */
static uint64_t put_hashed(size_t off, const char *text, uint16_t h)
{
	uint32_t hr = (uint32_t)h << 16 | 1;

	memcpy(tmem + off, &hr, 4);
	return put_symbol(off, text);
}

static struct sample_key key(uint64_t user, uint64_t id)
{
	struct sample_key k = {
	    .pid = child, .user_stack = user, .interp_id = id};

	memcpy(k.comm, "java", 4);
	return k;
}

struct rt {
	struct jvms *jv;
	struct jstacks *js;
};

static bool rt_new(struct rt *r, struct hotspot *(*open)(uint32_t pid))
{
	r->jv = jvms__new(&src, open, 0);
	r->js = r->jv ? jstacks__new(&src, r->jv) : NULL;
	CHECK(r->js != NULL);
	return r->js != NULL;
}

static void rt_free(struct rt *r)
{
	jstacks__free(r->js);
	jvms__free(r->jv);
}

/* The run's two calls for a key seen (run_tick.c). */
static void seen(struct rt *r, const struct sample_key *k, uint64_t now)
{
	jvms__seen(r->jv, k->pid, now);
	jstacks__seen(r->js, k, now);
}

/* k's stack ips[0..n) as jstacks__stack names it (n 0: the version alone). */
static const struct jstack *stack_of(struct rt *r, const struct sample_key *k,
				     const uint64_t *ips, int n)
{
	static const char *stubs[8];
	static uint32_t first[8], njava[8];
	static bool interp[8];
	static struct jstack out = {
	    .first = first, .njava = njava, .interp = interp, .stubs = stubs};

	jstacks__stack(r->js, k, ips, n, &out);
	return &out;
}

/* The name of frame idx of s (its outermost Java frame's), or NULL. */
static const char *java_at(const struct jstack *s, int idx)
{
	return s->njava[idx] ? s->java[s->first[idx]].name : NULL;
}

/* The name of frame idx of k's stack ips[0..n). */
static const char *name_at(struct rt *r, const struct sample_key *k,
			   const uint64_t *ips, int n, int idx)
{
	return java_at(stack_of(r, k, ips, n), idx);
}

/* k's version, its list not resolved. */
static uint64_t version_of(struct rt *r, const struct sample_key *k)
{
	return stack_of(r, k, NULL, 0)->version;
}

/*
 * Names by Symbols and their identity hashes: a Symbol freed and reused
 * (another name, another hash) leaves the sample that saw the old one
 * its old name, and a list whose hashes are not the Symbol's at all gets
 * none (counted unreadable).
 */
static void test_hashes(void)
{
	const uint64_t u[] = {JIT + 0x10, INTERP + 0x100, JIT + 0x20};
	uint64_t ks = put_hashed(0, "app/Foo", 0x1234),
		 ns = put_hashed(64, "bar", 0x5678);
	struct sample_key k = key(0x21, 0x91), k2 = key(0x21, 0x92);
	struct jstacks_stats st;
	struct rt r;
	uint64_t v;

	if (!rt_new(&r, open_hashed))
		return;
	add_stack(0x21, 3, u);
	list_ids[0] = 0x91;
	lists[0] = (struct interp_stack){.nr = 1};
	lists[0].f[0] = (struct interp_frame){
	    .idx = 1, .hashes = 0x12345678, .klass_name = ks, .name = ns};
	seen(&r, &k, 1 * SEC);
	CHECK_STR(name_at(&r, &k, u, 3, 1), "app/Foo.bar");
	CHECK(name_at(&r, &k, u, 3, 0) == NULL); /* not a listed frame */
	v = version_of(&r, &k);
	CHECK(v > 2);

	/* freed and reused: the old sample keeps its name, even resolved
	 * again seconds later */
	put_hashed(64, "baz", 0x9999);
	seen(&r, &k, 5 * SEC);
	CHECK_STR(name_at(&r, &k, u, 3, 1), "app/Foo.bar");
	CHECK(version_of(&r, &k) == v);

	/* a sample of the new Symbol: its own name */
	list_ids[1] = 0x92;
	lists[1] = lists[0];
	lists[1].f[0].hashes = 0x12349999;
	seen(&r, &k2, 5 * SEC);
	CHECK_STR(name_at(&r, &k2, u, 3, 1), "app/Foo.baz");
	CHECK(version_of(&r, &k2) != v);

	/* a sample whose hashes the Symbols never had: no name */
	lists[1].f[0].hashes = 0x12340001;
	list_ids[1] = 0x93;
	k2.interp_id = 0x93;
	seen(&r, &k2, 6 * SEC);
	CHECK(name_at(&r, &k2, u, 3, 1) == NULL);
	jstacks__stats(r.js, &st);
	CHECK_INT(st.unreadable, 1);
	CHECK_INT(st.jvms.jvms, 1);
	rt_free(&r);
}

/*
 * A deep list whose deeper chunk is gone when it is read (the BPF LRU
 * evicted it; the fake sampler has no chunks): the frames of the list
 * itself are named, and the list is counted (chunks_gone).
 */
static void test_chunk_gone(void)
{
	const uint64_t u[] = {JIT + 0x10, INTERP + 0x100, INTERP + 0x200};
	uint64_t ks = put_hashed(256, "app/Deep", 0x1111),
		 ns = put_hashed(320, "down", 0x2222);
	struct sample_key k = key(0x31, 0xa1);
	struct jstacks_stats st;
	struct rt r;

	if (!rt_new(&r, open_hashed))
		return;
	add_stack(0x31, 3, u);
	list_ids[0] = 0xa1;
	list_ids[1] = 0;
	lists[0] = (struct interp_stack){.nr = 1, .prev = 0x777};
	lists[0].f[0] = (struct interp_frame){
	    .idx = 1, .hashes = 0x11112222, .klass_name = ks, .name = ns};
	seen(&r, &k, 1 * SEC);
	CHECK_STR(name_at(&r, &k, u, 3, 1), "app/Deep.down");
	CHECK(name_at(&r, &k, u, 3, 2) == NULL); /* its chunk's: gone */
	jstacks__stats(r.js, &st);
	CHECK_INT(st.chunks_gone, 1);
	rt_free(&r);
}

/*
 * A listed frame counts only where the stack holds an interpreter pc at
 * its position; versions of keys with no list, of a process that is no
 * JVM; a list unused for 10 s is dropped, resolved again when asked.
 */
static void test_lists(void)
{
	const uint64_t u[] = {INTERP + 0x10, JIT + 0x10, INTERP + 0x20};
	uint64_t ks = put_symbol(128, "app/Loop"), ns = put_symbol(192, "run");
	struct sample_key k = key(0x22, 0x81), none = key(0x22, 0);
	struct jstacks_stats st;
	const uint64_t pcs[] = {INTERP + 0x10, JIT + 0x10};
	const struct jstack *js;
	struct rt r;

	if (!rt_new(&r, open_fake))
		return;
	add_stack(0x22, 3, u);
	list_ids[0] = 0x81;
	lists[0] = (struct interp_stack){.nr = 3};
	lists[0].f[0] =
	    (struct interp_frame){.idx = 0, .klass_name = ks, .name = ns};
	/* not where the stack is in the interpreter: left alone */
	lists[0].f[1] =
	    (struct interp_frame){.idx = 1, .klass_name = ks, .name = ns};
	/* past the stack's end: misaligned */
	lists[0].f[2] =
	    (struct interp_frame){.idx = 7, .klass_name = ks, .name = ns};
	CHECK(version_of(&r, &k) == 1); /* no JVM yet */
	seen(&r, &k, 1 * SEC);
	CHECK(version_of(&r, &none) == 2); /* a JVM, no list */
	js = stack_of(&r, &k, u, 3);
	CHECK_STR(java_at(js, 0), "app/Loop.run");
	CHECK(js->njava[0] == 1 &&
	      js->java[js->first[0]].kind == JF_INTERPRETED);
	CHECK(!js->njava[1] && !js->njava[2]);
	CHECK(js->interp[0] && !js->interp[1] && js->interp[2]);
	CHECK(!js->stubs[1]); /* no code cache */
	jstacks__stats(r.js, &st);
	CHECK_INT(st.misaligned, 1);
	js = stack_of(&r, &none, pcs, 2);
	CHECK(js->interp[0] && !js->interp[1] && !js->njava[0]);

	/* 10 s of other keys: the list is dropped, then read again */
	seen(&r, &none, 13 * SEC);
	CHECK(version_of(&r, &k) == 0);
	lists[0].nr = 1;
	CHECK_STR(name_at(&r, &k, u, 3, 0), "app/Loop.run");
	CHECK(version_of(&r, &k) > 2);
	rt_free(&r);
}

/*
 * A leaf listed as the interpreter returning past its frame (the walk's
 * INTERP_CID_RETURN): ret_leaf, not an interpreted frame; its caller
 * named as any; the mark elsewhere than the leaf means nothing.
 */
static void test_return_leaf(void)
{
	const uint64_t u[] = {INTERP + 0x30, INTERP + 0x40};
	uint64_t ks = put_symbol(128, "app/Loop"), ns = put_symbol(192, "run");
	struct sample_key k = key(0x23, 0x91);
	const struct jstack *js;
	struct rt r;

	if (!rt_new(&r, open_fake))
		return;
	add_stack(0x23, 2, u);
	list_ids[0] = 0x91;
	lists[0] = (struct interp_stack){.nr = 2};
	lists[0].f[0] =
	    (struct interp_frame){.idx = 0, .cid = INTERP_CID_RETURN};
	lists[0].f[1] =
	    (struct interp_frame){.idx = 1, .klass_name = ks, .name = ns};
	seen(&r, &k, 1 * SEC);
	js = stack_of(&r, &k, u, 2);
	CHECK(js->ret_leaf && !js->njava[0] && !js->interp[0]);
	CHECK_STR(java_at(js, 1), "app/Loop.run");
	/* the mark on a caller: an interpreted frame without a name */
	lists[0].f[0].idx = 1;
	lists[0].f[1].idx = 0;
	k = key(0x23, 0x92);
	list_ids[0] = 0x92;
	seen(&r, &k, 2 * SEC);
	js = stack_of(&r, &k, u, 2);
	CHECK(!js->ret_leaf && js->interp[0] && js->interp[1]);
	CHECK_STR(java_at(js, 0), "app/Loop.run");
	rt_free(&r);
}

/*
 * A compiled frame (nmethod listed) of a JVM without a namer: left to
 * the symbolizer, counted; a stub pc out of any code cache: no name.
 */
static void test_compiled(void)
{
	const uint64_t u[] = {JIT + 0x30};
	uint64_t ks = put_symbol(256, "app/Hot"), ns = put_symbol(320, "m");
	struct sample_key k = key(0x23, 0x71);
	struct jstacks_stats st;
	struct rt r;

	if (!rt_new(&r, open_fake))
		return;
	add_stack(0x23, 1, u);
	list_ids[0] = 0x71;
	lists[0] = (struct interp_stack){.nr = 1};
	lists[0].f[0] = (struct interp_frame){
	    .idx = 0, .klass_name = ks, .name = ns, .nm = JIT, .cid = 5};
	seen(&r, &k, 1 * SEC);
	CHECK(name_at(&r, &k, u, 1, 0) == NULL);
	jstacks__stats(r.js, &st);
	CHECK_INT(st.compiled_failed, 1);
	CHECK_INT(st.compiled_named + st.compiled_stale, 0);
	CHECK(jstacks__stub_name(r.js, child, JIT + 0x30) == NULL);
	CHECK(jstacks__stub_name(r.js, 1, JIT + 0x30) == NULL); /* no JVM */
	rt_free(&r);
}

/*
 * The fake JVM with a code heap of 256 bytes at TMEM + 0xc00 (segments of
 * 128, its map at TMEM + 0xbf0) holding one blob at its start, 0xe0
 * bytes, named "StubRoutines (1)".
 */
static struct hotspot *open_stubs(uint32_t pid)
{
	const struct hotspot_mem m = {t_read, NULL};
	struct hotspot_layout l = fake_layout;
	uint64_t name = TMEM + 0xbd0;
	int32_t size = 0xe0;

	memset(tmem + 0xbf0, 0, 2); /* both segments: the blob's */
	tmem[0xbf1] = 1;
	strcpy((char *)tmem + 0xbd0, "StubRoutines (1)");
	memcpy(tmem + 0xc10 + 4, &size, 4);
	memcpy(tmem + 0xc10 + 8, &name, 8);
	l.u = (struct hotspot_unwind){.ok = true,
				      .hb_size = 16,
				      .off_cb_size = 4,
				      .off_cb_name = 8,
				      .off_nm_method = HOTSPOT_NO_OFF,
				      .off_nm_compile_id = HOTSPOT_NO_OFF,
				      .nheaps = 1,
				      .heap = {{.lo = TMEM + 0xc00,
						.hi = TMEM + 0xd00,
						.segmap = TMEM + 0xbf0,
						.log2_seg = 7}}};
	return hotspot__from_mem(pid, &m, &l);
}

/*
 * A frame in the code cache that no list names gets its CodeBlob's name
 * (for when no map names it); one out of it, or named, gets none.
 */
static void test_stubs(void)
{
	/* the stub (a leaf), a caller in it (return address - 1), native */
	const uint64_t u[] = {TMEM + 0xc40, TMEM + 0xc81, JIT + 0x10};
	struct sample_key k = key(0x25, 0);
	const struct jstack *s;
	struct rt r;

	if (!rt_new(&r, open_stubs))
		return;
	seen(&r, &k, 1 * SEC);
	s = stack_of(&r, &k, u, 3);
	CHECK_STR(s->stubs[0], "StubRoutines (1)");
	CHECK_STR(s->stubs[1], "StubRoutines (1)");
	CHECK(s->stubs[2] == NULL);
	CHECK(!s->interp[0] && !s->interp[2]);
	CHECK_STR(jstacks__stub_name(r.js, child, TMEM + 0xc40),
		  "StubRoutines (1)");
	CHECK(jstacks__stub_name(r.js, child, TMEM + 0xd40) == NULL);
	rt_free(&r);
}

/*
 * A stub in a stack is named when its key is first seen: named later, as
 * a launched JVM's last second is, after the JVM exited, it keeps the
 * name read while the JVM lived.
 */
static void test_stubs_seen(void)
{
	const uint64_t u[] = {TMEM + 0xc48, JIT + 0x10};
	struct sample_key k = key(0x26, 0);
	struct rt r;

	if (!rt_new(&r, open_stubs))
		return;
	add_stack(0x26, 2, u);
	seen(&r, &k, 1 * SEC);
	tmem[0xbd0] = 0; /* its memory gone: an empty name reads as none */
	CHECK_STR(stack_of(&r, &k, u, 2)->stubs[0], "StubRoutines (1)");
	CHECK(stack_of(&r, &k, u, 2)->stubs[1] == NULL);
	tmem[0xbd0] = 'S';
	rt_free(&r);
}

/* A class's Java name by its Klass*; forgetting the JVM forgets it. */
static void test_klass(void)
{
	struct sample_key k = key(0x24, 0);
	struct rt r;

	if (!rt_new(&r, open_fake))
		return;
	put_u64(0xa00 + 8, put_symbol(0xb00, "java/util/HashMap$Node"));
	put_u64(0xa40 + 8, put_symbol(0xb80, "[B"));
	seen(&r, &k, 1 * SEC);
	CHECK_STR(jstacks__klass_name(r.js, child, TMEM + 0xa00),
		  "java.util.HashMap$Node");
	CHECK_STR(jstacks__klass_name(r.js, child, TMEM + 0xa40), "byte[]");
	CHECK(jstacks__klass_name(r.js, child, 0x10) == NULL);
	CHECK(jstacks__klass_name(r.js, 1, TMEM + 0xa00) == NULL);
	jstacks__forget(r.js, child);
	jvms__forget(r.jv, child);
	CHECK(jstacks__klass_name(r.js, child, TMEM + 0xa00) == NULL);
	CHECK(version_of(&r, &k) == 1);
	rt_free(&r);
}

int main(void)
{
	child = fakejvm__child();
	CHECK(child > 0);
	if (child > 0) {
		test_hashes();
		test_chunk_gone();
		test_lists();
		test_return_leaf();
		test_compiled();
		test_stubs();
		test_stubs_seen();
		test_klass();
		fakejvm__reap(child);
	}
	return check_report();
}
