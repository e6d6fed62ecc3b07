/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source lines of DSO addresses from the DWARF line tables (libdw, no
 * addr2line process): "file.c:12" as perf prints it, the source file
 * alone, and the inline frames at an address -- as binutils' addr2line,
 * which perf runs, answers, also where DWARF has no line (its symbol-table
 * answers "file.c:0" and "??:0").  Each DSO opens its debug file (or
 * itself) once, on first use, and caches every answer.
 */
#ifndef TPERF_SRCLINE_H
#define TPERF_SRCLINE_H

#include "util/symbol/dso.h"

/* perf's text for an address without a source line */
#define SRCLINE_UNKNOWN "??:0"

struct srcline_dso;

/**
 * srcline__find - the file (base name) and line of DSO-relative @addr
 * @addr: as tperf keeps it (a file offset for user DSOs)
 * Return: 0 with *@file (owned by @dso's cache) and *@line, or -ENOENT.
 */
int srcline__find(struct dso *dso, u64 addr, const char **file, unsigned int *line);

/**
 * srcline__find_path - srcline__find() with the file's full path, as the
 * line table gives it (joined with the compilation directory)
 */
int srcline__find_path(struct dso *dso, u64 addr, const char **path, unsigned int *line);

/**
 * srcline__frame - the source line perf shows for frame @inl of the frames
 * at DSO-relative @addr (0 the innermost inline function, with the line
 * inside it; each outer one with the line of its call; past the last, the
 * last): "file.c:12"; without a line addr2line's "file.c:0" or "??:0"
 * Return: the string, owned by @dso's cache, or NULL where addr2line has
 * no answer.
 */
const char *srcline__frame(struct dso *dso, u64 addr, unsigned int inl);


/**
 * dso__srcline - perf's srcline of @addr: "file.c:12"; without a line
 * "file.c:0" or "??:0" (addr2line's answers from the symbol table), and
 * where addr2line has none "sym+OFFSET" (decimal, from @sym's start), else
 * "dso[hexaddr]"
 * @sym: the symbol at @addr, or NULL; the same at every call for @addr
 * Return: the string, owned by @dso's cache (SRCLINE_UNKNOWN on ENOMEM).
 */
const char *dso__srcline(struct dso *dso, u64 addr, const struct symbol *sym);

/**
 * dso__srcfile - the source file of @addr ("file.c"), "" when unknown (as
 * for perf's srcline "??:0")
 * Return: the string, owned by @dso's cache.
 */
const char *dso__srcfile(struct dso *dso, u64 addr);

/* One frame at an address: the function, and where it is (file base name) */
typedef int (*srcline_inline_fn)(const char *func, const char *file, unsigned int line,
				 void *arg);


/** srcline__dso_exit - free @dso's line tables and cache (dso__delete calls it) */
void srcline__dso_exit(struct dso *dso);

#endif
