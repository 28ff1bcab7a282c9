# sampler/: the BPF programs, their shared ABI header, the loader and the
# drain: objects appended to SAMPLER_OBJS (linked into mixprof).
#
#   sampler.bpf.c -> $(BUILD)/sampler/sampler.bpf.o   (clang -target bpf)
#                 -> $(BUILD)/sampler/sampler.skel.h  (bpftool gen skeleton)
#   ksym.bpf.c    -> the same, for kernel symbol names (ksymbpf.c)
#   fork.bpf.c    -> the same, the fork hook of -p and launch runs
#   sources that include a skeleton depend on it.
SAMPLER_SRCS := sampler.c cpus.c maxstack.c stackcache.c keytab.c ksymbpf.c \
	drain.c offcpu_end.c held.c kbtf.c
SAMPLER_OBJS := $(SAMPLER_SRCS:%.c=$(BUILD)/sampler/%.o)
# The BPF objects and skeletons go to BPF_BUILD (the Makefile's: BUILD but
# for the ASan build, which takes the normal build's: no sanitizer reaches BPF).
SAMPLER_SKELS := $(BPF_BUILD)/sampler/sampler.skel.h \
	$(BPF_BUILD)/sampler/ksym.skel.h $(BPF_BUILD)/sampler/fork.skel.h
CPPFLAGS_sampler := $(MIXPROF_CPPFLAGS)
MIXPROF_OBJS += $(SAMPLER_OBJS)
MIXPROF_LIBS += -lbpf -lelf -lz

# usdt.bpf.h includes <linux/errno.h>, which wants the multiarch asm/
PROF_BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall \
	-I. -I$(BPF_BUILD) -idirafter /usr/include/$(shell $(CC) -dumpmachine)

# BPF_PHASES=1: the phase timer (phases.h), an opt-in measurement; the
# BPF objects are built again when its value changes (phases.flag)
BPF_PHASES ?= 0
ifneq ($(BPF_PHASES),0)
PROF_BPF_CFLAGS += -DMIXPROF_PHASES
endif
$(shell mkdir -p $(BPF_BUILD)/sampler && echo $(BPF_PHASES) | \
	cmp -s - $(BPF_BUILD)/sampler/phases.flag 2>/dev/null || \
	echo $(BPF_PHASES) > $(BPF_BUILD)/sampler/phases.flag)

$(BPF_BUILD)/sampler/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp
	$(Q)mv $@.tmp $@

$(BPF_BUILD)/sampler/%.bpf.o: sampler/%.bpf.c sampler/sampler_abi.h \
		sampler/ksym.h sampler/targets.bpf.h sampler/offcpu.bpf.h \
		sampler/phases.h sampler/phases.bpf.h $(BPF_BUILD)/sampler/phases.flag \
		sampler/alloc.bpf.h sampler/alloc.h sampler/lock.bpf.h sampler/lock.h sampler/vtwait.bpf.h jvm/vthread.bpf.h jvm/hotspot.bpf.h jvm/jalloc.bpf.h jvm/jlocks.bpf.h jvm/lockcfg.h unwind/unwind.bpf.h unwind/rows.h \
		$(BPF_BUILD)/sampler/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(PROF_BPF_CFLAGS) -c $< -o $@

$(BPF_BUILD)/sampler/%.skel.h: $(BPF_BUILD)/sampler/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp
	$(Q)mv $@.tmp $@

$(SAMPLER_OBJS): $(SAMPLER_SKELS)
.SECONDARY: $(BPF_BUILD)/sampler/sampler.bpf.o \
	$(BPF_BUILD)/sampler/ksym.bpf.o $(BPF_BUILD)/sampler/fork.bpf.o

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_kbtf
$(BUILD)/tests/unit/test_prof_kbtf: $(BUILD)/tests/unit/test_prof_kbtf.o \
		$(BUILD)/sampler/kbtf.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lbpf

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_stackcache
$(BUILD)/tests/unit/test_prof_stackcache: \
		$(BUILD)/tests/unit/test_prof_stackcache.o \
		$(BUILD)/sampler/stackcache.o $(BUILD)/sampler/keytab.o \
		$(BUILD)/common/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Kernel names both ways, compared (tests/integration/profile_ksym.sh).
BINS += $(BUILD)/tests/ksym_check
$(BUILD)/tests/ksym_check: $(BUILD)/tests/fixtures/kernel/ksym_check.o \
		$(BUILD)/sampler/ksymbpf.o $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS) -lbpf
