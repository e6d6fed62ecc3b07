/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line option parsing shared by every subcommand.
 *
 * Each builtin describes its options once, in a `struct option[]` built with
 * the OPT_* macros; parsing, `-h`, usage text and `--list-opts` all come from
 * that table.  Accepted forms: short options (`-a`), grouped short flags
 * (`-ag`), attached or separate values (`-x,`, `-e cycles`), long options
 * with `--opt=val` or `--opt val`, unique prefixes of long options,
 * `--no-opt` negation and `--` to end the options.
 */
#ifndef TPERF_PARSE_OPTIONS_H
#define TPERF_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in the usage text */
	OPTION_BOOLEAN,		/* bool: set true, --no-X sets false */
	OPTION_INCR,		/* int: incremented each time (-v -v) */
	OPTION_SET_UINT,	/* unsigned: set to defval */
	OPTION_INTEGER,		/* int */
	OPTION_UINTEGER,	/* unsigned int */
	OPTION_U64,		/* uint64_t */
	OPTION_DOUBLE,		/* double */
	OPTION_STRING,		/* const char * */
	OPTION_CALLBACK,	/* calls callback(opt, arg, unset) */
};

enum parse_opt_flags {
	PARSE_OPT_OPTARG  = 1 << 0,	/* the value is optional (--x=v or -xv only) */
	PARSE_OPT_NOARG   = 1 << 1,	/* a callback that takes no value */
	PARSE_OPT_NONEG   = 1 << 2,	/* --no-X is refused */
	PARSE_OPT_HIDDEN  = 1 << 3,	/* not shown in the usage */
	PARSE_OPT_NOEMPTY = 1 << 4,	/* an empty string value is refused */
	/* with OPTARG: also take the next argument unless it is the last one
	 * or starts with '-' (perf's OPT_CALLBACK_DEFAULT: `-g none`) */
	PARSE_OPT_LASTARG_DEFAULT = 1 << 5,
};

enum parse_flags {
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,	/* stop at the first non-option (a workload) */
	PARSE_OPT_KEEP_DASHDASH      = 1 << 1,	/* leave `--` in the remaining arguments */
	PARSE_OPT_KEEP_UNKNOWN       = 1 << 2,	/* pass unknown options through */
};

struct option;
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* name of the value in the usage: <argh> */
	const char *help;
	int flags;
	parse_opt_cb *callback;
	intptr_t defval;	/* OPTARG default for INTEGER/STRING, value for SET_UINT */
	bool *set;		/* when not NULL, set to true when the option is seen */
	void *data;		/* free for callbacks */
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_GROUP(h)	{ .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
#define OPT_BOOLEAN_SET(s, l, v, os, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .set = (os) }
#define OPT_INCR(s, l, v, h) \
	{ .type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_UINT(s, l, v, h, i) \
	{ .type = OPTION_SET_UINT, .short_name = (s), .long_name = (l), .value = (v), \
	  .help = (h), .defval = (i) }
#define OPT_INTEGER(s, l, v, h) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = "n", .help = (h) }
#define OPT_UINTEGER(s, l, v, h) \
	{ .type = OPTION_UINTEGER, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h) \
	{ .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = "n", .help = (h) }
#define OPT_DOUBLE(s, l, v, h) \
	{ .type = OPTION_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = "n", .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_OPTARG, .defval = (intptr_t)(d) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOOPT(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_NOARG }
#define OPT_CALLBACK_OPTARG(s, l, v, d, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_OPTARG, .data = (d) }

/* A callback whose value is optional, also as the next argument (`-g none`). */
#define OPT_CALLBACK_DEFAULT(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f), \
	  .flags = PARSE_OPT_OPTARG | PARSE_OPT_LASTARG_DEFAULT }

/* Exit status for usage errors, as git and perf use. */
#define PARSE_OPT_USAGE_EXIT 129

/**
 * parse_options - parse @argv against @options
 * @argc: number of arguments, argv[0] being the command name
 * @argv: the arguments; rewritten to hold the remaining non-options
 * @options: the option table, ended by OPT_END()
 * @usagestr: usage lines ("tperf stat [<options>] [<command>]"), NULL-ended
 * @flags: PARSE_OPT_* parse flags
 *
 * On `-h`/`--help` prints the usage to stdout and exits 129; on
 * `--list-opts` prints the long options and exits 0; on a usage error prints
 * the error, a suggestion and the usage to stderr and exits 129.
 *
 * Return: the number of remaining arguments (left in argv[0..n-1]).
 */
int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags);

/*
 * parse_options() for a command whose usage errors exit @status instead of
 * 129 (stat diff: 2, the status of its other errors); -h still exits 129.
 */
int parse_options_exit(int argc, const char **argv, const struct option *options,
		       const char *const usagestr[], int flags, int status);

/**
 * parse_options_noexit - like parse_options() but never exits
 * @errbuf: receives the error message on failure (may be NULL)
 *
 * Return: remaining argument count, -1 on a usage error, -2 when help was
 * asked for.  Nothing is printed.  Used by tests and fuzzers.
 */
int parse_options_noexit(int argc, const char **argv, const struct option *options,
			 int flags, char *errbuf, size_t errsize);

/* Print the generated usage of @options to @fp. */
void usage_with_options_fp(FILE *fp, const char *const usagestr[],
			   const struct option *options);
/* Print the usage to stderr and exit 129. */
void usage_with_options(const char *const usagestr[], const struct option *options)
	__attribute__((noreturn));
/* Print "error: MSG", the usage, and exit 129. */
void usage_with_options_msg(const char *const usagestr[], const struct option *options,
			    const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/* A repeatable string option (-e a -e b): OPT_CALLBACK(..., &list, ..., parse_opt_string_list). */
struct string_list {
	const char **v;	/* NULL-terminated */
	int n;
};
int parse_opt_string_list(const struct option *opt, const char *arg, int unset);

#endif
