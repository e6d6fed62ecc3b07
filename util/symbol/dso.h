/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DSO: one object file (or the kernel, a module, the vdso, a JIT map)
 * that maps point into, with its build-id and its symbols, loaded lazily.
 */
#ifndef TPERF_DSO_H
#define TPERF_DSO_H

#include <stdbool.h>

#include "util/symbol/symbol.h"

enum dso_kind {
	DSO_USER,		/* a file: ELF symbols */
	DSO_KERNEL,		/* [kernel.kallsyms]: kallsyms */
	DSO_MODULE,		/* [name]: the module's kallsyms entries */
	DSO_VDSO,		/* [vdso]: from the build-id cache */
	DSO_JIT,		/* /tmp/perf-PID.map */
	DSO_NONE,		/* [heap], [stack]...: no symbols */
	DSO_BPF,		/* a KSYMBOL: its one symbol */
};

struct dso {
	char *long_name;
	const char *short_name;		/* points into long_name or its own */
	char *short_alloc;
	enum dso_kind kind;
	unsigned int seq;		/* creation order */
	u8 build_id[PERF_BUILD_ID_SIZE];
	u8 build_id_size;
	bool has_build_id;
	bool loaded;
	bool has_id;			/* maj/min/ino/ino_gen from an MMAP2 */
	u32 maj, min;
	u64 ino, ino_gen;
	struct symtab syms;
	char *bin_path;			/* the file symbols were read from, or NULL */
	char *debug_path;		/* its debug file (debuglink, build-id), or NULL */
	struct srcline_dso *srcline;	/* line tables, opened on first use (srcline.c) */
	char origin;			/* where symbols came from, perf's -v letter */
};

/** dso__new - a DSO named @name (its kind from the name) */
struct dso *dso__new(const char *name, enum dso_kind kind, unsigned int seq);
/** dso__delete - free @dso and its symbols (NULL is fine) */
void dso__delete(struct dso *dso);
/** dso__set_build_id - remember @size bytes of build-id (at most 20) */
void dso__set_build_id(struct dso *dso, const u8 *bid, size_t size);
/** dso__build_id_hex - the build-id as lowercase hex in @buf (41 bytes) */
void dso__build_id_hex(const struct dso *dso, char *buf);

/** dso__kind_of - the kind a user-space map named @name has */
enum dso_kind dso__kind_of(const char *name);

#endif
