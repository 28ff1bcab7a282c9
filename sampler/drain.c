/*
 * drain: the samples, the counts map and the stacks out of the kernel
 * (sampler_ctl.h: sampler__drain). Timed samples arrive through the
 * new_keys ring, a record each (sampler_abi.h), and are counted here
 * (keytab.h); the counts map's new keys arrive there too as they are
 * added, so each is looked at once, when it is new (its pid learnt),
 * and so do stacks and lists (the ring is their only way out); the
 * whole counts map, whose batch read costs a few hundred ns per key, is
 * read only when a bucket is done (once a second with 1 s buckets, not
 * every tick), or when the ring dropped records: its keys of a done
 * bucket are added to the ones counted here, then taken together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "keytab.h"
#include "sampler_int.h"
#include "stackcache.h"

#define NO_BUCKET UINT64_MAX

/* Read every (key, count) of the counts map into s->keys/vals. */
static int read_counts(struct sampler *s, size_t *nr)
{
	int fd = bpf_map__fd(s->skel->maps.counts);
	size_t cap = bpf_map__max_entries(s->skel->maps.counts), n = 0;
	struct sample_key batch;
	__u32 count;
	int ret;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	if (s->keys_cap < cap) {
		free(s->keys);
		free(s->vals);
		s->keys = malloc(cap * sizeof(*s->keys));
		s->vals = malloc(cap * sizeof(*s->vals));
		if (!s->keys || !s->vals) {
			s->keys_cap = 0;
			return -ENOMEM;
		}
		s->keys_cap = cap;
	}
	for (;;) {
		count = cap - n;
		ret = bpf_map_lookup_batch(fd, n ? &batch : NULL, &batch,
					   s->keys + n, s->vals + n, &count,
					   &opts);
		n += count;
		if (ret < 0 && errno == ENOENT)
			break; /* the end of the map */
		if (ret < 0)
			return -errno;
		if (n >= cap)
			break;
	}
	*nr = n;
	return 0;
}

/*
 * Delete n keys from map fd: one call, and past keys already gone (a
 * stack deleted after a sample stored it again is there once more, or
 * not). Kernels without batch deletes get one call per key.
 */
static void delete_keys(int fd, const void *keys, size_t key_size, size_t n)
{
	const char *k = keys;
	size_t done = 0;
	__u32 count;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	while (done < n) {
		count = n - done;
		if (!bpf_map_delete_batch(fd, k + done * key_size, &count,
					  &opts)) {
			done += count;
			continue;
		}
		done += count;
		if (errno == ENOENT) {
			done++; /* that one is gone already */
			continue;
		}
		for (; done < n; done++)
			bpf_map_delete_elem(fd, k + done * key_size);
	}
}

/*
 * Stack key is used by a key of bucket: keep it (stackcache). Its frames
 * came through the ring before the key did (the program sends a stack
 * before it counts a key of it); a key whose stack is not here has it
 * STACK_LOST'd or forgotten, and its samples count as lost.
 */
static void touch_stack(struct sampler *s, uint64_t key, uint64_t bucket)
{
	if (key > STACK_LOST)
		stackcache__touch(s->stacks, key, bucket);
}

/* A key of bucket in the counts map is not taken yet. */
static void note_pending(struct sampler *s, uint64_t bucket)
{
	if (s->pending == NO_BUCKET || bucket < s->pending)
		s->pending = bucket;
}

/*
 * Make room for one more of n elements of size sz in *arr (cap *cap):
 * 0, or -ENOMEM (the batch then misses it; the drain says so).
 */
static int room(void **arr, size_t *cap, size_t n, size_t sz)
{
	size_t c = *cap ? *cap * 2 : 1024;
	void *p;

	if (n < *cap)
		return 0;
	while (c <= n)
		c *= 2;
	p = realloc(*arr, c * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

/*
 * A new kernel stack's frames go into the batch, to be named, as they
 * will be looked up (stacks/stackfold.c): the leaf's pc, and each
 * caller's return address - 1, inside its call. Asked for the return
 * addresses themselves, the names went unused and each caller's was
 * asked alone at its lookup: a system call and a BPF run per address.
 */
static void add_kips(struct sampler *s, const uint64_t *ips, size_t n)
{
	if (room((void **)&s->kips, &s->kips_cap, s->nkips + n - 1,
		 sizeof(*s->kips))) {
		s->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		s->kips[s->nkips + i] = ips[i] - (i ? 1 : 0);
	s->nkips += n;
}

/* Key k may be new: copy its stacks, show it in the batch. */
static void see_key(struct sampler *s, const struct sample_key *k)
{
	bool added;

	touch_stack(s, k->user_stack, k->bucket);
	touch_stack(s, k->kern_stack, k->bucket);
	if (!room((void **)&s->seen, &s->seen_cap, s->nseen, sizeof(*k)))
		s->seen[s->nseen++] = *k;
	else
		s->oom = true;
	if (k->interp_id)
		u64map__add(&s->inew, k->interp_id, &added);
}

/*
 * A stack the program sent under key (sampler_abi.h): keep its n frames,
 * the only copy. A kernel stack's addresses go to be named when first
 * seen.
 */
static void put_stack(struct sampler *s, uint64_t key, const uint64_t *ips,
		      size_t n)
{
	if (key <= STACK_LOST || !n || n > sampler__value_frames(s->depth) ||
	    stackcache__touch(s->stacks, key, 0) ||
	    stackcache__put(s->stacks, key, ips, n, 0))
		return;
	if (ips[0] >> 63) /* kernel half: a kernel stack */
		add_kips(s, ips, n);
}

/*
 * A list of interpreted and compiled frames the program sent under id
 * (sampler_abi.h): keep its head and frames (len bytes), the only copy,
 * for sampler__interp. One sent again is in use again: not doomed.
 */
static void put_list(struct sampler *s, uint64_t id, const void *list,
		     size_t len)
{
	struct interp_stack *st;
	bool added;
	void **slot;

	if (len < 16 || len > sizeof(*st) || !id)
		return;
	slot = u64map__add(&s->lists, id, &added);
	if (!slot) {
		s->oom = true;
		return;
	}
	if (!added) {
		u64map__del(&s->idoomed, id);
		return;
	}
	st = malloc(len);
	if (!st) {
		u64map__del(&s->lists, id);
		s->oom = true;
		return;
	}
	memcpy(st, list, len);
	if (st->nr > (len - 16) / sizeof(st->f[0]))
		st->nr = (len - 16) / sizeof(st->f[0]);
	*slot = st;
}

/*
 * A timed sample (sampler_abi.h): the stacks and list it carries kept
 * first, then counted under its key, which is shown when new.
 */
static void see_sample(struct sampler *s, const void *data, size_t size)
{
	const struct sample_rec *h = data;
	const uint64_t *w = (const uint64_t *)(h + 1);
	size_t words = (size - sizeof(*h)) / 8;
	bool added;

	if ((size_t)h->user_nr + h->kern_nr > words ||
	    h->list_bytes > (words - h->user_nr - h->kern_nr) * 8)
		return; /* not as the program writes it */
	if (h->user_nr)
		put_stack(s, h->key.user_stack, w, h->user_nr);
	if (h->kern_nr)
		put_stack(s, h->key.kern_stack, w + h->user_nr, h->kern_nr);
	if (h->list_bytes)
		put_list(s, h->key.interp_id, w + h->user_nr + h->kern_nr,
			 h->list_bytes);
	if (keytab__add(&s->kt, &h->key, h->n, h->events, &added))
		s->oom = true;
	else if (added)
		see_key(s, &h->key);
}

/*
 * A new_keys record: a sample, a key just added to the counts map, a
 * stack or a list.
 */
static int on_new_key(void *ctx, void *data, size_t size)
{
	struct sampler *s = ctx;
	const uint64_t *rec = data;

	if (size >= STACK_REC_HEAD * 8 && !rec[0])
		put_stack(s, rec[1], rec + STACK_REC_HEAD,
			  size / 8 - STACK_REC_HEAD);
	else if (size >= LIST_REC_HEAD * 8 + 16 && rec[0] == LIST_REC_TAG)
		put_list(s, rec[1], rec + LIST_REC_HEAD,
			 size - LIST_REC_HEAD * 8);
	else if (size >= sizeof(struct sample_rec) && rec[0] == SAMPLE_REC_TAG)
		see_sample(s, data, size);
	else if (size >= sizeof(struct sample_key)) {
		see_key(s, data);
		note_pending(s, ((const struct sample_key *)data)->bucket);
	}
	return 0;
}

/*
 * Let the cache forget the stacks no new sample used lately: from the
 * new stack epoch on, the program sends a stack again when a sample
 * meets it (sampler_abi.h); the cache keeps those it offers one read
 * longer, for a sample that found its CPU's memo of the old epoch. True
 * when stacks were offered.
 */
static bool free_stacks(struct sampler *s)
{
	const uint64_t *gone;

	return stackcache__sweep(s->stacks, s->taken, &s->held, &gone) > 0;
}

/* u64map__filter's keep: not in the set ctx */
static bool keep_unless_in(uint64_t key, void *val, void *ctx)
{
	(void)val;
	return !u64map__find(ctx, key);
}

/* the same for a list, freed when not kept */
static bool keep_list(uint64_t key, void *val, void *ctx)
{
	if (!u64map__find(ctx, key))
		return true;
	free(val);
	return false;
}

/*
 * The frame lists of the keys taken by the last read, unless a key new
 * since then uses them: jvm/jstacks.c copied each list when its key was
 * new, so only new samples need it. They are doomed first (the caller
 * bumps the stack epoch: from then on a sample sends its list again) and
 * forgotten at the next sweep if no key seen since used them: a sample
 * that found its CPU's memo of the old epoch refers to one still. True
 * when lists were doomed.
 */
static bool free_lists(struct sampler *s)
{
	bool added;
	size_t i;

	/* doomed last time, used by no key since nor by an open wait:
	 * forgotten */
	u64map__filter(&s->idoomed, keep_unless_in, &s->inew);
	u64map__filter(&s->idoomed, keep_unless_in, &s->held);
	u64map__filter(&s->lists, keep_list, &s->idoomed);
	u64map__clear(&s->idoomed, NULL);
	u64map__filter(&s->idead, keep_unless_in, &s->inew);
	u64map__filter(&s->idead, keep_unless_in, &s->held);
	for (i = 0; i < s->idead.cap; i++)
		if (s->idead.keys[i] &&
		    !u64map__add(&s->idoomed, s->idead.keys[i], &added))
			break; /* kept: no memory to doom it */
	u64map__clear(&s->idead, NULL);
	u64map__clear(&s->inew, NULL);
	return s->idoomed.n > 0;
}

/*
 * Read the whole counts map: keys the ring may not have shown are looked
 * at as new (stamped since the drain before the last read, when the ring
 * dropped records; else since this drain began; not those user space
 * counts already: a sample's record showed them), done ones are added
 * to those counted here (s->kt), to be taken with them, and deleted from
 * the map at once: a sample counted after the read must not go to a key
 * about to be deleted. 0 or -errno (-ENOMEM: the keys not added stay in
 * the map for the next read).
 */
static int read_all(struct sampler *s, bool ring_lost)
{
	uint64_t since = ring_lost ? s->last_read : s->drains;
	size_t nr = 0, i, done = 0;
	bool added;
	int ret;

	ret = read_counts(s, &nr);
	if (ret)
		return ret;
	s->pending = NO_BUCKET;
	for (i = 0; i < nr; i++) {
		struct sample_key *k = &s->keys[i];

		/* stamped in the drain before: added while it ran */
		if (s->vals[i].read + 1 >= since && !keytab__find(&s->kt, k))
			see_key(s, k);
		if (k->bucket >= s->done_below) {
			note_pending(s, k->bucket);
			continue;
		}
		if (keytab__add(&s->kt, k, s->vals[i].n, s->vals[i].events,
				&added)) {
			ret = -ENOMEM; /* left in the map: the next read */
			continue;
		}
		s->keys[done++] = *k; /* i >= done: already read */
	}
	s->last_read = s->drains;
	delete_keys(bpf_map__fd(s->skel->maps.counts), s->keys,
		    sizeof(*s->keys), done);
	return ret;
}

/*
 * Take every key of a done bucket from those counted here into the
 * batch's arrays (s->out*): their lists are let go once named, their
 * stacks once no key left needs them (sampler__drain_end). The number
 * taken, or -errno.
 */
static long take_done(struct sampler *s)
{
	long n = keytab__take(&s->kt, s->done_below, &s->out, &s->out_cap);
	bool added;

	if (n <= 0)
		return n;
	if (room((void **)&s->out_keys, &s->out_keys_cap, n - 1,
		 sizeof(*s->out_keys)) ||
	    room((void **)&s->out_n, &s->out_n_cap, 2 * n - 1,
		 sizeof(*s->out_n)))
		return -ENOMEM; /* taken but lost: said as an error */
	for (long i = 0; i < n; i++) {
		const struct sample_key *k = &s->out[i].key;

		s->out_keys[i] = *k;
		s->out_n[i] = s->out[i].n;
		s->out_n[n + i] = s->out[i].events;
		if (k->interp_id)
			u64map__add(&s->idead, k->interp_id, &added);
		if (s->taken == NO_BUCKET || k->bucket > s->taken)
			s->taken = k->bucket;
	}
	return n;
}

int sampler__drain(struct sampler *s, uint64_t done_below, bool final,
		   struct sampler_batch *b)
{
	uint64_t lost = s->skel->bss->new_keys_lost;
	bool ring_lost = lost != s->lost_seen;
	long ret;

	memset(b, 0, sizeof(*b));
	sampler__drain_end(s); /* a caller that forgot: no stack kept */
	/* keys added from now on are stamped with this drain */
	s->skel->bss->next_read = ++s->drains;
	s->done_below = final ? UINT64_MAX : done_below;
	s->nseen = s->nkips = 0;
	s->oom = false;
	stackcache__begin(s->stacks);
	ret = ring_buffer__consume(s->rb);
	if (ret < 0)
		return ret;
	ret = 0; /* below: nothing to take, nothing missed */
	if (ring_lost || final || s->kt.pending < s->done_below ||
	    (s->pending != NO_BUCKET && s->pending < s->done_below)) {
		s->lost_seen = lost;
		ret = read_all(s, ring_lost);
		if (ret < 0)
			return ret;
		/* the stacks and lists of keys added while it read, which
		 * it may have shown: they are in the ring before their keys
		 * (one that fails leaves them to the next drain) */
		ring_buffer__consume(s->rb);
		s->swept = true;
		ret = take_done(s);
		if (ret < 0)
			return ret;
	}
	*b = (struct sampler_batch){.seen = s->seen,
				    .nseen = s->nseen,
				    .kips = s->kips,
				    .nkips = s->nkips,
				    .taken = s->out_keys,
				    .counts = s->out_n,
				    .events = ret ? s->out_n + ret : NULL,
				    .ntaken = (size_t)ret};
	return s->oom ? -ENOMEM : (int)ret;
}

/*
 * The keys taken are named: the stacks and lists only they used go (the
 * kernel's copies of those, and the cache's one read later).
 */
void sampler__drain_end(struct sampler *s)
{
	if (!s->swept)
		return;
	s->swept = false;
	/* what the waits open now will be counted with stays; not read:
	 * nothing goes this time */
	if (held__read(s))
		return;
	/* both, then one new epoch for both */
	if (free_lists(s) | free_stacks(s))
		__atomic_add_fetch(&s->skel->bss->stack_epoch, 1,
				   __ATOMIC_RELEASE);
}

int drain__init(struct sampler *s)
{
	s->stacks = stackcache__new();
	if (!s->stacks)
		return -ENOMEM;
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.new_keys),
				 on_new_key, s, NULL);
	if (!s->rb)
		return -errno;
	s->taken = NO_BUCKET; /* none yet */
	s->pending = NO_BUCKET;
	keytab__init(&s->kt);
	return 0;
}

void drain__free(struct sampler *s)
{
	ring_buffer__free(s->rb);
	free(s->keys);
	free(s->vals);
	free(s->out);
	free(s->out_keys);
	free(s->out_n);
	keytab__release(&s->kt);
	free(s->seen);
	free(s->kips);
	stackcache__free(s->stacks);
	u64map__release(&s->idead);
	u64map__release(&s->inew);
	u64map__release(&s->idoomed);
	u64map__clear(&s->lists, free);
	u64map__release(&s->lists);
}

int sampler__interp(struct sampler *s, uint64_t id, struct interp_stack *out)
{
	void **slot = id ? u64map__find(&s->lists, id) : NULL;
	const struct interp_stack *st;

	if (!slot)
		return -ENOENT;
	st = *slot;
	memcpy(out, st, 16 + st->nr * sizeof(st->f[0]));
	return 0;
}

int sampler__stack(struct sampler *s, uint64_t key, const uint64_t **ips)
{
	if (key <= STACK_LOST)
		return -ENOENT;
	return stackcache__get(s->stacks, key, ips);
}
