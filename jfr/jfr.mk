# jfr: folded lines to and from JFR recordings, linked into mixprof (with
# pprof/'s growable buffer); its unit test.
CPPFLAGS_jfr := $(MIXPROF_CPPFLAGS)
JFR_OBJS := $(BUILD)/jfr/jbuf.o $(BUILD)/jfr/jmeta.o $(BUILD)/jfr/jchunk.o \
	$(BUILD)/jfr/jfr_write.o $(BUILD)/jfr/jfr_read.o
MIXPROF_OBJS += $(JFR_OBJS)

UNIT_TESTS += $(BUILD)/tests/unit/test_jfr
$(BUILD)/tests/unit/test_jfr: $(BUILD)/tests/unit/test_jfr.o \
		$(JFR_OBJS) $(BUILD)/pprof/pbuf.o $(BUILD)/common/u64map.o \
		$(FOLD_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
.SECONDARY: $(BUILD)/tests/unit/test_jfr.o
