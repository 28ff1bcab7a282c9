# The symbolizer: SYMBOLIZER_OBJS and SYMBOLIZER_LIBS, linked into mixprof.
SYMBOLIZER_OBJS :=
SYMBOLIZER_LIBS :=
