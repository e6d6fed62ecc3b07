/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A libtraceevent handle with its plugins, for any user of tracepoint
 * formats (trace.dat files, perf.data tracing data, live tracefs).
 */
#ifndef TPERF_TRACE_EVENT_H
#define TPERF_TRACE_EVENT_H

#include <stddef.h>
#include <traceevent/event-parse.h>

struct trace_event {
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
};

/**
 * trace_event__init - a handle for a machine with @long_size, @big_endian
 *	and @page_size, its plugins loaded (tep_load_plugins)
 * Returns 0 or -ENOMEM.
 */
int trace_event__init(struct trace_event *t, int long_size, int big_endian, int page_size);

/**
 * trace_event__exit - unload the plugins and free the handle
 */
void trace_event__exit(struct trace_event *t);

/**
 * trace_event__parse_format - add the event described by a format file
 * @sys: its system ("ftrace" for the ftrace events)
 * Returns 0 or -EINVAL.
 */
int trace_event__parse_format(struct trace_event *t, const char *sys,
			      const char *buf, size_t size);

/**
 * trace_event__payload - the event's text as the kernel prints it in `trace`
 * @rec: the record (data, size, cpu, ts set)
 * @s: the text is appended here
 * Returns the event, or NULL when its type is unknown.
 */
struct tep_event *trace_event__payload(struct trace_event *t, struct tep_record *rec,
				       struct trace_seq *s);

#endif
