# Unit tests: each module's fragment adds its tests/unit/test_*.c binaries to
# UNIT_TESTS with the objects they link; this file holds shared rules only.
CPPFLAGS_tests := $(MIXPROF_CPPFLAGS)

# Tools the integration tests run.
# jvmnames: the agentless Java namer against the agent's map of a live JVM
# (tests/integration/jnames_*.sh).
BINS += $(BUILD)/tests/jvmnames
$(BUILD)/tests/jvmnames: $(BUILD)/tests/tools/jvmnames.o $(JVM_OBJS) $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)
