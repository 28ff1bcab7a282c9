/*
 * demangle: C++ symbol names as people read them, short.
 *
 * "_ZN9JavaCalls11call_helperEP9JavaValueRK12methodHandle..." becomes
 * "JavaCalls::call_helper": the parameter list (and any trailing " const")
 * is dropped, and so is a template function's return type ("int
 * ns::twice<int>(int)" -> "ns::twice<int>"), as perf and async-profiler
 * do by default, because a flame graph wants one box per function, not
 * per overload. GCC's clones of a function (".constprop.1", ".isra.0",
 * ".part.0", ".cold": "f(int) [clone .cold]") are named as the function
 * itself ("f"), for the same reason.
 *
 * Returns a malloc'd string the caller frees, or NULL (errno set) when the
 * name is not a C++ mangled name or memory ran out.
 */
#ifndef MIXPROF_DEMANGLE_H
#define MIXPROF_DEMANGLE_H

char *demangle__name(const char *mangled);

#endif
