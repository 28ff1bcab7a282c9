/*
 * names: turn what JVMTI says about a method into one stable frame name.
 *
 *   default   pkg/Class.method
 *   dotted    pkg.Class.method
 *   sig       pkg/Class.method(java/lang/String,int[])   (Java-like, no
 *             return type; never ';' so folded stacks stay parseable)
 *   lines     pkg/Class.method (Class.java:42)   (method's first line)
 *
 * Hidden classes (lambdas, LambdaForms) lose their per-run address:
 * "Foo$$Lambda$14/0x0000000800c01234" -> "Foo$$Lambda$14". Every byte that
 * could break a map line, a folded stack or an inline chain (control
 * characters, ';', the '>' of "->") is replaced by '?'. Pure.
 */
#ifndef MIXPROF_JMAP_NAMES_H
#define MIXPROF_JMAP_NAMES_H

#include "options.h"
#include "strbuf.h"

struct jmap_method_desc {
	const char *class_sig; /* "Lpkg/Class;" as GetClassSignature gives */
	const char *name; /* "method" */
	const char *msig; /* "(Ljava/lang/String;I)V"; NULL if unknown */
	const char *source; /* "Class.java"; NULL if unknown */
	int line; /* first line of the method; <= 0 if unknown */
};

/* Append the frame name of m to sb. 0 or -ENOMEM. */
int jmap_name__method(struct strbuf *sb, const struct jmap_method_desc *m,
		      const struct jmap_options *o);

/* Append a class name from a JVM class signature. 0 or -ENOMEM. */
int jmap_name__class(struct strbuf *sb, const char *class_sig, bool dotted);

/* Append a JVM stub name ("Interpreter", "I2C/C2I adapters") sanitised.
 * 0 or -ENOMEM. */
int jmap_name__stub(struct strbuf *sb, const char *name);

#endif
