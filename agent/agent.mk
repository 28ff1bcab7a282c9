# libjmap.so, the JVMTI agent.
