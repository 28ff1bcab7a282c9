/*
 * profile: the `mixprof [OPTIONS] [DURATION | -- COMMAND]` command.
 */
#ifndef MIXPROF_PROFILE_H
#define MIXPROF_PROFILE_H

/* Run the profile command; returns the exit status (see --help). */
int profile__cmd(int argc, char **argv);

#endif
