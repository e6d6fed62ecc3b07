// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Count events for a command with libtperf, the way `tperf stat` does at
 * its core: examples/count 'task-clock,page-faults' ls -l
 * Built and run by tests/shell/t0002-libtperf-example.sh; shown in
 * Documentation/libtperf.md.
 */
#include <stdio.h>
#include <sys/wait.h>

#include "util/event/evlist.h"
#include "util/event/parse-events.h"
#include "util/event/target.h"
#include "util/event/workload.h"

int main(int argc, const char **argv)
{
	struct parse_events_error err = { 0 };
	struct target target = { 0 };
	struct evlist *evlist = evlist__new();
	struct workload w;
	struct evsel *evsel;
	char msg[512];
	int status;

	if (argc < 3 || !evlist) {
		fprintf(stderr, "usage: count EVENTS COMMAND [ARGS]\n");
		return 129;
	}
	if (parse_events(evlist, argv[1], &err)) {
		parse_events_error__print(&err, stderr);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
		return 129;
	}
	evlist__for_each_entry(evlist, evsel) {
		evsel__config_read_format(evsel);
		evsel->attr.disabled = 1;
		evsel->attr.enable_on_exec = 1;
		evsel->attr.inherit = 1;
	}
	if (evlist__create_maps(evlist, &target, msg, sizeof(msg)) ||
	    workload__prepare(&w, argv + 2)) {
		fprintf(stderr, "count: %s\n", msg);
		evlist__delete(evlist);
		return 1;
	}
	evlist__set_workload_pid(evlist, w.pid);
	if (evlist__open(evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, msg, sizeof(msg))) {
		fprintf(stderr, "count: %s\n", msg);
		workload__abort(&w);
		evlist__delete(evlist);
		return 1;
	}
	if (workload__start(&w) || workload__wait(&w, &status)) {
		evlist__delete(evlist);
		return 1;
	}
	evlist__read(evlist);
	evlist__for_each_entry(evlist, evsel) {
		if (!evsel->supported) {
			printf("%s: not supported\n", evsel__name(evsel));
			continue;
		}
		printf("%s: %llu\n", evsel__name(evsel),
		       (unsigned long long)evsel->counts[0].val);
	}
	evlist__delete(evlist);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
