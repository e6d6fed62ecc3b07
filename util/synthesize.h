/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records describing what existed before recording started, written the
 * way perf 6.1 writes them so that perf resolves symbols in our files as
 * in its own: the kernel map (PERF_RECORD_MMAP of "[kernel.kallsyms]_text",
 * pgoff = the _text address), one MMAP per module, and per thread COMM
 * (+ FORK for a full scan) and MMAP2 for each executable mapping of
 * /proc/PID/maps.  Every record ends in @id_hdr_size zero bytes (the
 * sample_id_all trailer of a synthesized record: time 0).
 */
#ifndef TPERF_SYNTHESIZE_H
#define TPERF_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "event.h"

/* Receives each record; a non-zero return stops the synthesis with it. */
typedef int (*synth_fn)(void *ctx, const union perf_event *ev, size_t size);

struct synth {
	size_t id_hdr_size;	/* trailer bytes to append */
	bool mmap_data;		/* also the non-executable mappings (-d) */
	bool comm_only;		/* synthesize__thread(): COMM only (a forked workload) */
	bool namespaces;	/* and a NAMESPACES record per thread (--namespaces) */
	synth_fn fn;
	void *ctx;
	const char *procfs;	/* "/proc" unless overridden */
};

/**
 * synthesize__kernel_mmap - the kernel map: "[kernel.kallsyms]_text" from
 * _text to _etext of /proc/kallsyms, pgoff = _text.
 * Return: 0, -ENOENT when kallsyms has no _text (addresses hidden by
 * kptr_restrict: nothing is written), or the callback's error.
 */
int synthesize__kernel_mmap(struct synth *s);

/**
 * synthesize__modules - one PERF_RECORD_MMAP per module of /proc/modules,
 * named by its path under /lib/modules/RELEASE (from modules.dep) or
 * "[name]" when it is not found.  Return: 0 (no /proc/modules: nothing)
 * or the callback's error.
 */
int synthesize__modules(struct synth *s);

/**
 * synthesize__thread - COMM and the executable mappings of thread @tid
 * @full: also a FORK first (its parent: PPid for a process leader, the
 *        leader for another thread), as for a system-wide scan; mappings
 *        then only for the leader
 * With s->namespaces a PERF_RECORD_NAMESPACES follows the COMM (precedes
 * it after the FORK of a full scan), as perf 6.1 orders them.
 * Return: 0, -ESRCH when the thread is gone (nothing written), or the
 * callback's error.
 */
int synthesize__thread(struct synth *s, pid_t tid, bool full);

/**
 * synthesize__all - every thread of every process in /proc (full), in the
 * order perf uses (directory names sorted as strings).
 * Return: 0 or the callback's error; vanished threads are skipped.
 */
int synthesize__all(struct synth *s);

#endif
