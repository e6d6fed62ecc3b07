// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf evlist: the events of a perf.data file, as `perf evlist` lists them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/debug.h"
#include "util/lib/parse-options.h"
#include "util/event/perf-attr.h"
#include "util/perf-data/session.h"

struct evlist_opts {
	const char *input;
	bool verbose, freq, group;
};

static const char *attr_name(struct perf_header_attr *a, char *buf, size_t size)
{
	if (a->name)
		return a->name;
	perf_attr__default_name(&a->attr, buf, size);
	return buf;
}

static void print_group(struct perf_header *h, struct perf_header_attr *a)
{
	char buf[256];

	if (a->leader_idx != a->idx)
		return;
	if (a->nr_members > 1)
		printf("%s{", a->group_name ? a->group_name : "");
	printf("%s", attr_name(a, buf, sizeof(buf)));
	for (u32 i = 1; i < a->nr_members; i++)
		printf(",%s", attr_name(&h->attrs[a->idx + i], buf, sizeof(buf)));
	if (a->nr_members > 1)
		printf("}");
	printf("\n");
}

static void print_one(struct perf_header *h, struct perf_header_attr *a,
		      const struct evlist_opts *o)
{
	char buf[256], line[4096];

	if (o->group && !o->verbose)
		return print_group(h, a);
	printf("%s", attr_name(a, buf, sizeof(buf)));
	if (o->verbose) {
		perf_attr__snprint_line(&a->attr, line, sizeof(line));
		printf("%s", line);
	} else if (o->freq) {
		printf(": %s=%llu", a->attr.freq ? "sample_freq" : "sample_period",
		       (unsigned long long)a->attr.sample_period);
	}
	printf("\n");
}

static int print_evlist(struct perf_session *s, const struct evlist_opts *o)
{
	struct perf_header *h = s->header;
	bool tracepoints = false;

	for (int i = 0; i < h->nr_attrs; i++) {
		print_one(h, &h->attrs[i], o);
		tracepoints |= h->attrs[i].attr.type == PERF_TYPE_TRACEPOINT;
	}
	if (tracepoints)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields "
		       "for tracepoint events\n");
	return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts o = { 0 };
	const struct option options[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOLEAN('F', "freq", &o.freq, "show the sample frequency or period"),
		OPT_BOOLEAN('v', "verbose", &o.verbose, "show all the event attributes"),
		OPT_BOOLEAN('g', "group", &o.group, "show the event groups"),
		OPT_END()
	};
	const char *const usage[] = { "tperf evlist [<options>]", NULL };
	struct perf_tool tool = { .stop_at_finished_init = true, .skip_unknown = true };
	struct perf_session *s;
	char msg[512];
	int err;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (!o.input || !*o.input)
		o.input = perf_data__default_input();
	s = perf_session__new(o.input, &err, msg, sizeof(msg));
	if (!s) {
		ui__error("%s", msg);
		return 1;
	}
	if (s->data.is_pipe && perf_session__process_events(s, &tool)) {
		ui__error("%s", s->errmsg);
		perf_session__delete(s);
		return 1;
	}
	if (s->warnmsg[0])
		ui__warning("%s", s->warnmsg);
	err = print_evlist(s, &o);
	perf_session__delete(s);
	if (err) {
		ui__error("cannot write the event list: %s", strerror(errno));
		return 1;
	}
	return 0;
}
