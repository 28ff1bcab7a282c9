// SPDX-License-Identifier: GPL-2.0
/*
 * jthreads: Java thread names from the JVM's memory (see jthreads.h).
 *
 * Facts used (HotSpot sources, no code taken): fieldInfo.inline.hpp
 * (JDK 21+ stream: java count, injected count, then per field name
 * index, signature index, offset, access flags, field flags, and one more
 * item each for the initialized, generic and contended flags);
 * fieldInfo.hpp of JDK 17 (6 u2 slots, offset packed in low/high with a
 * 2-bit tag); the narrow oop and klass decoding base + (v << shift);
 * arrays keep their int length right after the (narrow) class pointer,
 * byte elements next (aligned to 8 bytes before JDK 23's relaxed array
 * alignment).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "jthreads.h"
#include "nmethod.h"

#define MAX_FIELDS 512 /* java.lang.Thread and String have < 40 */
/* java.lang.Thread's depth is 2 (Object); a class of a Thread subclass
 * deeper than 32 is not one a JVM made */
#define MAX_SUPERS 32
#define MAX_NAME_BYTES 4096 /* longer thread names are cut */
/*
 * Classes looked up (not cached) in one walk of the thread list: a JVM's
 * threads are of a handful of classes (Thread, its JDK subclasses, an
 * application's few); a list whose threads each bring a class of their
 * own, with a chain of supers, made 16 million reads a walk (the fake
 * JVM's manythreads). Past it the walk ends with the names it has.
 */
#define MAX_LOOKUPS 64
/*
 * The most of a class's field table we read: what MAX_FIELDS Java fields
 * take. JDK 17: 6 u2s each (FieldInfo::field_slots); JDK 21+: two
 * counts, then 5 UNSIGNED5 items of at most 5 bytes and up to 3 more per
 * field. The tables hold every field (injected ones, generic signatures
 * after them), so their length can pass this: only the Java fields'
 * part is read. (Measured with the fake JVM: reading a table whole, as
 * long as its header said, was 2 MB per class per hop.)
 */
#define MAX_STREAM_BYTES (10 + MAX_FIELDS * 8 * 5)

/* ---- pure decoders ----------------------------------------------------- */

int jthreads__fields_stream(const uint8_t *buf, size_t len, int x,
			    const struct jfield_flags *ff, struct jfield *out,
			    int max)
{
	uint32_t java, injected, v[5], skip;
	size_t pos = 0;

	if (nmethod__u5_read(buf, len, &pos, x, &java) ||
	    nmethod__u5_read(buf, len, &pos, x, &injected) ||
	    java > (uint32_t)max)
		return -EINVAL;
	for (uint32_t i = 0; i < java; i++) {
		for (int k = 0; k < 5; k++)
			if (nmethod__u5_read(buf, len, &pos, x, &v[k]))
				return -EINVAL;
		if (v[0] > 0xffff || v[1] > 0xffff)
			return -EINVAL;
		out[i] = (struct jfield){v[0], v[1], v[2]};
		skip = !!(v[4] & (1u << ff->initialized)) +
		       !!(v[4] & (1u << ff->generic)) +
		       !!(v[4] & (1u << ff->contended));
		while (skip--)
			if (nmethod__u5_read(buf, len, &pos, x, &v[0]))
				return -EINVAL;
	}
	return (int)java;
}

int jthreads__fields_u2(const uint16_t *a, size_t n, int java_count,
			const struct jfield_u2 *f, struct jfield *out, int max)
{
	uint32_t mask = (1u << f->tag_size) - 1, packed;

	if (java_count < 0 || java_count > max || f->slots <= 0 ||
	    (size_t)java_count * f->slots > n)
		return -EINVAL;
	for (int i = 0; i < java_count; i++) {
		const uint16_t *e = a + (size_t)i * f->slots;

		packed = (uint32_t)e[f->high] << 16 | e[f->low];
		if ((packed & mask) != (uint32_t)f->tag_offset)
			return -EINVAL;
		out[i] = (struct jfield){e[f->name], e[f->sig],
					 packed >> f->tag_size};
	}
	return java_count;
}

/* One code point as UTF-8; false when it does not fit before end. */
static bool put_utf8(uint32_t c, char **p, const char *end)
{
	int n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	uint8_t *q = (uint8_t *)*p;

	if (end - *p < n)
		return false;
	if (n == 1) {
		q[0] = c;
	} else if (n == 2) {
		q[0] = 0xc0 | c >> 6;
		q[1] = 0x80 | (c & 0x3f);
	} else if (n == 3) {
		q[0] = 0xe0 | c >> 12;
		q[1] = 0x80 | (c >> 6 & 0x3f);
		q[2] = 0x80 | (c & 0x3f);
	} else {
		q[0] = 0xf0 | c >> 18;
		q[1] = 0x80 | (c >> 12 & 0x3f);
		q[2] = 0x80 | (c >> 6 & 0x3f);
		q[3] = 0x80 | (c & 0x3f);
	}
	*p += n;
	return true;
}

int jthreads__string_utf8(const uint8_t *b, size_t len, int coder, char *out,
			  size_t cap)
{
	char *p = out, *end = out + cap - 1;
	size_t i = 0;

	if (!cap || (coder != 0 && coder != 1) || (coder == 1 && len % 2))
		return -EINVAL;
	while (i < len) {
		uint32_t c;
		size_t step = 1;

		if (!coder) {
			c = b[i];
		} else {
			c = b[i] | b[i + 1] << 8;
			step = 2;
			/* a surrogate pair makes one code point */
			if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
				uint32_t lo = b[i + 2] | b[i + 3] << 8;

				if (lo >= 0xdc00 && lo < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) +
					    (lo - 0xdc00);
					step = 4;
				}
			}
			if (c >= 0xd800 && c < 0xe000)
				c = 0xfffd; /* a lone surrogate */
		}
		if (!put_utf8(c, &p, end)) {
			*p = '\0';
			return -ENOSPC;
		}
		i += step;
	}
	*p = '\0';
	return (int)(p - out);
}

/* ---- a live JVM -------------------------------------------------------- */

/* A class's field offset found once: klass -> offset, or NM_NONE when
 * the lookup failed (kept too: a class does not change its fields). */
struct field_cache {
	uint64_t klass;
	uint32_t off;
};

struct jthreads {
	const struct hotspot_mem *m;
	const struct hotspot_layout *hl;
	int major, x;
	struct jencoding enc; /* how oops and class pointers are stored */
	uint64_t list_addr; /* &ThreadsSMRSupport::_java_thread_list */
	uint32_t tl_length, tl_threads, jt_osthread, os_tid, jt_obj, oh_obj;
	uint32_t arr_len, arr_base;
	uint32_t ik_constants, k_super;
	/* JDK 21+: InstanceKlass::_fieldinfo_stream; JDK 17: _fields */
	uint32_t ik_stream, ik_fields, ik_java_count, arr_u1_data, arr_u2_data;
	struct jfield_flags ff;
	struct jfield_u2 fu2;
	struct field_cache thread_name[8], str_value, str_coder;
	int lookups_left; /* in this walk (MAX_LOOKUPS) */
};

static int rd(const struct hotspot_mem *m, uint64_t a, void *buf, size_t len)
{
	return a ? m->read(m->ctx, a, buf, len) : -EFAULT;
}

static int rd64(const struct hotspot_mem *m, uint64_t a, uint64_t *v)
{
	return rd(m, a, v, 8);
}

static int field(const struct vmstructs *vs, const char *t, const char *f,
		 uint32_t *out)
{
	uint64_t v;

	if (vmstructs__field(vs, t, f, &v) || v > 1u << 16)
		return -ENOENT;
	*out = (uint32_t)v;
	return 0;
}

/* The address of the first static of names[] the JVM publishes. */
static int static_addr(const struct vmstructs *vs, const char *t,
		       const char *f1, const char *f2, uint64_t *out)
{
	return vmstructs__field(vs, t, f1, out) &&
		       vmstructs__field(vs, t, f2, out)
		   ? -ENOENT
		   : 0;
}

/*
 * A bool JVM flag by name from JVMFlag::flags: 1, 0, or -ENOENT. The
 * table has about a thousand entries, read once per JVM.
 */
static int jvm_flag(const struct hotspot_mem *m, const struct vmstructs *vs,
		    const char *want)
{
	uint64_t flags_p, num_p, flags, num, size, addr, np;
	uint32_t o_name, o_addr;
	char name[64];
	uint8_t v;

	size = vmstructs__type_size(vs, "JVMFlag");
	if (vmstructs__field(vs, "JVMFlag", "flags", &flags_p) ||
	    vmstructs__field(vs, "JVMFlag", "numFlags", &num_p) ||
	    field(vs, "JVMFlag", "_name", &o_name) ||
	    field(vs, "JVMFlag", "_addr", &o_addr) || !size || size > 256 ||
	    rd64(m, flags_p, &flags) || rd64(m, num_p, &num))
		return -ENOENT;
	for (uint64_t i = 0; i < num && i < 10000; i++) {
		uint64_t e = flags + i * size;
		/* a name near the end of libjvm's data: read to the page end */
		size_t len = sizeof(name) - 1;

		if (rd64(m, e + o_name, &np) || !np)
			continue;
		if (4096 - (np & 4095) < len)
			len = 4096 - (np & 4095);
		if (rd(m, np, name, len))
			continue;
		name[len] = '\0';
		if (strcmp(name, want))
			continue;
		if (rd64(m, e + o_addr, &addr) || rd(m, addr, &v, 1))
			return -ENOENT;
		return v != 0;
	}
	return -ENOENT;
}

/* A narrow or full base and shift, JDK 17 or 25 names. */
static int base_shift(const struct hotspot_mem *m, const struct vmstructs *vs,
		      const char *type, const char *b17, const char *s17,
		      uint64_t *base, int *shift)
{
	uint64_t ba, sa;
	int32_t s;

	if (static_addr(vs, type, "_base", b17, &ba) ||
	    static_addr(vs, type, "_shift", s17, &sa) || rd64(m, ba, base) ||
	    rd(m, sa, &s, 4) || s < 0 || s > 32)
		return -ENOENT;
	*shift = s;
	return 0;
}

static int init_fields(struct jthreads *t, const struct vmstructs *vs)
{
	int64_t c[7];

	if (!field(vs, "InstanceKlass", "_fieldinfo_stream", &t->ik_stream)) {
		if (field(vs, "Array<u1>", "_data", &t->arr_u1_data) ||
		    vmstructs__constant(
			vs, "FieldInfo::FieldFlags::_ff_initialized", &c[0]) ||
		    vmstructs__constant(
			vs, "FieldInfo::FieldFlags::_ff_generic", &c[1]) ||
		    vmstructs__constant(
			vs, "FieldInfo::FieldFlags::_ff_contended", &c[2]))
			return -ENOENT;
		t->ff = (struct jfield_flags){c[0], c[1], c[2]};
		t->ik_fields = NM_NONE;
		return 0;
	}
	t->ik_stream = NM_NONE;
	if (field(vs, "InstanceKlass", "_fields", &t->ik_fields) ||
	    field(vs, "InstanceKlass", "_java_fields_count",
		  &t->ik_java_count) ||
	    field(vs, "Array<u2>", "_data", &t->arr_u2_data) ||
	    vmstructs__constant(vs, "FieldInfo::field_slots", &c[0]) ||
	    vmstructs__constant(vs, "FieldInfo::name_index_offset", &c[1]) ||
	    vmstructs__constant(vs, "FieldInfo::signature_index_offset",
				&c[2]) ||
	    vmstructs__constant(vs, "FieldInfo::low_packed_offset", &c[3]) ||
	    vmstructs__constant(vs, "FieldInfo::high_packed_offset", &c[4]) ||
	    vmstructs__constant(vs, "FIELDINFO_TAG_SIZE", &c[5]) ||
	    vmstructs__constant(vs, "FIELDINFO_TAG_OFFSET", &c[6]))
		return -ENOENT;
	t->fu2 = (struct jfield_u2){c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
	for (int i = 1; i < 5; i++)
		if (c[i] < 0 || c[i] >= c[0])
			return -ENOENT;
	return c[0] > 0 && c[0] < 32 && c[5] > 0 && c[5] < 8 ? 0 : -ENOENT;
}

static int init_offsets(struct jthreads *t, const struct vmstructs *vs)
{
	if (vmstructs__field(vs, "ThreadsSMRSupport", "_java_thread_list",
			     &t->list_addr) ||
	    field(vs, "ThreadsList", "_length", &t->tl_length) ||
	    field(vs, "ThreadsList", "_threads", &t->tl_threads) ||
	    (field(vs, "JavaThread", "_osthread", &t->jt_osthread) &&
	     field(vs, "Thread", "_osthread", &t->jt_osthread)) ||
	    field(vs, "OSThread", "_thread_id", &t->os_tid) ||
	    field(vs, "JavaThread", "_threadObj", &t->jt_obj) ||
	    field(vs, "OopHandle", "_obj", &t->oh_obj) ||
	    field(vs, "InstanceKlass", "_constants", &t->ik_constants) ||
	    field(vs, "Klass", "_super", &t->k_super))
		return -ENOENT;
	return init_fields(t, vs);
}

int jencoding__read(const struct hotspot_mem *m, const struct vmstructs *vs,
		    struct jencoding *e)
{
	int coops = jvm_flag(m, vs, "UseCompressedOops"),
	    ccp = jvm_flag(m, vs, "UseCompressedClassPointers");

	memset(e, 0, sizeof(*e));
	if (jvm_flag(m, vs, "UseCompactObjectHeaders") == 1)
		return -ENOTSUP; /* the class pointer lives in the mark word */
	if (coops < 0 || ccp < 0 ||
	    field(vs, "oopDesc", "_metadata._compressed_klass", &e->oop_klass))
		return -ENOENT;
	e->coops = coops;
	e->ccp = ccp;
	if (coops &&
	    base_shift(m, vs, "CompressedOops", "_narrow_oop._base",
		       "_narrow_oop._shift", &e->oop_base, &e->oop_shift))
		return -ENOENT;
	if (ccp &&
	    base_shift(m, vs, "CompressedKlassPointers", "_narrow_klass._base",
		       "_narrow_klass._shift", &e->klass_base, &e->klass_shift))
		return -ENOENT;
	return 0;
}

/* The JVM's flags and bases: how oops and class pointers are stored. */
static int init_encoding(struct jthreads *t, const struct vmstructs *vs)
{
	int ret = jencoding__read(t->m, vs, &t->enc);

	if (ret)
		return ret;
	t->arr_len = t->enc.oop_klass + (t->enc.ccp ? 4 : 8);
	t->arr_base = t->arr_len + 4;
	if (t->major < 23)
		t->arr_base = (t->arr_base + 7) & ~7u;
	return 0;
}

struct jthreads *jthreads__new(const struct hotspot_mem *m,
			       const struct hotspot_layout *hl,
			       const struct vmstructs *vs, int major)
{
	struct jthreads *t = calloc(1, sizeof(*t));
	int ret = -ENOMEM;

	if (!t)
		goto fail;
	t->m = m;
	t->hl = hl;
	t->major = major;
	t->x = major >= 21;
	ret = init_offsets(t, vs);
	if (!ret)
		ret = init_encoding(t, vs);
	if (!ret)
		return t;
fail:
	free(t);
	errno = -ret;
	return NULL;
}

void jthreads__free(struct jthreads *t)
{
	free(t);
}

/* The Klass* of an object. */
static int klass_of(struct jthreads *t, uint64_t oop, uint64_t *k)
{
	uint32_t nk;

	if (!t->enc.ccp)
		return rd64(t->m, oop + t->enc.oop_klass, k) || !*k ? -EFAULT
								    : 0;
	if (rd(t->m, oop + t->enc.oop_klass, &nk, 4) || !nk)
		return -EFAULT;
	*k = t->enc.klass_base + ((uint64_t)nk << t->enc.klass_shift);
	return 0;
}

/* An oop field of an object, decoded. */
static int oop_field(struct jthreads *t, uint64_t oop, uint32_t off,
		     uint64_t *v)
{
	uint32_t n;

	if (!t->enc.coops)
		return rd64(t->m, oop + off, v);
	if (rd(t->m, oop + off, &n, 4))
		return -EFAULT;
	*v = n ? t->enc.oop_base + ((uint64_t)n << t->enc.oop_shift) : 0;
	return 0;
}

/* Klass k's own Java fields; only their part of the table is read. */
static int klass_fields(struct jthreads *t, uint64_t k, struct jfield *f,
			int max)
{
	uint64_t arr;
	int32_t len;
	uint16_t cnt = 0;
	size_t want;
	void *buf;
	int n;

	if (rd64(t->m,
		 k + (t->ik_stream != NM_NONE ? t->ik_stream : t->ik_fields),
		 &arr) ||
	    !arr || rd(t->m, arr, &len, 4) || len < 0)
		return -EFAULT;
	if (t->ik_stream == NM_NONE) {
		if (rd(t->m, k + t->ik_java_count, &cnt, 2))
			return -EFAULT;
		if (cnt > max || (size_t)cnt * t->fu2.slots > (size_t)len)
			return -EINVAL;
		want = (size_t)cnt * t->fu2.slots * 2;
	} else {
		want = len < MAX_STREAM_BYTES ? (size_t)len : MAX_STREAM_BYTES;
	}
	buf = malloc(want ? want : 1);
	if (!buf)
		return -ENOMEM;
	if (t->ik_stream != NM_NONE)
		n = rd(t->m, arr + t->arr_u1_data, buf, want)
			? -EFAULT
			: jthreads__fields_stream(buf, want, t->x, &t->ff, f,
						  max);
	else
		n = want && rd(t->m, arr + t->arr_u2_data, buf, want)
			? -EFAULT
			: jthreads__fields_u2(buf, want / 2, cnt, &t->fu2, f,
					      max);
	free(buf);
	return n;
}

/* Whether constant pool entry idx of cp is the Symbol `want`. */
static bool cp_symbol_is(struct jthreads *t, uint64_t cp, uint16_t idx,
			 const char *want)
{
	uint64_t sym;
	char s[128];

	return !rd64(t->m, cp + t->hl->cp_size + (uint64_t)idx * 8, &sym) &&
	       hotspot__symbol(t->m, t->hl, sym, s, sizeof(s), NULL) > 0 &&
	       !strcmp(s, want);
}

/* The offset of field name:sig in klass k or its supers (a class seen
 * twice on the way up is a loop: -ELOOP). */
static int field_offset(struct jthreads *t, uint64_t k, const char *name,
			const char *sig, uint32_t *off)
{
	struct jfield f[MAX_FIELDS];
	uint64_t cp, seen[MAX_SUPERS];

	for (int depth = 0; k && depth < MAX_SUPERS; depth++) {
		int n;

		for (int i = 0; i < depth; i++)
			if (seen[i] == k)
				return -ELOOP;
		seen[depth] = k;
		n = klass_fields(t, k, f, MAX_FIELDS);
		if (n < 0 || rd64(t->m, k + t->ik_constants, &cp))
			return -EFAULT;
		for (int i = 0; i < n; i++)
			if (cp_symbol_is(t, cp, f[i].name_index, name) &&
			    cp_symbol_is(t, cp, f[i].sig_index, sig)) {
				*off = f[i].offset;
				return 0;
			}
		if (rd64(t->m, k + t->k_super, &k))
			return -EFAULT;
	}
	return -ENOENT;
}

/* A per-class cached field offset; a failed lookup is cached too. */
static int cached_offset(struct jthreads *t, struct field_cache *c, int n,
			 uint64_t k, const char *name, const char *sig,
			 uint32_t *off)
{
	int i, ret;

	for (i = 0; i < n && c[i].klass; i++)
		if (c[i].klass == k) {
			*off = c[i].off;
			return c[i].off == NM_NONE ? -ENOENT : 0;
		}
	if (t->lookups_left <= 0)
		return -EAGAIN;
	t->lookups_left--;
	ret = field_offset(t, k, name, sig, off);
	if (ret == -ENOMEM)
		return ret;
	if (i == n)
		i = 0; /* full: reuse the first slot */
	c[i] = (struct field_cache){k, ret ? NM_NONE : *off};
	return ret;
}

/* The text of String s. */
static int read_string(struct jthreads *t, uint64_t s, char *out, size_t cap)
{
	uint64_t k, val;
	uint32_t voff, coff;
	uint8_t coder, *b;
	int32_t len;
	int ret;

	if (klass_of(t, s, &k))
		return -EFAULT;
	ret = cached_offset(t, &t->str_value, 1, k, "value", "[B", &voff);
	if (!ret)
		ret =
		    cached_offset(t, &t->str_coder, 1, k, "coder", "B", &coff);
	if (ret == -EAGAIN)
		return ret;
	if (ret || rd(t->m, s + coff, &coder, 1) ||
	    oop_field(t, s, voff, &val) || !val ||
	    rd(t->m, val + t->arr_len, &len, 4) || len < 0)
		return -EFAULT;
	if (len > MAX_NAME_BYTES)
		len = MAX_NAME_BYTES & ~1;
	b = malloc(len ? len : 1);
	if (!b)
		return -ENOMEM;
	ret = rd(t->m, val + t->arr_base, b, len)
		  ? -EFAULT
		  : jthreads__string_utf8(b, len, coder, out, cap);
	free(b);
	return ret;
}

/* One JavaThread: its tid and name. */
static int thread_name(struct jthreads *t, uint64_t jt, int32_t *tid, char *out,
		       size_t cap)
{
	uint64_t os, h, obj, k, name;
	uint32_t noff;

	int ret;

	if (rd64(t->m, jt + t->jt_osthread, &os) || !os ||
	    rd(t->m, os + t->os_tid, tid, 4) ||
	    rd64(t->m, jt + t->jt_obj + t->oh_obj, &h) || !h ||
	    rd64(t->m, h, &obj) || !obj || klass_of(t, obj, &k))
		return -EFAULT;
	ret = cached_offset(t, t->thread_name, 8, k, "name",
			    "Ljava/lang/String;", &noff);
	if (ret == -EAGAIN)
		return ret;
	if (ret || oop_field(t, obj, noff, &name) || !name)
		return -EFAULT;
	return read_string(t, name, out, cap);
}

int jthreads__each(struct jthreads *t,
		   int (*fn)(void *arg, int32_t tid, const char *name),
		   void *arg)
{
	uint64_t tl, arr, *jts;
	uint32_t len;
	char name[MAX_NAME_BYTES * 2];
	int32_t tid;
	int n = 0;

	if (rd64(t->m, t->list_addr, &tl) || !tl ||
	    rd(t->m, tl + t->tl_length, &len, 4) ||
	    rd64(t->m, tl + t->tl_threads, &arr) || len > HOTSPOT_MAX_THREADS)
		return -EFAULT;
	jts = malloc(len ? len * 8ul : 1);
	if (!jts)
		return -ENOMEM;
	if (len && rd(t->m, arr, jts, len * 8ul)) {
		free(jts);
		return -EFAULT;
	}
	/* a real list names each JavaThread once; a forged one, one
	 * thread 100,000 times */
	len = hotspot__distinct(jts, len);
	t->lookups_left = MAX_LOOKUPS;
	for (uint32_t i = 0; i < len; i++) {
		int ret = thread_name(t, jts[i], &tid, name, sizeof(name));

		if (ret == -EAGAIN)
			break; /* too many classes: not a list HotSpot keeps */
		if (ret < 0 && ret != -ENOSPC)
			continue;
		n++;
		if (fn(arg, tid, name))
			break;
	}
	free(jts);
	return n;
}
