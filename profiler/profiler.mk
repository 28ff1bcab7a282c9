# profiler/: the command line and the run (options, modes, the drain
# loop, the report) and main.c, linked with every other part into
# mixprof. Module lists are extended by the fragments included here.
CPPFLAGS_profiler := $(MIXPROF_CPPFLAGS)
MIXPROF_OBJS := $(BUILD)/profiler/main.o
MIXPROF_LIBS :=
include attach/attach.mk
include sampler/sampler.mk
# before the writers: their links name FOLD_OBJS
include stacks/stacks.mk
include events/events.mk
include pprof/pprof.mk
include jfr/jfr.mk
include flamegraph/flamegraph.mk
include check/check.mk
include output/output.mk
include probes/probes.mk

PROFILE_SRCS := profile.c run_setup.c run_child.c run_cpu.c \
	run_probe.c run_tick.c run_report.c profile_opts.c launch.c \
	targets.c jvmprep.c \
	containers.c run_lock.c status.c run_vtwait.c
PROFILE_OBJS := $(PROFILE_SRCS:%.c=$(BUILD)/profiler/%.o)
MIXPROF_OBJS += $(PROFILE_OBJS)
# they include the sampler's skeletons (through sampler_int.h)
$(PROFILE_OBJS): $(SAMPLER_SKELS)

# The version --version prints: git describe of the tree when it is a
# clone, else the Makefile's own. version.h is rewritten only when that
# text changes, so a build without changes relinks nothing.
MIXPROF_BASE_VERSION := 0.5
MIXPROF_VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo $(MIXPROF_BASE_VERSION))
$(BUILD)/profiler/version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)v='#define MIXPROF_VERSION "$(MIXPROF_BASE_VERSION) ($(MIXPROF_VERSION))"'; \
		[ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" >$@
$(BUILD)/profiler/main.o: $(BUILD)/profiler/version.h
.PHONY: FORCE
FORCE:

# Unit tests: pure modules only (no BPF, no symbolizer).
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_options
$(BUILD)/tests/unit/test_prof_options: $(BUILD)/tests/unit/test_prof_options.o \
		$(BUILD)/profiler/profile_opts.o $(BUILD)/sampler/cpus.o \
		$(BUILD)/profiler/launch.o $(BUILD)/stacks/linefilter.o \
		$(FOLD_OBJS) \
		$(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_targets
$(BUILD)/tests/unit/test_prof_targets: $(BUILD)/tests/unit/test_prof_targets.o \
		$(BUILD)/profiler/targets.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^


# What the run says as text: the line filter (-I -X --tid --thread), the
# start and status lines, the top-N table for a terminal. Pure modules.
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_textout
$(BUILD)/tests/unit/test_prof_textout: $(BUILD)/tests/unit/test_prof_textout.o \
		$(BUILD)/stacks/linefilter.o $(BUILD)/output/topn.o \
		$(BUILD)/profiler/status.o $(FOLD_OBJS) $(BUILD)/common/cgroup.o \
		$(BUILD)/common/procfs.o $(BUILD)/common/safefile.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# --events beside a run (events/: HotSpot's USDT probes), --ttsp.
MIXPROF_OBJS += $(BUILD)/profiler/run_events.o

# Last: every fragment above has extended MIXPROF_OBJS by now.
BINS += $(BUILD)/mixprof
$(BUILD)/mixprof: $(MIXPROF_OBJS) $(UNWIND_OBJS) $(JVM_OBJS) $(JVMKIDS_OBJS) \
		$(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(MIXPROF_LIBS) -ldw -lpthread $(SYMBOLIZER_LIBS)
