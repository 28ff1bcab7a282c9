# The HotSpot attacher (mixprof attach): objects appended to MIXPROF_OBJS.
