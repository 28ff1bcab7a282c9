/*
 * agent: libjmap.so's entry points. Agent_OnLoad (java -agentpath:) and
 * Agent_OnAttach (dynamic attach) share one start: parse the options,
 * take the map (only one writer per JVM), get JVMTI capabilities, enable
 * the code events. Problems with the map never stop a JVM: at launch the
 * agent logs and stays inert; on attach it returns the status so the
 * attacher can report it. Only bad options stop a launch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent.h"
#include "jitdump.h"
#include "jmap_status.h"
#include "log.h"
#include "options.h"
#include "perfmap.h"
#include "probes.h"
#include "safefile.h"

/* The running instance of this copy of the library, for Agent_OnUnload. */
static struct jmap_agent *running;

bool jmap_agent__first(struct jmap_agent *a, enum jmap_once kind)
{
	return !__atomic_exchange_n(&a->once[kind], 1, __ATOMIC_RELAXED);
}

static int map_status(int err)
{
	switch (err) {
	case -ELOOP:
	case -EINVAL:
	case -EPERM:
	case -EMLINK:
		return JMAP_ERR_MAPFILE;
	default:
		return JMAP_ERR_IO;
	}
}

/* Print the option list on stderr, each line prefixed like our logs. */
static void print_help(void)
{
	const char *p = jmap_options__help(), *nl;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		jmap_log("%.*s", (int)(nl - p), p);
	}
}

/* Ask for what we need; line numbers and source names only when used. */
static int add_capabilities(struct jmap_agent *a)
{
	jvmtiCapabilities pot, caps;
	jvmtiError err;

	memset(&caps, 0, sizeof(caps));
	err = (*a->jvmti)->GetPotentialCapabilities(a->jvmti, &pot);
	if (err) {
		jmap_log_jvmti(a->jvmti, err, "GetPotentialCapabilities");
		return JMAP_ERR_JVMTI;
	}
	if (!pot.can_generate_compiled_method_load_events) {
		jmap_log("this JVM cannot report compiled methods");
		return JMAP_ERR_JVMTI;
	}
	caps.can_generate_compiled_method_load_events = 1;
	if (a->opts.lines) {
		caps.can_get_line_numbers = pot.can_get_line_numbers;
		caps.can_get_source_file_name = pot.can_get_source_file_name;
	}
	err = (*a->jvmti)->AddCapabilities(a->jvmti, &caps);
	if (err) {
		jmap_log_jvmti(a->jvmti, err, "AddCapabilities");
		return JMAP_ERR_JVMTI;
	}
	return 0;
}

/* jitdump is an extra: failing to open it leaves the map running. */
static void open_jitdump(struct jmap_agent *a)
{
	const char *path;
	int ret = jitdump__open(a->opts.dir, getpid(), &a->jd, &path);

	if (ret)
		jmap_log("%s: %s; jitdump disabled", path,
			 safefile__strerror(ret));
}

/* Take the map. 0, or the status to return (logged here). */
static int open_map(struct jmap_agent *a)
{
	const char *path;
	int ret = perfmap__open(a->opts.dir, getpid(), &a->map, &path);

	if (ret == -EBUSY) {
		jmap_log("already active, map at %s", path);
		return -EBUSY;
	}
	if (ret) {
		jmap_log("%s: %s; agent disabled", path,
			 safefile__strerror(ret));
		return ret == -ENOMEM ? JMAP_ERR_IO : map_status(ret);
	}
	return 0;
}

/* Undo a start that never enabled events (nothing can call back). */
static void agent_free(struct jmap_agent *a)
{
	jvmtiError err;

	jitdump__free(a->jd);
	perfmap__free(a->map);
	if (a->jvmti) {
		err = (*a->jvmti)->DisposeEnvironment(a->jvmti);
		if (err)
			jmap_log_jvmti(a->jvmti, err, "DisposeEnvironment");
	}
	free(a);
}

/*
 * Everything after the options: map, JVMTI, events. Returns a status;
 * *keep is set once callbacks may run, after which a must never be freed.
 */
static int start_agent(JavaVM *vm, struct jmap_agent *a, bool attach,
		       bool *keep)
{
	jvmtiError err;
	int ret;

	ret = open_map(a);
	if (ret)
		return ret == -EBUSY ? JMAP_OK : ret;
	if (a->opts.jitdump)
		open_jitdump(a);
	if ((*vm)->GetEnv(vm, (void **)&a->jvmti, JVMTI_VERSION_1_2)) {
		a->jvmti = NULL;
		jmap_log("no JVMTI 1.2 environment; agent disabled");
		return JMAP_ERR_JVMTI;
	}
	ret = add_capabilities(a);
	if (ret)
		return ret;
	err = (*a->jvmti)->SetEnvironmentLocalStorage(a->jvmti, a);
	if (err) {
		jmap_log_jvmti(a->jvmti, err, "SetEnvironmentLocalStorage");
		return JMAP_ERR_JVMTI;
	}
	if (pthread_key_create(&a->scratch, jmap_events__free_scratch)) {
		jmap_log("no thread-specific key; agent disabled");
		return JMAP_ERR_JVMTI;
	}
	*keep = true;
	ret = jmap_events__start(a, attach);
	if (ret) {
		/* callbacks may be running: stop writing, keep the memory */
		err = (*a->jvmti)->SetEventCallbacks(a->jvmti, NULL, 0);
		if (err)
			jmap_log_jvmti(a->jvmti, err,
				       "SetEventCallbacks(NULL)");
		jitdump__close(a->jd);
		perfmap__close(a->map);
	}
	return ret;
}

static jint start(JavaVM *vm, const char *options, bool attach)
{
	struct jmap_agent *a;
	bool keep = false;
	char err[256];
	int ret;

	a = calloc(1, sizeof(*a));
	if (!a) {
		jmap_log("out of memory; agent disabled");
		return attach ? JMAP_ERR_IO : JNI_OK;
	}
	if (jmap_options__parse(options, &a->opts, err, sizeof(err))) {
		jmap_log("%s", err);
		free(a);
		return JMAP_ERR_OPTIONS;
	}
	if (a->opts.help) {
		print_help();
		free(a);
		return JMAP_ERR_HELP;
	}
	ret = start_agent(vm, a, attach, &keep);
	if (!ret && a->map) {
		running = a;
		/* probes are an extra: failing leaves the map running */
		if (a->opts.probes)
			probes__init(vm, a->opts.dir, attach);
	} else if (!keep) {
		/* attached again where this copy runs: the map is there, but
		 * the control socket may have failed (a file in its way) */
		if (!ret && attach && running && a->opts.probes)
			probes__rebind();
		agent_free(a);
	}
	/* at launch only option errors stop the JVM: it runs on unmapped */
	return attach ? ret : JNI_OK;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	return start(vm, options, false);
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
	return start(vm, options, true);
}

/* After VMDeath, or when the library is unloaded: make sure the files
 * are complete and closed. */
JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
	if (!running)
		return;
	jitdump__close(running->jd);
	perfmap__close(running->map);
}
