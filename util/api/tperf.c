// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The public API (include/tperf/tperf.h) over util/: the one file of the
 * library whose functions are visible outside libtperf.a.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/tperf/tperf.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/event/parse-events.h"
#include "util/event/target.h"
#include "util/event/workload.h"

struct tperf_counter {
	struct evlist *evlist;
	struct evsel **events;	/* by index, in the order of the string */
	int nr;
	bool ran;
};

static void set_msg(char *msg, size_t size, const char *text)
{
	if (size)
		snprintf(msg, size, "%s", text);
}

/* The parser's error text, as tperf stat prints it, into @msg. */
static void parse_error_msg(const struct parse_events_error *err, char *msg, size_t size)
{
	FILE *fp;

	if (!size)
		return;
	msg[0] = '\0';
	fp = fmemopen(msg, size, "w");
	if (!fp) {
		set_msg(msg, size, err->msg ? err->msg : strerror(errno));
		return;
	}
	parse_events_error__print(err, fp);
	fclose(fp);
	/* fmemopen leaves the final newline; callers add their own */
	size = strlen(msg);
	if (size && msg[size - 1] == '\n')
		msg[size - 1] = '\0';
}

struct tperf_counter *tperf_counter__new(const char *events, char *msg, size_t size)
{
	struct parse_events_error err = { 0 };
	struct tperf_counter *c = calloc(1, sizeof(*c));
	struct evsel *evsel;
	int ret, i = 0;

	if (!c || !(c->evlist = evlist__new())) {
		free(c);
		set_msg(msg, size, strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	ret = parse_events(c->evlist, events, &err);
	if (ret) {
		parse_error_msg(&err, msg, size);
		parse_events_error__exit(&err);
		tperf_counter__delete(c);
		errno = ret < 0 ? -ret : EINVAL;
		return NULL;
	}
	c->nr = c->evlist->nr_entries;
	c->events = calloc(c->nr ? c->nr : 1, sizeof(*c->events));
	if (!c->events) {
		tperf_counter__delete(c);
		set_msg(msg, size, strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	evlist__for_each_entry(c->evlist, evsel) {
		/* counted from the command's exec, in its children too */
		evsel__config_read_format(evsel);
		evsel->attr.disabled = 1;
		evsel->attr.enable_on_exec = 1;
		evsel->attr.inherit = 1;
		c->events[i++] = evsel;
	}
	return c;
}

void tperf_counter__delete(struct tperf_counter *c)
{
	if (!c)
		return;
	evlist__delete(c->evlist);
	free(c->events);
	free(c);
}

int tperf_counter__run(struct tperf_counter *c, const char **argv, int *status,
		       char *msg, size_t size)
{
	struct target target = { 0 };
	struct workload w;
	int ret;

	if (c->ran || !argv || !argv[0]) {
		set_msg(msg, size, c->ran ? "a counter runs one command" : "no command to run");
		return -EINVAL;
	}
	c->ran = true;
	ret = evlist__create_maps(c->evlist, &target, msg, size);
	if (ret)
		return ret;
	ret = workload__prepare(&w, argv);
	if (ret) {
		snprintf(msg, size, "cannot start '%s': %s", argv[0], strerror(-ret));
		return ret;
	}
	evlist__set_workload_pid(c->evlist, w.pid);
	ret = evlist__open(c->evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, msg, size);
	if (ret) {
		workload__abort(&w);
		return ret;
	}
	ret = workload__start(&w);
	if (ret) {
		snprintf(msg, size, "cannot run '%s': %s", argv[0], strerror(-ret));
		return ret;
	}
	ret = workload__wait(&w, status);
	if (ret) {
		snprintf(msg, size, "cannot wait for '%s': %s", argv[0], strerror(-ret));
		return ret;
	}
	return evlist__read(c->evlist);
}

int tperf_counter__nr_events(const struct tperf_counter *c)
{
	return c->nr;
}

const char *tperf_counter__name(const struct tperf_counter *c, int idx)
{
	return idx >= 0 && idx < c->nr ? evsel__name(c->events[idx]) : NULL;
}

int tperf_counter__value(const struct tperf_counter *c, int idx, uint64_t *val)
{
	const struct evsel *evsel;

	if (idx < 0 || idx >= c->nr || !c->ran)
		return -EINVAL;
	evsel = c->events[idx];
	if (!evsel->supported || !evsel->counts)
		return -EOPNOTSUPP;
	*val = evsel->counts[0].val;
	return 0;
}

const char *tperf_version(void)
{
	return TPERF_VERSION;
}
