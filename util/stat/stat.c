// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counting statistics: Welford running mean/variance, aggregation of the
 * per-CPU/per-thread counts into output rows, and ena/run scaling.
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/cpumap.h"
#include "util/lib/fs.h"
#include "util/event/evlist.h"
#include "util/event/pmu.h"
#include "util/event/powercap.h"
#include "util/event/pmu.h"
#include "util/stat/stat.h"
#include "util/event/threadmap.h"

static void perf_stat__exit_one(struct evsel *evsel);

/**
 * init_stats - empty running statistics
 * @stats: set to no values (min at UINT64_MAX)
 */
void init_stats(struct stats *stats)
{
	stats->n = 0.0;
	stats->mean = 0.0;
	stats->M2 = 0.0;
	stats->max = 0;
	stats->min = UINT64_MAX;
}

/**
 * update_stats - add a value (Welford's update of mean and M2)
 * @stats: the running statistics
 * @val: the new value
 */
void update_stats(struct stats *stats, uint64_t val)
{
	double delta;

	stats->n++;
	delta = (double)val - stats->mean;
	stats->mean += delta / stats->n;
	stats->M2 += delta * ((double)val - stats->mean);
	if (val > stats->max)
		stats->max = val;
	if (val < stats->min)
		stats->min = val;
}

/**
 * avg_stats - the mean of the values so far
 * @stats: the running statistics
 *
 * Return: the mean, 0 without values.
 */
double avg_stats(const struct stats *stats)
{
	return stats->mean;
}

/*
 * The sample variance is M2 / (n - 1); the variance of the mean of n
 * samples is that divided by n, and its root is what `-r` shows.
 */
/**
 * stddev_stats - standard deviation of the mean, as perf's -r shows it
 * @stats: the running statistics
 *
 * Return: sqrt(M2 / (n - 1) / n), 0 with fewer than two values.
 */
double stddev_stats(const struct stats *stats)
{
	double variance;

	if (stats->n < 2)
		return 0.0;
	variance = stats->M2 / (stats->n - 1);
	return sqrt(variance / stats->n);
}

/**
 * sample_stddev_stats - standard deviation of the values themselves
 * @stats: the running statistics
 *
 * Return: sqrt(M2 / (n - 1)), the spread of one run's value, 0 with fewer
 * than two values.
 */
double sample_stddev_stats(const struct stats *stats)
{
	if (stats->n < 2)
		return 0.0;
	return sqrt(stats->M2 / (stats->n - 1));
}

/**
 * rel_stddev_stats - a standard deviation in percent of the mean
 * @stddev: from stddev_stats()
 * @avg: the mean
 *
 * Return: 100 * @stddev / @avg, 0 when @avg is 0.
 */
double rel_stddev_stats(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

/**
 * perf_stat_config__init - the defaults of tperf stat
 * @config: global aggregation, scaling, big numbers, one run, stderr
 */
void perf_stat_config__init(struct perf_stat_config *config)
{
	memset(config, 0, sizeof(*config));
	config->aggr_mode = AGGR_GLOBAL;
	config->scale = true;
	config->csv_sep = " ";
	config->big_num = true;
	config->run_count = 1;
	config->unit_width = 4;
	config->output = stderr;
	init_stats(&config->walltime_nsecs_stats);
}

/**
 * evsel__is_clock - task-clock or cpu-clock (counting nanoseconds)
 * @evsel: the event
 *
 * Return: true for the software clock events.
 */
bool evsel__is_clock(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		evsel->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/**
 * perf_stat__init_evlist - attach stat data to every event
 * @config: its unit_width grows to the widest unit
 * @evlist: the events; clocks get the unit "msec" and scale 1e-6
 *
 * Return: 0 or -ENOMEM.
 */
int perf_stat__init_evlist(struct perf_stat_config *config, struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (!evsel->priv) {
			evsel->priv = calloc(1, sizeof(struct evsel_stat));
			if (!evsel->priv)
				return -ENOMEM;
		}
		/* clocks count nanoseconds and show milliseconds */
		/* a PMU's event keeps its alias's unit, as perf (a "cpu" PMU of type 1 too) */
		if (evsel__is_clock(evsel) && (!evsel->unit || !*evsel->unit) &&
		    evsel->scale == 1.0 && (!evsel->pmu || !strcmp(evsel->pmu->name, "software"))) {
			evsel->unit = "msec";
			evsel->scale = 1e-6;
		}
		if (evsel->unit && (int)strlen(evsel->unit) > config->unit_width)
			config->unit_width = strlen(evsel->unit);
	}
	return 0;
}

static void evsel_stat__free_rows(struct evsel_stat *es)
{
	free(es->aggr);
	free(es->fd_aggr);
	free(es->prev);
	free(es->run_vals);
	es->aggr = NULL;
	es->fd_aggr = NULL;
	es->prev = NULL;
	es->run_vals = NULL;
	es->nr_aggr = es->nr_fds = es->run_cap = 0;
}

/**
 * perf_stat__exit_one - free one event's stat data
 * @evsel: the event (evsel->priv is cleared)
 */
/* Free the stat data of one evsel (before deleting it). */
static void perf_stat__exit_one(struct evsel *evsel)
{
	if (evsel->priv)
		evsel_stat__free_rows(evsel->priv);
	free(evsel->priv);
	evsel->priv = NULL;
}

/**
 * perf_stat__exit_evlist - free the stat data of every event
 * @evlist: the events given to perf_stat__init_evlist()
 */
void perf_stat__exit_evlist(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		perf_stat__exit_one(evsel);
}

/**
 * aggr_id__equal - whether two rows are the same CPU, core, socket ...
 * @a: an id
 * @b: another
 *
 * Return: true when every member is equal.
 */
bool aggr_id__equal(const struct aggr_id *a, const struct aggr_id *b)
{
	return a->socket == b->socket && a->die == b->die && a->core == b->core &&
	       a->cpu == b->cpu && a->thread == b->thread && a->node == b->node;
}

static struct aggr_id aggr_id__get(enum aggr_mode mode, int cpu, int thread_idx)
{
	struct aggr_id id = { -1, -1, -1, -1, -1, -1 };

	switch (mode) {
	case AGGR_NONE:
		id.cpu = cpu;
		break;
	case AGGR_CORE:
		id.core = cpu < 0 ? -1 : cpu__get_core_id(cpu);
		/* fall through */
	case AGGR_DIE:
		id.die = cpu < 0 ? -1 : cpu__get_die_id(cpu);
		/* fall through */
	case AGGR_SOCKET:
		id.socket = cpu < 0 ? -1 : cpu__get_socket_id(cpu);
		if (mode != AGGR_SOCKET && id.die < 0)
			id.die = 0;	/* no die file: one die per socket */
		break;
	case AGGR_THREAD:
		id.thread = thread_idx;
		break;
	case AGGR_NODE:
		id.node = cpu < 0 ? -1 : cpu__get_node_id(cpu);
		break;
	case AGGR_GLOBAL:
		break;
	}
	return id;
}

static int aggr_cmp(const struct aggr_id *a, const struct aggr_id *b)
{
	const int *x = &a->socket, *y = &b->socket;

	for (int i = 0; i < AGGR_ID_NR; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* The row index of @id, appending a row (kept sorted by id later). */
static int evsel_stat__row(struct evsel_stat *es, const struct aggr_id *id, int cap)
{
	int i;

	for (i = 0; i < es->nr_aggr; i++)
		if (aggr_id__equal(&es->aggr[i].id, id))
			return i;
	if (es->nr_aggr >= cap)
		return -1;
	es->aggr[i].id = *id;
	es->nr_aggr++;
	return i;
}

static void evsel_stat__sort_rows(struct evsel_stat *es)
{
	for (int i = 1; i < es->nr_aggr; i++) {
		for (int j = i; j > 0 && aggr_cmp(&es->aggr[j].id, &es->aggr[j - 1].id) < 0; j--) {
			struct stat_aggr t = es->aggr[j];

			es->aggr[j] = es->aggr[j - 1];
			es->aggr[j - 1] = t;
			for (int f = 0; f < es->nr_fds; f++) {
				if (es->fd_aggr[f] == j)
					es->fd_aggr[f] = j - 1;
				else if (es->fd_aggr[f] == j - 1)
					es->fd_aggr[f] = j;
			}
		}
	}
}

static void stat_aggr__init(struct stat_aggr *a)
{
	init_stats(&a->val);
	init_stats(&a->ena);
	init_stats(&a->run);
	a->nr_run_vals = 0;
}

/* The name of thread @tid now (perf reads it once, before counting), or "?". */
static void read_comm(pid_t tid, char *buf, size_t size)
{
	char rel[64], *s = NULL;
	size_t len;

	snprintf(rel, sizeof(rel), "%d/comm", tid);
	snprintf(buf, size, "%s", "?");
	if (procfs__read_str(rel, &s, &len) == 0) {
		s[strcspn(s, "\n")] = '\0';
		snprintf(buf, size, "%s", s);
	}
	free(s);
}

/* A percore event's -A rows are its cores (perf), unless --percore-show-thread. */
static bool percore_rows(const struct perf_stat_config *config, const struct evsel *evsel)
{
	return config->aggr_mode == AGGR_NONE && evsel->terms.percore;
}

static enum aggr_mode row_mode(const struct perf_stat_config *config, const struct evsel *evsel)
{
	return percore_rows(config, evsel) && !config->percore_show_thread ? AGGR_CORE :
	       config->aggr_mode;
}

/*
 * --percore-show-thread: each CPU's row gets the sum of the CPUs of its
 * core (perf sums the hardware threads of a core for a percore event).
 */
static void sum_core_threads(struct evsel_stat *es)
{
	struct counts_values *sums = calloc(es->nr_aggr, sizeof(*sums));
	struct aggr_id *cores = calloc(es->nr_aggr, sizeof(*cores));

	if (!sums || !cores)
		goto out;
	for (int i = 0; i < es->nr_aggr; i++)
		cores[i] = aggr_id__get(AGGR_CORE, es->aggr[i].id.cpu, 0);
	for (int i = 0; i < es->nr_aggr; i++) {
		for (int j = 0; j < es->nr_aggr; j++) {
			if (!aggr_id__equal(&cores[i], &cores[j]))
				continue;
			sums[i].val += es->aggr[j].sum.val;
			sums[i].ena += es->aggr[j].sum.ena;
			sums[i].run += es->aggr[j].sum.run;
		}
	}
	for (int i = 0; i < es->nr_aggr; i++)
		es->aggr[i].sum = sums[i];
out:
	free(sums);
	free(cores);
}

/**
 * perf_stat__setup_aggr - the output rows of an event, from its maps
 * @config: gives the aggregation mode
 * @evsel: an opened (or unsupported) event; rows sorted by id
 *
 * Return: 0 or -ENOMEM.
 */
int perf_stat__setup_aggr(struct perf_stat_config *config, struct evsel *evsel)
{
	struct evsel_stat *es = evsel__stat(evsel);
	/* an event that failed to open still gets the evlist's rows */
	struct cpu_map *cpus = evsel->cpus ? evsel->cpus :
			       evsel->evlist ? evsel->evlist->cpus : NULL;
	struct thread_map *threads = evsel->threads ? evsel->threads :
				     evsel->evlist ? evsel->evlist->threads : NULL;
	int ncpus = cpus ? cpus->nr : 1;
	int nthreads = threads ? threads->nr : 1;
	int nfds = ncpus * nthreads;

	evsel_stat__free_rows(es);
	es->aggr = calloc(nfds, sizeof(*es->aggr));
	es->fd_aggr = calloc(nfds, sizeof(*es->fd_aggr));
	es->prev = calloc(nfds, sizeof(*es->prev));
	if (!es->aggr || !es->fd_aggr || !es->prev) {
		evsel_stat__free_rows(es);
		return -ENOMEM;
	}
	es->nr_fds = nfds;
	for (int c = 0; c < ncpus; c++) {
		int cpu = cpus ? cpus->map[c] : -1;
		bool new_cpu = true;

		for (int t = 0; t < nthreads; t++) {
			struct aggr_id id = aggr_id__get(row_mode(config, evsel), cpu, t);

			/* powercap "CPUs" are zones: their package is the socket */
			if (evsel->powercap && cpu >= 0 && id.socket >= 0)
				id.socket = powercap_event__zone_package(evsel->powercap, cpu);
			int row = evsel_stat__row(es, &id, nfds);

			es->fd_aggr[c * nthreads + t] = row;
			if (config->aggr_mode == AGGR_THREAD && threads && !es->aggr[row].comm[0])
				read_comm(threads->map[t], es->aggr[row].comm,
					  sizeof(es->aggr[row].comm));
			/* a row counts CPUs, or threads in --per-thread */
			if (new_cpu || config->aggr_mode == AGGR_THREAD)
				es->aggr[row].nr++;
			new_cpu = false;
		}
	}
	/* -r keeps each run's value (for -j): room for every run of every row */
	if (config->run_count > 1) {
		es->run_vals = calloc((size_t)es->nr_aggr * config->run_count,
				      sizeof(*es->run_vals));
		if (!es->run_vals) {
			evsel_stat__free_rows(es);
			return -ENOMEM;
		}
		es->run_cap = config->run_count;
	}
	for (int i = 0; i < es->nr_aggr; i++) {
		stat_aggr__init(&es->aggr[i]);
		init_stats(&es->aggr[i].rounds);
		es->aggr[i].run_vals = es->run_vals ? es->run_vals + (size_t)i * es->run_cap : NULL;
	}
	evsel_stat__sort_rows(es);
	return 0;
}

static uint64_t scale_value(const struct counts_values *c, bool scale)
{
	if (!scale || c->run == 0 || c->run >= c->ena)
		return c->val;
	return (uint64_t)((double)c->val * c->ena / c->run);
}

/**
 * perf_stat__process_counts - sum an event's counts into its rows
 * @config: scaling on or off
 * @evsel: the event, read into evsel->counts
 * @delta: use the change since the previous call (intervals)
 * @reset: forget the earlier values first (each interval)
 */
void perf_stat__process_counts(struct perf_stat_config *config, struct evsel *evsel,
			       bool delta, bool reset)
{
	struct evsel_stat *es = evsel__stat(evsel);

	for (int i = 0; i < es->nr_aggr; i++) {
		memset(&es->aggr[i].sum, 0, sizeof(es->aggr[i].sum));
		if (reset)
			stat_aggr__init(&es->aggr[i]);
	}
	for (int f = 0; evsel->counts && evsel->supported && f < es->nr_fds; f++) {
		struct counts_values c = evsel->counts[f];
		struct stat_aggr *a = &es->aggr[es->fd_aggr[f]];

		if (delta) {
			struct counts_values p = es->prev[f];

			es->prev[f] = c;
			c.val = c.val >= p.val ? c.val - p.val : 0;
			c.ena = c.ena >= p.ena ? c.ena - p.ena : 0;
			c.run = c.run >= p.run ? c.run - p.run : 0;
		}
		a->sum.val += c.val;
		a->sum.ena += c.ena;
		a->sum.run += c.run;
	}
	if (percore_rows(config, evsel) && config->percore_show_thread)
		sum_core_threads(es);
	for (int i = 0; i < es->nr_aggr; i++) {
		struct stat_aggr *a = &es->aggr[i];

		uint64_t val = scale_value(&a->sum, config->scale);

		a->counted = evsel->supported && a->sum.run && a->sum.ena;
		update_stats(&a->val, val);
		update_stats(&a->rounds, val);
		/* a run's final read (not an interval's delta) */
		if (!delta && !reset && a->run_vals && a->nr_run_vals < es->run_cap)
			a->run_vals[a->nr_run_vals++] = val;
		update_stats(&a->ena, a->sum.ena);
		update_stats(&a->run, a->sum.run);
	}
}

/**
 * stat_aggr__value - a row's value, scaled by ena/run, mean over runs
 * @a: the row
 *
 * Return: the value in the event's own units (before evsel->scale).
 */
double stat_aggr__value(const struct stat_aggr *a)
{
	return avg_stats(&a->val);
}

/**
 * stat_aggr__base_value - a row's value as the base of another's metric
 * @config: metric_over_rounds says which
 * @a: the row
 *
 * Return: stat_aggr__value(), or with metric_over_rounds the mean of every
 * value the row had since the rows were made (perf stat report's shadow
 * statistics, which its intervals never reset: a rate of the last
 * interval is over the mean task-clock of all of them).
 */
double stat_aggr__base_value(const struct perf_stat_config *config, const struct stat_aggr *a)
{
	return config->metric_over_rounds ? avg_stats(&a->rounds) : avg_stats(&a->val);
}

/* perf's name of an event shown apart from its PMU's others ("x [pmu]"). */
static void uniquify_name(struct evsel *evsel)
{
	const char *name = evsel__name(evsel), *pmu, *slash;
	char buf[512];

	if (!evsel->pmu || evsel->name_term)
		return;
	pmu = evsel->pmu->name;
	if (!strncmp(name, pmu, strlen(pmu)))
		return;
	slash = strchr(name, '/');
	if (slash)
		snprintf(buf, sizeof(buf), "%s%s", pmu, slash);
	else if (pmu__is_hybrid(evsel->pmu))
		snprintf(buf, sizeof(buf), "%s/%s/", pmu, name);
	else
		snprintf(buf, sizeof(buf), "%s [%s]", name, pmu);
	evsel__set_name(evsel, buf);
}

static bool same_alias(struct evsel *a, struct evsel *b)
{
	return !strcmp(evsel__name(a), evsel__name(b)) && a->scale == b->scale &&
	       !strcmp(a->unit ? a->unit : "", b->unit ? b->unit : "") &&
	       evsel__is_clock(a) == evsel__is_clock(b) &&
	       !strcmp(a->cgroup_name ? a->cgroup_name : "", b->cgroup_name ? b->cgroup_name : "") &&
	       a->pmu && b->pmu && a->pmu != b->pmu;
}

/**
 * perf_stat__merge_aliases - which events show as one, and the others' names
 * @config: --no-merge, --hybrid-merge
 * @evlist: the events (their evsel_stat)
 *
 * Done once; later calls do nothing.
 */
void perf_stat__merge_aliases(struct perf_stat_config *config, struct evlist *evlist)
{
	struct evsel *evsel, *alias;

	if (config->aliases_merged)
		return;
	config->aliases_merged = true;
	evlist__for_each_entry(evlist, evsel) {
		struct evsel_stat *es = evsel__stat(evsel);
		bool hybrid = pmu__is_hybrid(evsel->pmu);

		if (!es || es->merged_into)
			continue;
		if (config->no_merge || (hybrid && !config->hybrid_merge)) {
			if (!es->uniquified)
				uniquify_name(evsel);
			es->uniquified = true;
			continue;
		}
		if (!evsel->auto_merge_stats && !hybrid)
			continue;
		bool after = false;

		evlist__for_each_entry(evlist, alias) {
			struct evsel_stat *as = evsel__stat(alias);

			after = after || alias == evsel;
			if (after && alias != evsel && as && !as->merged_into &&
			    same_alias(evsel, alias)) {
				as->merged_into = evsel;
				es->merges = true;
			}
		}
	}
}

static void stats__add(struct stats *to, const struct stats *from)
{
	to->mean += from->mean;
	to->M2 += from->M2;	/* the variance of a sum of independent counts */
	to->max += from->max;
	to->min += from->min;
}

/* Add @r into @out (the same row of an event shown with it). */
static void stat_aggr__add(struct stat_aggr *out, const struct stat_aggr *r)
{
	out->nr += r->nr;
	out->counted |= r->counted;
	out->sum.val += r->sum.val;
	out->sum.ena += r->sum.ena;
	out->sum.run += r->sum.run;
	stats__add(&out->val, &r->val);
	stats__add(&out->ena, &r->ena);
	stats__add(&out->run, &r->run);
	stats__add(&out->rounds, &r->rounds);
	for (int k = 0; k < out->nr_run_vals && k < r->nr_run_vals; k++)
		out->run_vals[k] += r->run_vals[k];
}

/**
 * stat_aggr__merged - the row @id of an event and of the events shown in it
 * @evlist: the events
 * @evsel: the event shown (evsel_stat.merges)
 * @id: the row
 * @out: receives the sum
 * @vals: room for each run's value (@nr_vals), or NULL
 * @nr_vals: its size
 *
 * Return: false when neither @evsel nor its aliases have row @id.
 */
bool stat_aggr__merged(struct evlist *evlist, const struct evsel *evsel,
		       const struct aggr_id *id, struct stat_aggr *out, double *vals, int nr_vals)
{
	struct evsel *e;
	bool found = false;

	evlist__for_each_entry(evlist, e) {
		struct evsel_stat *es = evsel__stat(e);

		if (!es || (e != evsel && es->merged_into != evsel))
			continue;
		for (int i = 0; i < es->nr_aggr; i++) {
			const struct stat_aggr *r = &es->aggr[i];

			if (!aggr_id__equal(&r->id, id))
				continue;
			if (!found) {
				*out = *r;
				out->nr_run_vals = vals ? (r->nr_run_vals < nr_vals ?
							  r->nr_run_vals : nr_vals) : 0;
				out->run_vals = vals;
				if (out->nr_run_vals)
					memcpy(vals, r->run_vals, out->nr_run_vals * sizeof(*vals));
				found = true;
			} else {
				stat_aggr__add(out, r);
			}
		}
	}
	return found;
}

/**
 * stat_aggr__merged_ids - the rows of an event and of the events shown in it
 * @evlist: the events
 * @evsel: the event shown
 * @ids: receives their ids, sorted, malloc'ed
 *
 * Return: how many, or -ENOMEM.
 */
int stat_aggr__merged_ids(struct evlist *evlist, const struct evsel *evsel, struct aggr_id **ids)
{
	struct aggr_id *v = NULL;
	struct evsel *e;
	int n = 0, cap = 0;

	evlist__for_each_entry(evlist, e) {
		struct evsel_stat *es = evsel__stat(e);

		if (!es || (e != evsel && es->merged_into != evsel))
			continue;
		for (int i = 0; i < es->nr_aggr; i++) {
			bool dup = false;

			for (int k = 0; k < n && !dup; k++)
				dup = aggr_id__equal(&v[k], &es->aggr[i].id);
			if (dup)
				continue;
			if (n == cap) {
				struct aggr_id *t;

				cap = cap ? 2 * cap : 8;
				t = realloc(v, cap * sizeof(*v));
				if (!t) {
					free(v);
					return -ENOMEM;
				}
				v = t;
			}
			v[n++] = es->aggr[i].id;
		}
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && aggr_cmp(&v[j], &v[j - 1]) < 0; j--) {
			struct aggr_id t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*ids = v;
	return n;
}
