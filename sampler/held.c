/*
 * held: the stacks and frame lists the waits open now will be counted
 * with (sampler_int.h, held__read). A wait's stacks and list go to user
 * space when it begins (a switch out, a virtual thread's freeze, a
 * contended lock's entry), and no key uses them until it ends, which may
 * be many buckets later; the drain's sweep keeps what is read here.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sampler_int.h"

/* A stack key or list id worth holding. */
static void hold(struct u64map *m, uint64_t id)
{
	bool added;

	if (id && id != STACK_NONE && id != STACK_LOST)
		u64map__add(m, id, &added); /* no memory: not held, as before */
}

static void hold_key(struct u64map *m, const struct sample_key *k)
{
	hold(m, k->user_stack);
	hold(m, k->kern_stack);
	hold(m, k->interp_id);
}

/* The threads' open waits: the task iterator's three words a wait. */
static int read_tasks(struct sampler *s)
{
	uint64_t ids[3 * 64];
	ssize_t n;
	int fd;

	if (!s->held_link) {
		s->held_link = bpf_program__attach_iter(
		    s->skel->progs.mixprof_offcpu_held, NULL);
		if (!s->held_link)
			return -errno;
	}
	fd = bpf_iter_create(bpf_link__fd(s->held_link));
	if (fd < 0)
		return -errno;
	/* the kernel writes whole records of a read */
	while ((n = read(fd, ids, sizeof(ids))) > 0)
		for (size_t i = 0; i + 3 <= (size_t)n / 8; i += 3) {
			hold(&s->held, ids[i]);
			hold(&s->held, ids[i + 1]);
			hold(&s->held, ids[i + 2]);
		}
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/* A hash map's open waits: each value's sample_key at off. */
static void read_map(struct sampler *s, const struct bpf_map *map,
		     size_t key_size, size_t off)
{
	unsigned char key[16], next[16], val[sizeof(struct vt_wait)];
	int fd = bpf_map__fd(map);
	void *prev = NULL;

	if (key_size > sizeof(key) || bpf_map__value_size(map) > sizeof(val) ||
	    off + sizeof(struct sample_key) > bpf_map__value_size(map))
		return;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		if (!bpf_map_lookup_elem(fd, next, val)) {
			struct sample_key k;

			memcpy(&k, val + off, sizeof(k));
			hold_key(&s->held, &k);
		}
		memcpy(key, next, key_size);
		prev = key;
	}
}

int held__read(struct sampler *s)
{
	int ret = 0;

	u64map__clear(&s->held, NULL);
	if (s->off_cpu) {
		ret = read_tasks(s);
		read_map(s, s->skel->maps.vt_waits, sizeof(struct vt_wait_id),
			 offsetof(struct vt_wait, key));
	}
	if (s->lock)
		read_map(s, s->skel->maps.lock_waits, sizeof(__u32), 0);
	return ret;
}

void held__free(struct sampler *s)
{
	bpf_link__destroy(s->held_link);
	s->held_link = NULL;
	u64map__release(&s->held);
}
