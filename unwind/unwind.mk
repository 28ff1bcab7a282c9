# unwind/: native stacks without frame pointers. rowgen turns an ELF's
# .eh_frame and .debug_frame into unwind rows (rows.h), which the sampler's BPF walk
# follows (unwind.bpf.h); loader.c fills the BPF maps per process.
UNWIND_SRCS := cfi cfirows fdefind rowgen fpmap debugfile rowcache loader
UNWIND_OBJS := $(UNWIND_SRCS:%=$(BUILD)/unwind/%.o)
CPPFLAGS_unwind := $(MIXPROF_CPPFLAGS)
# rowgen alone (its tests, tests/tools/rowsoracle)
ROWGEN_OBJS := $(addprefix $(BUILD)/unwind/,rowgen.o fdefind.o cfi.o cfirows.o) \
	$(BUILD)/common/stop.o

# The workload without frame pointers: a unit test fixture (rowgen) and
# the native process the integration tests profile.
UNWIND_FIX := $(BUILD)/tests/fixtures/unwind
$(UNWIND_FIX)/nofp: tests/fixtures/unwind/nofp.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fomit-frame-pointer -fno-inline -g -o $@ $<

# The same with frame pointers (its own code's rows are the frame
# record; glibc's qsort between them has none): the frame-record bitmap's
# workload (fpmap.h), mixed with code that has rows of other shapes.
$(UNWIND_FIX)/nofp_fp: tests/fixtures/unwind/nofp.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fno-omit-frame-pointer -fno-inline -g -o $@ $<

# The same with its CFI in .debug_frame only (no asynchronous unwind
# tables: .eh_frame keeps only the C runtime's _start and the PLT), and
# that build with its debug sections split into nofp_split.debug, found
# through .gnu_debuglink.
$(UNWIND_FIX)/nofp_df: tests/fixtures/unwind/nofp.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fomit-frame-pointer -fno-inline \
		-fno-asynchronous-unwind-tables -g -o $@ $<
$(UNWIND_FIX)/nofp_split: $(UNWIND_FIX)/nofp_df
	$(call msg,OBJCOPY,$@)
	$(Q)cd $(@D) && objcopy --only-keep-debug nofp_df nofp_split.debug && \
		objcopy --strip-debug --add-gnu-debuglink=nofp_split.debug \
			nofp_df nofp_split

UNIT_TESTS += $(BUILD)/tests/unit/test_unwind_rowgen
$(BUILD)/tests/unit/test_unwind_rowgen: \
		$(BUILD)/tests/unit/test_unwind_rowgen.o \
		$(BUILD)/tests/tools/rowgen_libdw.o $(ROWGEN_OBJS) \
		| $(UNWIND_FIX)/nofp $(UNWIND_FIX)/nofp_split
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -ldw -lelf

UNIT_TESTS += $(BUILD)/tests/unit/test_unwind_fpmap
$(BUILD)/tests/unit/test_unwind_fpmap: \
		$(BUILD)/tests/unit/test_unwind_fpmap.o $(BUILD)/unwind/fpmap.o \
		$(BUILD)/tests/tools/rowgen_libdw.o $(ROWGEN_OBJS) \
		| $(UNWIND_FIX)/nofp $(UNWIND_FIX)/nofp_fp
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -ldw -lelf

UNIT_TESTS += $(BUILD)/tests/unit/test_unwind_cfi
$(BUILD)/tests/unit/test_unwind_cfi: \
		$(BUILD)/tests/unit/test_unwind_cfi.o $(ROWGEN_OBJS) \
		| $(UNWIND_FIX)/nofp
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lelf

UNIT_TESTS += $(BUILD)/tests/unit/test_unwind_rowcache
$(BUILD)/tests/unit/test_unwind_rowcache: \
		$(BUILD)/tests/unit/test_unwind_rowcache.o \
		$(BUILD)/unwind/rowcache.o $(BUILD)/symbolizer/elf_syms.o \
		$(BUILD)/symbolizer/symtab.o $(BUILD)/symbolizer/demangle.o \
		$(BUILD)/common/stop.o \
		$(BUILD)/common/safefile.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)
