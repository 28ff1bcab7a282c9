# stacks/: a counted key into a named stack (its frames, pid, tid), the
# line filter, the cache of named callers, and the folded lines' table.
CPPFLAGS_stacks := $(MIXPROF_CPPFLAGS)
STACKS_SRCS := stackfold.c stacksrc.c namecache.c linefilter.c fold.c \
	foldtab.c unwindcheck.c
STACKS_OBJS := $(STACKS_SRCS:%.c=$(BUILD)/stacks/%.o)
# folded lines and their aggregate, for the tests that link them alone
FOLD_OBJS := $(BUILD)/stacks/fold.o $(BUILD)/stacks/foldtab.o \
	$(BUILD)/common/strpool.o $(BUILD)/common/safename.o
MIXPROF_OBJS += $(STACKS_OBJS)
# they include the sampler's skeletons (through sampler_int.h)
$(STACKS_OBJS): $(SAMPLER_SKELS)

UNIT_TESTS += $(BUILD)/tests/unit/test_stacks_namecache
$(BUILD)/tests/unit/test_stacks_namecache: \
		$(BUILD)/tests/unit/test_stacks_namecache.o \
		$(BUILD)/stacks/namecache.o $(BUILD)/common/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# Naming on a fake sampler (stacksrc.h): no root, no BPF.
UNIT_TESTS += $(BUILD)/tests/unit/test_stacks_stackfold
$(BUILD)/tests/unit/test_stacks_stackfold: \
		$(BUILD)/tests/unit/test_stacks_stackfold.o \
		$(BUILD)/stacks/stackfold.o \
		$(BUILD)/stacks/unwindcheck.o \
		$(BUILD)/stacks/namecache.o $(FOLD_OBJS) \
		$(BUILD)/profiler/targets.o $(BUILD)/attach/procinfo.o \
		$(JVM_OBJS) $(COMMON_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)

# The symbolizer's symtab test checks demangled names in a folded line.
$(BUILD)/tests/unit/test_sym_symtab: $(FOLD_OBJS)
UNIT_TESTS += $(BUILD)/tests/unit/test_stacks_fold
$(BUILD)/tests/unit/test_stacks_fold: $(BUILD)/tests/unit/test_stacks_fold.o \
		$(FOLD_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)
