/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TPERF_BUILTIN_H
#define TPERF_BUILTIN_H

/* One entry point per subcommand: argv[0] is the command name. */
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
int cmd_test(int argc, const char **argv);

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
