/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the ring buffer of the tracefs instance: one thread per traced
 * CPU moves pages from per_cpu/cpuN/trace_pipe_raw into a temporary file
 * (splice, or read where splice is refused); the final partial pages are
 * read at stop.  Memory stays a few pages per CPU whatever the trace size.
 */
#ifndef TPERF_FTRACE_RECORD_H
#define TPERF_FTRACE_RECORD_H

#include <pthread.h>
#include <stdint.h>

struct ftrace_reader;

struct ftrace_recorder {
	int nr_cpus;			/* CPUs of the machine: one file each */
	int *tmp_fds;			/* the pages of CPU i */
	struct ftrace_reader *readers;	/* one per traced CPU */
	int nr_readers;
	volatile int stop;
	int page_size;
};

/**
 * ftrace_recorder__start - start reading @cpus (NULL: all) of the instance
 * @tmpdir: where the per-CPU temporary files go (unlinked at once)
 * Returns 0 or -errno.
 */
int ftrace_recorder__start(struct ftrace_recorder *r, const int *cpus, int nr,
			   const char *tmpdir);

/**
 * ftrace_recorder__stop - drain what is left and join the readers
 * Returns 0 or the first reader's -errno.
 */
int ftrace_recorder__stop(struct ftrace_recorder *r);

/**
 * ftrace_recorder__exit - close the temporary files
 */
void ftrace_recorder__exit(struct ftrace_recorder *r);

#endif
