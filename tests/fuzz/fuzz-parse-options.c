// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for util/parse-options: the input is a command line, split
 * into arguments at NUL bytes and newlines.  The first byte chooses the
 * parse flags.  The table holds every option type and option flag, so
 * each code path of the parser can be reached.  Parsing must never crash,
 * leak or break its contract (remaining arguments NULL-ended, in range).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/parse-options.h"

#define MAX_ARGS 64

struct fuzz_opts {
	bool all, g, inherit, big, big_set, noneg;
	int verbose, repeat, cb_noarg;
	unsigned int pages, mode;
	uint64_t period;
	double ratio;
	const char *sep, *output, *nonempty, *optarg_str;
	struct string_list events;
	const char *cb_optarg;
};

static int cb_noarg(const struct option *opt, const char *arg, int unset)
{
	int *v = opt->value;

	*v = unset ? 0 : *v + 1;
	return 0;
}

/* Refuses "bad" so the callback error path is exercised too. */
static int cb_optarg(const struct option *opt, const char *arg, int unset)
{
	const char **v = opt->value;

	if (arg && !strcmp(arg, "bad"))
		return -1;
	*v = unset ? NULL : arg ? arg : (const char *)opt->data;
	return 0;
}

static int parse(struct fuzz_opts *o, int argc, const char **argv, int flags,
		 char *err, size_t errsize)
{
	const struct option options[] = {
		OPT_GROUP("Group one:"),
		OPT_BOOLEAN('a', "all-cpus", &o->all, "system-wide"),
		OPT_BOOLEAN('g', NULL, &o->g, "callchains"),
		OPT_BOOLEAN(0, "no-inherit", &o->inherit, "do not follow children"),
		OPT_BOOLEAN_SET('B', "big-num", &o->big, &o->big_set, "thousands separators"),
		{ .type = OPTION_BOOLEAN, .long_name = "noneg", .value = &o->noneg,
		  .help = "cannot be negated", .flags = PARSE_OPT_NONEG },
		OPT_INCR('v', "verbose", &o->verbose, "more messages"),
		OPT_SET_UINT('m', "mode", &o->mode, "set a mode", 3),
		OPT_GROUP("Group two:"),
		OPT_INTEGER('r', "repeat", &o->repeat, "repeat"),
		OPT_UINTEGER(0, "mmap-pages", &o->pages, "pages"),
		OPT_U64('c', "count", &o->period, "period"),
		OPT_DOUBLE(0, "ratio", &o->ratio, "a ratio"),
		OPT_STRING('x', "field-separator", &o->sep, "separator", "CSV"),
		OPT_STRING('o', "output", &o->output, "file", "output file"),
		OPT_STRING(0, "output-dir", &o->output, "dir", "output directory"),
		{ .type = OPTION_STRING, .long_name = "nonempty", .value = &o->nonempty,
		  .argh = "s", .help = "no empty value", .flags = PARSE_OPT_NOEMPTY },
		OPT_STRING_OPTARG('s', "sort", &o->optarg_str, "key", "sort", "dso"),
		OPT_CALLBACK('e', "event", &o->events, "event", "event selector",
			     parse_opt_string_list),
		OPT_CALLBACK_NOOPT('n', "null", &o->cb_noarg, NULL, "count", cb_noarg),
		OPT_CALLBACK_OPTARG('C', "call-graph", &o->cb_optarg, (void *)"fp", "mode",
				    "callchain mode", cb_optarg),
		{ .type = OPTION_BOOLEAN, .long_name = "hidden", .value = &o->all,
		  .help = "hidden", .flags = PARSE_OPT_HIDDEN },
		OPT_END()
	};
	static const char *const usage[] = { "fuzz [<options>]", "fuzz other", "",
					     "a note", NULL };
	static FILE *null_fp;
	int r;

	r = parse_options_noexit(argc, argv, options, flags, err, errsize);
	if (r == -2) {
		if (!null_fp)
			null_fp = fopen("/dev/null", "w");
		if (null_fp)
			usage_with_options_fp(null_fp, usage, options);
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int flag_sets[] = { 0, PARSE_OPT_STOP_AT_NON_OPTION,
					 PARSE_OPT_KEEP_DASHDASH, PARSE_OPT_KEEP_UNKNOWN };
	const char *argv[MAX_ARGS + 2];
	struct fuzz_opts o;
	char err[256];
	char *args[MAX_ARGS];
	int argc = 1, flags, r;
	size_t i, start;

	if (!size)
		return 0;
	flags = flag_sets[data[0] & 3] | (data[0] & 4 ? PARSE_OPT_KEEP_DASHDASH : 0);
	data++;
	size--;
	argv[0] = "fuzz";
	/* each argument in its own allocation, so ASan sees any overread */
	for (start = 0, i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i < size && data[i] != '\0' && data[i] != '\n')
			continue;
		args[argc - 1] = malloc(i - start + 1);
		if (!args[argc - 1])
			break;
		memcpy(args[argc - 1], data + start, i - start);
		args[argc - 1][i - start] = '\0';
		argv[argc] = args[argc - 1];
		argc++;
		start = i + 1;
	}
	argv[argc] = NULL;

	memset(&o, 0, sizeof(o));
	r = parse(&o, argc, argv, flags, err, sizeof(err));
	if (r >= 0) {
		/* the contract: r remaining arguments, then NULL */
		if (r > argc - 1 || argv[r] != NULL)
			__builtin_trap();
		for (int k = 0; k < r; k++)
			if (!argv[k])
				__builtin_trap();
	} else if (r == -1 && !err[0]) {
		__builtin_trap();	/* a usage error always says what is wrong */
	}
	if (memchr(err, '\0', sizeof(err)) == NULL)
		__builtin_trap();
	free(o.events.v);
	for (int k = 0; k < argc - 1; k++)
		free(args[k]);
	return 0;
}
