// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the event grammar: parse_events() on the fake sysfs
 * tree tests/data/sysfs-fake-x86 and the fake tracefs tests/data/tracefs-fake
 * (TPERF_TEST_DATA overrides tests/data; run from the repository root).
 * Every parsed event's attr is printed and every error formatted, to
 * /dev/null, so those paths are fuzzed too.  Seeds: tests/fuzz/corpus/parse-events/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/event/parse-events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void setup(void)
{
	static char sysfs[4096], tracefs[4096];
	const char *dir = getenv("TPERF_TEST_DATA");

	if (!dir)
		dir = "tests/data";
	snprintf(sysfs, sizeof(sysfs), "%s/sysfs-fake-x86", dir);
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs-fake", dir);
	setenv("TPERF_SYSFS", sysfs, 1);
	setenv("TPERF_TRACEFS", tracefs, 1);
	devnull = fopen("/dev/null", "w");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parse_events_error err;
	struct evlist *evlist;
	struct evsel *e;
	char *str;

	if (!devnull)
		setup();
	if (size > 4096)
		return 0;
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	evlist = evlist__new();
	if (evlist) {
		if (parse_events(evlist, str, &err)) {
			parse_events_error__print(&err, devnull);
			parse_events_error__exit(&err);
		}
		evlist__for_each_entry(evlist, e) {
			if (devnull) {
				perf_event_attr__fprintf(devnull, &e->attr);
				fputs(evsel__name(e), devnull);
			}
		}
		evlist__delete(evlist);
	}
	free(str);
	return 0;
}
