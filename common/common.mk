# common/: helpers every subsystem of mixprof uses (safefile: opening what
# others control). Included as "common/safefile.h" from the repository top,
# so the folder's name shows at each include and agent/'s own safefile.h
# (the agent has its own rules) is never picked by mistake.
COMMON_OBJS := $(BUILD)/common/safefile.o
CPPFLAGS_common := -I.

UNIT_TESTS += $(BUILD)/tests/unit/test_common_safefile
$(BUILD)/tests/unit/test_common_safefile: \
		$(BUILD)/tests/unit/test_common_safefile.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
