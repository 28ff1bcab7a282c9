# mixprof: the sampler (BPF + user space), linked with the symbolizer and
# the attacher. Module lists are extended by the fragments included here.
CPPFLAGS_profiler := -I. -Iprofiler -Isymbolizer -Iagent -I$(BUILD)/profiler $(JNI_CFLAGS)
MIXPROF_OBJS := $(BUILD)/profiler/main.o
MIXPROF_LIBS :=
include profiler/attach.mk
include profiler/sampler.mk
include pprof/pprof.mk
include flamegraph/flamegraph.mk

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

BINS += $(BUILD)/mixprof
$(BUILD)/mixprof: $(MIXPROF_OBJS) $(UNWIND_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(MIXPROF_LIBS) -ldw -lpthread $(SYMBOLIZER_LIBS)
