/*
 * Unit tests: the one line that fixes a failed step (hints.c), for each
 * kind of host: without capabilities the grant (docker/Kubernetes lines
 * in a container, setcap outside), without BTF the kernel option, with
 * everything the cause by errno and hook; the lines `mixprof check`
 * gives for what a host lacks.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "check/hints.h"

static const char *fix(bool caps, bool btf, bool container,
		       enum sampler_step step, int err)
{
	static char buf[256];
	struct hints_host h = {
	    .caps = caps, .btf = btf, .container = container};

	return hints__fix(&h, step, err, buf, sizeof(buf));
}

#define HAS(s, sub) CHECK(strstr((s), (sub)) != NULL)

static void test_privilege(void)
{
	HAS(fix(false, true, true, SAMPLER_STEP_LOAD, EPERM),
	    "docker run --cap-add BPF --cap-add PERFMON");
	HAS(fix(false, true, true, SAMPLER_STEP_PERF_OPEN, EACCES),
	    "add: [BPF, PERFMON]");
	HAS(fix(false, true, false, SAMPLER_STEP_LOAD, EPERM),
	    "setcap cap_bpf,cap_perfmon+ep");
	/* with the capabilities: the verifier, seccomp, the sysctl */
	HAS(fix(true, true, false, SAMPLER_STEP_LOAD, EACCES), "verifier");
	HAS(fix(true, true, true, SAMPLER_STEP_PERF_OPEN, EPERM),
	    "seccomp=unconfined");
	HAS(fix(true, true, false, SAMPLER_STEP_PERF_OPEN, EACCES),
	    "kernel.perf_event_paranoid");
}

static void test_missing(void)
{
	HAS(fix(true, false, false, SAMPLER_STEP_TP_BTF, ENOENT),
	    "kernel lacks BTF");
	HAS(fix(true, false, false, SAMPLER_STEP_LOAD, EINVAL),
	    "CONFIG_DEBUG_INFO_BTF=y");
	HAS(fix(true, true, false, SAMPLER_STEP_RAW_TP, ENOENT), "Linux 6.1");
	HAS(fix(true, true, false, SAMPLER_STEP_TRACEPOINT, ENOENT),
	    "mount -t tracefs");
	HAS(fix(true, true, false, SAMPLER_STEP_PERF_OPEN, ENOENT),
	    "CONFIG_PERF_EVENTS");
	HAS(fix(true, true, false, SAMPLER_STEP_UPROBE, ENOENT), ".symtab");
	HAS(fix(true, true, false, SAMPLER_STEP_USDT, ENOENT), "USDT note");
	HAS(fix(true, true, false, SAMPLER_STEP_PERF_OPEN, EMFILE),
	    "ulimit -n");
	HAS(fix(true, true, false, SAMPLER_STEP_LOAD, E2BIG), "ulimit -l");
	HAS(fix(true, true, false, SAMPLER_STEP_LOAD, EIO), "-v");
}

/* Every need has its own line; one out of range gets the catch-all. */
static void test_needs(void)
{
	for (int n = 0; n < HINT_NR; n++) {
		CHECK(strlen(hints__need(n)) > 10);
		for (int m = 0; m < n; m++)
			CHECK(strcmp(hints__need(n), hints__need(m)));
	}
	CHECK_STR(hints__need(HINT_NR), hints__need(HINT_VERBOSE));
	HAS(hints__need(HINT_MEMLOCK), "ulimit -l unlimited");
	HAS(hints__need(HINT_BTF), "CONFIG_DEBUG_INFO_BTF=y");
}

int main(void)
{
	test_privilege();
	test_missing();
	test_needs();
	return check_report();
}
