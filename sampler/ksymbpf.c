/*
 * ksymbpf: see ksymbpf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksym.h"
#include "sampler/ksym.skel.h"
#include "ksymbpf.h"
#include "symbolizer/symbolizer.h"

_Static_assert(KSYM_BATCH >= SYMBOLIZER_KSYM_BATCH,
	       "the symbolizer asks for up to SYMBOLIZER_KSYM_BATCH names");

struct ksymbpf {
	struct ksym_bpf *skel;
};

struct ksymbpf *ksymbpf__new(void)
{
	struct ksymbpf *k = calloc(1, sizeof(*k));
	int err;

	if (!k)
		return NULL;
	k->skel = ksym_bpf__open_and_load();
	if (!k->skel || !k->skel->bss) {
		err = errno ? errno : EINVAL;
		ksymbpf__free(k);
		errno = err;
		return NULL;
	}
	return k;
}

void ksymbpf__free(struct ksymbpf *k)
{
	if (!k)
		return;
	ksym_bpf__destroy(k->skel);
	free(k);
}

/*
 * "name+0xoff/0xsize [module]" -> "name", in place; NULL for "0x..." (no
 * symbol), a cut text, or anything else unexpected.
 */
static const char *symbol_of(char *text, long len)
{
	char *plus;

	if (len <= 1 || len > KSYM_TEXT || !strncmp(text, "0x", 2))
		return NULL;
	plus = strchr(text, '+');
	if (!plus || plus == text)
		return NULL;
	*plus = '\0';
	return text;
}

int ksymbpf__names(void *ctx, const uint64_t *ips, size_t n, const char **out)
{
	struct ksymbpf *k = ctx;
	struct ksym_bpf__bss *bss = k->skel->bss;
	size_t i;
	int err;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (n > KSYM_BATCH)
		return -E2BIG;
	memcpy(bss->ksym_addrs, ips, n * sizeof(*ips));
	bss->ksym_nr = n;
	err = bpf_prog_test_run_opts(bpf_program__fd(k->skel->progs.ksym_names),
				     &opts);
	if (err)
		return -errno;
	for (i = 0; i < n; i++)
		out[i] = symbol_of(bss->ksym_text[i], bss->ksym_len[i]);
	return 0;
}
