/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running `tperf stat`: configure the attrs as perf stat does, open, start
 * the workload, wait (printing intervals), read, aggregate, print; -r runs.
 */
#ifndef TPERF_STAT_RUN_H
#define TPERF_STAT_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/stat/stat.h"

struct evlist;
struct evlist_ctl;
struct stat_record;
struct target;

struct stat_run {
	struct perf_stat_config *config;
	struct evlist *evlist;
	struct target *target;
	int argc;			/* the workload, argc 0: none */
	const char **argv;
	int delay_ms;			/* -D: enable that late (-1: never) */
	bool dry_run;			/* configure and print attrs (-vv) only */
	struct stat_record *record;	/* stat record: the file written, or NULL */
	unsigned int timeout_ms;	/* --timeout: end each run after that long (0: none) */
	bool sync;			/* -S: sync() before each run */
	const char *pre_cmd, *post_cmd;	/* --pre, --post: sh -c before and after each run */
	struct evlist_ctl *ctl;		/* --control: commands read, "ack\n" written (NULL: none) */
	struct stat_run *baseline;	/* --compare-with: run before each of ours, run
					 * for run, with its own events and config
					 * (nothing of it printed), or NULL */
	/* results */
	int status;			/* the last workload's wait status, or -1 */
	int pre_status;			/* the last --pre's system() status (0: it succeeded) */
	int post_status;		/* the last failed --post's system() status */
	int nr_pre_failed, nr_post_failed;	/* runs whose --pre / --post failed */
	int signr;			/* SIGINT/SIGTERM that stopped us, 0 */
	int nr_unsupported_hw;		/* hardware events that could not open */
	bool filter_failed;		/* the kernel refused a --filter (perf exits 255) */
	char msg[1024];			/* the error when stat_run__run fails */
};

/* perf 6.1's default events for @target, comma-separated, in @buf. */
void perf_stat__default_events(const struct target *target, char *buf, size_t size);
/* The events of -d (@level 1), -dd (2) and -ddd (3), comma-separated, in @buf. */
void perf_stat__detailed_events(int level, char *buf, size_t size);
/*
 * Every run with its output.  0, or -errno with the message in r->msg
 * (nothing printed then).  A SIGINT/SIGTERM ends the runs early: what was
 * counted is printed and r->signr says which signal came.
 */
int stat_run__run(struct stat_run *r);

#endif
