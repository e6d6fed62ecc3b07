/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat -M: the metrics asked for (names or groups of the metric table),
 * their events added to the evlist as perf forms them (one weak group
 * `{a,b}:W` per metric, none with --metric-no-group or a
 * NO_GROUP_EVENTS constraint; a metric whose events are all counted for an
 * earlier one shares them unless --metric-no-merge), and their values per
 * output row.
 */
#ifndef TPERF_METRICGROUP_H
#define TPERF_METRICGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/stat/metric-expr.h"
#include "util/stat/metric-table.h"
#include "util/stat/stat.h"

struct evlist;
struct evsel;

/* A metric referenced by another one's expression, computed for it. */
struct metric_ref {
	const char *name;		/* the table's */
	struct metric_expr *expr;
};

struct metric_list;

struct metric {
	const struct pmu_metric *pm;
	struct metric_expr *expr;
	struct metric_ref *refs;
	int nr_refs;
	char **ids;			/* the events, in the order perf forms them */
	int nr_ids;
	struct evsel **evsels;		/* the event counted for each id */
	bool has_duration;		/* duration_time: the elapsed seconds, not an event */
	bool group;			/* its events in a weak group */
	const struct metric *shares;	/* the earlier metric whose events it uses, or NULL */
	double scale;			/* ScaleUnit: the factor ... */
	char unit[64];			/* ... and the unit ("%"), "" without ScaleUnit */
	char *events;			/* its group's event string, NULL: shared or ungrouped */
	const struct metric_list *list;	/* its list (the literals) */
};

struct metric_list {
	struct metric_table *table;
	double literals[5];		/* #smt_on, #num_cpus, #num_cores, #num_dies, #num_packages */
	int literals_err;		/* 0, or why the topology could not be read */
	struct metric *metrics;		/* in the order perf prints them */
	char *ungrouped_events;		/* the events of the metrics without a group */
	int nr;
};

/*
 * The metrics of @names (a comma list of metric or group names) from
 * @table into @list, their events parsed into @evlist.  0, or -ENOENT with
 * perf's "Cannot find metric or group `NAME'" in @msg, -EINVAL (a bad
 * expression, an event that does not parse) or -ENOMEM with @msg.
 */
int metricgroup__parse(struct metric_list *list, struct metric_table *table, const char *names,
		       bool no_group, bool no_merge, struct evlist *evlist, char *msg, size_t size);
void metricgroup__exit(struct metric_list *list);

/* What a row is computed from: the counts of one output row (aggregation id). */
struct metric_ctx {
	const struct perf_stat_config *config;
	const struct aggr_id *id;
	double duration;		/* seconds of the run or the interval */
};

/*
 * The value of @m in the row of @ctx, ScaleUnit applied.  0 with *@val, or
 * -ENODATA (an event not counted in that row), -EINVAL.
 */
int metric__value(const struct metric *m, const struct metric_ctx *ctx, double *val);
/* The event @m is printed beside: the first of its events. */
struct evsel *metric__leader(const struct metric *m);
/* "NAME", or with a ScaleUnit "UNIT  NAME" as perf's # column says it. */
void metric__label(const struct metric *m, char *buf, size_t size);
/* perf's literals: #smt_on, #num_cpus, #num_cores, #num_dies, #num_packages.  0 or -ENOENT. */
int metric__literal(const char *name, double *val);

#endif
