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

#include "util/perf-data/event.h"

struct cpu_map;
struct evlist;
struct perf_header;

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

/*
 * The records perf 6.1 writes about the events themselves, between the
 * attrs and the first kernel record (they carry no sample_id trailer).
 */

/* The ring buffer index an fd of @cpu (-1: per thread) writes into. */
typedef int (*synth_ring_fn)(void *ctx, int cpu, int thread_idx);

/**
 * synthesize__id_index - PERF_RECORD_ID_INDEX: each open fd's id with its
 * ring index, CPU and thread (perf: evsel by evsel, CPU-major), split into
 * records of at most 64 KiB
 * Return: 0 or the callback's error.
 */
int synthesize__id_index(struct synth *s, struct evlist *evlist, synth_ring_fn ring, void *rctx);

/**
 * synthesize__event_updates - PERF_RECORD_EVENT_UPDATE for each event with
 * a unit (clocks: "msec"), a scale other than 1 (clocks: 1e-6) or its
 * PMU's own CPUs, and (@pipe) its name, keyed by the event's first id
 * Return: 0 or the callback's error.
 */
int synthesize__event_updates(struct synth *s, struct evlist *evlist, bool pipe);

/**
 * synthesize__thread_map - PERF_RECORD_THREAD_MAP of the evlist's threads
 * (pids, comms left empty as perf record leaves them)
 * Return: 0 or the callback's error.
 */
int synthesize__thread_map(struct synth *s, struct evlist *evlist);

/**
 * synthesize__time_conv - PERF_RECORD_TIME_CONV from a ring's control page
 * (a struct perf_event_mmap_page), read under its seqlock, when the kernel
 * offers cap_user_time_zero (a TSC); nothing otherwise, as perf 6.1
 * Return: 0, -EAGAIN when the page kept changing, or the callback's error.
 */
int synthesize__time_conv(struct synth *s, const void *mmap_page);

/**
 * synthesize__cpu_map - PERF_RECORD_CPU_MAP of @cpus in perf 6.1's
 * smallest encoding (a range, a list or a 32-bit mask)
 * Return: 0 or the callback's error.
 */
int synthesize__cpu_map(struct synth *s, const struct cpu_map *cpus);

/**
 * synthesize__header_attrs - the events of @evlist into @h's attrs, as
 * record and stat record write them: each attr with the ids of its open
 * fds, its name (EVENT_DESC) and its group (GROUP_DESC)
 *
 * Return: 0 or -ENOMEM.
 */
int synthesize__header_attrs(struct perf_header *h, struct evlist *evlist);

#endif
