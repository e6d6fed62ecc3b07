// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: perf's tracing data reader (the TRACING_DATA feature
 * that script and report load).  The input is parsed as a whole blob; when
 * it loads, every event it defines formats a record made of the input's
 * first bytes, as script prints a sample, and lists its fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/trace/trace-event.h"
#include "util/trace/tracing-data.h"

/* libtraceevent 1.7 leaks when tep_parse_event() fails half way (its bug) */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_event t;
	unsigned char rec_data[256] = { 0 };
	int n;

	if (tracing_data__parse(&t, data, size))
		return 0;
	memcpy(rec_data, data, size < sizeof(rec_data) ? size : sizeof(rec_data));
	n = tep_get_events_count(t.tep);
	for (int i = 0; i < n && i < 64; i++) {
		struct tep_event *ev = tep_get_event(t.tep, i);
		struct tep_record rec = { .data = rec_data, .size = sizeof(rec_data) };
		struct trace_seq s;

		if (!ev)
			continue;
		/* the record's type field names this event */
		rec_data[0] = (unsigned char)ev->id;
		rec_data[1] = (unsigned char)(ev->id >> 8);
		trace_seq_init(&s);
		if (trace_event__record_fits(ev, rec_data, sizeof(rec_data)))
			tep_print_event(t.tep, &s, &rec, "%s", TEP_PRINT_INFO);
		for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
			trace_seq_printf(&s, " %s", f->name);
		trace_seq_destroy(&s);
	}
	trace_event__exit(&t);
	return 0;
}
