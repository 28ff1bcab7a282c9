/*
 * Return codes of Agent_OnLoad / Agent_OnAttach, shared with the attacher
 * so `mixprof attach` can tell the user what went wrong inside the JVM
 * (the agent also prints the detail, with a "jmap:" prefix, on the JVM's
 * stderr). Plain integers: HotSpot passes them back through the attach
 * protocol unchanged.
 */
#ifndef MIXPROF_JMAP_STATUS_H
#define MIXPROF_JMAP_STATUS_H

enum jmap_status {
	JMAP_OK = 0,
	JMAP_ERR_OPTIONS = 1, /* unknown option or bad value */
	JMAP_ERR_MAPFILE = 2, /* map file unsafe: symlink, other owner... */
	JMAP_ERR_IO = 3, /* map directory missing or not writable */
	JMAP_ERR_JVMTI = 4, /* JVMTI environment or capability refused */
	JMAP_ERR_HELP = 5, /* "help" was given: options listed, no agent */
};

static inline const char *jmap_status_str(int status)
{
	switch (status) {
	case JMAP_OK:
		return "ok";
	case JMAP_ERR_OPTIONS:
		return "bad agent options";
	case JMAP_ERR_MAPFILE:
		return "map file is unsafe (symlink or owned by another user)";
	case JMAP_ERR_IO:
		return "cannot write the map file";
	case JMAP_ERR_JVMTI:
		return "JVMTI refused the agent";
	case JMAP_ERR_HELP:
		return "help printed; agent not started";
	default:
		return "unknown agent error";
	}
}

#endif
