// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf stat report: print the counts of a `stat record` file (tperf's or
 * perf's) as the run printed them.  Glue: util/stat/stat-report.c reads
 * and prints through stat-display.  The output options given before
 * "report" (tperf stat -x, report, -j, -A) come in @config, as with perf.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/lib/parse-options.h"
#include "util/perf-data/data.h"
#include "util/stat/stat-report.h"

static struct stat_report_opts {
	const char *input;
	bool no_aggr, per_core, per_die, per_socket;
} report_opts;

static const char *const stat_report_usage[] = {
	"tperf stat report [<options>]",
	NULL
};

static const struct option stat_report_options[] = {
	OPT_BOOLEAN('A', "no-aggr", &report_opts.no_aggr, "disable CPU count aggregation"),
	OPT_STRING('i', "input", &report_opts.input, "file", "input file name"),
	OPT_BOOLEAN(0, "per-core", &report_opts.per_core,
		    "aggregate counts per physical processor core"),
	OPT_BOOLEAN(0, "per-die", &report_opts.per_die, "aggregate counts per processor die"),
	OPT_BOOLEAN(0, "per-socket", &report_opts.per_socket,
		    "aggregate counts per processor socket"),
	OPT_END()
};

/* perf stat's status when it cannot count or read (its -1) */
#define STAT_REPORT_FAILED 255

int cmd_stat_report(int argc, const char **argv, struct perf_stat_config *config)
{
	bool aggr_given = false;
	struct stat_report rep = { .config = config, .say = builtin__say };
	struct stat_report_opts *o = &report_opts;
	int err;

	argc = parse_options(argc, argv, stat_report_options, stat_report_usage, 0);
	if (argc)
		usage_with_options_msg(stat_report_usage, stat_report_options, "%s",
				       "stat report takes no argument: the file is -i");
	if (o->no_aggr + o->per_core + o->per_die + o->per_socket > 1)
		usage_with_options_msg(stat_report_usage, stat_report_options, "%s",
				       "-A, --per-core, --per-die and --per-socket are exclusive");
	if (o->no_aggr || o->per_core || o->per_die || o->per_socket) {
		config->aggr_mode = o->no_aggr ? AGGR_NONE : o->per_core ? AGGR_CORE :
				    o->per_die ? AGGR_DIE : AGGR_SOCKET;
		aggr_given = true;
	}
	rep.aggr_given = aggr_given;
	rep.path = o->input ? o->input : perf_data__default_input();
	config->output = stderr;	/* perf stat report prints where perf stat does */
	err = stat_report__run(&rep);
	if (err) {
		fflush(stderr);
		ui__error("%s", rep.msg);
		return STAT_REPORT_FAILED;
	}
	return 0;
}
