// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reads every record of a perf.data through util/perf-data/session.c (ordered events,
 * every sample parsed) and prints the record count, for timing against
 * `perf report --stats` on the same file:
 *
 *   cc -O2 -I. -o perf-data-read bench/perf-data-read.c libtperf-internal.a -lzstd
 *   time ./perf-data-read perf.data; time perf report --stats -i perf.data
 */
#include <stdio.h>

#include "util/perf-data/session.h"

static unsigned long long nr_samples;

static int on_sample(struct perf_tool *t, struct perf_session *s, const union perf_event *ev,
		     struct perf_sample *sample, struct perf_header_attr *a)
{
	nr_samples++;
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_tool tool = { .sample = on_sample, .ordered_events = true };
	struct perf_session *s;
	char msg[512];
	int err;

	s = perf_session__new(argc > 1 ? argv[1] : "perf.data", &err, msg, sizeof(msg));
	if (!s) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	err = perf_session__process_events(s, &tool);
	if (err)
		fprintf(stderr, "%s\n", s->errmsg);
	printf("%llu records, %llu samples, %llu bytes\n",
	       (unsigned long long)s->stats.nr_records, nr_samples,
	       (unsigned long long)s->stats.total_size);
	perf_session__delete(s);
	return err ? 1 : 0;
}
