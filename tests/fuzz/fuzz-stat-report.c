// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: tperf stat report (util/stat/stat-report.c) over a
 * stat record file: the STAT_CONFIG, STAT, STAT_ROUND, THREAD_MAP, CPU_MAP
 * and EVENT_UPDATE parsers (util/perf-data/stat-event.c), the events made
 * from the header, the counts put by CPU and thread index, and each
 * round's output (to /dev/null) in every form: std, CSV and JSON, with
 * the file's aggregation and per CPU.  The input is written to a memfd and
 * read through /proc/self/fd/N.  A failed report must say why.  Seeds:
 * tests/fuzz/corpus/stat-report/ (tperf's recordings in pipe and file mode).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "util/stat/stat-report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct perf_stat_config config;
	struct stat_report rep = { 0 };
	char path[64];
	int fd;

	if (!null)
		null = fopen("/dev/null", "w");
	fd = fuzz_input_file("fuzz-stat-report", data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	perf_stat_config__init(&config);
	config.output = null;
	/* the last byte picks the form, so that each seed reaches all of them */
	switch (size ? data[size - 1] % 4 : 0) {
	case 1:
		config.csv_output = true;
		config.csv_sep = ",";
		break;
	case 2:
		config.json_output = true;
		break;
	case 3:
		config.aggr_mode = AGGR_NONE;
		rep.aggr_given = true;
		break;
	}
	rep.path = path;
	rep.config = &config;
	if (stat_report__run(&rep) && !rep.msg[0])
		abort();	/* an error says what it is */
	close(fd);
	return 0;
}
