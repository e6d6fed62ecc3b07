/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing PERF_RECORD_COMPRESSED records (record -z): whole records in,
 * each COMPRESSED record one zstd frame of them, as perf 6.1's readers
 * (and tperf's, util/perf-data/data.c) decompress them.
 */
#ifndef TPERF_COMPRESS_H
#define TPERF_COMPRESS_H

#include <stddef.h>

struct perf_zstd;

/* The largest input one COMPRESSED record takes: its frame then fits in 64 KiB. */
#define PERF_ZSTD_MAX_IN	(60 * 1024)

/* A compressor at zstd @level (1..22).  Return: NULL when out of memory. */
struct perf_zstd *perf_zstd__new(int level);
void perf_zstd__delete(struct perf_zstd *z);

/* Receives one record to write (a COMPRESSED one, or @in as it was). */
typedef int (*perf_zstd_fn)(void *ctx, const void *rec, size_t size);

/**
 * perf_zstd__records - compress @n bytes of whole records (at most
 * PERF_ZSTD_MAX_IN, or one record) into one COMPRESSED record handed to
 * @fn; when the frame would not fit in a record (input that does not
 * compress), @in is handed to @fn as it is.
 * Return: the bytes handed to @fn (> 0), or @fn's error, or -ENOMEM.
 */
long perf_zstd__records(struct perf_zstd *z, const void *in, size_t n, perf_zstd_fn fn, void *ctx);

#endif
