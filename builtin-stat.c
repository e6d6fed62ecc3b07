// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf stat: count events while a command runs (or system-wide, or on
 * existing processes) and print the totals as Linux perf stat does.  Glue
 * only: the option table fills stat_opts, util/stat/stat-run.c does the work.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/file-out.h"
#include "util/event/evlist.h"
#include "util/event/parse-events.h"
#include "util/lib/parse-options.h"
#include "util/probe/probe-sdt.h"
#include "util/stat/stat-display.h"
#include "util/stat/stat-run.h"
#include "util/stat/stat.h"
#include "util/event/target.h"

static struct stat_opts {
	struct evlist *evlist;
	struct target target;
	struct perf_stat_config config;
	bool no_aggr, per_core, per_socket, per_die, per_thread;
	bool append, dry_run, quiet;
	bool default_events;		/* no -e: perf's default set */
	const char *output_name;
	const char *csv_sep;
	int delay_ms;
	int run_count;
} opts = {
	.run_count = 1,
};

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
	NULL
};

static const struct option stat_options[] = {
	OPT_CALLBACK('e', "event", &opts.evlist, "event",
		     "event selector. use 'tperf list' to list available events",
		     parse_events_option),
	OPT_CALLBACK(0, "filter", &opts.evlist, "filter", "event filter", parse_tp_filter_option),
	OPT_BOOLEAN('i', "no-inherit", &opts.target.no_inherit,
		    "child tasks do not inherit counters"),
	OPT_STRING('p', "pid", &opts.target.pid, "pid", "stat events on existing process id"),
	OPT_STRING('t', "tid", &opts.target.tid, "tid", "stat events on existing thread id"),
	OPT_BOOLEAN('a', "all-cpus", &opts.target.system_wide,
		    "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &opts.target.cpu_list, "cpu",
		   "list of cpus to monitor in system-wide"),
	OPT_BOOLEAN('A', "no-aggr", &opts.no_aggr, "disable CPU count aggregation"),
	OPT_BOOLEAN(0, "per-socket", &opts.per_socket, "aggregate counts per processor socket"),
	OPT_BOOLEAN(0, "per-die", &opts.per_die, "aggregate counts per processor die"),
	OPT_BOOLEAN(0, "per-core", &opts.per_core,
		    "aggregate counts per physical processor core"),
	OPT_BOOLEAN(0, "per-thread", &opts.per_thread, "aggregate counts per thread"),
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
	OPT_BOOLEAN(0, "quiet", &opts.quiet, "don't print any output, messages or warnings"),
	OPT_BOOLEAN(0, "dry-run", &opts.dry_run,
		    "parse the events and set up the attrs, open nothing (-vv prints them)"),
	OPT_END()
};

static void usage_error(const char *msg)
{
	usage_with_options_msg(stat_usage, stat_options, "%s", msg);
}

static void check_options(int argc)
{
	struct target *t = &opts.target;
	int aggr = opts.no_aggr + opts.per_core + opts.per_socket + opts.per_die +
		   opts.per_thread;

	if (aggr > 1)
		usage_error("-A, --per-core, --per-die, --per-socket and --per-thread are exclusive");
	if ((opts.no_aggr || opts.per_core || opts.per_socket || opts.per_die) &&
	    !target__has_cpu(t))
		usage_error("-A and --per-core/--per-die/--per-socket need -a or -C");
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
	if (!argc && target__none(t) && !opts.dry_run)
		usage_error("give a command to run, or -a, -C, -p or -t");
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
		       opts.per_thread ? AGGR_THREAD : AGGR_GLOBAL;
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
		exit(STAT_EXIT_FAILED);
	}
	now = time(NULL);
	fprintf(fp, "# started on %s\n", ctime(&now));	/* as perf: ctime() ends in \n */
	return fp;
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
	} else if (!opts.evlist->nr_entries) {
		if (add_default_events())
			return STAT_EXIT_FAILED;
	} else if (perf_stat__init_evlist(&opts.config, opts.evlist)) {
		ui__error("out of memory");
		return STAT_EXIT_FAILED;
	}
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
	if (!argc || r->status < 0)
		return 0;
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 0;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_run r = { 0 };
	struct probe_sdt *sdt;
	int err;

	setlocale(LC_NUMERIC, "");
	perf_stat_config__init(&opts.config);
	opts.evlist = evlist__new();
	sdt = opts.evlist ? probe_sdt__attach(opts.evlist, argc, argv) : NULL; /* -e sdt_P:N -- ./prog */
	if (!sdt) {
		ui__error("out of memory");
		return STAT_EXIT_FAILED;
	}
	opts.evlist->parse.stat_terms = true;	/* record's terms are refused, as perf stat does */
	opts.evlist->say = builtin__say;
	argc = parse_options(argc, argv, stat_options, stat_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	check_options(argc);
	setup_config(argc);
	if (opts.quiet)
		tperf_config.quiet = true;
	err = prepare_events();
	if (err)
		return err;
	opts.config.output = open_output();
	r = (struct stat_run){ .config = &opts.config, .evlist = opts.evlist,
			       .target = &opts.target, .argc = argc, .argv = argv,
			       .delay_ms = opts.delay_ms, .dry_run = opts.dry_run };
	err = stat_run__run(&r);
	if (err) {
		ui__error("%s", r.msg);
		return STAT_EXIT_FAILED;
	}
	note_unsupported(&r);
	if (opts.config.output != stderr && fclose(opts.config.output)) {
		ui__error("cannot write '%s': %s", opts.output_name, strerror(errno));
		return STAT_EXIT_FAILED;
	}
	perf_stat__exit_evlist(opts.evlist);
	evlist__delete(opts.evlist);
	probe_sdt__delete(sdt);
	return finish(&r, argc);
}
