# The HotSpot attacher (mixprof attach): objects appended to MIXPROF_OBJS.
# It links the agent's option parser so bad options fail before the JVM
# is touched, with the agent's own message.
CPPFLAGS_attach := $(MIXPROF_CPPFLAGS)
ATTACH_OBJS := $(addprefix $(BUILD)/attach/, attach_cmd.o attach_jvm.o \
	attach_proto.o attach_flags.o procinfo.o attach_creds.o \
	attach_agentfile.o agentpath.o agentfiles.o) $(COMMON_OBJS)
MIXPROF_OBJS += $(ATTACH_OBJS) $(BUILD)/agent/options.o

ATTACH_TESTS := $(addprefix $(BUILD)/tests/unit/, test_attach_proto \
	test_attach_procinfo test_attach_flags test_attach_cmd \
	test_attach_agentfiles)
UNIT_TESTS += $(ATTACH_TESTS)
$(BUILD)/tests/unit/test_attach_proto: $(BUILD)/attach/attach_proto.o
$(BUILD)/tests/unit/test_attach_procinfo: $(BUILD)/attach/procinfo.o \
	$(COMMON_OBJS)
$(BUILD)/tests/unit/test_attach_flags: $(BUILD)/attach/attach_flags.o \
	$(BUILD)/attach/procinfo.o $(COMMON_OBJS)
$(BUILD)/tests/unit/test_attach_agentfiles: $(BUILD)/attach/agentfiles.o \
	$(BUILD)/attach/procinfo.o $(COMMON_OBJS)
$(BUILD)/tests/unit/test_attach_cmd: $(ATTACH_OBJS) $(BUILD)/agent/options.o
$(ATTACH_TESTS): %: %.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
MIXPROF_OBJS += $(BUILD)/attach/probectl.o
