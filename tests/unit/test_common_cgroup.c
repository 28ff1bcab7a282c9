/*
 * cgroup: container ids from the cgroup paths Docker, Kubernetes (both
 * cgroup drivers), containerd, CRI-O and Podman make, paths that name
 * none, /proc/PID/cgroup texts of v1 and v2 hosts, and this process's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "common/cgroup.h"

#define ID "8e126766ee34e1d3b203c0a7cfc2a619c49d482a2ecc99a190fff577111a4dca"
#define ID2 "9a7c72f122922fe3445ba85ce72c507c8976c0f3d919403fda7c22dfe516f66f"

/* The id path names, or "" for none. */
static const char *id_of(const char *path)
{
	static char id[CGROUP_ID_LEN + 1];

	if (!cgroup__container_id(path, strlen(path), id))
		CHECK_STR(id, "");
	return id;
}

static void test_paths(void)
{
	CHECK_STR(id_of("/system.slice/docker-" ID ".scope"), ID);
	CHECK_STR(id_of("/docker/" ID), ID);
	CHECK_STR(id_of("/../docker-" ID ".scope/init"), ID); /* below it */
	CHECK_STR(id_of("/kubepods/burstable/pod7e5f5ac0-1af4-49ab-8938-"
			"664970a26cfd/" ID2),
		  ID2);
	CHECK_STR(
	    id_of("/kubepods/pod7e5f5ac0-1af4-49ab-8938-664970a26cfd/" ID), ID);
	CHECK_STR(id_of("/kubepods.slice/kubepods-burstable.slice/kubepods-"
			"burstable-pod7e5f5ac0_1af4_49ab_8938_664970a26cfd."
			"slice/cri-containerd-" ID ".scope"),
		  ID);
	CHECK_STR(
	    id_of("/kubepods.slice/kubepods-pod1.slice/crio-" ID2 ".scope"),
	    ID2);
	CHECK_STR(id_of("/machine.slice/libpod-" ID ".scope/container"), ID);
	/* none: logins, services, the root, near misses */
	CHECK_STR(id_of("/user.slice/user-1000.slice/session-3.scope"), "");
	CHECK_STR(id_of("/system.slice/sshd.service"), "");
	CHECK_STR(id_of("/"), "");
	CHECK_STR(id_of(""), "");
	CHECK_STR(id_of("/docker-" ID "x.scope"), "");
	CHECK_STR(id_of("/docker-" ID ".scopes"), "");
	CHECK_STR(id_of("/docker/" ID "0"), ""); /* 65 digits */
	CHECK_STR(id_of("/other-" ID ".scope"), "");
	CHECK_STR(id_of("/docker-8E126766EE34E1D3B203C0A7CFC2A619C49D482A2ECC"
			"99A190FFF577111A4DCA.scope"),
		  ""); /* runtimes write lowercase */
	CHECK_STR(id_of("/docker-.scope"), "");
}

static void test_files(void)
{
	static const char v2[] = "0::/system.slice/docker-" ID ".scope\n";
	static const char v1[] =
	    "12:blkio:/kubepods/burstable/pod83ca8044/" ID2 "\n11:cpu:/x\n";
	static const char mixed[] =
	    "1:name=systemd:/init.scope\n0::/docker/" ID;
	static const char none[] = "garbage\n:\n5:x\n";
	const char *p;
	size_t n;

	CHECK_INT(cgroup__path(v2, sizeof(v2) - 1, &p, &n), 0);
	CHECK_INT(n, strlen("/system.slice/docker-" ID ".scope"));
	CHECK(!memcmp(p, "/system.slice/docker-", 21));
	CHECK_INT(cgroup__path(v1, sizeof(v1) - 1, &p, &n), 0);
	CHECK_INT(n, strlen("/kubepods/burstable/pod83ca8044/" ID2));
	CHECK_INT(cgroup__path(mixed, sizeof(mixed) - 1, &p, &n), 0);
	CHECK_INT(n, strlen("/docker/" ID)); /* v2 wins, no newline at end */
	CHECK_INT(cgroup__path(none, sizeof(none) - 1, &p, &n), -ENOENT);
	CHECK_INT(cgroup__path(v2, 0, &p, &n), -ENOENT);
	/* a text cut short mid-line is not read past its end */
	CHECK_INT(cgroup__path(v2, 3, &p, &n), -ENOENT);
}

static void test_frame(void)
{
	static const char f[] = CGROUP_FRAME_PREFIX ID "]";

	CHECK(cgroup__is_frame(f, sizeof(f) - 1));
	CHECK(!cgroup__is_frame(f, sizeof(f) - 2));
	CHECK(!cgroup__is_frame("[container x]", 13));
	CHECK(!cgroup__is_frame("java", 4));
	CHECK_INT(CGROUP_FRAME_LEN, sizeof(f) - 1);
}

/* This process: whatever its cgroup, a read that works; gone: -ESRCH. */
static void test_self(void)
{
	char id[CGROUP_ID_LEN + 1], *path = (char *)1;

	CHECK_INT(cgroup__read_pid(getpid(), id, &path), 0);
	CHECK(strlen(id) == 0 || strlen(id) == CGROUP_ID_LEN);
	CHECK(!!path == !!id[0]);
	free(path);
	CHECK_INT(cgroup__read_pid(0x7ffffff0, id, NULL), -ESRCH);
	CHECK_STR(id, "");
}

int main(void)
{
	test_paths();
	test_files();
	test_frame();
	test_self();
	return check_report();
}
