/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TPERF_BUILTIN_H
#define TPERF_BUILTIN_H

#include <stdbool.h>

#include "util/lib/debug.h"

/* One entry point per subcommand: argv[0] is the command name. */
int cmd_annotate(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_ftrace(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
/*
 * tperf stat report (builtin-stat-report.c), called by cmd_stat() with the
 * output options given before "report" in @config.
 */
struct perf_stat_config;
int cmd_stat_report(int argc, const char **argv, struct perf_stat_config *config);
int cmd_test(int argc, const char **argv);

/*
 * From builtin-options.c: the callbacks of -e, --filter (tracepoints of the
 * last -e) and --exclude-perf, with opt->value a struct evlist ** (made at
 * the first -e); each prints its error and returns -1.
 */
struct option;
int parse_events_option(const struct option *opt, const char *str, int unset);
int parse_tp_filter_option(const struct option *opt, const char *str, int unset);
int parse_exclude_perf_option(const struct option *opt, const char *str, int unset);
/*
 * A text file an option names (--kallsyms): it must be readable and a
 * regular file or a pipe, not a device such as /dev/zero that never ends.
 * 0, or -1 after an error naming @opt and @path.
 */
int builtin__check_text_file(const char *opt, const char *path);
/*
 * strerror(@err) of a tracefs operation, saying what to do when tracefs
 * refused a user who is not root (EACCES, EPERM).
 */
const char *builtin__tracefs_strerror(int err);
/* The note of a command whose work mounted tracefs (tracefs__mount()). */
void builtin__note_tracefs(bool mounted);
/*
 * The printer of util/'s say() hooks (notes, warnings, progress on one
 * rewritten line), and the progress hook for a session: NULL when stderr
 * is no terminal or -q was given.
 */
void builtin__say(enum say_level level, const char *msg);
say_fn *builtin__progress(void);

/* From perf.c: the command table, for help and the self tests. */
struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	int flags;
	const char *summary;
};
#define CMD_USE_PAGER	(1 << 0)	/* page stdout when it is a terminal */

extern const struct cmd_struct commands[];
extern const int nr_commands;

#endif
