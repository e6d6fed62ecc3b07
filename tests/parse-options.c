// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/parse-options. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/lib/parse-options.h"

struct opts {
	bool a, g, inherit, big, big_set;
	int verbose, repeat;
	unsigned int pages;
	uint64_t period;
	double ratio;
	const char *sep, *output;
	struct string_list events;
};

static int parse(struct opts *o, int flags, char *err, size_t errsize, int argc,
		 const char **argv)
{
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &o->a, "system-wide"),
		OPT_BOOLEAN('g', NULL, &o->g, "callchains"),
		OPT_BOOLEAN(0, "no-inherit", &o->inherit, "do not follow children"),
		OPT_BOOLEAN_SET('B', "big-num", &o->big, &o->big_set, "thousands separators"),
		OPT_INCR('v', "verbose", &o->verbose, "more messages"),
		OPT_INTEGER('r', "repeat", &o->repeat, "repeat"),
		OPT_UINTEGER('m', "mmap-pages", &o->pages, "pages"),
		OPT_U64('c', "count", &o->period, "period"),
		OPT_DOUBLE(0, "ratio", &o->ratio, "a ratio"),
		OPT_STRING('x', "field-separator", &o->sep, "separator", "CSV"),
		OPT_STRING('o', "output", &o->output, "file", "output file"),
		OPT_STRING(0, "output-dir", &o->output, "dir", "output directory"),
		OPT_CALLBACK('e', "event", &o->events, "event", "event selector",
			     parse_opt_string_list),
		OPT_END()
	};

	memset(o, 0, sizeof(*o));
	return parse_options_noexit(argc, argv, options, flags, err, errsize);
}

#define ARGV(...) ((const char *[]){ "cmd", __VA_ARGS__, NULL })
#define NARGS(...) ((int)(sizeof((const char *[]){ "cmd", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, flags, ...) parse(o, flags, err, sizeof(err), NARGS(__VA_ARGS__), ARGV(__VA_ARGS__))

TPERF_TEST(parse_options_forms, "option parsing: short, long, grouped, attached values")
{
	struct opts o;
	char err[256];
	const char **argv;
	int n;

	argv = ARGV("-ag", "-x,", "-e", "cycles", "--event=instructions", "-r3",
		    "--repeat", "5", "-vv", "rest");
	n = parse(&o, 0, err, sizeof(err), 11, argv);
	TEST_ASSERT_EQUAL("remaining", n, 1);
	TEST_ASSERT_STR("non-option kept", argv[0], "rest");
	TEST_ASSERT_VAL("-a", o.a);
	TEST_ASSERT_VAL("-g", o.g);
	TEST_ASSERT_STR("-x,", o.sep, ",");
	TEST_ASSERT_EQUAL("two -e", o.events.n, 2);
	TEST_ASSERT_STR("first -e", o.events.v[0], "cycles");
	TEST_ASSERT_STR("--event=", o.events.v[1], "instructions");
	free(o.events.v);
	TEST_ASSERT_EQUAL("last --repeat wins", o.repeat, 5);
	TEST_ASSERT_EQUAL("-vv", o.verbose, 2);

	n = PARSE(&o, 0, "-m", "0x10", "-c", "18446744073709551615", "--ratio=0.25");
	TEST_ASSERT_EQUAL("no rest", n, 0);
	TEST_ASSERT_EQUAL("hex uint", o.pages, 16);
	TEST_ASSERT_VAL("u64 max", o.period == UINT64_MAX);
	TEST_ASSERT_VAL("double", o.ratio == 0.25);
	return TEST_OK;
}

TPERF_TEST(parse_options_negation_prefix, "option parsing: --no-X, unique prefixes, --")
{
	struct opts o;
	char err[256];
	const char **argv;
	int n;

	n = PARSE(&o, 0, "--all", "--no-all-cpus", "--no-big", "--fie=;");
	TEST_ASSERT_EQUAL("n", n, 0);
	TEST_ASSERT_VAL("--no-all-cpus after --all", !o.a);
	TEST_ASSERT_VAL("--no-big is seen", o.big_set && !o.big);
	TEST_ASSERT_STR("prefix --fie", o.sep, ";");

	n = PARSE(&o, 0, "--no-inherit");
	TEST_ASSERT_VAL("option named no-X", n == 0 && o.inherit);
	n = PARSE(&o, 0, "--inherit");
	TEST_ASSERT_VAL("--X of an option named no-X clears it", n == 0 && !o.inherit);

	argv = ARGV("-a", "--", "-g", "x");
	n = parse(&o, 0, err, sizeof(err), 5, argv);
	TEST_ASSERT_EQUAL("-- ends options", n, 2);
	TEST_ASSERT_STR("after --", argv[0], "-g");
	TEST_ASSERT_VAL("-g not parsed", !o.g);

	argv = ARGV("-a", "sleep", "-g");
	n = parse(&o, PARSE_OPT_STOP_AT_NON_OPTION, err, sizeof(err), 4, argv);
	TEST_ASSERT_EQUAL("stop at workload", n, 2);
	TEST_ASSERT_STR("workload", argv[0], "sleep");
	TEST_ASSERT_STR("workload arg", argv[1], "-g");
	return TEST_OK;
}

TPERF_TEST(parse_options_errors, "option parsing: errors and suggestions")
{
	struct opts o;
	char err[256];

	TEST_ASSERT_EQUAL("unknown long", PARSE(&o, 0, "--all-cpu", "--repat=3"), -1);
	TEST_ASSERT_STR("suggestion", err, "unknown option '--repat'; did you mean '--repeat'?");
	TEST_ASSERT_EQUAL("unknown short", PARSE(&o, 0, "-aZ"), -1);
	TEST_ASSERT_STR("short", err, "unknown switch '-Z'");
	TEST_ASSERT_EQUAL("ambiguous", PARSE(&o, 0, "--out=x"), -1);
	TEST_ASSERT_STR("ambiguous msg", err,
			"ambiguous option '--out' (could be '--output' or '--output-dir')");
	TEST_ASSERT_EQUAL("missing value", PARSE(&o, 0, "-e"), -1);
	TEST_ASSERT_STR("missing value msg", err, "option '-e' requires a value");
	TEST_ASSERT_EQUAL("not a number", PARSE(&o, 0, "-r", "x1"), -1);
	TEST_ASSERT_STR("number msg", err, "option '-r' expects a numerical value, not 'x1'");
	TEST_ASSERT_EQUAL("negative unsigned", PARSE(&o, 0, "--mmap-pages=-1"), -1);
	TEST_ASSERT_STR("unsigned msg", err,
			"option '--mmap-pages' expects a non-negative number, not '-1'");
	TEST_ASSERT_EQUAL("bool with value", PARSE(&o, 0, "--all-cpus=1"), -1);
	TEST_ASSERT_STR("bool msg", err, "option '--all-cpus' takes no value");
	TEST_ASSERT_EQUAL("help", PARSE(&o, 0, "-h"), -2);
	TEST_ASSERT_EQUAL("--help", PARSE(&o, 0, "--help"), -2);
	return TEST_OK;
}

TPERF_TEST(parse_options_usage, "option parsing: generated usage text")
{
	bool a = false;
	const char *s = NULL;
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &a, "system-wide collection from all CPUs"),
		OPT_STRING('x', "field-separator", &s, "separator", "print counts with a separator"),
		OPT_GROUP("Other:"),
		OPT_STRING(0, "a-very-long-option-name", &s, "file", "long"),
		OPT_END()
	};
	const char *const usage[] = { "tperf x [<options>]", "tperf x -- <cmd>", NULL };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	usage_with_options_fp(f, usage, options);
	fclose(f);
	TEST_ASSERT_STR("usage", buf,
		"\n Usage: tperf x [<options>]\n"
		"    or: tperf x -- <cmd>\n"
		"\n"
		"    -a, --all-cpus        system-wide collection from all CPUs\n"
		"    -x, --field-separator <separator>\n"
		"                          print counts with a separator\n"
		"\nOther:\n"
		"        --a-very-long-option-name <file>\n"
		"                          long\n"
		"\n");
	free(buf);
	return TEST_OK;
}
