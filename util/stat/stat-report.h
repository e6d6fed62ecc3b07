/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `tperf stat report`: the counts of a stat record file (perf's or
 * tperf's) printed as the run printed them, through stat-display: the
 * events from the attrs (names from EVENT_DESC, or EVENT_UPDATE in pipe
 * mode; units and scales from EVENT_UPDATE), the CPUs and threads from
 * CPU_MAP and THREAD_MAP, the aggregation, scaling and interval from
 * STAT_CONFIG, the counts from the STAT records; each STAT_ROUND prints
 * (an interval's change since the previous round, or the final counts
 * with the elapsed time).
 */
#ifndef TPERF_STAT_REPORT_H
#define TPERF_STAT_REPORT_H

#include <stdbool.h>

#include "util/lib/debug.h"
#include "util/stat/stat.h"

struct stat_report {
	const char *path;		/* the file, "-" for stdin */
	struct perf_stat_config *config;	/* the output's form (-x, -j, -B) */
	bool aggr_given;		/* config->aggr_mode was asked for: it wins
					 * over the file's (CPU counts only) */
	say_fn *say;			/* warnings, or NULL */
	char msg[1024];			/* the error when stat_report__run() fails */
};

/**
 * stat_report__run - read @rep->path and print its rounds
 * @rep: the report
 *
 * Return: 0, or -errno with @rep->msg (what came before was printed).
 */
int stat_report__run(struct stat_report *rep);

#endif
