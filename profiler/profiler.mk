# mixprof: the sampler (BPF + user space), linked with the symbolizer and
# the attacher. Module lists are extended by the fragments included here.
CPPFLAGS_profiler := -I. -Iprofiler -Isymbolizer -Iagent -I$(BUILD)/profiler $(JNI_CFLAGS)
MIXPROF_OBJS := $(BUILD)/profiler/main.o
MIXPROF_LIBS :=
include profiler/attach.mk
include profiler/sampler.mk
include flamegraph/flamegraph.mk

BINS += $(BUILD)/mixprof
$(BUILD)/mixprof: $(MIXPROF_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(MIXPROF_LIBS) $(SYMBOLIZER_LIBS)
