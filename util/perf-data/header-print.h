/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.data header information as text: the "# ========" block perf 6.1's
 * `report --header` and `--header-only` print (header-print.c).
 */
#ifndef TPERF_HEADER_PRINT_H
#define TPERF_HEADER_PRINT_H

#include <stdio.h>
#include <time.h>

#include "util/perf-data/header.h"

/**
 * perf_header__fprintf - "# ========", "# captured on" (@mtime, when not 0),
 * the header's offsets, each feature section present (read from @fd) and
 * "# missing features: ..."; in pipe mode only the zero offsets (the
 * features come as records: perf_header__fprintf_feature())
 * Return: 0 or -EIO.
 */
int perf_header__fprintf(FILE *fp, struct perf_header *h, int fd, time_t mtime);

/**
 * perf_header__fprintf_feature - the lines of feature @feat, from its raw
 * section @buf of @size bytes (and what @h kept of it)
 */
void perf_header__fprintf_feature(FILE *fp, struct perf_header *h, int feat, const void *buf,
				  size_t size);

#endif
