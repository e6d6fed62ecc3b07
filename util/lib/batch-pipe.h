/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A one-way pipe of variable-sized records from one thread to a consumer
 * thread, in order: the producer fills blocks of records and hands over
 * each block when it is full; the consumer thread runs a callback on every
 * record of a block, then gives the block back for reuse.  Handing over
 * blocks, not records, keeps the locking out of the per-record cost.  At
 * most a few blocks are in flight: a producer that runs ahead waits.
 *
 * report uses it to build the histograms on a second CPU while the first
 * reads the file and unwinds (builtin-report.c).
 */
#ifndef TPERF_BATCH_PIPE_H
#define TPERF_BATCH_PIPE_H

#include <stdbool.h>
#include <stddef.h>

struct batch_pipe;

/* Called on the consumer thread for each record; nonzero stops consuming. */
typedef int (*batch_consume_fn)(void *arg, void *rec);

/**
 * batch_pipe__usable_cpus - the CPUs this thread may run on (its affinity)
 *
 * Return: at least 1.  A pipe is only worth it with 2 or more.
 */
int batch_pipe__usable_cpus(void);

/**
 * batch_pipe__start - start the consumer thread
 * @consume: run on each record, in the order they were committed
 * @arg: its first argument
 *
 * Return: the pipe, or NULL (out of memory, or no thread could be made):
 * the caller then consumes records itself.
 */
struct batch_pipe *batch_pipe__start(batch_consume_fn consume, void *arg);

/**
 * batch_pipe__reserve - room for the next record of @size bytes
 *
 * The record is the caller's to fill until batch_pipe__commit(); 8-byte
 * aligned.  Return: NULL when out of memory or when the consumer failed
 * (batch_pipe__finish() then says how).
 */
void *batch_pipe__reserve(struct batch_pipe *p, size_t size);

/** batch_pipe__commit - the reserved record is complete: it will be consumed */
void batch_pipe__commit(struct batch_pipe *p);

/**
 * batch_pipe__finish - hand over what is left, wait until all is consumed,
 * stop the thread and free the pipe
 *
 * Return: 0, the consumer's first nonzero return, or -ENOMEM from reserve.
 */
int batch_pipe__finish(struct batch_pipe *p);

#endif
