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

# The hostile-JVM kit (tests/hostile/): fakejvm poses as a HotSpot JVM
# through a libjvm.so of its own, with tables and memory of its choosing
# (tests/integration/hostile_jvm.sh).
HOSTILE := $(BUILD)/tests/hostile
BINS += $(HOSTILE)/fakejvm $(HOSTILE)/libjvm.so
$(HOSTILE)/libjvm.so: tests/hostile/libjvm.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -fPIC -shared -fvisibility=hidden -o $@ $<
$(HOSTILE)/fakejvm: tests/hostile/fakejvm.c $(HOSTILE)/libjvm.so
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Wall -o $@ $< -ldl -pthread

