# check/: `mixprof check`, what this host allows (check.c; a -p target's
# Java lines: check_jvm.c), and the fix named for each failure (hints.c,
# also the run's failed loads and attaches).
CPPFLAGS_check := $(MIXPROF_CPPFLAGS)
CHECK_OBJS := $(BUILD)/check/check.o $(BUILD)/check/check_jvm.o \
	$(BUILD)/check/hints.o
MIXPROF_OBJS += $(CHECK_OBJS)
# they include the sampler's skeletons (the real sampler is loaded)
$(CHECK_OBJS): $(SAMPLER_SKELS)

# The fixes named for each failure (hints.c), on made-up hosts.
UNIT_TESTS += $(BUILD)/tests/unit/test_check_hints
$(BUILD)/tests/unit/test_check_hints: $(BUILD)/tests/unit/test_check_hints.o \
		$(BUILD)/check/hints.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
