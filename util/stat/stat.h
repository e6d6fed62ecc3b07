/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counting-mode statistics (`tperf stat`): per-run and per-interval deltas
 * of each counter, scaled by time_enabled/time_running, aggregated per
 * thread, CPU, core, die, socket or globally, and averaged over -r runs
 * with Welford's running variance.  Printing is in stat-display.c.
 */
#ifndef TPERF_STAT_H
#define TPERF_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "util/event/evsel.h"

struct evlist;
struct metric_list;

/* Running mean and variance (Welford), min and max. */
struct stats {
	double n, mean, M2;
	uint64_t max, min;
};

void init_stats(struct stats *stats);
void update_stats(struct stats *stats, uint64_t val);
double avg_stats(const struct stats *stats);
/* Standard deviation of the mean (as perf shows it): sqrt(var / n). */
double stddev_stats(const struct stats *stats);
/* Standard deviation of the values (one run's spread): sqrt(M2 / (n - 1)). */
double sample_stddev_stats(const struct stats *stats);
/* 100 * stddev / avg, 0 when avg is 0. */
double rel_stddev_stats(double stddev, double avg);

enum aggr_mode {
	AGGR_GLOBAL,	/* one row per counter */
	AGGR_NONE,	/* -A: one row per CPU */
	AGGR_SOCKET,
	AGGR_DIE,
	AGGR_CORE,
	AGGR_THREAD,	/* --per-thread */
	AGGR_NODE,	/* --per-node: NUMA nodes */
};

/* Which row a CPU or thread belongs to; unused members are -1. */
struct aggr_id {
	int socket, die, core, cpu, thread, node;
};
#define AGGR_ID_NR 6	/* its members, compared in order as an array */

/* One output row of one counter. */
struct stat_aggr {
	struct aggr_id id;
	int nr;				/* CPUs (or threads) summed into it */
	struct counts_values sum;	/* this run or interval: raw sums */
	bool counted;			/* ran at least once (run > 0) */
	char comm[16];			/* --per-thread: the thread's name when opened */
	struct stats val, ena, run;	/* over runs: scaled value, times */
	struct stats rounds;		/* every scaled value, never reset (see
					 * perf_stat_config.metric_over_rounds) */
	double *run_vals;		/* -r: each run's scaled value (room for run_count) */
	int nr_run_vals;
};

/* What stat keeps per evsel (evsel->priv). */
struct evsel_stat {
	int nr_aggr;
	struct stat_aggr *aggr;
	int *fd_aggr;			/* [fd index] -> aggr index */
	int nr_fds;
	struct counts_values *prev;	/* last read, for interval deltas */
	double *run_vals;		/* -r: the rows' run_vals, run_count each */
	int run_cap;			/* run_count when the rows were made */
	struct evsel *merged_into;	/* shown in that event's rows (aliases of
					 * one name on several PMUs), or NULL */
	bool merges;			/* other events are shown in its rows */
	bool uniquified;		/* its name has its PMU's */
};

struct perf_stat_config {
	enum aggr_mode aggr_mode;
	bool scale;			/* scale by ena/run (--no-scale turns off) */
	bool csv_output, json_output;
	const char *csv_sep;		/* " " unless -x */
	bool big_num;
	bool null_run;
	bool ru_display;		/* print user/sys from the workload's rusage */
	int run_count;			/* -r; 1 by default */
	unsigned int interval;		/* -I milliseconds, 0: none */
	unsigned int interval_count;
	int unit_width;			/* widest unit, at least 4 */
	FILE *output;
	struct stats walltime_nsecs_stats;
	struct rusage ru_data;
	int num_print_interval;		/* interval header every 25 prints */
	bool metric_over_rounds;	/* stat report: a metric's base (task-clock of
					 * a rate) is the mean of every round so far,
					 * as perf's report never resets it */
	bool summary;			/* --summary: the totals after -I's intervals */
	bool no_csv_summary;		/* --no-csv-summary: no "summary" column in them */
	bool summary_rows;		/* printing the summary now (its CSV column) */
	bool interval_clear;		/* --interval-clear: clear the screen each interval */
	bool walltime_run_table;	/* --table: each run's elapsed time */
	uint64_t *walltime_run;		/* --table: each run's elapsed ns (run_count) */
	int nr_walltime_run;
	bool no_merge;			/* --no-merge: each PMU of an alias on its own row */
	bool hybrid_merge;		/* --hybrid-merge: cpu_core and cpu_atom as one */
	bool percore_show_thread;	/* --percore-show-thread: -A rows of a percore
					 * event are CPUs with their core's sum, not cores */
	bool aliases_merged;		/* perf_stat__merge_aliases() was done */
	const struct metric_list *metrics;	/* -M: the metrics, NULL: none */
	bool metric_only;		/* --metric-only: a column per metric, no counts */
	int metric_only_header;		/* --metric-only -I: rows since the heading */
	double interval_prev;		/* -I: seconds at the last interval printed */
	double interval_len;		/* -I: seconds of the interval being printed */
};

/* Defaults: global aggregation, scaling on, big numbers, stderr. */
void perf_stat_config__init(struct perf_stat_config *config);

/*
 * Give each evsel its evsel_stat and the clock events their unit ("msec",
 * scale 1e-6); compute config->unit_width.  0 or -ENOMEM.
 */
int perf_stat__init_evlist(struct perf_stat_config *config, struct evlist *evlist);
/* Free what perf_stat__init_evlist() allocated. */
void perf_stat__exit_evlist(struct evlist *evlist);

/*
 * Build the rows of @evsel for its open cpus/threads (call after each open:
 * the maps may differ between runs).  0 or -ENOMEM.
 */
int perf_stat__setup_aggr(struct perf_stat_config *config, struct evsel *evsel);
/*
 * Sum evsel->counts (or its delta since the last call when @delta) into the
 * rows, scale by ena/run and add the values to the running statistics.  The
 * statistics are reset first when @reset (each interval).
 */
void perf_stat__process_counts(struct perf_stat_config *config, struct evsel *evsel,
			       bool delta, bool reset);
/* The row's value scaled by ena/run (not by evsel->scale): mean over runs. */
double stat_aggr__value(const struct stat_aggr *a);
/* The value of @a as a metric's base: stat_aggr__value(), or see metric_over_rounds. */
double stat_aggr__base_value(const struct perf_stat_config *config, const struct stat_aggr *a);
/* True for task-clock and cpu-clock (values in nanoseconds). */
bool evsel__is_clock(const struct evsel *evsel);
/* evsel->priv as an evsel_stat. */
static inline struct evsel_stat *evsel__stat(const struct evsel *evsel)
{
	return evsel->priv;
}
/*
 * Decide, once, which events show as one (perf 6.1's rules): events of the
 * same name, scale, unit and cgroup on different PMUs, made from one name
 * (auto_merge_stats) or, with --hybrid-merge, hybrid core PMUs; without
 * merging, an event of a PMU gets the PMU in its name ("x [pmu]",
 * "pmu/x/"), with --no-merge always, on hybrid core PMUs by default.
 */
void perf_stat__merge_aliases(struct perf_stat_config *config, struct evlist *evlist);
/*
 * Row @id of @evsel summed with that row of the events shown in it (@vals:
 * room for @nr_vals runs' values, or NULL); false when none has the row.
 */
bool stat_aggr__merged(struct evlist *evlist, const struct evsel *evsel,
		       const struct aggr_id *id, struct stat_aggr *out, double *vals, int nr_vals);
/* The sorted ids of the rows of @evsel and of those shown in it: n or -ENOMEM. */
int stat_aggr__merged_ids(struct evlist *evlist, const struct evsel *evsel, struct aggr_id **ids);
/* Same row of another counter: equal ids. */
bool aggr_id__equal(const struct aggr_id *a, const struct aggr_id *b);

#endif
