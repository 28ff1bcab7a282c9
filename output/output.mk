# output/: a run's sinks: the slices (time arithmetic, folded text, a
# top-N table, pprof, JFR) and the renderings (--svg, --html, --heatmap,
# --montage).
CPPFLAGS_output := $(MIXPROF_CPPFLAGS)
OUTPUT_SRCS := slices.c sliceout.c topn.c render_out.c timedout.c
OUTPUT_OBJS := $(OUTPUT_SRCS:%.c=$(BUILD)/output/%.o)
MIXPROF_OBJS += $(OUTPUT_OBJS)
$(OUTPUT_OBJS): $(SAMPLER_SKELS)

UNIT_TESTS += $(BUILD)/tests/unit/test_prof_slices
$(BUILD)/tests/unit/test_prof_slices: $(BUILD)/tests/unit/test_prof_slices.o \
		$(BUILD)/output/slices.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
