/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample's data source (PERF_SAMPLE_DATA_SRC) as the text perf script
 * prints after it: "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 */
#ifndef TPERF_MEM_SRC_H
#define TPERF_MEM_SRC_H

#include <stddef.h>
#include <stdint.h>

/**
 * mem_src__scnprintf - @data_src decoded as perf 6.1 does for `script -F data_src`
 * @buf: receives the text (truncated to @size bytes, always terminated)
 * Return: the length written.
 */
size_t mem_src__scnprintf(char *buf, size_t size, uint64_t data_src);

#endif
