# The renderers (flame graph, montage, heat map): objects appended to
# MIXPROF_OBJS, plus their unit tests. The JS and CSS in assets/ are linked
# in by assets.S, so they are prerequisites of its object.
CPPFLAGS_flamegraph := $(MIXPROF_CPPFLAGS)
FG_SRCS := tree.c folded.c palette.c escape.c diff.c opts.c svg.c html.c \
	json.c timed.c evline.c heatmap.c slicetab.c montage.c cmd_flamegraph.c \
	cmd_heatmap.c cmd_montage.c cmd_common.c
FG_OBJS := $(FG_SRCS:%.c=$(BUILD)/flamegraph/%.o) \
	$(BUILD)/flamegraph/assets.o $(COMMON_OBJS)
FG_ASSETS := $(wildcard flamegraph/assets/*.js flamegraph/assets/*.css)
MIXPROF_OBJS += $(FG_OBJS)
MIXPROF_LIBS += -lm

# SVG scripts sit in CDATA and page scripts in <script>: neither may
# contain the text that would end its block early.
$(BUILD)/flamegraph/assets.o: flamegraph/assets.S $(FG_ASSETS)
	$(call msg,AS,$@)
	$(Q)! grep -n ']]>' flamegraph/assets/svg.js flamegraph/assets/svg.css
	$(Q)! grep -in '</script' $(FG_ASSETS)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -c $< -o $@

# Unit tests link the renderer objects alone (no profiler, no BPF).
FG_UNIT := tree folded palette diff timed svg slicetab evline
UNIT_TESTS += $(FG_UNIT:%=$(BUILD)/tests/unit/test_fg_%)
$(BUILD)/tests/unit/test_fg_%.o: CFLAGS += -Iflamegraph
$(BUILD)/tests/unit/test_fg_%: $(BUILD)/tests/unit/test_fg_%.o $(FG_OBJS) \
		$(PPROF_OBJS) $(JFR_OBJS) $(FOLD_OBJS) $(BUILD)/common/u64map.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lm -lz
.SECONDARY: $(FG_UNIT:%=$(BUILD)/tests/unit/test_fg_%.o)
