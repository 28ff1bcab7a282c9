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

# Processes whose names are terminal escapes (tests/integration/
# names_escape.sh): a C program (its comm, an ELF symbol) and a JVM (a
# thread name, a method name: javac drops control characters from
# identifiers, so "ABCD" of spinABCDEVIL is patched in the class file
# into U+009B and U+00E9, four bytes for four).
NAMES_FIX := $(BUILD)/tests/fixtures/names
BINS += $(NAMES_FIX)/evilname $(NAMES_FIX)/EvilNames.class
$(NAMES_FIX)/evilname: tests/fixtures/names/evilname.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fno-omit-frame-pointer -g -o $@ $<
$(NAMES_FIX)/EvilNames.class: tests/fixtures/names/EvilNames.java
	$(call msg,JAVAC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(JAVAC) $(JAVAC_JVM) --release 17 -d $(@D) $<
	$(Q)perl -pi -e 's/spinABCDEVIL/spin\xc2\x9b\xc3\xa9EVIL/g' $@

# A stack of known depth, with frame pointers: bench/floor's walks
# (tests/integration/bench_floor.sh)
BINS += $(BUILD)/tests/fixtures/bench/fpdeep
$(BUILD)/tests/fixtures/bench/fpdeep: tests/fixtures/bench/fpdeep.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -fno-omit-frame-pointer -g -o $@ $<

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


# rowsoracle: rowgen's rows by its own CFA reader against libdw's CFI
# interface, the oracle (tests/integration/rows_oracle.sh, bench/rows.sh).
BINS += $(BUILD)/tests/rowsoracle
$(BUILD)/tests/rowsoracle: $(BUILD)/tests/tools/rowsoracle.o \
		$(BUILD)/tests/tools/rowgen_libdw.o $(ROWGEN_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -ldw -lelf

# JVMs the tests run, compiled once here rather than by a javac start in
# every run of a test: hot lambdas for the agent's naming test
# (tests/integration/agent_launch.sh), the attach tests' workload
# (attach_workload.sh, sourced by every attach_*.sh), the harden tests'
# spinning JVM of another user (tests/lib/harden.sh).
JAVA_FIXTURES := $(addprefix $(BUILD)/tests/fixtures/, agent/Lambdas.class \
	attach/AttachWork.class harden/Spin.class)
BINS += $(JAVA_FIXTURES)
$(JAVA_FIXTURES): $(BUILD)/tests/fixtures/%.class: tests/fixtures/%.java
	$(call msg,JAVAC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(JAVAC) $(JAVAC_JVM) --release 17 -d $(@D) $<
