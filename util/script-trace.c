// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint payloads for script (see script-trace.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "script-trace.h"
#include "tracing-data.h"

int script_trace__init(struct script_trace *st, struct perf_header *h)
{
	int err;

	memset(st, 0, sizeof(*st));
	if (!h->env.tracing_data)
		return -ENOENT;
	err = tracing_data__parse(&st->te, h->env.tracing_data, h->env.tracing_data_size);
	if (err)
		return err;
	trace_seq_init(&st->seq);
	st->loaded = true;
	return 0;
}

void script_trace__set_machine(struct script_trace *st, struct machine *m)
{
	if (st->loaded)
		trace_event__set_machine(&st->te, m);
}

void script_trace__exit(struct script_trace *st)
{
	if (!st->loaded)
		return;
	trace_seq_destroy(&st->seq);
	trace_event__exit(&st->te);
	st->loaded = false;
}

/* A sample of an event the file has no format for: its bytes in hex. */
static void raw_payload(struct trace_seq *q, const struct perf_sample *s)
{
	const u8 *d = s->raw_data;

	trace_seq_puts(q, "raw=");
	for (u32 i = 0; i < s->raw_size; i++)
		trace_seq_printf(q, "%02x", d[i]);
}

int script_trace__fprintf(FILE *fp, struct script_trace *st, const struct perf_event_attr *attr,
			  const struct perf_sample *s)
{
	struct tep_record rec = { .cpu = (int)s->cpu, .size = (int)s->raw_size,
				  .data = (void *)s->raw_data, .ts = s->time };
	struct trace_seq *q = &st->seq;
	struct trace_event_bad *b;
	struct tep_event *ev;

	if (!st->loaded || !s->raw_data)
		return 0;
	trace_seq_reset(q);
	ev = tep_find_event(st->te.tep, (int)attr->config);
	b = st->te.nr_bad ? trace_event__bad(&st->te, (int)attr->config) : NULL;
	/* a print fmt that failed prints "[FAILED TO PARSE] field=value..." */
	if (ev && (!b || ev->format.fields))
		tep_print_event(st->te.tep, q, &rec, "%s", TEP_PRINT_INFO);
	else
		raw_payload(q, s);
	if (b && !b->warned) {
		b->warned = true;
		st->warn = b->name;
	} else if (!b && !ev && !st->warned_unknown) {
		st->warned_unknown = true;
		st->warn = "";	/* no format at all */
	}
	if (q->len && fwrite(q->buffer, 1, q->len, fp) != q->len)
		return -EIO;
	return 0;
}

static void list_event(FILE *fp, struct tep_event *ev)
{
	fprintf(fp, "%s:%s\n", ev->system, ev->name);
	for (int common = 1; common >= 0; common--) {
		struct tep_format_field *f = common ? ev->format.common_fields : ev->format.fields;

		for (; f; f = f->next) {
			/* libtraceevent keeps "char[16]": the file says "char name[16]" */
			const char *br = strchr(f->type, '[');
			int tl = br && !(f->flags & TEP_FIELD_IS_DYNAMIC) ? (int)(br - f->type)
									: (int)strlen(f->type);

			fprintf(fp, "\tfield:%.*s %s%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n", tl,
				f->type, f->name, f->type + tl, f->offset, f->size,
				!!(f->flags & TEP_FIELD_IS_SIGNED));
		}
	}
}

static bool event_matches(struct tep_event *ev, const char *event)
{
	const char *colon = strchr(event, ':');

	if (!colon)
		return !strcmp(ev->name, event);
	return !strncmp(ev->system, event, (size_t)(colon - event)) &&
	       !ev->system[colon - event] && !strcmp(ev->name, colon + 1);
}

int script_trace__list_fields(FILE *fp, struct script_trace *st, struct perf_header *h,
			      const char *event)
{
	bool any = false;

	for (int i = 0; st->loaded && i < h->nr_attrs; i++) {
		struct perf_event_attr *a = &h->attrs[i].attr;
		struct tep_event *ev;
		bool dup = false;

		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		for (int k = 0; k < i; k++)
			dup |= h->attrs[k].attr.type == PERF_TYPE_TRACEPOINT &&
			       h->attrs[k].attr.config == a->config;
		ev = tep_find_event(st->te.tep, (int)a->config);
		if (dup || !ev || (event && !event_matches(ev, event)))
			continue;
		if (any)
			fputc('\n', fp);
		list_event(fp, ev);
		any = true;
	}
	if (!any)
		return -ENOENT;
	return ferror(fp) ? -EIO : 0;
}
