# The BPF sampler and the profile command: objects appended to MIXPROF_OBJS.
#
#   sampler.bpf.c -> $(BUILD)/profiler/sampler.bpf.o   (clang -target bpf)
#                 -> $(BUILD)/profiler/sampler.skel.h  (bpftool gen skeleton)
#   ksym.bpf.c    -> the same, for kernel symbol names (ksymbpf.c)
#   fork.bpf.c    -> the same, the fork hook of -p and launch runs
#   profile sources include the skeleton, so they depend on it.
PROFILE_SRCS := profiler/profile.c profiler/profile_opts.c profiler/slices.c \
	profiler/sampler.c profiler/cpus.c profiler/maxstack.c \
	profiler/launch.c profiler/stackfold.c profiler/namecache.c \
	profiler/targets.c profiler/jvmkids.c \
	profiler/sliceout.c profiler/jvmprep.c profiler/interp.c \
	profiler/stackcache.c profiler/ksymbpf.c profiler/drain.c \
	profiler/offcpu_end.c
PROFILE_OBJS := $(PROFILE_SRCS:%.c=$(BUILD)/%.o)
MIXPROF_OBJS += $(PROFILE_OBJS)
MIXPROF_LIBS += -lbpf -lelf -lz

# usdt.bpf.h includes <linux/errno.h>, which wants the multiarch asm/
PROF_BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall \
	-I$(BUILD)/profiler -Iprofiler -Iunwind \
	-idirafter /usr/include/$(shell $(CC) -dumpmachine)

$(BUILD)/profiler/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp
	$(Q)mv $@.tmp $@

$(BUILD)/profiler/%.bpf.o: profiler/%.bpf.c profiler/sampler.h \
		profiler/ksym.h profiler/targets.bpf.h profiler/offcpu.bpf.h \
		profiler/alloc.bpf.h profiler/alloc.h unwind/unwind.bpf.h unwind/rows.h \
		$(BUILD)/profiler/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(PROF_BPF_CFLAGS) -c $< -o $@

$(BUILD)/profiler/%.skel.h: $(BUILD)/profiler/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp
	$(Q)mv $@.tmp $@

$(PROFILE_OBJS): $(BUILD)/profiler/sampler.skel.h $(BUILD)/profiler/ksym.skel.h \
	$(BUILD)/profiler/fork.skel.h
.SECONDARY: $(BUILD)/profiler/sampler.bpf.o $(BUILD)/profiler/ksym.bpf.o \
	$(BUILD)/profiler/fork.bpf.o

# Unit tests: pure modules only (no BPF, no symbolizer).
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_options \
	$(BUILD)/tests/unit/test_prof_slices $(BUILD)/tests/unit/test_prof_stackcache \
	$(BUILD)/tests/unit/test_prof_namecache
$(BUILD)/tests/unit/test_prof_options: $(BUILD)/tests/unit/test_prof_options.o \
		$(BUILD)/profiler/profile_opts.o $(BUILD)/profiler/cpus.o \
		$(BUILD)/profiler/launch.o $(BUILD)/profiler/linefilter.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
$(BUILD)/tests/unit/test_prof_slices: $(BUILD)/tests/unit/test_prof_slices.o \
		$(BUILD)/profiler/slices.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
$(BUILD)/tests/unit/test_prof_stackcache: \
		$(BUILD)/tests/unit/test_prof_stackcache.o \
		$(BUILD)/profiler/stackcache.o $(BUILD)/symbolizer/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_jvmkids
$(BUILD)/tests/unit/test_prof_jvmkids: $(BUILD)/tests/unit/test_prof_jvmkids.o \
		$(BUILD)/profiler/jvmkids.o $(BUILD)/profiler/procinfo.o \
		$(BUILD)/profiler/targets.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/tests/unit/test_prof_namecache: \
		$(BUILD)/tests/unit/test_prof_namecache.o \
		$(BUILD)/profiler/namecache.o $(BUILD)/symbolizer/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# What the run says as text: the line filter (-I -X --tid --thread), the
# start and status lines, the top-N table for a terminal. Pure modules.
PROFILE_CLI_OBJS := $(BUILD)/profiler/linefilter.o $(BUILD)/profiler/topn.o \
	$(BUILD)/profiler/status.o
MIXPROF_OBJS += $(PROFILE_CLI_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_textout
$(BUILD)/tests/unit/test_prof_textout: $(BUILD)/tests/unit/test_prof_textout.o \
		$(PROFILE_CLI_OBJS) $(BUILD)/symbolizer/fold.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# The profile command's renderings (--svg, --html, --heatmap, --montage).
PROFILE_RENDER_OBJS := $(BUILD)/profiler/timedout.o \
	$(BUILD)/profiler/render_out.o
MIXPROF_OBJS += $(PROFILE_RENDER_OBJS)

# `mixprof -e`: the probe run's agent connection and its --count table.
PROFILE_PROBE_OBJS := $(BUILD)/profiler/probes_run.o \
	$(BUILD)/profiler/probe_count.o
MIXPROF_OBJS += $(PROFILE_PROBE_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_prof_probe_count
$(BUILD)/tests/unit/test_prof_probe_count: \
		$(BUILD)/tests/unit/test_prof_probe_count.o \
		$(BUILD)/profiler/probe_count.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Kernel names both ways, compared (tests/integration/profile_ksym.sh).
BINS += $(BUILD)/tests/ksym_check
$(BUILD)/tests/ksym_check: $(BUILD)/tests/fixtures/kernel/ksym_check.o \
		$(BUILD)/profiler/ksymbpf.o $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS) -lbpf
