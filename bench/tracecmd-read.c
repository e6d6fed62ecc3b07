// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The baseline of bench/ftrace-reader.sh: every event of a trace.dat read
 * with libtracecmd (Debian libtracecmd-dev) and printed as `trace-cmd
 * report` prints it, with the top buffer's and each instance buffer's
 * events merged in time order.  Not part of tperf's build: the bench
 * compiles it where the library is installed.
 *   cc -O2 -o tracecmd-read bench/tracecmd-read.c $(pkg-config --cflags --libs libtracecmd)
 * Usage: tracecmd-read FILE   (exit 1 when libtracecmd cannot open it)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

struct reader {
	struct trace_seq seq;
	unsigned long long nr;
};

static int print_one(struct tracecmd_input *handle, struct tep_record *record, int cpu,
		     void *arg)
{
	struct reader *r = arg;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct tep_event *event = tep_find_event_by_record(tep, record);
	char name[128];

	tep_print_event(tep, &r->seq, record, "%16s-%-5d [%03d] %6.1000d: ",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_TIME);
	snprintf(name, sizeof(name), "%s:", event ? event->name : "unknown");
	trace_seq_printf(&r->seq, "%-22s", name);
	tep_print_event(tep, &r->seq, record, "%s\n", TEP_PRINT_INFO);
	/* flush in large writes, as a reader that prints would */
	if (r->seq.len > 60000) {
		fwrite(r->seq.buffer, 1, r->seq.len, stdout);
		trace_seq_reset(&r->seq);
	}
	r->nr++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handles[64];
	struct reader r = { .nr = 0 };
	int nr = 0, n;

	if (argc != 2) {
		fprintf(stderr, "usage: tracecmd-read FILE\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handles[nr] = tracecmd_open(argv[1], 0);
	if (!handles[nr]) {
		fprintf(stderr, "tracecmd-read: libtracecmd cannot open '%s'\n", argv[1]);
		return 1;
	}
	nr++;
	n = tracecmd_buffer_instances(handles[0]);
	for (int i = 0; i < n && nr < 64; i++) {
		handles[nr] = tracecmd_buffer_instance_handle(handles[0], i);
		if (handles[nr])
			nr++;
	}
	trace_seq_init(&r.seq);
	if (tracecmd_iterate_events_multi(handles, nr, print_one, &r) < 0) {
		fprintf(stderr, "tracecmd-read: cannot read the events of '%s'\n", argv[1]);
		return 1;
	}
	fwrite(r.seq.buffer, 1, r.seq.len, stdout);
	trace_seq_destroy(&r.seq);
	fprintf(stderr, "%llu events\n", r.nr);
	for (int i = nr - 1; i >= 0; i--)
		tracecmd_close(handles[i]);
	return 0;
}
