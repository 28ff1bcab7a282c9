// SPDX-License-Identifier: GPL-2.0
/*
 * vmstructs: gHotSpotVMStructs, gHotSpotVMTypes and the constant tables
 * read whole into one sorted array (see vmstructs.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "vmstructs.h"

const char *const vmc_sym_names[VMC_NR_SYMS] = {
    [VMC_INT] = "gHotSpotVMIntConstants",
    [VMC_INT_NAME] = "gHotSpotVMIntConstantEntryNameOffset",
    [VMC_INT_VALUE] = "gHotSpotVMIntConstantEntryValueOffset",
    [VMC_INT_STRIDE] = "gHotSpotVMIntConstantEntryArrayStride",
    [VMC_LONG] = "gHotSpotVMLongConstants",
    [VMC_LONG_NAME] = "gHotSpotVMLongConstantEntryNameOffset",
    [VMC_LONG_VALUE] = "gHotSpotVMLongConstantEntryValueOffset",
    [VMC_LONG_STRIDE] = "gHotSpotVMLongConstantEntryArrayStride",
    [VMC_S_TYPESTR] = "gHotSpotVMStructEntryTypeStringOffset",
};

#define MAX_ENTRIES 20000 /* per table: a longer one is not VMStructs */
#define NAME_LEN 80
#define PAGE 4096

/* key: 'F' + "Type::field", 'T' + "Type", 'C' + "NAME" */
struct entry {
	char *key;
	char kind; /* 'f', 's', 't', 'c' */
	int64_t val;
	char *ctype; /* a field's C type ("int", "address"), or NULL */
};

struct window;

struct vmstructs {
	struct entry *e;
	size_t n, cap;
	struct window *names; /* while the tables are read: NAME_WINDOWS */
};

static int rd(const struct hotspot_mem *m, uint64_t addr, void *buf, size_t len)
{
	return addr ? m->read(m->ctx, addr, buf, len) : -EFAULT;
}

static int rd_u64(const struct hotspot_mem *m, uint64_t addr, uint64_t *v)
{
	return rd(m, addr, v, sizeof(*v));
}

/* A C string of the target; a read failing at a page end is retried
 * up to it (names sit in libjvm's read-only data). */
static int rd_str(const struct hotspot_mem *m, uint64_t addr, char *buf,
		  size_t cap)
{
	size_t len = cap - 1, page_left = 4096 - (addr & 4095);

	if (rd(m, addr, buf, len)) {
		if (page_left >= len || rd(m, addr, buf, page_left))
			return -EFAULT;
		len = page_left;
	}
	buf[len] = '\0';
	return strlen(buf) < cap - 1 ? 0 : -EINVAL;
}

/*
 * A window on the target's memory: the page last read. The tables hold
 * thousands of entries of a few fields each, and their names sit
 * together in libjvm's read-only data: read one by one, that is tens of
 * thousands of process_vm_readv calls (a quarter of a second on a busy
 * host); through a window, about one per page. The page of a readable
 * address is mapped whole; the next one need not be, so what crosses a
 * page's end is read as it is.
 */
struct window {
	const struct hotspot_mem *m;
	uint64_t page; /* the address of buf[0]; 0: empty */
	uint8_t buf[PAGE];
};

/* Make the window show addr's page. 0 or -EFAULT. */
static int wmove(struct window *w, uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(PAGE - 1);

	if (w->page && w->page == page)
		return 0;
	w->page = 0;
	if (!page || rd(w->m, page, w->buf, PAGE))
		return -EFAULT;
	w->page = page;
	return 0;
}

static int wrd(struct window *w, uint64_t addr, void *out, size_t len)
{
	size_t at = addr & (PAGE - 1);

	if (at + len > PAGE || wmove(w, addr))
		return rd(w->m, addr, out, len);
	memcpy(out, w->buf + at, len);
	return 0;
}

/* rd_str through the window. */
static int wstr(struct window *w, uint64_t addr, char *buf, size_t cap)
{
	size_t at = addr & (PAGE - 1), n = PAGE - at;
	const uint8_t *nul;

	if (n > cap - 1)
		n = cap - 1;
	if (wmove(w, addr))
		return rd_str(w->m, addr, buf, cap);
	nul = memchr(w->buf + at, 0, n);
	if (!nul) /* too long, or it goes on in the next page */
		return n == cap - 1 ? -EINVAL : rd_str(w->m, addr, buf, cap);
	memcpy(buf, w->buf + at, nul - (w->buf + at) + 1);
	return 0;
}

/*
 * Names are string literals spread over libjvm's read-only data, and the
 * entries of the tables come back to the same pages again and again: one
 * window per page slot (direct-mapped, 128 KB mapped while the tables
 * are read), not one for them all (a JDK 17's tables: ~2,400 page
 * reads, each a process_vm_readv, with one window, ~540 with 16, ~330
 * with 32; 64 saved no more).
 */
#define NAME_WINDOWS 32
static struct window *wpick(struct window *v, uint64_t addr)
{
	return &v[(addr / PAGE) % NAME_WINDOWS];
}

/*
 * vs->names for a reading of the tables: 0 or -ENOMEM. Mapped, not
 * malloc'ed: a freed 128 KB block raises malloc's mmap threshold, and the
 * next JVM's would stay in the heap for good.
 */
static int names_open(struct vmstructs *vs, const struct hotspot_mem *m)
{
	void *p =
	    mmap(NULL, NAME_WINDOWS * sizeof(*vs->names),
		 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	vs->names = p;
	for (int i = 0; i < NAME_WINDOWS; i++) {
		vs->names[i].m = m;
		vs->names[i].page = 0;
	}
	return 0;
}

static void names_close(struct vmstructs *vs)
{
	if (vs->names)
		munmap(vs->names, NAME_WINDOWS * sizeof(*vs->names));
	vs->names = NULL;
}

static int wrd_u64(struct window *w, uint64_t addr, uint64_t *v)
{
	return wrd(w, addr, v, sizeof(*v));
}

static int add(struct vmstructs *vs, char prefix, const char *a, const char *b,
	       char kind, int64_t val, const char *ctype)
{
	size_t la = strlen(a), lb = b ? strlen(b) : 0;
	char *key;

	if (vs->n == vs->cap) {
		size_t cap = vs->cap ? vs->cap * 2 : 1024;
		struct entry *e = realloc(vs->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		vs->e = e;
		vs->cap = cap;
	}
	key = malloc(la + lb + 4);
	if (!key)
		return -ENOMEM;
	key[0] = prefix;
	memcpy(key + 1, a, la);
	if (b) {
		memcpy(key + 1 + la, "::", 2);
		memcpy(key + 3 + la, b, lb);
		key[3 + la + lb] = '\0';
	} else {
		key[1 + la] = '\0';
	}
	vs->e[vs->n++] = (struct entry){key, kind, val, NULL};
	if (ctype && !(vs->e[vs->n - 1].ctype = strdup(ctype)))
		return -ENOMEM;
	return 0;
}

/* Entry-layout variables: each a uint64_t offset inside one entry. */
static int rd_vars(const struct hotspot_mem *m, const uint64_t *addrs,
		   uint64_t *out, int n)
{
	for (int i = 0; i < n; i++)
		if (rd_u64(m, addrs[i], &out[i]))
			return -EFAULT;
	return 0;
}

/* A field's C type string, when the table gives where it lies. */
static void rd_ctype(struct window *w, struct window *sw, uint64_t e,
		     uint64_t ts_off, char *buf, size_t cap)
{
	uint64_t p;

	buf[0] = '\0';
	if (ts_off == UINT64_MAX || wrd_u64(w, e + ts_off, &p) || !p ||
	    wstr(wpick(sw, p), p, buf, cap))
		buf[0] = '\0';
}

/* The structs table at base (entries laid out as syms[] say) into vs. */
static int read_structs_at(struct vmstructs *vs, const struct hotspot_mem *m,
			   const uint64_t *syms, uint64_t base, uint64_t ts_off)
{
	uint64_t a[6] = {syms[HS_S_TYPE],    syms[HS_S_FIELD],
			 syms[HS_S_STATIC],  syms[HS_S_OFFSET],
			 syms[HS_S_ADDRESS], syms[HS_S_STRIDE]};
	uint64_t l[6], e, tp, last_tp = 0, fp, off, addr;
	char type[NAME_LEN], field[NAME_LEN], ctype[NAME_LEN];
	struct window w = {.m = m}, *sw = vs->names; /* entries, names */
	bool type_ok = false;
	int32_t is_static;
	int i, ret;

	if (rd_vars(m, a, l, 6))
		return -EFAULT;
	if (!base || !l[5] || l[5] > 4096)
		return -ENOENT;
	for (i = 0, e = base; i < MAX_ENTRIES; i++, e += l[5]) {
		if (wrd_u64(&w, e + l[0], &tp))
			return -EFAULT;
		if (!tp)
			return 0;
		/* entries of one type are adjacent and share the literal */
		if (tp != last_tp) {
			last_tp = tp;
			type_ok = !wstr(wpick(sw, tp), tp, type, sizeof(type));
		}
		if (!type_ok || wrd_u64(&w, e + l[1], &fp) || !fp ||
		    wstr(wpick(sw, fp), fp, field, sizeof(field)) ||
		    wrd(&w, e + l[2], &is_static, 4) ||
		    wrd_u64(&w, e + l[3], &off) || wrd_u64(&w, e + l[4], &addr))
			continue;
		rd_ctype(&w, sw, e, ts_off, ctype, sizeof(ctype));
		ret = add(vs, 'F', type, field, is_static ? 's' : 'f',
			  (int64_t)(is_static ? addr : off),
			  ctype[0] ? ctype : NULL);
		if (ret)
			return ret;
	}
	return -ENOENT;
}

static int read_structs(struct vmstructs *vs, const struct hotspot_mem *m,
			const uint64_t *syms, uint64_t ts_off)
{
	uint64_t base;

	if (rd_u64(m, syms[HS_STRUCTS], &base))
		return -EFAULT;
	return read_structs_at(vs, m, syms, base, ts_off);
}

static int read_types(struct vmstructs *vs, const struct hotspot_mem *m,
		      const uint64_t *syms)
{
	uint64_t a[3] = {syms[HS_T_TYPE], syms[HS_T_SIZE], syms[HS_T_STRIDE]};
	uint64_t l[3], base, e, tp, size;
	struct window w = {.m = m}, *sw = vs->names; /* entries, names */
	char type[NAME_LEN];
	int i, ret;

	if (rd_vars(m, a, l, 3) || rd_u64(m, syms[HS_TYPES], &base))
		return -EFAULT;
	if (!base || !l[2] || l[2] > 4096)
		return -ENOENT;
	for (i = 0, e = base; i < MAX_ENTRIES; i++, e += l[2]) {
		if (wrd_u64(&w, e + l[0], &tp))
			return -EFAULT;
		if (!tp)
			return 0;
		if (wstr(wpick(sw, tp), tp, type, sizeof(type)) ||
		    wrd_u64(&w, e + l[1], &size))
			continue;
		ret = add(vs, 'T', type, NULL, 't', (int64_t)size, NULL);
		if (ret)
			return ret;
	}
	return -ENOENT;
}

/* One constant table: entries {const char *name; int32 or int64 value}. */
static int read_consts(struct vmstructs *vs, const struct hotspot_mem *m,
		       const uint64_t *csyms, int first, size_t vsize)
{
	uint64_t l[3], base, e, np;
	struct window w = {.m = m}, *sw = vs->names; /* entries, names */
	char name[NAME_LEN];
	int i, ret;

	if (!csyms || !csyms[first])
		return 0;
	if (rd_vars(m, csyms + first + 1, l, 3) ||
	    rd_u64(m, csyms[first], &base))
		return -EFAULT;
	if (!base || !l[2] || l[2] > 4096)
		return -ENOENT;
	for (i = 0, e = base; i < MAX_ENTRIES; i++, e += l[2]) {
		int64_t v = 0;
		int32_t v32;

		if (wrd_u64(&w, e + l[0], &np))
			return -EFAULT;
		if (!np)
			return 0;
		if (wstr(wpick(sw, np), np, name, sizeof(name)))
			continue;
		if (vsize == 4) {
			if (wrd(&w, e + l[1], &v32, 4))
				continue;
			v = v32;
		} else if (wrd(&w, e + l[1], &v, 8)) {
			continue;
		}
		ret = add(vs, 'C', name, NULL, 'c', v, NULL);
		if (ret)
			return ret;
	}
	return -ENOENT;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->key,
		      ((const struct entry *)b)->key);
}

struct vmstructs *vmstructs__read(const struct hotspot_mem *m,
				  const uint64_t syms[HS_NR_SYMS],
				  const uint64_t csyms[VMC_NR_SYMS])
{
	struct vmstructs *vs = calloc(1, sizeof(*vs));
	uint64_t ts_off = UINT64_MAX;
	int ret = -ENOMEM;

	if (!vs)
		goto fail;
	if (csyms && csyms[VMC_S_TYPESTR] &&
	    rd_u64(m, csyms[VMC_S_TYPESTR], &ts_off))
		ts_off = UINT64_MAX;
	ret = names_open(vs, m);
	if (!ret)
		ret = read_structs(vs, m, syms, ts_off);
	if (!ret)
		ret = read_types(vs, m, syms);
	if (!ret)
		ret = read_consts(vs, m, csyms, VMC_INT, 4);
	if (!ret)
		ret = read_consts(vs, m, csyms, VMC_LONG, 8);
	names_close(vs);
	if (ret)
		goto fail;
	qsort(vs->e, vs->n, sizeof(*vs->e), cmp_entry);
	return vs;
fail:
	vmstructs__free(vs);
	errno = -ret;
	return NULL;
}

struct vmstructs *vmstructs__read_table(const struct hotspot_mem *m,
					const uint64_t syms[HS_NR_SYMS],
					uint64_t table)
{
	struct vmstructs *vs = calloc(1, sizeof(*vs));
	int ret = vs ? names_open(vs, m) : -ENOMEM;

	if (!ret)
		ret = read_structs_at(vs, m, syms, table, UINT64_MAX);
	if (vs)
		names_close(vs);
	if (ret) {
		vmstructs__free(vs);
		errno = -ret;
		return NULL;
	}
	qsort(vs->e, vs->n, sizeof(*vs->e), cmp_entry);
	return vs;
}

void vmstructs__free(struct vmstructs *vs)
{
	if (!vs)
		return;
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->e[i].key);
		free(vs->e[i].ctype);
	}
	free(vs->e);
	free(vs);
}

static const struct entry *find(const struct vmstructs *vs, char prefix,
				const char *a, const char *b)
{
	char key[2 * NAME_LEN + 4];
	struct entry k = {.key = key};

	if (b)
		snprintf(key, sizeof(key), "%c%s::%s", prefix, a, b);
	else
		snprintf(key, sizeof(key), "%c%s", prefix, a);
	return bsearch(&k, vs->e, vs->n, sizeof(*vs->e), cmp_entry);
}

int vmstructs__field(const struct vmstructs *vs, const char *type,
		     const char *field, uint64_t *val)
{
	const struct entry *e = find(vs, 'F', type, field);

	if (!e)
		return -ENOENT;
	*val = (uint64_t)e->val;
	return 0;
}

uint64_t vmstructs__field_size(const struct vmstructs *vs, const char *type,
			       const char *field)
{
	const struct entry *e = find(vs, 'F', type, field);

	return e && e->ctype ? vmstructs__type_size(vs, e->ctype) : 0;
}

uint64_t vmstructs__type_size(const struct vmstructs *vs, const char *type)
{
	const struct entry *e = find(vs, 'T', type, NULL);

	return e ? (uint64_t)e->val : 0;
}

int vmstructs__constant(const struct vmstructs *vs, const char *name,
			int64_t *val)
{
	const struct entry *e = find(vs, 'C', name, NULL);

	if (!e)
		return -ENOENT;
	*val = e->val;
	return 0;
}

void vmstructs__each(const struct vmstructs *vs,
		     void (*fn)(void *arg, char kind, const char *name,
				int64_t val),
		     void *arg)
{
	for (size_t i = 0; i < vs->n; i++)
		fn(arg, vs->e[i].kind, vs->e[i].key + 1, vs->e[i].val);
}

struct vmstructs *vmstructs__open(uint32_t pid, const struct hotspot_mem *m)
{
	uint64_t syms[HS_NR_SYMS], csyms[VMC_NR_SYMS];
	struct hotspot_syms sets[] = {
	    {hotspot_sym_names, HS_NR_SYMS, syms, 0},
	    {vmc_sym_names, VMC_NR_SYMS, csyms, 0},
	};
	int ret = hotspot__jvm_sym_sets(pid, sets, 2);

	if (ret || sets[0].err) {
		errno = -(ret ? ret : sets[0].err);
		return NULL;
	}
	/* the constant tables and type strings are optional */
	if (sets[1].err)
		memset(csyms, 0, sizeof(csyms));
	return vmstructs__read(m, syms, csyms);
}

int vmstructs__jdk_major(const struct vmstructs *vs,
			 const struct hotspot_mem *m)
{
	uint64_t addr;
	int32_t v;

	if (vmstructs__field(vs, "Abstract_VM_Version", "_vm_major_version",
			     &addr))
		return -ENOENT;
	if (rd(m, addr, &v, sizeof(v)))
		return -EFAULT;
	return v > 0 && v < 1000 ? v : -EINVAL;
}
