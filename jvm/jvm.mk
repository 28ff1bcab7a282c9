# jvm/: the JVM runtime: a HotSpot JVM's own metadata read from its
# memory (VMStructs, code heaps, nmethods and their debug info, line
# tables, threads, frame names), the run's JVMs found and given to the BPF
# walk (jvms), their stacks' Java frames named (jstacks): JVM_OBJS, linked
# into mixprof; the unit tests feed fake tables and a fake sampler.
JVM_SRCS := hotspot icodelets itails vmstructs nmethod jlines jthreads jframe jnamer \
	perfcount \
	codeblob vthread readbudget readcache jlocks jthreadsync jvms jstacks locknames \
	hsprobes jvmnames jdkpath
JVM_OBJS := $(JVM_SRCS:%=$(BUILD)/jvm/%.o) $(COMMON_OBJS)
CPPFLAGS_jvm := $(MIXPROF_CPPFLAGS)
# the symbolizer's fuzz test covers the JVM parsers too
$(BUILD)/tests/unit/test_sym_fuzz: $(JVM_OBJS)

# each test_jvm_NAME.c links JVM_OBJS; jvmkids's its own (below)
JVM_TESTS := $(filter-out jvmkids, \
	$(patsubst tests/unit/test_jvm_%.c,%,$(wildcard tests/unit/test_jvm_*.c)))
JVM_TEST_BINS := $(JVM_TESTS:%=$(BUILD)/tests/unit/test_jvm_%)
UNIT_TESTS += $(JVM_TEST_BINS)
$(JVM_TEST_BINS): $(BUILD)/tests/unit/test_jvm_%: $(BUILD)/tests/unit/test_jvm_%.o \
		$(JVM_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(JVM_OBJS) -lelf

# jvmkids: the JVMs below a -p pid that is not one (a wrapper), named on
# stderr. Apart from JVM_OBJS: it asks attach/procinfo which processes
# are JVMs, which neither the tests above nor the tools linking JVM_OBJS
# carry; mixprof links it.
JVMKIDS_OBJS := $(BUILD)/jvm/jvmkids.o
UNIT_TESTS += $(BUILD)/tests/unit/test_jvm_jvmkids
$(BUILD)/tests/unit/test_jvm_jvmkids: $(BUILD)/tests/unit/test_jvm_jvmkids.o \
		$(JVMKIDS_OBJS) $(BUILD)/attach/procinfo.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
