// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `tperf stat` output: the std table, CSV and JSON, in the field order and
 * widths Linux perf 6.1 uses so that scripts written for it keep working.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/config.h"
#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/lib/json.h"
#include "util/stat/metricgroup.h"
#include "util/stat/stat-display.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"

/*
 * The shadow metric of row @row of @evsel: fills *@fmt ("%8.3f"; NULL
 * when there is no value), *@unit ("CPUs utilized"; NULL: no metric at
 * all) and returns the value.
 */
static double perf_stat__metric(struct perf_stat_config *config, struct evlist *evlist,
				struct evsel *evsel, const struct stat_aggr *row,
				const char **fmt, const char **unit, char *unit_buf, size_t size);

#define METRIC_LEN 35	/* " #    0.581 CPUs utilized          " */
#define NSEC_PER_SEC 1000000000.0

/**
 * perf_stat__print_header - the " Performance counter stats for" line
 * @config: output and format (nothing for CSV, JSON and -I)
 * @target: what was counted
 * @argc: the workload's argument count (0: none)
 * @argv: the workload
 */
void perf_stat__print_header(struct perf_stat_config *config, const struct target *target,
			     int argc, const char **argv)
{
	FILE *out = config->output;

	if (config->csv_output || config->json_output ||
	    (config->interval && !config->summary_rows))
		return;
	fflush(stdout);
	fprintf(out, "\n Performance counter stats for ");
	if (target->system_wide) {
		fprintf(out, "'system wide");
	} else if (target->cpu_list) {
		fprintf(out, "'CPU(s) %s", target->cpu_list);
	} else if (target->pid) {
		fprintf(out, "process id '%s", target->pid);
	} else if (target->tid) {
		fprintf(out, "thread id '%s", target->tid);
	} else {
		fprintf(out, "'%s", argc > 0 ? argv[0] : "");
		for (int i = 1; i < argc; i++)
			fprintf(out, " %s", argv[i]);
	}
	fprintf(out, "'");
	if (config->run_count > 1)
		fprintf(out, " (%d runs)", config->run_count);
	fprintf(out, ":\n\n");
}

/* Same cgroup (or none for both): a metric's base is counted where its event is. */
static bool same_cgroup(const struct evsel *a, const struct evsel *b)
{
	if (!a->cgroup_name || !b->cgroup_name)
		return a->cgroup_name == b->cgroup_name;
	return !strcmp(a->cgroup_name, b->cgroup_name);
}

/* The first counter of @evsel's cgroup matching @pred with a counted row equal to @id. */
static const struct stat_aggr *find_row(struct evlist *evlist, const struct evsel *evsel,
					const struct aggr_id *id, bool (*pred)(const struct evsel *))
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		struct evsel_stat *es = evsel__stat(e);

		if (!es || !pred(e) || !same_cgroup(e, evsel))
			continue;
		for (int i = 0; i < es->nr_aggr; i++)
			if (es->aggr[i].counted && aggr_id__equal(&es->aggr[i].id, id) &&
			    stat_aggr__value(&es->aggr[i]) > 0)
				return &es->aggr[i];
	}
	return NULL;
}

static bool is_hw(const struct evsel *e, uint64_t config)
{
	return e->attr.type == PERF_TYPE_HARDWARE && e->attr.config == config;
}

static bool is_cycles(const struct evsel *e) { return is_hw(e, PERF_COUNT_HW_CPU_CYCLES); }
static bool is_branches(const struct evsel *e) { return is_hw(e, PERF_COUNT_HW_BRANCH_INSTRUCTIONS); }
static bool is_cache_refs(const struct evsel *e) { return is_hw(e, PERF_COUNT_HW_CACHE_REFERENCES); }
static bool is_clock(const struct evsel *e) { return evsel__is_clock(e); }

/* A rate per second of task time, with K/M/G as perf shows it. */
static double rate_metric(double val, double nsecs, char *unit_buf, size_t size)
{
	double ratio = nsecs ? NSEC_PER_SEC * val / nsecs : 0;
	const char *prefix = "";

	if (ratio >= 1e9) {
		ratio /= 1e9;
		prefix = "G";
	} else if (ratio >= 1e6) {
		ratio /= 1e6;
		prefix = "M";
	} else if (ratio >= 1e3) {
		ratio /= 1e3;
		prefix = "K";
	}
	snprintf(unit_buf, size, "%s/sec", prefix);
	return ratio;
}

/* cycles, instructions, branch-misses, cache-misses: a ratio to a base event. */
static bool hw_metric(const struct perf_stat_config *config, struct evlist *evlist,
		      struct evsel *evsel, const struct stat_aggr *row,
		      double *res, const char **fmt, const char **unit)
{
	const struct stat_aggr *base = NULL;
	double val = stat_aggr__value(row);
	double mult = 100.0;

	if (is_cycles(evsel)) {
		base = find_row(evlist, evsel, &row->id, is_clock);
		*fmt = "%8.3f";
		*unit = base ? "GHz" : "Ghz";
		mult = 1.0;
	} else if (is_hw(evsel, PERF_COUNT_HW_INSTRUCTIONS)) {
		base = find_row(evlist, evsel, &row->id, is_cycles);
		*fmt = "%7.2f ";
		*unit = "insn per cycle";
		mult = 1.0;
	} else if (is_hw(evsel, PERF_COUNT_HW_BRANCH_MISSES)) {
		base = find_row(evlist, evsel, &row->id, is_branches);
		*fmt = "%7.2f%%";
		*unit = "of all branches";
	} else if (is_hw(evsel, PERF_COUNT_HW_CACHE_MISSES)) {
		base = find_row(evlist, evsel, &row->id, is_cache_refs);
		*fmt = "%7.2f%%";
		*unit = "of all cache refs";
	} else {
		return false;
	}
	if (!base) {
		*fmt = NULL;
		return true;
	}
	*res = mult * val / stat_aggr__base_value(config, base);
	return true;
}

/**
 * perf_stat__metric - the shadow metric of one row
 * @config: the walltime and the interval
 * @evlist: the other events (the base of a ratio)
 * @evsel: the event of the row
 * @row: the row
 * @fmt: the printf format of the value, NULL when there is none
 * @unit: the unit, NULL when there is no metric
 * @unit_buf: room for a rate's unit ("K/sec")
 * @size: its size
 *
 * Return: the metric's value.
 */
static double perf_stat__metric(struct perf_stat_config *config, struct evlist *evlist,
				struct evsel *evsel, const struct stat_aggr *row,
				const char **fmt, const char **unit, char *unit_buf, size_t size)
{
	double val = stat_aggr__value(row), res = 0;
	const struct stat_aggr *clock;

	*fmt = NULL;
	*unit = NULL;
	if (evsel__is_clock(evsel)) {
		double wall = avg_stats(&config->walltime_nsecs_stats);

		/* no elapsed time (stat report's intervals): perf names the unit, no value */
		*fmt = wall ? "%8.3f" : NULL;
		*unit = "CPUs utilized";
		return wall ? val / wall : 0;
	}
	if (hw_metric(config, evlist, evsel, row, &res, fmt, unit))
		return res;
	if (config->interval && !config->summary_rows && evsel->unit &&
	    !strcmp(evsel->unit, "Joules")) {
		*fmt = "%8.2f";
		*unit = "W";
		return val * evsel->scale * 1000.0 / config->interval;
	}
	clock = find_row(evlist, evsel, &row->id, is_clock);
	if (!clock)
		return 0;
	*fmt = "%8.3f";
	*unit = unit_buf;
	return rate_metric(val * evsel->scale, stat_aggr__base_value(config, clock), unit_buf,
			   size);
}

/* "key" : "value" and @sep, with the value escaped (names come from anywhere). */
static void json_str(FILE *out, const char *key, const char *val, const char *sep)
{
	fprintf(out, "\"%s\" : ", key);
	json__fprint_string(out, val);
	fputs(sep, out);
}

static void print_aggr_prefix(struct perf_stat_config *config, struct evsel *evsel,
			      const struct stat_aggr *row)
{
	const struct aggr_id *id = &row->id;
	bool csv = config->csv_output, json = config->json_output;
	const char *sep = config->csv_sep;
	FILE *out = config->output;
	struct thread_map *threads;
	int nr = evsel->supported ? row->nr : 1;

	switch (config->aggr_mode) {
	case AGGR_CORE:
		if (json)
			fprintf(out, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ",
				id->socket, id->die, id->core, nr);
		else
			fprintf(out, "S%d-D%d-C%*d%s%*d%s", id->socket, id->die, csv ? 0 : -8,
				id->core, sep, csv ? 0 : 4, nr, sep);
		break;
	case AGGR_DIE:
		if (json)
			fprintf(out, "\"die\" : \"S%d-D%d\", \"aggregate-number\" : %d, ",
				id->socket, id->die, nr);
		else
			fprintf(out, "S%d-D%*d%s%*d%s", id->socket, csv ? 0 : -8, id->die, sep,
				csv ? 0 : 4, nr, sep);
		break;
	case AGGR_SOCKET:
		if (json)
			fprintf(out, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ",
				id->socket, nr);
		else
			fprintf(out, "S%*d%s%*d%s", csv ? 0 : -5, id->socket, sep, csv ? 0 : 4,
				nr, sep);
		break;
	case AGGR_NODE:
		if (json)
			fprintf(out, "\"node\" : \"N%d\", \"aggregate-number\" : %d, ", id->node, nr);
		else
			fprintf(out, "N%*d%s%*d%s", csv ? 0 : -5, id->node, sep, csv ? 0 : 4, nr, sep);
		break;
	case AGGR_NONE:
		if (id->cpu < 0 && id->core >= 0) {
			/* a percore event's core (perf's JSON lacks the ", " after it) */
			if (json)
				fprintf(out, "\"core\" : \"S%d-D%d-C%d\", ", id->socket, id->die,
					id->core);
			else
				fprintf(out, "S%d-D%d-C%*d%s", id->socket, id->die, csv ? 0 : -3,
					id->core, sep);
			break;
		}
		if (id->cpu < 0)
			break;
		if (json)
			fprintf(out, "\"cpu\" : \"%d\", ", id->cpu);
		else
			fprintf(out, "CPU%*d%s", csv ? 0 : -7, id->cpu, sep);
		break;
	case AGGR_THREAD:
		threads = evsel->threads ? evsel->threads : evsel->evlist->threads;
		if (!threads || id->thread < 0 || id->thread >= threads->nr)
			break;
		if (json) {
			char key[sizeof(row->comm) + 16];

			snprintf(key, sizeof(key), "%s-%d", row->comm, threads->map[id->thread]);
			json_str(out, "thread", key, ", ");
		} else
			fprintf(out, "%*s-%*d%s", csv ? 0 : 16, row->comm, csv ? 0 : -8,
				threads->map[id->thread], sep);
		break;
	case AGGR_GLOBAL:
		break;
	}
}

static void print_prefix(struct perf_stat_config *config, struct evsel *evsel,
			 const struct stat_aggr *row, const struct timespec *ts)
{
	FILE *out = config->output;

	if (ts && config->json_output)
		fprintf(out, "{\"interval\" : %lu.%09lu, ", (unsigned long)ts->tv_sec,
			(unsigned long)ts->tv_nsec);
	else if (ts)
		fprintf(out, "%6lu.%09lu%s", (unsigned long)ts->tv_sec,
			(unsigned long)ts->tv_nsec, config->csv_sep);
	else if (config->json_output)
		fprintf(out, "{");
	else if (config->summary_rows && config->csv_output && !config->no_csv_summary)
		fprintf(out, "%16s%s", "summary", config->csv_sep);
	print_aggr_prefix(config, evsel, row);
}

static double row_noise(const struct stat_aggr *row)
{
	return rel_stddev_stats(stddev_stats(&row->val), avg_stats(&row->val));
}

static void print_noise_running(struct perf_stat_config *config, const struct stat_aggr *row)
{
	uint64_t run = avg_stats(&row->run), ena = avg_stats(&row->ena);
	double pct = config->run_count > 1 ? row_noise(row) : 0;
	FILE *out = config->output;

	if (config->json_output) {
		if (config->run_count > 1)
			fprintf(out, "\"variance\" : %.2f, ", pct);
		/* perf computes this percentage in integers */
		fprintf(out, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", run,
			run != ena ? (double)(100 * run / ena) : 100.0);
		return;
	}
	if (config->csv_output) {
		if (config->run_count > 1)
			fprintf(out, "%s%.2f%%", config->csv_sep, pct);
		fprintf(out, "%s%" PRIu64 "%s%.2f", config->csv_sep, run, config->csv_sep,
			run != ena ? (double)(100 * run / ena) : 100.0);
		return;
	}
	if (pct)
		fprintf(out, "  ( +-%6.2f%% )", pct);
	if (run != ena)
		fprintf(out, "  (%.2f%%)", 100.0 * run / ena);
}

static void print_metric(struct perf_stat_config *config, const char *fmt, const char *unit,
			 double val)
{
	FILE *out = config->output;
	char vals[64], *v = vals;
	int n;

	if (config->json_output) {
		/* perf's JSON names a metric's unit even when it has no value */
		fprintf(out, "\"metric-value\" : %f, ", fmt && unit ? val : 0.0);
		json_str(out, "metric-unit", unit ? unit : "", "");
		return;
	}
	if (config->csv_output) {
		if (!fmt || !unit) {
			fprintf(out, "%s%s", config->csv_sep, config->csv_sep);
			return;
		}
		snprintf(vals, sizeof(vals), fmt, val);
		while (*v == ' ')
			v++;
		v[strcspn(v, " ")] = '\0';
		fprintf(out, "%s%s%s%s", config->csv_sep, v, config->csv_sep, unit);
		return;
	}
	if (!fmt || !unit) {
		fprintf(out, "%-*s", METRIC_LEN, "");
		return;
	}
	n = fprintf(out, " # ");
	n += fprintf(out, fmt, val);
	fprintf(out, " %-*s", METRIC_LEN - n - 1, unit);
}

/*
 * -G, --for-each-cgroup: the cgroup after the event (JSON: "cgroup"), as
 * perf; once any event has one, an event without shows an empty one.
 */
static void print_cgroup(struct perf_stat_config *config, struct evsel *evsel)
{
	const char *name = evsel->cgroup_name;
	struct evsel *e;

	if (!name && evsel->evlist) {
		evlist__for_each_entry(evsel->evlist, e)
			if (e->cgroup_name)
				name = "";
	}
	if (!name)
		return;
	if (config->json_output)
		json_str(config->output, "cgroup", name, ", ");
	else
		fprintf(config->output, "%s%s", config->csv_sep, name);
}

static void print_uncounted(struct perf_stat_config *config, struct evsel *evsel,
			    const struct stat_aggr *row)
{
	const char *what = evsel->supported ? "<not counted>" : "<not supported>";
	const char *unit = evsel->unit ? evsel->unit : "";
	FILE *out = config->output;

	if (config->json_output) {
		fprintf(out, "\"counter-value\" : \"%s\", ", what);
		json_str(out, "unit", unit, ", ");
		json_str(out, "event", evsel__name(evsel), ", ");
		print_cgroup(config, evsel);
	} else if (config->csv_output) {
		fprintf(out, "%s%s%s%s%s", what, config->csv_sep, unit, config->csv_sep,
			evsel__name(evsel));
		print_cgroup(config, evsel);
	} else {
		fprintf(out, "%18s%s%-*s%s%-25s", what, config->csv_sep, config->unit_width,
			unit, config->csv_sep, evsel__name(evsel));
		print_cgroup(config, evsel);
		print_metric(config, NULL, NULL, 0);
	}
	print_noise_running(config, row);
	if (config->json_output || config->csv_output)
		print_metric(config, NULL, NULL, 0);
}

static void print_value(struct perf_stat_config *config, struct evsel *evsel, double avg)
{
	const char *unit = evsel->unit ? evsel->unit : "";
	bool frac = floor(evsel->scale) != evsel->scale;
	FILE *out = config->output;

	if (config->json_output) {
		fprintf(out, "\"counter-value\" : \"%f\", ", avg);
		json_str(out, "unit", unit, ", ");
		json_str(out, "event", evsel__name(evsel), ", ");
		print_cgroup(config, evsel);
		return;
	}
	if (config->csv_output)
		fprintf(out, frac ? "%.2f" : "%.0f", avg);
	else if (config->big_num)
		fprintf(out, frac ? "%'18.2f" : "%'18.0f", avg);
	else
		fprintf(out, frac ? "%18.2f" : "%18.0f", avg);
	fprintf(out, "%s%-*s%s%-*s", config->csv_sep, config->csv_output ? 0 : config->unit_width,
		unit, config->csv_sep, config->csv_output ? 0 : 32, evsel__name(evsel));
	print_cgroup(config, evsel);
}

/*
 * tperf's keys after perf's in a -j -r row, for `stat diff` and other
 * readers: the runs, the mean (not truncated) and the standard deviation of
 * one run, in the unit of "counter-value", and each run's value.
 */
static void print_json_runs(struct perf_stat_config *config, struct evsel *evsel,
			    const struct stat_aggr *row)
{
	FILE *out = config->output;

	fprintf(out, ", \"runs\" : %.0f, \"mean\" : ", row->val.n);
	json__fprint_number(out, avg_stats(&row->val) * evsel->scale);
	fprintf(out, ", \"stddev\" : ");
	json__fprint_number(out, sample_stddev_stats(&row->val) * evsel->scale);
	fprintf(out, ", \"values\" : [");
	for (int i = 0; i < row->nr_run_vals; i++) {
		if (i)
			fprintf(out, ", ");
		json__fprint_number(out, row->run_vals[i] * evsel->scale);
	}
	fprintf(out, "]");
}

/* The seconds -M's duration_time stands for: the interval's, or the run's. */
static double metric_duration(const struct perf_stat_config *config, const struct timespec *ts)
{
	if (ts)
		return config->interval_len;
	return avg_stats(&config->walltime_nsecs_stats) / NSEC_PER_SEC;
}

/*
 * The value of metric @m in the row @id: its printf format (NULL when it
 * has none: an event not counted, a division by zero) and its label.
 */
static const char *metric_value(const struct perf_stat_config *config, const struct metric *m,
				const struct aggr_id *id, const struct timespec *ts, double *val,
				char *label, size_t size)
{
	struct metric_ctx ctx = { .config = config, .id = id,
				  .duration = metric_duration(config, ts) };

	metric__label(m, label, size);
	if (metric__value(m, &ctx, val) || !isfinite(*val))
		return NULL;
	/* perf shows a metric with a ScaleUnit with one decimal, others with two */
	return m->pm->scale_unit ? "%8.1f" : "%8.2f";
}

/* One metric of -M on its own line after its event's row, as perf lays it out. */
static void print_metric_line(struct perf_stat_config *config, struct evsel *evsel,
			      const struct stat_aggr *row, const struct timespec *ts,
			      const struct metric *m)
{
	FILE *out = config->output;
	const char *fmt;
	char label[192];
	double val = 0;

	fmt = metric_value(config, m, &row->id, ts, &val, label, sizeof(label));
	fputs(config->json_output ? "}\n" : "\n", out);
	print_prefix(config, evsel, row, ts);
	if (config->csv_output) {
		fprintf(out, "%s%s%s", config->csv_sep, config->csv_sep, config->csv_sep);
		/* perf's a row's metric one field further with -A, two per core, die ... */
		if (config->aggr_mode == AGGR_NONE && row->id.cpu >= 0)
			fputs(config->csv_sep, out);
		else if (config->aggr_mode != AGGR_GLOBAL && config->aggr_mode != AGGR_NONE &&
			 config->aggr_mode != AGGR_THREAD)
			fprintf(out, "%s%s", config->csv_sep, config->csv_sep);
	} else if (!config->json_output) {
		/* perf indents a -A row's metric 8 columns further */
		fprintf(out, "%*s", config->aggr_mode == AGGR_NONE && row->id.cpu >= 0 ? 57 : 49, "");
	}
	print_metric(config, fmt, label, val);
}

/* The metrics whose first event is @evsel: the one attached last first, as perf. */
static void print_metric_lines(struct perf_stat_config *config, struct evsel *evsel,
			       const struct stat_aggr *row, const struct timespec *ts)
{
	const struct metric_list *ml = config->metrics;

	for (int i = ml ? ml->nr - 1 : -1; i >= 0; i--)
		if (metric__leader(&ml->metrics[i]) == evsel)
			print_metric_line(config, evsel, row, ts, &ml->metrics[i]);
}

static void print_row(struct perf_stat_config *config, struct evlist *evlist,
		      struct evsel *evsel, const struct stat_aggr *row, const struct timespec *ts)
{
	const char *fmt, *unit;
	char unit_buf[16];
	double metric;

	print_prefix(config, evsel, row, ts);
	if (!row->counted) {
		print_uncounted(config, evsel, row);
	} else {
		metric = perf_stat__metric(config, evlist, evsel, row, &fmt, &unit, unit_buf,
					   sizeof(unit_buf));
		/* perf prints the mean of -r runs as a whole count (truncated) */
		print_value(config, evsel, trunc(stat_aggr__value(row)) * evsel->scale);
		if (!config->csv_output && !config->json_output) {
			print_metric(config, fmt, unit, metric);
			print_metric_lines(config, evsel, row, ts);
		}
		print_noise_running(config, row);
		if (config->csv_output || config->json_output)
			print_metric(config, fmt, unit, metric);
		if (config->json_output && !ts && config->run_count > 1)
			print_json_runs(config, evsel, row);
		if (config->csv_output || config->json_output)
			print_metric_lines(config, evsel, row, ts);
	}
	fprintf(config->output, config->json_output ? "}\n" : "\n");
}

/* Row @id of @evsel with the events shown in it (aliases on other PMUs). */
static void print_merged_row(struct perf_stat_config *config, struct evlist *evlist,
			     struct evsel *evsel, const struct aggr_id *id,
			     const struct timespec *ts)
{
	int nr = evsel__stat(evsel)->run_cap;
	double *vals = nr ? calloc(nr, sizeof(*vals)) : NULL;
	struct stat_aggr row;

	if (stat_aggr__merged(evlist, evsel, id, &row, vals, vals ? nr : 0))
		print_row(config, evlist, evsel, &row, ts);
	free(vals);
}

/* Every row of @evsel: its own, or with the events shown in it. */
static void print_event_rows(struct perf_stat_config *config, struct evlist *evlist,
			     struct evsel *evsel, const struct timespec *ts)
{
	struct evsel_stat *es = evsel__stat(evsel);
	struct aggr_id *ids;
	int n;

	if (!es || es->merged_into)	/* shown in that event's rows */
		return;
	if (!es->merges) {
		for (int i = 0; i < es->nr_aggr; i++)
			print_row(config, evlist, evsel, &es->aggr[i], ts);
		return;
	}
	n = stat_aggr__merged_ids(evlist, evsel, &ids);
	for (int i = 0; i < n; i++)
		print_merged_row(config, evlist, evsel, &ids[i], ts);
	if (n > 0)
		free(ids);
}

static void print_interval_header(struct perf_stat_config *config)
{
	/* perf's headings; the space before "counts" differs by mode */
	static const char *const heads[] = {
		[AGGR_GLOBAL] = "#           time             counts",
		[AGGR_NONE] = "#           time CPU                    counts",
		[AGGR_SOCKET] = "#           time socket cpus             counts",
		[AGGR_DIE] = "#           time die          cpus             counts",
		[AGGR_CORE] = "#           time core            cpus             counts",
		[AGGR_THREAD] = "#           time             comm-pid                  counts",
		[AGGR_NODE] = "#           time node   cpus             counts",
	};

	/* perf's --interval-clear: the screen cleared (on stdout), the heading every time */
	if (config->interval_clear) {
		fputs("\033[H\033[2J\n", stdout);
		fprintf(config->output, "%s %*s events\n", heads[config->aggr_mode],
			config->unit_width, "unit");
		return;
	}
	if (config->csv_output || config->json_output)
		return;
	if (config->num_print_interval == 0)
		fprintf(config->output, "%s %*s events\n", heads[config->aggr_mode],
			config->unit_width, "unit");
	if (++config->num_print_interval == 25)
		config->num_print_interval = 0;
}

static bool by_row_first(const struct perf_stat_config *config)
{
	return config->aggr_mode == AGGR_CORE || config->aggr_mode == AGGR_DIE ||
	       config->aggr_mode == AGGR_SOCKET || config->aggr_mode == AGGR_NODE;
}

static int id_cmp(const void *pa, const void *pb)
{
	const int *x = pa, *y = pb;

	for (int i = 0; i < AGGR_ID_NR; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Rows in order of aggregation id, each with every counter (--per-core ...). */
static void print_by_id(struct perf_stat_config *config, struct evlist *evlist,
			const struct timespec *ts)
{
	struct aggr_id *ids = NULL;
	struct evsel *evsel;
	int n = 0, cap = 0;

	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *es = evsel__stat(evsel);

		for (int i = 0; es && i < es->nr_aggr; i++) {
			if (n == cap) {
				struct aggr_id *t;

				cap = cap ? 2 * cap : 16;
				t = realloc(ids, cap * sizeof(*ids));
				if (!t)
					goto out;
				ids = t;
			}
			ids[n++] = es->aggr[i].id;
		}
	}
	if (n)
		qsort(ids, n, sizeof(*ids), id_cmp);
	for (int k = 0; k < n; k++) {
		if (k && aggr_id__equal(&ids[k], &ids[k - 1]))
			continue;
		evlist__for_each_entry(evlist, evsel) {
			struct evsel_stat *es = evsel__stat(evsel);

			if (es && es->merges)
				print_merged_row(config, evlist, evsel, &ids[k], ts);
			for (int i = 0; es && !es->merges && !es->merged_into && i < es->nr_aggr; i++)
				if (aggr_id__equal(&es->aggr[i].id, &ids[k]))
					print_row(config, evlist, evsel, &es->aggr[i], ts);
		}
	}
out:
	free(ids);
}

#define METRIC_ONLY_LEN 20

/* The metrics in the order of their columns: their events' order, then as print_metric_lines(). */
static int metric_only_order(const struct perf_stat_config *config, struct evlist *evlist,
			     const struct metric ***res)
{
	const struct metric_list *ml = config->metrics;
	const struct metric **order = calloc(ml ? ml->nr + 1 : 1, sizeof(*order));
	struct evsel *evsel;
	int n = 0;

	if (!order)
		return -ENOMEM;
	evlist__for_each_entry(evlist, evsel)
		for (int i = ml ? ml->nr - 1 : -1; i >= 0; i--)
			if (metric__leader(&ml->metrics[i]) == evsel)
				order[n++] = &ml->metrics[i];
	*res = order;
	return n;
}


/* --metric-only's heading: the aggregation's columns and each metric's label. */
static void print_metric_only_header(struct perf_stat_config *config,
				     const struct metric **order, int n, const struct timespec *ts)
{
	/* perf's widths and CSV names of the aggregation columns */
	static const int lens[] = {
		[AGGR_GLOBAL] = 0, [AGGR_NONE] = 6, [AGGR_SOCKET] = 12, [AGGR_DIE] = 18,
		[AGGR_CORE] = 24, [AGGR_THREAD] = 24, [AGGR_NODE] = 6,
	};
	static const char *const csv[] = {
		[AGGR_GLOBAL] = "", [AGGR_NONE] = "cpu,", [AGGR_SOCKET] = "socket,cpus",
		[AGGR_DIE] = "die,cpus", [AGGR_CORE] = "core,cpus,", [AGGR_THREAD] = "comm-pid,",
		[AGGR_NODE] = "node,",
	};
	static const char *const iv[] = {
		[AGGR_GLOBAL] = "", [AGGR_NONE] = "CPU     ", [AGGR_SOCKET] = "socket cpus ",
		[AGGR_DIE] = "die          cpus ", [AGGR_CORE] = "core            cpus ",
		[AGGR_THREAD] = "            comm-pid ", [AGGR_NODE] = "node   cpus ",
	};
	FILE *out = config->output;
	char label[192];

	if (config->json_output)
		return;
	if (ts) {
		/* the heading again every 25 intervals, as the counters' */
		if (config->metric_only_header++ % 25)
			return;
	}
	if (config->csv_output) {
		if (ts)
			fprintf(out, " time%s", config->csv_sep);
		fputs(csv[config->aggr_mode], out);
	} else if (ts) {
		fprintf(out, "#           time %s", iv[config->aggr_mode]);
	} else {
		fprintf(out, "%*s", lens[config->aggr_mode], "");
	}
	for (int i = 0; i < n; i++) {
		metric__label(order[i], label, sizeof(label));
		if (config->csv_output)
			fprintf(out, "%s%s", label, config->csv_sep);
		else
			fprintf(out, "%*s ", METRIC_ONLY_LEN, label);
	}
	fputc('\n', out);
}

/* One row of --metric-only: the aggregation's columns, then each metric's value. */
static void print_metric_only_row(struct perf_stat_config *config, const struct metric **order,
				  int n, struct evsel *evsel, const struct stat_aggr *row,
				  const struct timespec *ts)
{
	FILE *out = config->output;
	char label[192], vals[64], *v;
	const char *fmt;
	double val;

	print_prefix(config, evsel, row, ts);
	for (int i = 0; i < n; i++) {
		fmt = metric_value(config, order[i], &row->id, ts, &val, label, sizeof(label));
		vals[0] = '\0';
		if (fmt)
			snprintf(vals, sizeof(vals), fmt, val);
		for (v = vals; *v == ' '; v++)
			;
		if (config->json_output) {
			json_str(out, label, v, i + 1 < n ? ", " : "");
		} else if (config->csv_output) {
			/* perf's CSV keeps the digits and dots only: a negative value is empty */
			v[strspn(v, "0123456789.")] = '\0';
			fprintf(out, "%s%s", v, config->csv_sep);
		} else {
			fprintf(out, "%*s ", METRIC_ONLY_LEN, v);
		}
	}
	fputs(config->json_output ? "}\n" : "\n", out);
}

/*
 * --metric-only: a column per metric, a line per row of the aggregation
 * (CPU, core ...), the rows of the first metric's event.
 */
static void print_metric_only(struct perf_stat_config *config, struct evlist *evlist,
			      const struct timespec *ts)
{
	const struct metric **order = NULL;
	struct evsel_stat *es;
	struct evsel *leader;
	int n = metric_only_order(config, evlist, &order);

	if (n < 0)
		return;
	print_metric_only_header(config, order, n, ts);
	leader = n ? metric__leader(order[0]) : NULL;
	es = leader ? evsel__stat(leader) : NULL;
	for (int i = 0; es && i < es->nr_aggr; i++)
		print_metric_only_row(config, order, n, leader, &es->aggr[i], ts);
	free(order);
}

/**
 * perf_stat__print_counters - every row of every event
 * @config: the output format and aggregation
 * @evlist: the events, processed
 * @ts: the time since the start for -I rows, or NULL
 */
void perf_stat__print_counters(struct perf_stat_config *config, struct evlist *evlist,
			       const struct timespec *ts)
{
	struct evsel *evsel;

	if (config->null_run)
		return;
	perf_stat__merge_aliases(config, evlist);
	if (ts) {
		/* duration_time of -M: this interval's length (the last one is shorter) */
		double now = ts->tv_sec + ts->tv_nsec / NSEC_PER_SEC;

		config->interval_len = now - config->interval_prev;
		config->interval_prev = now;
	}
	/* without -M's metrics, no column: only the heading, as perf here */
	if (config->metric_only) {
		print_metric_only(config, evlist, ts);
		return;
	}
	if (ts)
		print_interval_header(config);
	if (by_row_first(config)) {
		print_by_id(config, evlist, ts);
		return;
	}
	evlist__for_each_entry(evlist, evsel)
		print_event_rows(config, evlist, evsel, ts);
}

/**
 * perf_stat__json_text - the final counts as -j would print them
 * @config: the counts' configuration (its output and format are not used)
 * @evlist: the events, processed
 * @text: receives the JSON lines, malloc'ed
 * @len: their length
 *
 * For --compare, which reads them back as stat diff reads a file.
 *
 * Return: 0 or -ENOMEM.
 */
int perf_stat__json_text(const struct perf_stat_config *config, struct evlist *evlist,
			 char **text, size_t *len)
{
	struct perf_stat_config c = *config;

	*text = NULL;
	c.json_output = true;
	c.csv_output = false;
	c.metric_only = false;	/* the counts are what is compared */
	c.csv_sep = " ";
	c.output = open_memstream(text, len);
	if (!c.output)
		return -ENOMEM;
	perf_stat__print_counters(&c, evlist, NULL);
	if (fclose(c.output)) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Digits to show: two more than the first significant one of @num. */
static int get_precision(double num)
{
	if (num > 1)
		return 0;
	return lround(ceil(-log10(num)));
}

/*
 * --table: each run's elapsed time, its difference from the mean and a bar
 * of one '#' and one more per 5% of difference, as perf lays it out.
 */
static void print_table(struct perf_stat_config *config, int precision, double avg)
{
	FILE *out = config->output;
	char buf[64];
	int indent;

	snprintf(buf, sizeof(buf), " %17.*f", precision, avg);
	indent = strspn(buf, " ");
	fprintf(out, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < config->nr_walltime_run; i++) {
		double run = config->walltime_run[i] / NSEC_PER_SEC;
		int pct = run ? (int)(100.0 * (run - avg) / run) : 0;
		int bar = 1 + abs(pct) / 5;

		fprintf(out, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (int h = 0; h < bar; h++)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", indent, "");
}

/**
 * perf_stat__print_footer - elapsed time (+- with -r) and user/sys times
 * @config: the walltime statistics and the rusage
 */
void perf_stat__print_footer(struct perf_stat_config *config)
{
	double avg = avg_stats(&config->walltime_nsecs_stats) / NSEC_PER_SEC;
	FILE *out = config->output;

	if ((config->interval && !config->summary_rows) || config->csv_output ||
	    config->json_output)
		return;
	if (!config->null_run)
		fprintf(out, "\n");
	if (config->run_count == 1) {
		fprintf(out, " %17.9f seconds time elapsed", avg);
		if (config->ru_display) {
			const struct rusage *ru = &config->ru_data;

			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n",
				ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6);
			fprintf(out, " %17.9f seconds sys\n",
				ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
		}
	} else {
		double sd = stddev_stats(&config->walltime_nsecs_stats) / NSEC_PER_SEC;
		int precision = sd > 0 ? get_precision(sd) + 2 : 9;
		double pct = rel_stddev_stats(sd, avg);

		if (config->walltime_run_table)
			print_table(config, precision, avg);
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision,
			sd);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
}

/**
 * perf_stat__print_signaled - a command killed by a signal, as perf says it
 * @command: its argv[0]
 * @sig: the signal
 *
 * On stderr whatever -o, -x, -j or --quiet say, before the counts.
 */
void perf_stat__print_signaled(const char *command, int sig)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", command, strsignal(sig));
}

/**
 * perf_stat__print_delay_state - say when -D holds counting back, as perf
 * @enabled: false when the command starts with its events disabled, true
 *           when the delay is over
 */
void perf_stat__print_delay_state(bool enabled)
{
	if (tperf_config.quiet)
		return;
	fflush(stdout);
	fprintf(stderr, "Events %s\n", enabled ? "enabled" : "disabled");
}

/**
 * perf_stat__print_event_state - one event enabled or disabled by --control
 * @name: the event's name as the command gave it
 * @enabled: which
 */
void perf_stat__print_event_state(const char *name, bool enabled)
{
	if (tperf_config.quiet)
		return;
	fflush(stdout);
	fprintf(stderr, "Event %s %s\n", name, enabled ? "enabled" : "disabled");
}

/**
 * perf_stat__print_no_event - --control named an event the list lacks, as perf says it
 * @name: the name given
 */
void perf_stat__print_no_event(const char *name)
{
	fflush(stdout);
	fprintf(stderr, "failed: can't find '%s' event\n", name);
}

/**
 * perf_stat__print_evlist - the events' names, for --control's "evlist"
 * @evlist: the events
 */
void perf_stat__print_evlist(struct evlist *evlist)
{
	struct evsel *evsel;

	fflush(stdout);
	evlist__for_each_entry(evlist, evsel)
		fprintf(stderr, "%s\n", evsel__name(evsel));
}
