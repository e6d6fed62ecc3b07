/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A libtraceevent handle with its plugins, for any user of tracepoint
 * formats (trace.dat files, perf.data tracing data, live tracefs).
 */
#ifndef TPERF_TRACE_EVENT_H
#define TPERF_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <traceevent/event-parse.h>

/* An event whose format libtraceevent could not parse (see tracing-data.h). */
struct trace_event_bad {
	int id;				/* its "ID:" line, or -1 when unreadable */
	char name[128];			/* "sys:name", or "sys:?" */
	bool warned;			/* a user was told once */
};

struct trace_event {
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct trace_event_bad *bad;	/* formats that failed to parse */
	int nr_bad;
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
 * trace_event__parse_format_sys - trace_event__parse_format() that, when the
 * format cannot be parsed, remembers the event (its ID and name, read from
 * the text) in @t->bad so that its samples can be printed raw
 * Returns 0 or -EINVAL (remembered), -ENOMEM.
 */
int trace_event__parse_format_sys(struct trace_event *t, const char *sys,
				  const char *buf, size_t size);

/**
 * trace_event__prefer_kernel_text - for every event whose own print fmt
 * parsed, drop the print handler a plugin registered for it, so that its
 * text is the kernel's (and Linux perf's) rather than the plugin's older
 * layout (sched_switch's "comm:pid [prio]", kmem's "(func+off)", ...).
 * Plugins still supply the print helpers formats call and the handlers of
 * events whose print fmt libtraceevent cannot parse.
 */
void trace_event__prefer_kernel_text(struct trace_event *t);

/**
 * trace_event__record_fits - may libtraceevent format @size bytes of @data
 * as @ev?  Every field lies inside the record, dynamic fields' locations
 * too, and strings end inside their field: libtraceevent 1.7 reads past a
 * record that a corrupted file makes too short (fuzz-tracing-data).
 */
bool trace_event__record_fits(const struct tep_event *ev, const void *data, size_t size);

struct machine;

/**
 * trace_event__set_machine - resolve the kernel addresses formats print
 * with %pS/%ps (kmem's call_site, timer functions...) through @m's kernel
 * map, as perf does; without it they print as hex
 */
void trace_event__set_machine(struct trace_event *t, struct machine *m);

/**
 * trace_event__bad - the failed format of event @id, or NULL
 */
struct trace_event_bad *trace_event__bad(struct trace_event *t, int id);

/**
 * trace_event__payload - the event's text as the kernel prints it in `trace`
 * @rec: the record (data, size, cpu, ts set)
 * @s: the text is appended here
 * Returns the event, or NULL when its type is unknown.
 */
struct tep_event *trace_event__payload(struct trace_event *t, struct tep_record *rec,
				       struct trace_seq *s);

#endif
