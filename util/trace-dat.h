/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-cmd's trace.dat, version 6 (trace-cmd.dat.v6(5)): writing the
 * recorded ftrace pages with the metadata needed to decode them, and reading
 * such files (written by tperf or trace-cmd, any endianness and long size).
 */
#ifndef TPERF_TRACE_DAT_H
#define TPERF_TRACE_DAT_H

#include <stddef.h>
#include <stdint.h>

#include "ftrace-page.h"
#include "trace-event.h"

/* trace-cmd's option ids (TRACECMD_OPTION_*) that tperf writes or reads. */
enum {
	TRACE_DAT_OPT_DONE = 0,
	TRACE_DAT_OPT_DATE = 1,
	TRACE_DAT_OPT_CPUSTAT = 2,
	TRACE_DAT_OPT_BUFFER = 3,
	TRACE_DAT_OPT_TRACECLOCK = 4,
	TRACE_DAT_OPT_UNAME = 5,
	TRACE_DAT_OPT_CPUCOUNT = 8,
	TRACE_DAT_OPT_VERSION = 9,
};

struct trace_dat_cpu {
	uint64_t offset, size;	/* of its pages in the file */
};

/* An opened trace.dat: the file is mapped, the formats parsed. */
struct trace_dat {
	char *path;
	const uint8_t *map;
	size_t size;
	int version, big_endian, long_size, page_size;
	struct ftrace_page_fmt pfmt;
	struct trace_event tevent;
	int nr_cpus;
	struct trace_dat_cpu *cpus;
	char *clock;		/* the trace_clock in use ("local"), or NULL */
	char *uname, *tracer_version, *cpustats;
	int has_kallsyms;
	int mapped;		/* map is an mmap() of the file */
};

/* One event from the merged iteration. */
struct trace_dat_event {
	int cpu;
	uint64_t ts;
	const uint8_t *data;
	uint32_t size;
	long long missed;	/* events lost on this CPU just before: -1 unknown */
};

struct trace_dat_iter_cpu;
struct trace_dat_iter {
	struct trace_dat *td;
	struct trace_dat_iter_cpu *cpu;
	uint64_t bad_offset;	/* where the data is corrupt, after -EINVAL */
};

/**
 * trace_dat__open - map and parse the metadata of the trace.dat @path
 * @err: on failure, why (naming the file and the offset)
 * Returns 0 or -errno.
 */
int trace_dat__open(struct trace_dat *td, const char *path, char *err, size_t errsize);

/**
 * trace_dat__open_mem - parse a trace.dat image in memory (@buf must outlive @td)
 */
int trace_dat__open_mem(struct trace_dat *td, const void *buf, size_t size,
			const char *name, char *err, size_t errsize);

/**
 * trace_dat__close - release what trace_dat__open() took
 */
void trace_dat__close(struct trace_dat *td);

/**
 * trace_dat__iter_init - iterate over all events, merged by time across CPUs
 * Returns 0 or -ENOMEM.
 */
int trace_dat__iter_init(struct trace_dat_iter *it, struct trace_dat *td);

/**
 * trace_dat__iter_next - the next event in time order
 * Returns 1, 0 at the end, -EINVAL on corrupt data (it->bad_offset says where).
 */
int trace_dat__iter_next(struct trace_dat_iter *it, struct trace_dat_event *ev);

/**
 * trace_dat__iter_exit - free the iterator
 */
void trace_dat__iter_exit(struct trace_dat_iter *it);

/* What trace_dat__write() puts in the file. */
struct trace_dat_wparams {
	const char *tracefs;		/* the tracefs mount (event formats) */
	const char *const *events;	/* "sys/name" of every recorded event */
	int nr_events;
	int nr_cpus;
	const int *cpu_fds;		/* the pages of each CPU, from offset 0 */
	const char *clock_text;		/* the instance's trace_clock file */
	const char *cpustats;		/* per_cpu/cpuN/stats, concatenated */
	const char *version;		/* written as the VERSION option */
};

/**
 * trace_dat__write - write a version 6 trace.dat to @path
 * @err: on failure, what failed
 * Returns 0 or -errno.
 */
int trace_dat__write(const char *path, const struct trace_dat_wparams *p,
		     char *err, size_t errsize);

#endif
