# Java method entry probes inside libjmap.so: the class-file rewriter
# (pure, unit tested), the JVMTI side and the control socket. Included by
# agent.mk. Odd-shaped Java fixtures are compiled for the tests.
PROBE_PURE := classfile inject pattern
PROBE_OBJS := $(patsubst %,$(BUILD)/agent/%.o,$(PROBE_PURE) probes \
	probe_class control replaced)

# the probe's native keeps frame pointers so user stacks unwind from it
$(BUILD)/agent/probe_class.o: CFLAGS += -fno-omit-frame-pointer

PROBE_FIX := $(BUILD)/tests/fixtures/probe
PROBE_FIX_STAMP := $(PROBE_FIX)/.stamp
PROBE_FIX_SRCS := $(wildcard tests/fixtures/probe/*.java)
$(PROBE_FIX)/OddLong.java: tests/fixtures/probe/gen_long.pl
	$(Q)mkdir -p $(@D)
	$(Q)perl $< >$@
$(PROBE_FIX_STAMP): $(PROBE_FIX_SRCS) $(PROBE_FIX)/OddLong.java
	$(call msg,JAVAC,$(PROBE_FIX))
	$(Q)$(JAVAC) $(JAVAC_JVM) --release 17 -g -d $(PROBE_FIX) $^
	$(Q)touch $@

PROBE_UNIT := $(addprefix $(BUILD)/tests/unit/, test_probe_classfile \
	test_probe_pattern)
UNIT_TESTS += $(PROBE_UNIT) $(PROBE_FIX_STAMP)
$(BUILD)/tests/unit/test_probe_classfile: $(addprefix $(BUILD)/agent/,\
	classfile.o inject.o strbuf.o)
$(BUILD)/tests/unit/test_probe_pattern: $(BUILD)/agent/pattern.o
$(PROBE_UNIT): %: %.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
.SECONDARY: $(PROBE_UNIT:%=%.o)

# A line client for the integration tests: stdin commands, stdout replies.
BINS += $(BUILD)/tests/probe_cli
$(BUILD)/tests/probe_cli: $(BUILD)/tests/fixtures/probe/probe_cli.o \
	$(BUILD)/attach/probectl.o $(BUILD)/attach/procinfo.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/libjmap.so: $(PROBE_OBJS)

# The helper class, compiled by javac and built into the library as bytes
# (it uses jdk.internal.misc.Unsafe, which the agent exports to it).
$(BUILD)/agent/probe_bytes.h: agent/Probe.java
	$(call msg,JAVAC,$@)
	$(Q)mkdir -p $(@D)/probe_class
	$(Q)$(JAVAC) $(JAVAC_JVM) -source 17 -target 17 -Xlint:-options \
		--add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
		-d $(@D)/probe_class $<
	$(Q)perl -e 'local $$/; my $$b = <STDIN>; \
		print "static const unsigned char probe_class_bytes[] = {\n"; \
		print join(",", map { sprintf "0x%02x", $$_ } unpack "C*", $$b); \
		print "\n};\n"' <$(@D)/probe_class/mixprof/jmap/Probe.class >$@
$(BUILD)/agent/probe_class.o: $(BUILD)/agent/probe_bytes.h
$(BUILD)/agent/probe_class.o: CPPFLAGS_agent += -I$(BUILD)/agent
