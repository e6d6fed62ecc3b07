/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * C++ functions in probe definitions: 'ns::Class::method', templates
 * 'maxof<int>', an overload by its parameters 'ns::Class::add(int,int)'.
 * Such a name is matched against the demangled name of a function (its
 * DWARF linkage name, or its symbol), ending at a '::' boundary, spaces
 * ignored; without '(...)' every overload matches.  Demangling is
 * libiberty's (cplus_demangle), as perf's.
 */
#ifndef TPERF_PROBE_CXX_H
#define TPERF_PROBE_CXX_H

#include <stdbool.h>
#include <stddef.h>

/* Is @func a C++ name to match demangled (it has '::', '<' or '(')? */
bool probe_cxx__qualified(const char *func);
/*
 * The demangled form of @mangled (malloc'ed), with the parameter list when
 * @params; NULL when it is not a mangled name or tperf has no demangler.
 */
char *probe_cxx__demangle(const char *mangled, bool params);
/* Can tperf demangle (built with libiberty)? */
bool probe_cxx__can_demangle(void);
/* Does the C++ name @pattern name function @mangled (see above)? */
bool probe_cxx__match(const char *pattern, const char *mangled);
/*
 * The default event name of C++ function @func: its last component without
 * template arguments or parameters ('ns::Counter::add(int)' -> 'add',
 * 'maxof<int>' -> 'maxof'), other characters than [A-Za-z0-9_] as '_'.
 */
void probe_cxx__event_name(const char *func, char *buf, size_t size);

#endif
