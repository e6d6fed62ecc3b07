// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf stat: count events while a command runs (or system-wide, or on
 * existing processes) and print the totals as Linux perf stat does.  Glue
 * only: the option table fills stat_opts, util/stat/stat-run.c does the work.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/argv-split.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/file-out.h"
#include "util/event/evlist.h"
#include "util/event/evlist-ctl.h"
#include "util/event/parse-events.h"
#include "util/event/pmu.h"
#include "util/lib/fs.h"
#include "util/lib/parse-options.h"
#include "util/lib/json.h"
#include "util/probe/probe-sdt.h"
#include "util/stat/metricgroup.h"
#include "util/stat/stat-compare.h"
#include "util/stat/stat-display.h"
#include "util/stat/stat-json.h"
#include "util/stat/stat-record.h"
#include "util/stat/stat-run.h"
#include "util/stat/stat.h"
#include "util/event/target.h"

static struct stat_opts {
	struct evlist *evlist;
	struct target target;
	struct perf_stat_config config;
	bool no_aggr, per_core, per_socket, per_die, per_thread, per_node;
	bool append, dry_run, quiet;
	bool all_user, all_kernel;	/* --all-user, --all-kernel */
	bool group;			/* -g: every event in one group */
	bool sync;			/* -S: sync() before each run */
	int detailed;			/* -d, -dd, -ddd */
	int log_fd;			/* --log-fd: the output's descriptor (0: none) */
	unsigned int timeout_ms;	/* --timeout */
	const char *pre_cmd, *post_cmd;	/* --pre, --post */
	const char *control;		/* --control fd:N[,M] or fifo:PATH[,PATH] */
	struct evlist_ctl ctl;		/* its descriptors, -1 */
	bool topdown, smi_cost, transaction;	/* --topdown, --smi-cost, -T */
	int td_level;			/* --td-level (0: the deepest) */
	const char *iostat;		/* --iostat[=...] */
	const char *cputype;		/* --cputype */
	int nr_cgroups;			/* -G names so far (empty ones too), as perf counts */
	const char *for_each_cgroup;	/* --for-each-cgroup: the names */
	/* -e and --filter as given, for --for-each-cgroup to parse again per cgroup */
	struct event_spec {
		const char *events;
		struct string_list filters;
	} *specs;
	int nr_specs;
	bool default_events;		/* no -e: perf's default set */
	const char *output_name;
	const char *csv_sep;
	int delay_ms;
	int run_count;
	const char *compare;		/* --compare: the baseline file */
	const char *compare_with;	/* --compare-with: the baseline command */
	char **base_argv;		/* --compare-with: its words */
	struct perf_stat_config base_config;	/* --compare-with: the baseline's counts */
	struct stat_counts baseline;	/* --compare: what it holds, read before the runs */
	struct {			/* stat diff's and --compare's options */
		double threshold;	/* percent; NAN: not given (5) */
		double confidence;	/* percent; NAN: not given (95) */
		struct string_list higher_is_better;
	} diff;
	struct stat_record record;	/* stat record: the perf.data written */
	char *metrics;			/* -M: every one given, comma-separated */
	bool metric_no_group, metric_no_merge;	/* --metric-no-group, --metric-no-merge */
	struct metric_list metric_list;	/* -M's metrics, once their events are added */
} opts = {
	.run_count = 1,
	.ctl = { .fd = -1, .ack_fd = -1 },
	.diff = { .threshold = NAN, .confidence = NAN },
};

/*
 * stat diff's and --compare's exit statuses, for CI: 0 no regression, 1 a
 * regression, 2 anything that prevents the comparison.
 */
#define DIFF_EXIT_REGRESSION 1
#define DIFF_EXIT_ERROR 2
#define DIFF_THRESHOLD 5.0
#define DIFF_CONFIDENCE 95.0

/*
 * perf stat's exit statuses, which scripts may test: 255 (its -1) when it
 * cannot count (an event or the output file cannot be opened, the command
 * cannot be run), 234 (its -EINVAL) when the processes or CPUs to count
 * cannot be found.
 */
#define STAT_EXIT_FAILED 255
#define STAT_EXIT_TARGET 234

static const char *const stat_usage[] = {
	"tperf stat [<options>] [<command>]",
	"tperf stat [<options>] -- <command> [<args>]",
	"tperf stat [<options>] {-a | -C <cpus> | -p <pid> | -t <tid>}",
	"tperf stat --compare <base.json> -r <n> [<options>] -- <command> [<args>]",
	"tperf stat diff [<options>] <base.json> <new.json>",
	"tperf stat record [<options>] [-o <file>] [--] <command> [<args>]",
	"tperf stat report [-i <file>] [-A | --per-core | --per-die | --per-socket]",
	NULL
};

static const char *const stat_diff_usage[] = {
	"tperf stat diff [<options>] <base.json> <new.json>",
	NULL
};

/* The options of the comparison, in stat diff and with --compare. */
#define DIFF_OPTIONS									\
	OPT_DOUBLE(0, "threshold", &opts.diff.threshold,				\
		   "a regression is a change beyond this percentage (default 5)"),	\
	OPT_DOUBLE(0, "confidence", &opts.diff.confidence,				\
		   "confidence of the interval and the test, in percent (default 95)"),	\
	OPT_CALLBACK(0, "higher-is-better", &opts.diff.higher_is_better, "event",	\
		     "an event whose decrease is the regression (repeatable)",		\
		     parse_opt_string_list)

static const struct option stat_diff_options[] = {
	DIFF_OPTIONS,
	OPT_BOOLEAN('j', "json-output", &opts.config.json_output, "print the comparison in JSON"),
	OPT_END()
};

/* -e: parsed now, and kept for --for-each-cgroup. */
static int stat_events_option(const struct option *opt, const char *str, int unset)
{
	struct event_spec *t;

	if (unset || !str)
		return 0;
	t = realloc(opts.specs, (opts.nr_specs + 1) * sizeof(*t));
	if (!t) {
		ui__error("out of memory");
		return -1;
	}
	opts.specs = t;
	opts.specs[opts.nr_specs++] = (struct event_spec){ .events = str };
	return parse_events_option(opt, str, unset);
}

/* --filter: set now on the last -e's events, and kept for --for-each-cgroup. */
static int stat_filter_option(const struct option *opt, const char *str, int unset)
{
	int err = parse_tp_filter_option(opt, str, unset);

	if (err || unset || !str || !opts.nr_specs)
		return err;
	return parse_opt_string_list(&(struct option){ .value = &opts.specs[opts.nr_specs - 1].filters },
				     str, 0);
}

/*
 * -G NAME,...: as perf 6.1, the k-th name given (over every -G, empty
 * ones included) is the cgroup of the k-th event defined so far, an empty
 * name leaving its event unlimited; when only one name was ever given,
 * every event defined so far counts in it.
 */
static int stat_cgroup_option(const struct option *opt, const char *str, int unset)
{
	char msg[512];
	const char *p = str;

	if (unset || !str)
		return 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		struct evsel *evsel, *nth = NULL;
		char name[PATH_MAX];
		int k = 0;

		evlist__for_each_entry(opts.evlist, evsel)
			if (k++ == opts.nr_cgroups)
				nth = evsel;
		if (!nth) {
			ui__error("must define events before cgroups (-e before -G, an event for each cgroup)");
			return -1;
		}
		opts.nr_cgroups++;
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (len && evsel__set_cgroup(nth, name, msg, sizeof(msg))) {
			ui__error("%s", msg);
			return -1;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (opts.nr_cgroups == 1 && evlist__first(opts.evlist)->cgroup_name) {
		struct evsel *evsel;

		evlist__for_each_entry(opts.evlist, evsel)
			if (!evsel->cgroup_name &&
			    evsel__set_cgroup(evsel, evlist__first(opts.evlist)->cgroup_name, msg,
					      sizeof(msg))) {
				ui__error("%s", msg);
				return -1;
			}
	}
	return 0;
}

/* -M: kept until the options are all read (--metric-no-group may come after it). */
static int stat_metrics_option(const struct option *opt, const char *str, int unset)
{
	char **metrics = opt->value, *t;

	if (unset || !str)
		return 0;
	if (asprintf(&t, "%s%s%s", *metrics ? *metrics : "", *metrics ? "," : "", str) < 0) {
		ui__error("out of memory");
		return -1;
	}
	free(*metrics);
	*metrics = t;
	return 0;
}

static const struct option stat_options[] = {
	OPT_CALLBACK('e', "event", &opts.evlist, "event",
		     "event selector. use 'tperf list' to list available events",
		     stat_events_option),
	OPT_CALLBACK(0, "filter", &opts.evlist, "filter", "event filter", stat_filter_option),
	OPT_BOOLEAN('i', "no-inherit", &opts.target.no_inherit,
		    "child tasks do not inherit counters"),
	OPT_STRING('p', "pid", &opts.target.pid, "pid", "stat events on existing process id"),
	OPT_STRING('t', "tid", &opts.target.tid, "tid", "stat events on existing thread id"),
	OPT_BOOLEAN('a', "all-cpus", &opts.target.system_wide,
		    "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &opts.target.cpu_list, "cpu",
		   "list of cpus to monitor in system-wide"),
	OPT_BOOLEAN('A', "no-aggr", &opts.no_aggr, "disable CPU count aggregation"),
	OPT_BOOLEAN(0, "no-merge", &opts.config.no_merge,
		    "do not merge identical named events (one row per PMU)"),
	OPT_BOOLEAN(0, "hybrid-merge", &opts.config.hybrid_merge,
		    "merge identical named hybrid events (cpu_core and cpu_atom)"),
	OPT_BOOLEAN(0, "percore-show-thread", &opts.config.percore_show_thread,
		    "with -A, a 'percore' event's count per CPU: the sum of its core's CPUs"),
	OPT_BOOLEAN(0, "per-socket", &opts.per_socket, "aggregate counts per processor socket"),
	OPT_BOOLEAN(0, "per-die", &opts.per_die, "aggregate counts per processor die"),
	OPT_BOOLEAN(0, "per-core", &opts.per_core,
		    "aggregate counts per physical processor core"),
	OPT_BOOLEAN(0, "per-thread", &opts.per_thread, "aggregate counts per thread"),
	OPT_BOOLEAN(0, "per-node", &opts.per_node, "aggregate counts per numa node"),
	OPT_BOOLEAN(0, "scale", &opts.config.scale,
		    "scale counts by time enabled/running (--no-scale: raw counts)"),
	OPT_INCR('v', "verbose", &tperf_config.verbose,
		 "be more verbose (show counter open errors, etc)"),
	OPT_INTEGER('r', "repeat", &opts.run_count,
		    "repeat command and print average + stddev (max: 100)"),
	OPT_BOOLEAN('n', "null", &opts.config.null_run, "null run - dont start any counters"),
	OPT_BOOLEAN('B', "big-num", &opts.config.big_num,
		    "print large numbers with thousands' separators"),
	OPT_STRING('x', "field-separator", &opts.csv_sep, "separator",
		   "print counts with custom separator"),
	OPT_BOOLEAN('j', "json-output", &opts.config.json_output, "print counts in JSON format"),
	OPT_STRING('o', "output", &opts.output_name, "file", "output file name"),
	OPT_BOOLEAN(0, "append", &opts.append, "append to the output file"),
	OPT_INTEGER('D', "delay", &opts.delay_ms,
		    "ms to wait before starting measurement after program start"),
	OPT_UINTEGER('I', "interval-print", &opts.config.interval,
		     "print counts at regular interval in ms"),
	OPT_UINTEGER(0, "interval-count", &opts.config.interval_count,
		     "print counts for fixed number of times"),
	OPT_BOOLEAN(0, "summary", &opts.config.summary, "print summary for interval mode"),
	OPT_BOOLEAN(0, "no-csv-summary", &opts.config.no_csv_summary,
		    "don't print 'summary' for CSV summary output"),
	OPT_BOOLEAN(0, "interval-clear", &opts.config.interval_clear,
		    "clear screen in between new interval"),
	OPT_UINTEGER(0, "timeout", &opts.timeout_ms,
		     "stop workload and print counts after a timeout period in ms (>= 10ms)"),
	OPT_BOOLEAN(0, "table", &opts.config.walltime_run_table,
		    "display details about each run (only with -r option)"),
	OPT_INCR('d', "detailed", &opts.detailed, "detailed run - start a lot of events"),
	OPT_BOOLEAN('g', "group", &opts.group, "put the counters into a counter group"),
	OPT_BOOLEAN('S', "sync", &opts.sync, "call sync() before starting a run"),
	OPT_BOOLEAN(0, "all-user", &opts.all_user,
		    "configure all used events to run in user space"),
	OPT_BOOLEAN(0, "all-kernel", &opts.all_kernel,
		    "configure all used events to run in kernel space"),
	OPT_STRING(0, "pre", &opts.pre_cmd, "command",
		   "command to run prior to the measured command"),
	OPT_STRING(0, "post", &opts.post_cmd, "command",
		   "command to run after to the measured command"),
	OPT_INTEGER(0, "log-fd", &opts.log_fd, "log output to fd, instead of stderr"),
	OPT_CALLBACK('G', "cgroup", &opts.evlist, "name", "monitor event in cgroup name only",
		     stat_cgroup_option),
	OPT_STRING(0, "for-each-cgroup", &opts.for_each_cgroup, "name",
		   "expand events for each cgroup"),
	OPT_BOOLEAN(0, "topdown", &opts.topdown, "measure top-down statistics (needs a PMU with topdown events)"),
	OPT_INTEGER(0, "td-level", &opts.td_level,
		    "Set the metrics level for the top-down statistics (0: max level)"),
	OPT_BOOLEAN(0, "smi-cost", &opts.smi_cost, "measure SMI cost (needs the cpu PMU's freeze_on_smi)"),
	OPT_BOOLEAN('T', "transaction", &opts.transaction,
		    "hardware transaction statistics (needs the cpu PMU)"),
	OPT_STRING_OPTARG(0, "iostat", &opts.iostat, "default",
			  "measure I/O performance metrics provided by arch/platform (uncore_iio PMUs)",
			  "default"),
	OPT_STRING(0, "cputype", &opts.cputype, "hybrid cpu type",
		   "Only enable events on applying cpu with this type for hybrid platform (e.g. core or atom)"),
	OPT_STRING(0, "control", &opts.control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
		   "listen on ctl-fd for 'enable', 'disable' (all events or one by name), 'evlist', "
		   "'ping'; write 'ack' to ack-fd (fifos are opened)"),
	OPT_CALLBACK('M', "metrics", &opts.metrics, "metric/metric group list",
		     "count the events of these metrics or metric groups and show the metrics (comma-separated)",
		     stat_metrics_option),
	OPT_BOOLEAN(0, "metric-only", &opts.config.metric_only,
		    "show only the metrics, a column each, without the counts"),
	OPT_BOOLEAN(0, "metric-no-group", &opts.metric_no_group,
		    "do not put a metric's events in a group (less precise, fewer counters at once)"),
	OPT_BOOLEAN(0, "metric-no-merge", &opts.metric_no_merge,
		    "count the events of each metric on their own, not shared with other metrics"),
	OPT_BOOLEAN(0, "quiet", &opts.quiet, "don't print any output, messages or warnings"),
	OPT_BOOLEAN(0, "dry-run", &opts.dry_run,
		    "parse the events and set up the attrs, open nothing (-vv prints them)"),
	OPT_STRING(0, "compare", &opts.compare, "file",
		   "compare the runs with those of a stat -r -j file (exit 1 on a regression)"),
	OPT_STRING(0, "compare-with", &opts.compare_with, "command",
		   "run <command> as the baseline, a run of it before each run, and compare (exit 1 on a regression)"),
	DIFF_OPTIONS,
	OPT_END()
};

/* "error: MSG" and the usage; exit @status (stat diff and --compare: 2, not 129). */
static void __attribute__((noreturn)) usage_error_exit(const char *const usage[],
							const struct option *options,
							const char *msg, int status)
{
	fprintf(stderr, "error: %s\n", msg);
	usage_with_options_fp(stderr, usage, options);
	exit(status);
}

static void usage_error(const char *msg)
{
	if (opts.compare || opts.compare_with)
		usage_error_exit(stat_usage, stat_options, msg, DIFF_EXIT_ERROR);
	usage_with_options_msg(stat_usage, stat_options, "%s", msg);
}

/*
 * The comparison's options: a usage error without a comparison, else
 * checked and given their defaults.
 */
static void check_diff_options(bool comparing, void (*error)(const char *))
{
	if (!comparing) {
		if (!isnan(opts.diff.threshold) || !isnan(opts.diff.confidence) ||
		    opts.diff.higher_is_better.n)
			error("--threshold, --confidence and --higher-is-better need --compare");
		return;
	}
	if (isnan(opts.diff.threshold))
		opts.diff.threshold = DIFF_THRESHOLD;
	if (isnan(opts.diff.confidence))
		opts.diff.confidence = DIFF_CONFIDENCE;
	if (!isfinite(opts.diff.threshold) || opts.diff.threshold < 0)
		error("--threshold takes a percentage of 0 or more");
	if (!(opts.diff.confidence >= 50 && opts.diff.confidence < 100))
		error("--confidence takes a percentage from 50 to below 100");
}

/* --compare-with: what it needs and what it does not go with. */
static void check_compare_with(int argc)
{
	if (!opts.compare_with)
		return;
	if (opts.compare)
		usage_error("--compare-with and --compare: one baseline at a time");
	if (opts.run_count < 2 || !argc)
		usage_error("--compare-with needs a command and -r 2 or more: the test needs each counter's spread");
	if (opts.config.interval || opts.dry_run || opts.record.path)
		usage_error("--compare-with compares a run's totals: not with -I, --dry-run or stat record");
	if (opts.for_each_cgroup)
		usage_error("--compare-with does not go with --for-each-cgroup");
}

/* --control: "fd:CTL[,ACK]" or "fifo:CTL[,ACK]" (util/event/evlist-ctl) */
static void open_control(void)
{
	char msg[512];
	int err;

	if (!opts.control)
		return;
	err = evlist_ctl__open(&opts.ctl, opts.control, msg, sizeof(msg));
	if (err == -EINVAL)
		usage_error(msg);
	if (err) {
		ui__error("%s", msg);
		usage_with_options(stat_usage, stat_options);
	}
}

/* A usage error perf answers with its -EINVAL (234) rather than 129. */
static void usage_error_einval(const char *msg)
{
	usage_error_exit(stat_usage, stat_options, msg,
			 opts.compare ? DIFF_EXIT_ERROR : STAT_EXIT_TARGET);
}

/* The options perf 6.1 added beyond the first set: their checks, in perf's words. */
static void check_more_options(void)
{
	struct perf_stat_config *c = &opts.config;

	if (opts.all_user && opts.all_kernel)
		usage_error("--all-user and --all-kernel exclude each other");
	if (opts.timeout_ms && c->interval)
		usage_error_einval("--timeout is not supported with --interval-print");
	if (opts.timeout_ms && opts.timeout_ms < 10)
		usage_error_einval("--timeout must be >= 10 ms");
	if (c->walltime_run_table && opts.run_count < 2)
		usage_error_einval("--table is only supported with -r");
	if (opts.log_fd < 0)
		usage_error_einval("--log-fd takes a descriptor greater than 0");
	if (opts.log_fd && opts.output_name)
		usage_error_einval("cannot use both --output and --log-fd");
	if (opts.nr_cgroups && opts.for_each_cgroup)
		usage_error_einval("--cgroup and --for-each-cgroup cannot be used together");
	if ((opts.nr_cgroups || opts.for_each_cgroup) && !target__has_cpu(&opts.target))
		usage_error_einval("cgroups are counted system-wide only: -G and --for-each-cgroup need -a or -C");
}

/* An error's exit status: stat's, or 2 when comparing (CI reads 0, 1 or 2). */
static int failed(int status)
{
	return opts.compare ? DIFF_EXIT_ERROR : status;
}

/* Whether a PMU's name starts with @prefix ("uncore_iio_"). */
static bool have_pmu_prefix(const char *prefix)
{
	for (struct pmu *pmu = pmu__scan(NULL); pmu; pmu = pmu__scan(pmu))
		if (!strncmp(pmu->name, prefix, strlen(prefix)))
			return true;
	return false;
}

/* Whether the cpu PMU lists the event @name in sysfs. */
static bool cpu_has_event(const char *name)
{
	struct pmu *pmu = pmu__find("cpu");

	return pmu && pmu__find_alias(pmu, name);
}

/*
 * A hardware option tperf does not implement, on a machine that has the
 * hardware: said, never ignored.
 */
static void __attribute__((noreturn)) not_implemented(const char *option)
{
	ui__error("%s is not implemented by tperf stat; this machine has what it needs: use perf stat",
		  option);
	exit(PARSE_OPT_USAGE_EXIT);
}

/*
 * --topdown, --td-level, --smi-cost, -T, --iostat, --cputype: each needs
 * hardware a virtual machine lacks.  Where it is missing, perf's check and
 * status in perf's order; where it is there, tperf says it cannot.
 */
static void check_hw_options(void)
{
	int max_level = cpu_has_event("topdown-heavy-ops") ? 2 : 1, v;
	char msg[128];

	if (opts.cputype) {
		snprintf(msg, sizeof(msg), "cpu_%s", opts.cputype);
		if (!pmu__find(msg)) {
			snprintf(msg, sizeof(msg), "--cputype %s is not supported (no cpu_%s PMU)",
				 opts.cputype, opts.cputype);
			usage_error(msg);
		}
		not_implemented("--cputype");
	}
	if (opts.iostat) {
		if (!have_pmu_prefix("uncore_iio_"))
			usage_error("--iostat: unsupported uncore PMU configuration (no uncore_iio PMU)");
		not_implemented("--iostat");
	}
	if (opts.topdown) {
		if (opts.td_level > max_level) {
			snprintf(msg, sizeof(msg),
				 "invalid top-down metrics level: the max level is %d", max_level);
			usage_error_einval(msg);
		}
		if (!target__has_cpu(&opts.target))
			usage_error_einval("top-down event configuration requires system-wide mode (-a)");
		if (!cpu_has_event("topdown-total-slots") && !cpu_has_event("slots")) {
			ui__error("system does not support topdown (no topdown events in the cpu PMU)");
			exit(failed(STAT_EXIT_TARGET));
		}
		not_implemented("--topdown");
	}
	if (opts.smi_cost) {
		if (sysfs__read_int("bus/event_source/devices/cpu/freeze_on_smi", &v)) {
			ui__error("freeze_on_smi is not supported (no cpu PMU with freeze_on_smi)");
			exit(failed(STAT_EXIT_TARGET));
		}
		not_implemented("--smi-cost");
	}
	if (opts.transaction) {
		if (!pmu__find("cpu")) {
			ui__error("cannot set up transaction events: no 'cpu' PMU (hardware events are not supported on this machine)");
			exit(failed(STAT_EXIT_TARGET));
		}
		not_implemented("-T");
	}
}

static void check_options(int argc)
{
	struct target *t = &opts.target;
	int aggr = opts.no_aggr + opts.per_core + opts.per_socket + opts.per_die +
		   opts.per_thread + opts.per_node;

	/* perf counts the whole system when given nothing to count */
	if (!argc && target__none(t))
		t->system_wide = true;
	if (aggr > 1)
		usage_error("-A, --per-core, --per-die, --per-node, --per-socket and --per-thread are exclusive");
	if ((opts.no_aggr || opts.per_core || opts.per_socket || opts.per_die || opts.per_node) &&
	    !target__has_cpu(t))
		usage_error_einval("-A and --per-core/--per-die/--per-node/--per-socket need -a or -C");
	if (opts.per_thread && !target__has_task(t))
		usage_error("--per-thread needs -p or -t");
	if (opts.csv_sep && opts.config.json_output)
		usage_error("-x and -j cannot be used together");
	if (opts.run_count < 1 || opts.run_count > 100)
		usage_error("--repeat takes a count from 1 to 100");
	if (opts.run_count > 1 && !argc)
		usage_error("--repeat needs a command to run");
	if (opts.config.interval_count && !opts.config.interval)
		usage_error("--interval-count needs -I");
	if (opts.config.interval && opts.config.interval < 10)
		usage_error("--interval-print takes at least 10 ms");
	if (opts.delay_ms < -1)
		usage_error("--delay takes milliseconds, or -1 to start disabled");
	if (opts.compare && (opts.run_count < 2 || !argc))
		usage_error("--compare needs a command and -r 2 or more: the test needs each counter's spread");
	if (opts.compare && (opts.config.interval || opts.dry_run))
		usage_error("--compare compares a run's totals: not with -I or --dry-run");
	check_compare_with(argc);
	check_more_options();
	check_hw_options();
	check_diff_options(opts.compare || opts.compare_with, usage_error);
	if (opts.timeout_ms && opts.timeout_ms < 100 && !opts.quiet)
		ui__warning("a timeout under 100 ms: counting's overhead may be a large part of it");
}

static void setup_config(int argc)
{
	struct perf_stat_config *c = &opts.config;

	c->run_count = opts.run_count;
	if (opts.csv_sep) {
		c->csv_output = true;
		c->csv_sep = strcmp(opts.csv_sep, "\\t") ? opts.csv_sep : "\t";
	}
	c->aggr_mode = opts.no_aggr ? AGGR_NONE : opts.per_core ? AGGR_CORE :
		       opts.per_die ? AGGR_DIE : opts.per_socket ? AGGR_SOCKET :
		       opts.per_thread ? AGGR_THREAD : opts.per_node ? AGGR_NODE : AGGR_GLOBAL;
	c->ru_display = argc && target__none(&opts.target);
}

/* The -o file starts with perf's "# started on" line and a blank line. */
static FILE *open_output(void)
{
	char msg[512];
	time_t now;
	FILE *fp;
	int fd;

	if (opts.quiet)
		return fopen("/dev/null", "w");
	if (opts.log_fd) {
		/* --log-fd: the caller's descriptor, without the "# started on" line */
		fp = fdopen(opts.log_fd, opts.append ? "a" : "w");
		if (!fp) {
			ui__error("cannot write the counts to --log-fd %d: %s", opts.log_fd,
				  strerror(errno));
			exit(failed(STAT_EXIT_TARGET));
		}
		return fp;
	}
	if (!opts.output_name)
		return stderr;
	/* perf's fopen() "w" or "a", without following a link at the path */
	fd = file__create(opts.output_name, opts.append ? FILE_CREATE_APPEND : FILE_CREATE_TRUNCATE,
			  0666, msg, sizeof(msg));
	fp = fd < 0 ? NULL : fdopen(fd, opts.append ? "a" : "w");
	if (!fp) {
		if (fd >= 0) {
			snprintf(msg, sizeof(msg), "cannot open '%s' for writing: %s",
				 opts.output_name, strerror(errno));
			close(fd);
		}
		ui__error("%s", msg);
		exit(failed(STAT_EXIT_FAILED));
	}
	now = time(NULL);
	fprintf(fp, "# started on %s\n", ctime(&now));	/* as perf: ctime() ends in \n */
	return fp;
}

/* Move the events of @from to the end of @to (both stay valid lists). */
static void evlist__splice(struct evlist *to, struct evlist *from)
{
	struct evsel *evsel, *tmp;

	list_for_each_entry_safe(evsel, tmp, &from->entries, node) {
		list_del_init(&evsel->node);
		evlist__add(to, evsel);
	}
	to->nr_groups += from->nr_groups;
	from->nr_entries = 0;
	from->nr_groups = 0;
}

/*
 * -M: the metrics' events after -e's.  As perf 6.1, a metric that cannot
 * be set up is said and -M is ignored (the default events are counted);
 * where there is no table tperf says once why and how to give one.
 */
static void add_metric_events(void)
{
	struct metric_table *table;
	struct evlist *tmp;
	char msg[1024];
	int err;

	if (!opts.metrics || opts.config.null_run)
		return;
	err = metric_table__load(&table, msg, sizeof(msg));
	if (err || !table) {
		if (!opts.quiet)
			ui__warning("-M '%s' has no effect: %s", opts.metrics, msg);
		return;
	}
	tmp = evlist__new();
	if (!tmp) {
		metric_table__delete(table);
		ui__error("out of memory");
		return;
	}
	tmp->parse = opts.evlist->parse;
	tmp->say = opts.evlist->say;
	err = metricgroup__parse(&opts.metric_list, table, opts.metrics, opts.metric_no_group,
				 opts.metric_no_merge, tmp, msg, sizeof(msg));
	if (err) {
		/* perf's words for a name that is not in the table */
		if (err == -ENOENT)
			fprintf(stderr, "%s\n", msg);
		else
			ui__error("%s", msg);
		metricgroup__exit(&opts.metric_list);
	} else {
		if (opts.metric_list.ungrouped_events)
			pr_debug("metrics without a group: events '%s'\n",
				 opts.metric_list.ungrouped_events);
		for (int i = 0; i < opts.metric_list.nr; i++)
			if (opts.metric_list.metrics[i].events)
				pr_debug("metric '%s': events '%s'\n",
					 opts.metric_list.metrics[i].pm->name,
					 opts.metric_list.metrics[i].events);
		evlist__splice(opts.evlist, tmp);
		opts.config.metrics = &opts.metric_list;
	}
	evlist__delete(tmp);
}

/* perf's default events: the hardware ones show <not supported> here. */
static int add_default_events(void)
{
	struct parse_events_error err;
	char list[256];

	perf_stat__default_events(&opts.target, list, sizeof(list));
	if (parse_events(opts.evlist, list, &err)) {
		ui__error("cannot set up the default events");
		return -1;
	}
	opts.default_events = true;
	return perf_stat__init_evlist(&opts.config, opts.evlist);
}

/* -d, -dd, -ddd: perf's cache events after the others (<not supported> here). */
static int add_detailed_events(void)
{
	struct parse_events_error err;
	char list[512];

	if (!opts.detailed || opts.config.null_run)
		return 0;
	perf_stat__detailed_events(opts.detailed, list, sizeof(list));
	if (parse_events(opts.evlist, list, &err)) {
		ui__error("cannot set up the events of -d");
		return -1;
	}
	return perf_stat__init_evlist(&opts.config, opts.evlist);
}

/* Parse @list into @evlist as one -e, with its --filter's; 0 or -1 after the message. */
static int parse_into(struct evlist *evlist, const char *list, const struct string_list *filters)
{
	struct parse_events_error err;
	char msg[512];

	if (parse_events(evlist, list, &err)) {
		ui__error("cannot parse events '%s' again for --for-each-cgroup", list);
		parse_events_error__exit(&err);
		return -1;
	}
	parse_events__end_option(evlist);
	for (int i = 0; filters && i < filters->n; i++)
		if (parse_events__filter_last(evlist, filters->v[i], msg, sizeof(msg))) {
			ui__error("%s", msg);
			return -1;
		}
	return 0;
}

/* The events of one cgroup of --for-each-cgroup, all of them, added to @evlist. */
static int add_cgroup_events(struct evlist *evlist, const char *name)
{
	int start = evlist->nr_entries;
	struct evsel *evsel;
	char list[512], msg[512];

	for (int i = 0; i < opts.nr_specs; i++)
		if (parse_into(evlist, opts.specs[i].events, &opts.specs[i].filters))
			return -1;
	if (opts.default_events) {
		perf_stat__default_events(&opts.target, list, sizeof(list));
		if (parse_into(evlist, list, NULL))
			return -1;
	}
	if (opts.detailed) {
		perf_stat__detailed_events(opts.detailed, list, sizeof(list));
		if (parse_into(evlist, list, NULL))
			return -1;
	}
	evlist__for_each_entry(evlist, evsel)
		if (evsel->idx >= start && evsel__set_cgroup(evsel, name, msg, sizeof(msg))) {
			ui__error("%s", msg);
			return -1;
		}
	return 0;
}

/*
 * --for-each-cgroup A,B: every event once for A, then once for B, as perf
 * expands them.  The events are parsed again from what was given rather
 * than copied, so that each copy is made as the first was.
 */
static int expand_cgroups(void)
{
	struct evlist *evlist;
	const char *p = opts.for_each_cgroup;

	if (!p || opts.config.null_run)
		return 0;
	evlist = evlist__new();
	if (!evlist) {
		ui__error("out of memory");
		return -1;
	}
	evlist->parse = opts.evlist->parse;
	evlist->say = opts.evlist->say;
	for (;;) {
		size_t len = strcspn(p, ",");
		char name[PATH_MAX];

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (len && add_cgroup_events(evlist, name)) {
			evlist__delete(evlist);
			return -1;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	perf_stat__exit_evlist(opts.evlist);
	evlist__delete(opts.evlist);
	opts.evlist = evlist;
	if (perf_stat__init_evlist(&opts.config, opts.evlist)) {
		ui__error("out of memory");
		return -1;
	}
	return 0;
}

/* -g, --all-user, --all-kernel: on every event, the ones -d added too. */
static void config_events(struct evlist *evlist)
{
	struct evsel *evsel;

	if (opts.group)
		evlist__set_leader(evlist);
	evlist__for_each_entry(evlist, evsel) {
		if (opts.all_user) {
			evsel->attr.exclude_kernel = 1;
			evsel->attr.exclude_user = 0;
		}
		if (opts.all_kernel) {
			evsel->attr.exclude_kernel = 0;
			evsel->attr.exclude_user = 1;
		}
	}
}

/* The events and their maps: 0, or the exit status after the message. */
static int prepare_events(void)
{
	char buf[512];
	int err;

	if (opts.config.null_run) {
		/* --null: only the elapsed time, no counter at all */
		evlist__delete(opts.evlist);
		opts.evlist = evlist__new();
		if (!opts.evlist)
			return STAT_EXIT_FAILED;
	} else if (add_metric_events(), !opts.evlist->nr_entries) {
		if (add_default_events())
			return STAT_EXIT_FAILED;
	} else if (perf_stat__init_evlist(&opts.config, opts.evlist)) {
		ui__error("out of memory");
		return STAT_EXIT_FAILED;
	}
	if (add_detailed_events() || expand_cgroups())
		return STAT_EXIT_FAILED;
	config_events(opts.evlist);
	err = target__validate(&opts.target, buf, sizeof(buf));
	if (err) {
		ui__error("%s", buf);
		return STAT_EXIT_TARGET;
	}
	if (*buf)
		ui__warning("%s", buf);
	if (opts.dry_run)
		return 0;	/* nothing is opened: no CPUs or threads to look up */
	err = evlist__create_maps(opts.evlist, &opts.target, buf, sizeof(buf));
	if (err) {
		ui__error("%s", buf);
		/* perf finds a missing thread of -t when it opens the events */
		return opts.target.tid && err == -ESRCH ? STAT_EXIT_FAILED : STAT_EXIT_TARGET;
	}
	return 0;
}

/*
 * Why hardware events show <not supported>, after the table (never in CSV
 * or JSON).  Asked-for events always get it; perf's default set only when
 * a person reads stderr, so that a script sees perf's output unchanged.
 */
static void note_unsupported(const struct stat_run *r)
{
	if (!r->nr_unsupported_hw || opts.quiet || opts.csv_sep || opts.config.json_output)
		return;
	if (opts.default_events && !isatty(STDERR_FILENO))
		return;
	ui__note("hardware events are not supported on this machine (no PMU?); try -e cpu-clock");
}

/*
 * The workload's exit status is tperf's.  One killed by a signal gives 0,
 * as in perf (the signal was named before the counts); a signal that
 * stopped tperf itself ends it the same way.
 */
static int finish(const struct stat_run *r, int argc)
{
	if (r->signr) {
		fflush(NULL);
		probe_sdt__cleanup();	/* raise() ends tperf without atexit */
		signal(r->signr, SIG_DFL);
		raise(r->signr);
	}
	/* perf's status after a failed --pre: system()'s, in a byte (`exit 3`: 0) */
	if (r->pre_status)
		return r->pre_status & 0xff;
	if (!argc || r->status < 0)
		return 0;
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 0;
}

/* A --pre or --post that failed, which perf leaves unsaid. */
static void note_commands(const struct stat_run *r)
{
	if (opts.quiet)
		return;
	if (r->nr_pre_failed)
		ui__warning("--pre '%s' failed in %d of %d runs: %s not counted", opts.pre_cmd,
			    r->nr_pre_failed, opts.run_count,
			    r->nr_pre_failed == 1 ? "that run was" : "those runs were");
	if (r->nr_post_failed)
		ui__warning("--post '%s' failed in %d of %d runs", opts.post_cmd,
			    r->nr_post_failed, opts.run_count);
}

/* A percentage with its sign, "-" when there is none (a base mean of 0). */
static void print_pct(double pct, int width)
{
	if (isnan(pct))
		printf("%*s", width, "-");
	else
		printf("%+*.2f%%", width - 1, pct);
}

/* The runs of every counter of one side when they are all equal, else 0. */
static int same_runs(const struct stat_diff *d, bool new)
{
	int runs = 0;

	for (int i = 0; i < d->nr; i++) {
		int n = new ? d->rows[i].new->runs : d->rows[i].base->runs;

		if (runs && n != runs)
			return 0;
		runs = n;
	}
	return runs;
}

static void print_name_runs(const char *name, int runs)
{
	printf("'%s'", name);
	if (runs)
		printf(" (%d runs)", runs);
}

static void print_only(const struct stat_count *const *list, int nr, const char *name)
{
	char buf[256];

	if (!nr)
		return;
	printf(" not compared, counted in '%s' only:", name);
	for (int i = 0; i < nr; i++)
		printf("%s %s", i ? "," : "", stat_count__name(list[i], buf, sizeof(buf)));
	printf("\n");
}

/*
 * The test the rows used: Welch's, or the paired one of --compare-with
 * (Welch's still for a counter without each run's value).
 */
static const char *diff_test_name(const struct stat_diff *d, bool json)
{
	int paired = 0;

	for (int i = 0; i < d->nr; i++)
		paired += d->rows[i].paired;
	if (!paired)
		return json ? "welch" : "Welch's t-test";
	if (paired == d->nr)
		return json ? "paired" : "paired t-test of the runs made side by side";
	return json ? "paired+welch" : "paired t-test (Welch's where a counter lacks run values)";
}

/* The comparison as a table: means, change, interval, p, verdict, counter. */
static void print_diff_std(const struct stat_diff *d, const char *base, const char *new)
{
	int unit_width = 0;
	char head[32], buf[256];

	for (int i = 0; i < d->nr; i++)
		if ((int)strlen(d->rows[i].base->unit) > unit_width)
			unit_width = strlen(d->rows[i].base->unit);
	printf("\n Comparison of ");
	print_name_runs(base, same_runs(d, false));
	printf(" and ");
	print_name_runs(new, same_runs(d, true));
	printf(":\n %s, %g%% confidence, threshold %g%%\n\n", diff_test_name(d, false),
	       opts.diff.confidence, opts.diff.threshold);
	snprintf(head, sizeof(head), "%g%% interval", opts.diff.confidence);
	printf("%15s %15s %9s   %-20s %8s  %-16s  %s\n", "base mean", "new mean", "change", head,
	       "p", "verdict", "counter");
	for (int i = 0; i < d->nr; i++) {
		const struct stat_diff_row *r = &d->rows[i];

		printf("%15.3f %15.3f ", r->base->mean, r->new->mean);
		print_pct(r->change, 9);
		printf("   [");
		print_pct(r->change_lo, 8);
		printf(", ");
		print_pct(r->change_hi, 8);
		printf("] %8.2g  %-16s  %-*s%s%s%s\n", r->w.p, stat_verdict__name(r->verdict),
		       unit_width, r->base->unit, unit_width ? " " : "",
		       stat_count__name(r->base, buf, sizeof(buf)),
		       r->higher_is_better ? " (higher is better)" : "");
	}
	printf("\n");
	print_only(d->only_base, d->nr_only_base, base);
	print_only(d->only_new, d->nr_only_new, new);
	printf(" %d regression%s, %d improvement%s beyond %g%% in %d counter%s\n\n",
	       d->nr_regressions, d->nr_regressions == 1 ? "" : "s", d->nr_improvements,
	       d->nr_improvements == 1 ? "" : "s", opts.diff.threshold, d->nr,
	       d->nr == 1 ? "" : "s");
}

static void json_key_num(const char *key, double val, const char *sep)
{
	printf("\"%s\" : ", key);
	json__fprint_number(stdout, val);
	fputs(sep, stdout);
}

static void json_key_str(const char *key, const char *val, const char *sep)
{
	printf("\"%s\" : ", key);
	json__fprint_string(stdout, val);
	fputs(sep, stdout);
}

static void print_json_only(const char *key, const struct stat_count *const *list, int nr)
{
	char buf[256];

	printf("  \"%s\" : [", key);
	for (int i = 0; i < nr; i++) {
		if (i)
			printf(", ");
		json__fprint_string(stdout, stat_count__name(list[i], buf, sizeof(buf)));
	}
	printf("],\n");
}

/* The comparison as one JSON object, a counter a line (fields in tperf-stat(1)). */
static void print_diff_json(const struct stat_diff *d, const char *base, const char *new)
{
	printf("{\n  ");
	json_key_str("base", base, ", ");
	json_key_str("new", new, ", ");
	json_key_str("test", diff_test_name(d, true), ", ");
	json_key_num("confidence", opts.diff.confidence, ", ");
	json_key_num("threshold", opts.diff.threshold, ",\n");
	printf("  \"counters\" : [\n");
	for (int i = 0; i < d->nr; i++) {
		const struct stat_diff_row *r = &d->rows[i];

		printf("    {");
		json_key_str("event", r->base->event, ", ");
		json_key_str("row", r->base->row, ", ");
		json_key_str("unit", r->base->unit, ", ");
		printf("\"higher-is-better\" : %s, ", r->higher_is_better ? "true" : "false");
		printf("\"base-runs\" : %d, ", r->base->runs);
		json_key_num("base-mean", r->base->mean, ", ");
		json_key_num("base-stddev", r->base->stddev, ", ");
		printf("\"new-runs\" : %d, ", r->new->runs);
		json_key_num("new-mean", r->new->mean, ", ");
		json_key_num("new-stddev", r->new->stddev, ", ");
		json_key_num("diff", r->w.diff, ", ");
		json_key_num("diff-low", r->lo, ", ");
		json_key_num("diff-high", r->hi, ", ");
		json_key_num("change", r->change, ", ");
		json_key_num("change-low", r->change_lo, ", ");
		json_key_num("change-high", r->change_hi, ", ");
		json_key_num("t", r->w.t, ", ");
		json_key_num("df", r->w.df, ", ");
		json_key_num("p", r->w.p, ", ");
		json_key_str("verdict", stat_verdict__name(r->verdict), "");
		printf("}%s\n", i + 1 < d->nr ? "," : "");
	}
	printf("  ],\n");
	print_json_only("only-in-base", d->only_base, d->nr_only_base);
	print_json_only("only-in-new", d->only_new, d->nr_only_new);
	printf("  \"regressions\" : %d, \"improvements\" : %d\n}\n", d->nr_regressions,
	       d->nr_improvements);
}

/* Compare, print, and the exit status: 0, 1 on a regression, 2. */
static int compare_counts(const struct stat_counts *base, const struct stat_counts *new,
			  const char *base_name, const char *new_name, bool paired)
{
	struct stat_diff_opts o = {
		.threshold = opts.diff.threshold, .confidence = opts.diff.confidence,
		.higher_is_better = opts.diff.higher_is_better.v,
		.base_name = base_name, .new_name = new_name, .paired = paired,
	};
	struct stat_diff d;
	char msg[1024];
	int ret;

	if (stat_diff__compute(&d, base, new, &o, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return DIFF_EXIT_ERROR;
	}
	if (opts.config.json_output)
		print_diff_json(&d, base_name, new_name);
	else
		print_diff_std(&d, base_name, new_name);
	ret = d.nr_regressions ? DIFF_EXIT_REGRESSION : 0;
	stat_diff__exit(&d);
	return ret;
}

static void diff_usage_error(const char *msg)
{
	usage_error_exit(stat_diff_usage, stat_diff_options, msg, DIFF_EXIT_ERROR);
}

/* tperf stat diff BASE NEW: the two files of stat -r -j compared. */
static int cmd_stat_diff(int argc, const char **argv)
{
	struct stat_counts base, new;
	char msg[1024];
	int ret;

	argc = parse_options_exit(argc, argv, stat_diff_options, stat_diff_usage, 0,
				  DIFF_EXIT_ERROR);
	if (argc != 2)
		diff_usage_error("give two files of tperf stat -r N -j: the baseline, then the new runs");
	check_diff_options(true, diff_usage_error);
	if (stat_counts__read(&base, argv[0], msg, sizeof(msg))) {
		ui__error("%s", msg);
		return DIFF_EXIT_ERROR;
	}
	if (stat_counts__read(&new, argv[1], msg, sizeof(msg))) {
		ui__error("%s", msg);
		stat_counts__exit(&base);
		return DIFF_EXIT_ERROR;
	}
	ret = compare_counts(&base, &new, argv[0], argv[1], false);
	stat_counts__exit(&base);
	stat_counts__exit(&new);
	return ret;
}

/* A command that failed gives nothing to compare: true after the message. */
static bool run_failed(int status, const char *what, const char *cmd)
{
	if (status < 0 || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return false;
	if (WIFEXITED(status))
		ui__error("%s'%s' exited with status %d: nothing compared", what, cmd,
			  WEXITSTATUS(status));
	else
		ui__error("%s'%s' was killed: nothing compared", what, cmd);
	return true;
}

/* The final counts of @evlist, as -j writes and stat diff reads them. */
static int run_counts(const struct perf_stat_config *config, struct evlist *evlist,
		      struct stat_counts *counts, const char *what)
{
	char *text, msg[1024];
	size_t len;
	int ret;

	if (perf_stat__json_text(config, evlist, &text, &len)) {
		ui__error("out of memory");
		return -ENOMEM;
	}
	ret = stat_counts__parse(counts, text, len, msg, sizeof(msg));
	free(text);
	if (ret)
		ui__error("%s counts: %s", what, msg);
	return ret;
}

/*
 * --compare: this run's counts, as -j writes them, against the baseline.
 * A command that failed gives nothing to compare.
 */
static int compare_run(const struct stat_run *r, const struct stat_counts *base, int argc,
		       const char **argv)
{
	const char *name = opts.output_name ? opts.output_name : "this run";
	struct stat_counts now;
	int ret;

	if (run_failed(r->status, "", argv[0]) ||
	    run_counts(&opts.config, opts.evlist, &now, "this run's"))
		return DIFF_EXIT_ERROR;
	ret = compare_counts(base, &now, opts.compare, name, false);
	stat_counts__exit(&now);
	return ret;
}

/* --compare-with: the baseline's own events (parsed again), config and command. */
static int prepare_baseline(struct stat_run *b)
{
	struct evlist *evlist;
	char list[512], buf[512];
	int n = argv_split(opts.compare_with, &opts.base_argv);

	if (n <= 0) {
		ui__error("--compare-with '%s': %s", opts.compare_with,
			  n ? "an unclosed quote or a trailing backslash" : "no command");
		return DIFF_EXIT_ERROR;
	}
	evlist = evlist__new();
	if (!evlist)
		return STAT_EXIT_FAILED;
	evlist->parse = opts.evlist->parse;
	evlist->say = opts.evlist->say;
	for (int i = 0; i < opts.nr_specs; i++)
		if (parse_into(evlist, opts.specs[i].events, &opts.specs[i].filters))
			return STAT_EXIT_FAILED;
	if (opts.default_events) {
		perf_stat__default_events(&opts.target, list, sizeof(list));
		if (parse_into(evlist, list, NULL))
			return STAT_EXIT_FAILED;
	}
	if (opts.detailed) {
		perf_stat__detailed_events(opts.detailed, list, sizeof(list));
		if (parse_into(evlist, list, NULL))
			return STAT_EXIT_FAILED;
	}
	config_events(evlist);
	opts.base_config = opts.config;
	opts.base_config.walltime_run = NULL;
	opts.base_config.walltime_run_table = false;
	if (perf_stat__init_evlist(&opts.base_config, evlist) ||
	    evlist__create_maps(evlist, &opts.target, buf, sizeof(buf))) {
		ui__error("the baseline's events: %s", *buf ? buf : "out of memory");
		return STAT_EXIT_FAILED;
	}
	*b = (struct stat_run){ .config = &opts.base_config, .evlist = evlist,
				.target = &opts.target, .argc = n,
				.argv = (const char **)opts.base_argv, .delay_ms = opts.delay_ms,
				.timeout_ms = opts.timeout_ms, .sync = opts.sync,
				.pre_cmd = opts.pre_cmd, .post_cmd = opts.post_cmd,
				.ctl = NULL };
	return 0;
}

/* --compare-with: the baseline's runs against ours, pair by pair. */
static int compare_with_baseline(const struct stat_run *r, struct stat_run *b, int argc,
				 const char **argv)
{
	struct stat_counts base, now;
	char name[512] = "";
	int ret;

	for (int i = 0; i < argc && strlen(name) + 2 < sizeof(name); i++)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", i ? " " : "",
			 argv[i]);
	if (run_failed(b->status, "the baseline ", opts.compare_with) ||
	    run_failed(r->status, "", argv[0]))
		return DIFF_EXIT_ERROR;
	if (run_counts(&opts.base_config, b->evlist, &base, "the baseline's"))
		return DIFF_EXIT_ERROR;
	if (run_counts(&opts.config, opts.evlist, &now, "this run's")) {
		stat_counts__exit(&base);
		return DIFF_EXIT_ERROR;
	}
	ret = compare_counts(&base, &now, opts.compare_with, name, true);
	stat_counts__exit(&base);
	stat_counts__exit(&now);
	return ret;
}

/*
 * stat record: the stat options may follow "record" too; -o names the
 * perf.data (default perf.data, the old one kept as .old) and the counts
 * go to stderr.  @full_argc: the arguments of opts.record.argv, for CMDLINE.
 */
static int record_options(int argc, const char **argv, int full_argc)
{
	argc = parse_options(argc, argv, stat_options, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (opts.run_count > 1) {
		ui__error("cannot use -r with stat record");
		exit(STAT_EXIT_FAILED);
	}
	if (opts.compare || opts.append)
		usage_error("--compare and --append do not go with stat record");
	opts.record.path = opts.output_name ? opts.output_name : "perf.data";
	opts.record.argc = full_argc;
	opts.output_name = NULL;
	return argc;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_run r = { 0 }, base = { 0 };
	struct probe_sdt *sdt;
	char msg[1024];
	int err, ret = 0;
	const int full_argc = argc;
	/* argv before parsing, for stat record's CMDLINE (kept in opts to the exit) */
	const char **full = opts.record.argv = calloc((size_t)argc + 1, sizeof(*full));

	setlocale(LC_NUMERIC, "");
	/* perf's way with its stat record/report: `tperf stat -- diff` runs diff(1) */
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cmd_stat_diff(argc - 1, argv + 1);
	perf_stat_config__init(&opts.config);
	opts.evlist = evlist__new();
	sdt = opts.evlist ? probe_sdt__attach(opts.evlist, argc, argv) : NULL; /* -e sdt_P:N -- ./prog */
	if (!sdt) {
		ui__error("out of memory");
		return STAT_EXIT_FAILED;
	}
	opts.evlist->parse.stat_terms = true;	/* record's terms are refused, as perf stat does */
	opts.evlist->say = builtin__say;
	if (!full) {
		ui__error("out of memory");
		return STAT_EXIT_FAILED;
	}
	memcpy(full, argv, (size_t)argc * sizeof(*full));
	argc = parse_options(argc, argv, stat_options, stat_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc && !strcmp(argv[0], "report")) {
		setup_config(0);
		/* as in perf, the aggregation options before "report" give way to the file's */
		return cmd_stat_report(argc, argv, &opts.config);
	}
	if (argc && !strcmp(argv[0], "record"))
		argc = record_options(argc, argv, full_argc);
	check_options(argc);
	setup_config(argc);
	open_control();
	if (opts.quiet)
		tperf_config.quiet = true;
	/* a bad baseline is found before the runs, not after */
	if (opts.compare && stat_counts__read(&opts.baseline, opts.compare, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return DIFF_EXIT_ERROR;
	}
	err = prepare_events();
	if (!err && opts.compare_with)
		err = prepare_baseline(&base);
	if (err)
		return failed(err);
	opts.config.output = open_output();
	r = (struct stat_run){ .config = &opts.config, .evlist = opts.evlist,
			       .target = &opts.target, .argc = argc, .argv = argv,
			       .delay_ms = opts.delay_ms, .dry_run = opts.dry_run,
			       .timeout_ms = opts.timeout_ms, .sync = opts.sync,
			       .pre_cmd = opts.pre_cmd, .post_cmd = opts.post_cmd,
			       .ctl = opts.ctl.fd >= 0 ? &opts.ctl : NULL,
			       .record = opts.record.path && !opts.dry_run ? &opts.record : NULL,
			       .baseline = opts.compare_with ? &base : NULL };
	err = stat_run__run(&r);
	if (err) {
		ui__error("%s", r.msg);
		return failed(STAT_EXIT_FAILED);
	}
	note_unsupported(&r);
	note_commands(&r);
	free(opts.config.walltime_run);
	for (int i = 0; i < opts.nr_specs; i++)
		free(opts.specs[i].filters.v);
	free(opts.specs);
	if (opts.config.output != stderr && fclose(opts.config.output)) {
		if (opts.log_fd && !opts.quiet)
			ui__error("cannot write to --log-fd %d: %s", opts.log_fd, strerror(errno));
		else
			ui__error("cannot write '%s': %s", opts.output_name, strerror(errno));
		return failed(STAT_EXIT_FAILED);
	}
	if (opts.compare && !r.signr) {
		ret = compare_run(&r, &opts.baseline, argc, argv);
		stat_counts__exit(&opts.baseline);
	}
	if (opts.compare_with && !r.signr)
		ret = compare_with_baseline(&r, &base, argc, argv);
	if (base.evlist) {
		perf_stat__exit_evlist(base.evlist);
		evlist__delete(base.evlist);
	}
	free(opts.base_argv);
	perf_stat__exit_evlist(opts.evlist);
	evlist__delete(opts.evlist);
	metricgroup__exit(&opts.metric_list);
	free(opts.metrics);
	probe_sdt__delete(sdt);
	if ((opts.compare || opts.compare_with) && !r.signr)
		return ret;
	return finish(&r, argc);
}
