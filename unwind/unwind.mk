# unwind/: native stacks without frame pointers. rowgen turns an ELF's
# .eh_frame into unwind rows (rows.h), which the sampler's BPF walk
# follows (unwind.bpf.h); loader.c fills the BPF maps per process.
UNWIND_SRCS := rowgen loader
UNWIND_OBJS := $(UNWIND_SRCS:%=$(BUILD)/unwind/%.o)
CPPFLAGS_unwind := $(MIXPROF_CPPFLAGS)

# The workload without frame pointers: a unit test fixture (rowgen) and
# the native process the integration tests profile.
UNWIND_FIX := $(BUILD)/tests/fixtures/unwind
$(UNWIND_FIX)/nofp: tests/fixtures/unwind/nofp.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fomit-frame-pointer -fno-inline -g -o $@ $<

UNIT_TESTS += $(BUILD)/tests/unit/test_unwind_rowgen
$(BUILD)/tests/unit/test_unwind_rowgen: \
		$(BUILD)/tests/unit/test_unwind_rowgen.o $(BUILD)/unwind/rowgen.o \
		| $(UNWIND_FIX)/nofp
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -ldw -lelf
