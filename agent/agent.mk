# libjmap.so, the JVMTI agent, and its unit tests.
# Position-independent and hidden by default: only Agent_* is exported.
# Never sanitized (SAN_FLAGS, test-asan): a JVM cannot load an ASan library.
# options.o is also linked into mixprof (attach/attach.mk) to check
# options before attaching: keep it free of JVMTI.
CPPFLAGS_agent := -Iagent $(JNI_CFLAGS) -fPIC -fvisibility=hidden

AGENT_PURE := options strbuf names inline_ranges maprec jitdump_rec
AGENT_OBJS := $(patsubst %,$(BUILD)/agent/%.o,$(AGENT_PURE) log safefile \
	perfmap jitdump jvmti_names jvmti_lines events agent)

BINS += $(BUILD)/libjmap.so
$(BUILD)/libjmap.so: $(AGENT_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(filter-out -fsanitize%,$(LDFLAGS)) -shared -Wl,-z,defs -Wl,-z,now -o $@ $^ -lpthread

# Each test_agent_X links the agent modules it exercises.
AGENT_UNIT := options names maprec jitdump perfmap
UNIT_TESTS += $(patsubst %,$(BUILD)/tests/unit/test_agent_%,$(AGENT_UNIT))
$(BUILD)/tests/unit/test_agent_options: $(BUILD)/agent/options.o
$(BUILD)/tests/unit/test_agent_names: $(addprefix $(BUILD)/agent/,\
	names.o strbuf.o options.o)
$(BUILD)/tests/unit/test_agent_maprec: $(addprefix $(BUILD)/agent/,\
	maprec.o inline_ranges.o strbuf.o)
$(BUILD)/tests/unit/test_agent_jitdump: $(addprefix $(BUILD)/agent/,\
	jitdump_rec.o jitdump.o safefile.o strbuf.o)
$(BUILD)/tests/unit/test_agent_perfmap: $(addprefix $(BUILD)/agent/,\
	perfmap.o safefile.o)
$(BUILD)/tests/unit/test_agent_%: $(BUILD)/tests/unit/test_agent_%.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lpthread
# keep the test objects make would otherwise delete as intermediates
.SECONDARY: $(patsubst %,$(BUILD)/tests/unit/test_agent_%.o,$(AGENT_UNIT))
include agent/probe.mk
