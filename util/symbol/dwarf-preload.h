/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DWARF of a recording's libraries, opened ahead on a thread: the
 * inline frames of DWARF callchains need each library's debug file with
 * its compressed sections inflated (libc's: tens of milliseconds), and the
 * report's first samples wait for it.  From the start of the report a
 * thread looks through the first records of the file for the executable
 * mappings of user files, and opens each one's DWARF as the unwinder would
 * (util/unwind/unwind.c: dso_elf(), dso_dwarf()), while the main thread reads and
 * unwinds.  The unwinder takes what is ready, waits for what is being
 * opened, and opens the rest itself.
 */
#ifndef TPERF_DWARF_PRELOAD_H
#define TPERF_DWARF_PRELOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/perf-data/event.h"

struct dwarf_preload;
struct probe_elf;

/**
 * dwarf_preload__start - look through the records of @file's data section
 * [@start, @end) (a regular perf.data file, not compressed records) for
 * user mappings, and open their files (under @symfs, or NULL) on a thread.
 * Return: the preload, or NULL when it was not started (one CPU, no
 * memory, no thread).
 */
struct dwarf_preload *dwarf_preload__start(const char *file, u64 start, u64 end,
					   const char *symfs);

/**
 * dwarf_preload__take - the opened file @path and its DWARF for inline
 * scopes (dwarf_begin_elf() of probe_elf__scopes_elf(), which may be
 * NULL), once the thread's walk of the records is over, waiting while the
 * thread opens it.  Return: false when the preload does not have it, or
 * has not begun it: the caller opens it, and the thread never will.
 */
bool dwarf_preload__take(struct dwarf_preload *p, const char *path, struct probe_elf **pe,
			 void **dw);

/**
 * dwarf_preload__debug_frame - whether file @path or its debug file has a
 * .debug_frame (probe_elf__has_debug_frame()), once the thread has opened
 * it, which comes before inflating it.  Return: false when the preload
 * does not have the file or has not begun it.
 */
bool dwarf_preload__debug_frame(struct dwarf_preload *p, const char *path, bool *has);

/**
 * dwarf_preload__mapped_files - the thread's walk of the records in @buf
 * (@len bytes, the start of a data section): @fn gets the name of each
 * executable user MMAP/MMAP2 of an absolute path, in order.  Stops at the
 * first record that does not fit, or when *@stop (may be NULL) is set.
 * Return: the bytes walked.
 */
size_t dwarf_preload__mapped_files(const void *buf, size_t len, const atomic_bool *stop,
				   void (*fn)(const char *name, void *arg), void *arg);

/**
 * dwarf_preload__files - the files the walk found (it waits for it), in the
 * order the thread opens them: up to @max paths to @paths (valid until
 * dwarf_preload__free()).  Return: how many it found.
 */
int dwarf_preload__files(struct dwarf_preload *p, const char **paths, int max);

/** dwarf_preload__free - stop the thread, free what was not taken (NULL: nothing) */
void dwarf_preload__free(struct dwarf_preload *p);

#endif
