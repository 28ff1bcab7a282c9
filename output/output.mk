# output/: a run's sinks: the slices (time arithmetic, folded text, a
# top-N table, pprof, JFR) and the renderings (--svg, --html, --heatmap,
# --montage).
CPPFLAGS_output := $(MIXPROF_CPPFLAGS)
OUTPUT_SRCS := timebase.c sliceout.c topn.c render_out.c timedout.c
OUTPUT_OBJS := $(OUTPUT_SRCS:%.c=$(BUILD)/output/%.o)
MIXPROF_OBJS += $(OUTPUT_OBJS)
$(OUTPUT_OBJS): $(SAMPLER_SKELS)

UNIT_TESTS += $(BUILD)/tests/unit/test_out_timebase
$(BUILD)/tests/unit/test_out_timebase: $(BUILD)/tests/unit/test_out_timebase.o \
		$(BUILD)/output/timebase.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
