// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint payloads for script (see script-trace.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/script-trace.h"
#include "util/trace/trace-fast.h"
#include "util/trace/tracing-data.h"

#define MEMO_SLOTS 1024
#define MEMO_DATA 192
#define MEMO_TEXT 320

struct script_trace_memo {
	u32 size, len;
	int cpu;
	bool used;
	unsigned char data[MEMO_DATA];
	char text[MEMO_TEXT];
};

int script_trace__init(struct script_trace *st, struct perf_header *h)
{
	int err;

	memset(st, 0, sizeof(*st));
	err = tracing_data__load(&st->tev, &st->seq, h);
	if (err)
		return err;
	st->memo = calloc(MEMO_SLOTS, sizeof(*st->memo));	/* NULL: no memo */
	st->loaded = true;
	return 0;
}

void script_trace__set_machine(struct script_trace *st, struct machine *m)
{
	if (st->loaded)
		trace_event__set_machine(&st->tev, m);
}

void script_trace__exit(struct script_trace *st)
{
	if (!st->loaded)
		return;
	for (size_t i = 0; i < sizeof(st->fast) / sizeof(st->fast[0]); i++)
		trace_fast__free(st->fast[i].prog);
	free(st->memo);
	st->memo = NULL;
	tracing_data__unload(&st->tev, &st->seq);
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

/* The compiled print fmt of event @ev, compiled on first use, or NULL. */
static struct trace_fast *fast_of(struct script_trace *st, struct tep_event *ev)
{
	size_t n = sizeof(st->fast) / sizeof(st->fast[0]);

	for (size_t i = 0, h = (size_t)ev->id % n; i < n; i++, h = (h + 1) % n) {
		struct script_trace_fast *f = &st->fast[h];

		if (f->tried && f->id == ev->id)
			return f->prog;
		if (!f->tried) {
			f->tried = true;
			f->id = ev->id;
			f->prog = trace_fast__compile(ev);
			return f->prog;
		}
	}
	return NULL;
}

/* The payload through the compiled format; false: use libtraceevent. */
static bool print_fast(FILE *fp, struct script_trace *st, struct tep_event *ev,
		       const struct perf_sample *s, int *err)
{
	struct trace_fast *p = fast_of(st, ev);
	char buf[1024];
	int n;

	if (!p)
		return false;
	n = trace_fast__print(p, s->raw_data, s->raw_size, buf, sizeof(buf));
	if (n < 0)
		return false;
	*err = fwrite(buf, 1, (size_t)n, fp) == (size_t)n ? 0 : -EIO;
	return true;
}

/* The memo slot of sample @s (NULL when it is too big to remember). */
static struct script_trace_memo *memo_slot(struct script_trace *st, const struct perf_sample *s)
{
	const unsigned char *d = s->raw_data;
	u64 h = 0xcbf29ce484222325ULL ^ s->cpu;

	if (!st->memo || s->raw_size > MEMO_DATA)
		return NULL;
	for (u32 i = 0; i < s->raw_size; i++)
		h = (h ^ d[i]) * 0x100000001b3ULL;
	return &st->memo[(h ^ (h >> 29)) % MEMO_SLOTS];
}

static bool memo_hit(const struct script_trace_memo *m, const struct perf_sample *s)
{
	return m && m->used && m->size == s->raw_size && m->cpu == (int)s->cpu &&
	       !memcmp(m->data, s->raw_data, s->raw_size);
}

static void memo_store(struct script_trace_memo *m, const struct perf_sample *s,
		       const struct trace_seq *q)
{
	if (!m || q->len >= MEMO_TEXT || q->state != TRACE_SEQ__GOOD)
		return;
	m->used = true;
	m->size = s->raw_size;
	m->cpu = (int)s->cpu;
	memcpy(m->data, s->raw_data, s->raw_size);
	memcpy(m->text, q->buffer, q->len);
	m->len = q->len;
}

/* The payload through libtraceevent (left in st->seq), or its remembered text. */
static int print_slow(FILE *fp, struct script_trace *st, const struct perf_sample *s)
{
	struct tep_record rec = { .cpu = (int)s->cpu, .size = (int)s->raw_size,
				  .data = (void *)s->raw_data, .ts = s->time };
	struct script_trace_memo *m = memo_slot(st, s);
	struct trace_seq *q = &st->seq;

	if (memo_hit(m, s))
		return fwrite(m->text, 1, m->len, fp) == m->len ? 0 : -EIO;
	tep_print_event(st->tev.tep, q, &rec, "%s", TEP_PRINT_INFO);
	memo_store(m, s, q);
	return 0;
}

int script_trace__fprintf(FILE *fp, struct script_trace *st, const struct perf_event_attr *attr,
			  const struct perf_sample *s)
{
	struct tep_record rec = { .cpu = (int)s->cpu, .size = (int)s->raw_size,
				  .data = (void *)s->raw_data, .ts = s->time };
	struct trace_seq *q = &st->seq;
	struct trace_event_bad *b;
	struct tep_event *ev;
	bool fits;
	int err;

	if (!st->loaded || !s->raw_data)
		return 0;
	trace_seq_reset(q);
	ev = tep_find_event(st->tev.tep, (int)attr->config);
	b = st->tev.nr_bad ? trace_event__bad(&st->tev, (int)attr->config) : NULL;
	if (ev && !b && print_fast(fp, st, ev, s, &err))
		return err;
	/* a print fmt that failed prints "[FAILED TO PARSE] field=value..." */
	fits = ev && trace_event__record_fits(ev, s->raw_data, s->raw_size);
	if (ev && !b && fits) {
		if (print_slow(fp, st, s))
			return -EIO;
	} else if (ev && ev->format.fields && fits) {
		tep_print_event(st->tev.tep, q, &rec, "%s", TEP_PRINT_INFO);
	} else {
		raw_payload(q, s);
	}
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
		ev = tep_find_event(st->tev.tep, (int)a->config);
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
