# events/: HotSpot's own events (GC, safepoints, VM operations,
# compilations, uncommon traps, class loads) from its USDT probes, for
# --events: a BPF object of its own beside the sampler's.
#
#   events.bpf.c -> $(BUILD)/events/events.bpf.o -> events.skel.h
#   jvmevents.c  loads and attaches it, reads its ring buffer
#   evlog.c      pairs begins and ends, writes the lines and the totals
#   (the HotSpot half, jvm/: jevents.bpf.h, included by events.bpf.c, the
#   probes' programs; hsprobes.c, their names; jvmnames.c, what is read of
#   the live JVM: the probes' offsets, uncommon traps' names)
#   evpprof.c    the lines as a pprof profile (--events FILE.pb.gz)
EVENTS_SRCS := jvmevents.c evlog.c evpprof.c
EVENTS_OBJS := $(EVENTS_SRCS:%.c=$(BUILD)/events/%.o)
CPPFLAGS_events := $(MIXPROF_CPPFLAGS)
MIXPROF_OBJS += $(EVENTS_OBJS)

$(BPF_BUILD)/events/events.bpf.o: events/events.bpf.c events/events_abi.h jvm/jevcfg.h \
		jvm/jevents.bpf.h \
		$(BPF_BUILD)/sampler/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(PROF_BPF_CFLAGS) -c $< -o $@

$(BPF_BUILD)/events/events.skel.h: $(BPF_BUILD)/events/events.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp
	$(Q)mv $@.tmp $@

$(BUILD)/events/jvmevents.o: $(BPF_BUILD)/events/events.skel.h
.SECONDARY: $(BPF_BUILD)/events/events.bpf.o

UNIT_TESTS += $(BUILD)/tests/unit/test_events_evlog
$(BUILD)/tests/unit/test_events_evlog: $(BUILD)/tests/unit/test_events_evlog.o \
		$(BUILD)/events/evlog.o $(BUILD)/common/safename.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_events_evpprof
$(BUILD)/tests/unit/test_events_evpprof: \
		$(BUILD)/tests/unit/test_events_evpprof.o \
		$(BUILD)/events/evpprof.o $(BUILD)/pprof/pbuf.o \
		$(BUILD)/pprof/pprof_write.o $(BUILD)/pprof/pprof_read.o \
		$(FOLD_OBJS) $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lz
