# profiler/: the run (options, modes, naming of stacks, output sinks, the
# report) and main.c, linked with every other part into mixprof. Module
# lists are extended by the fragments included here.
CPPFLAGS_profiler := $(MIXPROF_CPPFLAGS)
MIXPROF_OBJS := $(BUILD)/profiler/main.o
MIXPROF_LIBS :=
include attach/attach.mk
include sampler/sampler.mk
include events/events.mk
include pprof/pprof.mk
include jfr/jfr.mk
include flamegraph/flamegraph.mk

PROFILE_SRCS := profile.c hints.c check.c check_jvm.c run_setup.c run_child.c run_cpu.c run_probe.c \
	run_tick.c run_report.c profile_opts.c slices.c launch.c stackfold.c \
	namecache.c targets.c jvmkids.c sliceout.c jvmprep.c interp.c fold.c \
	foldtab.c jthreadsync.c stacksrc.c unwindcheck.c containers.c \
	locknames.c run_lock.c
PROFILE_OBJS := $(PROFILE_SRCS:%.c=$(BUILD)/profiler/%.o)
# folded lines and their aggregate, for the tests that link them alone
FOLD_OBJS := $(BUILD)/profiler/fold.o $(BUILD)/profiler/foldtab.o \
	$(BUILD)/common/strpool.o $(BUILD)/common/safename.o
MIXPROF_OBJS += $(PROFILE_OBJS)
# they include the sampler's skeletons (through sampler_int.h, interp.h)
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
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_options \
	$(BUILD)/tests/unit/test_prof_slices \
	$(BUILD)/tests/unit/test_prof_namecache
$(BUILD)/tests/unit/test_prof_options: $(BUILD)/tests/unit/test_prof_options.o \
		$(BUILD)/profiler/profile_opts.o $(BUILD)/sampler/cpus.o \
		$(BUILD)/profiler/launch.o $(BUILD)/profiler/linefilter.o \
		$(FOLD_OBJS) \
		$(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
$(BUILD)/tests/unit/test_prof_slices: $(BUILD)/tests/unit/test_prof_slices.o \
		$(BUILD)/profiler/slices.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_jvmkids
$(BUILD)/tests/unit/test_prof_jvmkids: $(BUILD)/tests/unit/test_prof_jvmkids.o \
		$(BUILD)/profiler/jvmkids.o $(BUILD)/attach/procinfo.o \
		$(BUILD)/profiler/targets.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_targets
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_jthreadsync
$(BUILD)/tests/unit/test_prof_jthreadsync: \
		$(BUILD)/tests/unit/test_prof_jthreadsync.o \
		$(BUILD)/profiler/jthreadsync.o $(BUILD)/common/stop.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/tests/unit/test_prof_targets: $(BUILD)/tests/unit/test_prof_targets.o \
		$(BUILD)/profiler/targets.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/tests/unit/test_prof_namecache: \
		$(BUILD)/tests/unit/test_prof_namecache.o \
		$(BUILD)/profiler/namecache.o $(BUILD)/common/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Naming on a fake sampler (stacksrc.h): no root, no BPF.
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_stackfold
$(BUILD)/tests/unit/test_prof_stackfold: \
		$(BUILD)/tests/unit/test_prof_stackfold.o \
		$(BUILD)/profiler/stackfold.o $(BUILD)/profiler/interp.o \
		$(BUILD)/profiler/unwindcheck.o $(BUILD)/profiler/locknames.o \
		$(BUILD)/profiler/jthreadsync.o \
		$(BUILD)/profiler/namecache.o $(FOLD_OBJS) \
		$(BUILD)/profiler/targets.o $(BUILD)/attach/procinfo.o \
		$(JVM_OBJS) $(COMMON_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)

# What the run says as text: the line filter (-I -X --tid --thread), the
# start and status lines, the top-N table for a terminal. Pure modules.
PROFILE_CLI_OBJS := $(BUILD)/profiler/linefilter.o $(BUILD)/profiler/topn.o \
	$(BUILD)/profiler/status.o
MIXPROF_OBJS += $(PROFILE_CLI_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_textout
$(BUILD)/tests/unit/test_prof_textout: $(BUILD)/tests/unit/test_prof_textout.o \
		$(PROFILE_CLI_OBJS) $(FOLD_OBJS) $(BUILD)/common/cgroup.o \
		$(BUILD)/common/procfs.o $(BUILD)/common/safefile.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# The profile command's renderings (--svg, --html, --heatmap, --montage).
PROFILE_RENDER_OBJS := $(BUILD)/profiler/timedout.o \
	$(BUILD)/profiler/render_out.o
MIXPROF_OBJS += $(PROFILE_RENDER_OBJS)

# --events beside a run (events/: HotSpot's USDT probes), --ttsp.
MIXPROF_OBJS += $(BUILD)/profiler/run_events.o

# `mixprof -e`: the probe run's agent connection and its --count table.
PROFILE_PROBE_OBJS := $(BUILD)/profiler/probes_run.o \
	$(BUILD)/profiler/probe_count.o
MIXPROF_OBJS += $(PROFILE_PROBE_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_probe_count
$(BUILD)/tests/unit/test_prof_probe_count: \
		$(BUILD)/tests/unit/test_prof_probe_count.o \
		$(BUILD)/profiler/probe_count.o $(BUILD)/common/safename.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^


# The symbolizer's symtab test checks demangled names in a folded line.
$(BUILD)/tests/unit/test_sym_symtab: $(FOLD_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_fold
$(BUILD)/tests/unit/test_prof_fold: $(BUILD)/tests/unit/test_prof_fold.o \
		$(FOLD_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)

# Last: every fragment above has extended MIXPROF_OBJS by now.
BINS += $(BUILD)/mixprof
$(BUILD)/mixprof: $(MIXPROF_OBJS) $(UNWIND_OBJS) $(JVM_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(MIXPROF_LIBS) -ldw -lpthread $(SYMBOLIZER_LIBS)

# The fixes named for each failure (hints.c), on made-up hosts.
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_hints
$(BUILD)/tests/unit/test_prof_hints: $(BUILD)/tests/unit/test_prof_hints.o \
		$(BUILD)/profiler/hints.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
