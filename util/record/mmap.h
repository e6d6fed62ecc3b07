/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-CPU ring buffers of sampling events: one mmap of 1 + 2^n pages per
 * CPU (the control page, then the data area), every event fd of that CPU
 * redirected into it with PERF_EVENT_IOC_SET_OUTPUT.  Records are handed
 * out whole and in order: a record that wraps around the end of the data
 * area is reassembled in a private copy; data_tail is advanced once the
 * consumer has taken what it was given.
 */
#ifndef TPERF_MMAP_H
#define TPERF_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/perf-data/event.h"

struct perf_mmap {
	void *base;		/* the control page (struct perf_event_mmap_page) */
	size_t len;		/* bytes mapped: page + data */
	u64 mask;		/* data bytes - 1 */
	int fd;			/* the fd that owns the mapping */
	int cpu;		/* -1 for a per-thread ring */
	u64 prev;		/* data_tail: what was consumed */
	u64 bytes;		/* bytes consumed so far */
	u8 *copy;		/* 64 KiB for records split by the wrap */
};

/*
 * Callback for each record: return 0 to go on, a negative errno to stop
 * (the record and those after it stay in the ring).
 */
typedef int (*perf_mmap_fn)(void *ctx, const union perf_event *ev, size_t size);

/**
 * perf_mmap__mmap - map the ring of @fd
 * @m: zeroed
 * @fd: a perf event fd (the first one of its CPU)
 * @cpu: for messages and the caller
 * @pages: data pages, a power of two
 *
 * Return: 0 or -errno (-EPERM/-ENOMEM when perf_event_mlock_kb is too low).
 */
int perf_mmap__mmap(struct perf_mmap *m, int fd, int cpu, size_t pages);

/**
 * perf_mmap__read - hand every complete record in the ring to @fn
 * @m: a mapped ring
 *
 * Reads data_head once, walks from the last tail to it and then publishes
 * the new data_tail.  A record claiming a size of 0, less than a header or
 * more than the data area stops the walk (the ring is corrupted): the rest
 * is dropped and -EINVAL returned.
 * Return: the bytes consumed (>= 0) or a negative errno.
 */
long perf_mmap__read(struct perf_mmap *m, perf_mmap_fn fn, void *ctx);

/* Bytes waiting in the ring (data_head - the consumed tail). */
u64 perf_mmap__avail(struct perf_mmap *m);

/* Unmap and free; @m may be zeroed or already unmapped. */
void perf_mmap__munmap(struct perf_mmap *m);

/**
 * perf_mmap__pages - parse the -m argument ("128", "512K", "2M")
 * @str: pages, or a size with a B/K/M/G suffix (rounded up to pages)
 * @pages: receives the number of data pages
 *
 * Rounded up to a power of two as perf does.
 * Return: 0, 1 when it was rounded (perf says so), -EINVAL when it does
 * not parse.
 */
int perf_mmap__pages(const char *str, size_t *pages);

#endif
