# probes/: `mixprof -e`: the agent connection of a probe run (one probe
# per pattern, count polls) and its --count table.
CPPFLAGS_probes := $(MIXPROF_CPPFLAGS)
PROBES_OBJS := $(BUILD)/probes/probes_run.o $(BUILD)/probes/probe_count.o
MIXPROF_OBJS += $(PROBES_OBJS)

UNIT_TESTS += $(BUILD)/tests/unit/test_probes_count
$(BUILD)/tests/unit/test_probes_count: \
		$(BUILD)/tests/unit/test_probes_count.o \
		$(BUILD)/probes/probe_count.o $(BUILD)/common/safename.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
