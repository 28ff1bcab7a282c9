# Unit tests: each module's fragment adds its tests/unit/test_*.c binaries to
# UNIT_TESTS with the objects they link; this file holds shared rules only.
CPPFLAGS_tests := -I. -Itests/unit -Iagent -Isymbolizer -Iprofiler $(JNI_CFLAGS)
