/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `tperf stat record`: the counting run written as a perf.data file, as
 * perf 6.1's perf stat record writes it.  File mode: the header with the
 * attrs and their ids, then EVENT_UPDATE (units, scales), THREAD_MAP,
 * CPU_MAP, STAT_CONFIG; a STAT per counter, CPU and thread at each read
 * (CPU by CPU, the raw values: intervals are cumulative), a STAT_ROUND
 * after each interval's, the kernel map, a final STAT_ROUND (not with
 * -I), then the feature sections of a stat file (STAT among them).  Pipe
 * mode (path "-"): HEADER_ATTR records, the names as EVENT_UPDATEs, no
 * feature records, as perf.
 */
#ifndef TPERF_STAT_RECORD_H
#define TPERF_STAT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "util/perf-data/data.h"
#include "util/perf-data/header.h"

struct evlist;
struct perf_stat_config;

struct stat_record {
	const char *path;		/* the output, "-" for stdout (pipe mode) */
	int argc;			/* the command line for CMDLINE (tperf's */
	const char **argv;		/* arguments; the binary's path goes first) */
	/* internal */
	struct perf_data data;
	struct perf_header hdr;
	bool open;
	int err;			/* the first write error, -errno */
	char msg[512];			/* its text */
};

/**
 * stat_record__start - create the file and write what precedes the counts
 * @rec: path, argc and argv set, the rest zero
 * @evlist: opened (ids known), with its maps
 * @config: aggregation mode, scaling and interval for STAT_CONFIG
 *
 * Return: 0 or -errno with @rec->msg set (nothing left open).
 */
int stat_record__start(struct stat_record *rec, struct evlist *evlist,
		       const struct perf_stat_config *config);

/**
 * stat_record__write_counts - a STAT for each open fd of @evlist, from its
 * last read (evsel->counts), CPU by CPU as perf reads them
 *
 * Return: 0 or -errno (also kept in @rec->err with @rec->msg).
 */
int stat_record__write_counts(struct stat_record *rec, struct evlist *evlist);

/**
 * stat_record__write_round - a STAT_ROUND of @type at @time ns from the start
 * Return: 0 or -errno (also kept in @rec->err with @rec->msg).
 */
int stat_record__write_round(struct stat_record *rec, uint64_t type, uint64_t time);

/**
 * stat_record__finish - the kernel map, the final STAT_ROUND at @walltime
 * ns (@final false: none, as perf with -I), the features; the file is closed
 *
 * Return: 0, or -errno with @rec->msg (an earlier write error first).
 */
int stat_record__finish(struct stat_record *rec, bool final, uint64_t walltime);

/* Close what stat_record__start() opened, without finishing the file. */
void stat_record__abort(struct stat_record *rec);

#endif
