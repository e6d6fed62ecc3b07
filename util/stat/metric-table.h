/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metric tables in the layout of perf's tools/perf/pmu-events/arch: a
 * folder per architecture (x86/) with a mapfile.csv whose rows map a CPUID
 * regular expression to a model folder ("GenuineIntel-6-55-[01234],v1,
 * skylakex,core"), and in that folder JSON files, each an array of objects;
 * the objects with a "MetricName" are metrics (MetricExpr, MetricGroup,
 * ScaleUnit, BriefDescription, MetricConstraint).  The tree is found
 * through $TPERF_PMU_EVENTS (the arch folder, or one architecture's
 * folder), the CPUID from the machine or $PERF_CPUID, as perf reads it.
 */
#ifndef TPERF_METRIC_TABLE_H
#define TPERF_METRIC_TABLE_H

#include <stddef.h>

struct pmu_metric {
	char *name;		/* MetricName */
	char *expr;		/* MetricExpr */
	char *groups;		/* MetricGroup: "A;B", or NULL */
	char *scale_unit;	/* ScaleUnit: "100%", "1GHz", or NULL */
	char *desc;		/* BriefDescription, or NULL */
	char *constraint;	/* MetricConstraint, or NULL */
};

struct metric_table {
	char *cpuid;		/* the CPUID it was chosen for */
	char *dir;		/* the model folder */
	struct pmu_metric *metrics;
	int nr;
};

/*
 * The table of this CPU: 0 with *@res, or 0 with *@res NULL and why in
 * @msg (no tree named, no row of mapfile.csv for the CPUID); -errno with
 * @msg for a tree that cannot be read (a file named, a JSON error ...).
 */
int metric_table__load(struct metric_table **res, char *msg, size_t size);
/* The CPUID the table is chosen by: $PERF_CPUID, else the machine's ("GenuineIntel-6-55-4"). */
int metric_table__cpuid(char *buf, size_t size);
/* An empty table, for metric_table__add_json(); NULL when out of memory. */
struct metric_table *metric_table__new(void);
/*
 * Add the metrics of one JSON file's text (an array of objects).  0,
 * -EINVAL with "what" in @msg, or -ENOMEM.
 */
int metric_table__add_json(struct metric_table *table, const char *text, size_t len, char *msg,
			   size_t size);
void metric_table__delete(struct metric_table *table);
/* The metric named @name (case-insensitive, as perf), or NULL. */
const struct pmu_metric *metric_table__find(const struct metric_table *table, const char *name);
/* True when @m is in group @group (one of MetricGroup's ';'-separated names, case-insensitive). */
int pmu_metric__in_group(const struct pmu_metric *m, const char *group);

#endif
