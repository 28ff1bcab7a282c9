# Java workloads for tests, demos and benchmarks, compiled with javac into
# $(BUILD)/samples (class files), targeting the oldest JDK we test (17).
SAMPLE_SRCS := $(wildcard samples/*.java)
SAMPLES_STAMP := $(BUILD)/samples/.stamp
.PHONY: samples
samples: $(SAMPLES_STAMP)
$(SAMPLES_STAMP): $(SAMPLE_SRCS)
	$(call msg,JAVAC,$(BUILD)/samples)
	$(Q)mkdir -p $(@D)
	$(Q)$(JAVAC) $(JAVAC_JVM) --release 17 -g -d $(@D) $(SAMPLE_SRCS)
	$(Q)touch $@
