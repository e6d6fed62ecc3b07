// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint sort keys for report (see sort-trace.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "sort-trace.h"
#include "tracing-data.h"

static bool is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

int sort_trace__add_key(struct sort_trace *st, const char *tok)
{
	struct sort_trace_key *k;
	const char *dot = strrchr(tok, '.');

	if (strcmp(tok, "trace") && !(dot ? is_ident(dot + 1) && dot > tok : is_ident(tok)))
		return -ENOENT;
	if (st->nr == SORT_DYN_MAX)
		return -E2BIG;
	k = &st->keys[st->nr];
	memset(k, 0, sizeof(*k));
	if (strcmp(tok, "trace")) {
		k->field = strdup(dot ? dot + 1 : tok);
		k->event = dot ? strndup(tok, (size_t)(dot - tok)) : NULL;
		if (!k->field || (dot && !k->event)) {
			free(k->field);
			free(k->event);
			return -ENOMEM;
		}
	}
	k->id = SORT_DYN0 + st->nr++;
	return k->id;
}

static bool event_named(const struct tep_event *ev, const char *name)
{
	const char *colon = strchr(name, ':');

	if (!colon)
		return !strcmp(ev->name, name);
	return strlen(ev->system) == (size_t)(colon - name) &&
	       !strncmp(ev->system, name, (size_t)(colon - name)) && !strcmp(ev->name, colon + 1);
}

/* The field key @k stands for in event @ev, or NULL. */
static struct tep_format_field *key_field(const struct sort_trace_key *k, struct tep_event *ev)
{
	if (!ev || !k->field || (k->event && !event_named(ev, k->event)))
		return NULL;
	return tep_find_field(ev, k->field);
}

static struct tep_event *event_of(struct sort_trace *st, const struct perf_event_attr *a)
{
	if (!st->loaded || a->type != PERF_TYPE_TRACEPOINT)
		return NULL;
	return tep_find_event(st->tev.tep, (int)a->config);
}

int sort_trace__load(struct sort_trace *st, struct perf_header *h, struct machine *m,
		     const char **bad)
{
	int err;

	*bad = NULL;
	if (!st->nr)
		return 0;
	err = tracing_data__load(&st->tev, &st->seq, h);
	if (err)
		return err;
	st->loaded = true;
	trace_event__set_machine(&st->tev, m);
	for (int i = 0; i < st->nr; i++) {
		bool found = !st->keys[i].field;

		for (int a = 0; a < h->nr_attrs && !found; a++)
			found = key_field(&st->keys[i], event_of(st, &h->attrs[a].attr)) != NULL;
		if (!found) {
			*bad = st->keys[i].field;
			return -ENOENT;
		}
	}
	return 0;
}

void sort_trace__exit(struct sort_trace *st)
{
	for (int i = 0; i < st->nr; i++) {
		free(st->keys[i].field);
		free(st->keys[i].event);
	}
	if (st->loaded)
		tracing_data__unload(&st->tev, &st->seq);
	memset(st, 0, sizeof(*st));
}

void sort_trace__setup_hists(struct sort_trace *st, const struct perf_event_attr *attr,
			     struct hists *h)
{
	struct tep_event *ev = event_of(st, attr);

	for (int i = 0; i < st->nr; i++) {
		const struct sort_trace_key *k = &st->keys[i];
		struct tep_format_field *f = key_field(k, ev);
		int d = k->id - SORT_DYN0, w;

		if (!k->field) {
			h->dyn_header[d] = "Trace output";
			h->dyn_left[d] = true;
			continue;
		}
		if (!f)
			continue;
		/* perf: the name, or the field's size (in hex digits + "0x" for numbers) */
		w = (f->flags & TEP_FIELD_IS_STRING) ? f->size : f->size * 2 + 2;
		h->dyn_header[d] = f->name;
		h->dyn_width[d] = w > (int)strlen(f->name) ? w : (int)strlen(f->name);
	}
}

/* The payload as libtraceevent prints it (perf's record has cpu 0). */
static const char *payload(struct sort_trace *st, struct tep_event *ev,
			   const struct perf_sample *s)
{
	struct tep_record rec = { .data = (void *)s->raw_data, .size = (int)s->raw_size };

	trace_seq_reset(&st->seq);
	if (trace_event__record_fits(ev, s->raw_data, s->raw_size))
		tep_print_event(st->tev.tep, &st->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&st->seq);
	return st->seq.buffer;
}

/* "name=value" in the payload @text, as perf finds it: the first
 * space-separated word that starts with the name. */
static bool word_value(const char *text, const char *name, char *out, size_t size)
{
	size_t nl = strlen(name);

	for (const char *w = text; w && *w;) {
		const char *sp = strchr(w, ' ');
		size_t len = sp ? (size_t)(sp - w) : strlen(w);

		if (!strncmp(w, name, nl)) {
			size_t vl = len > nl ? len - nl - 1 : 0;

			if (vl >= size)
				vl = size - 1;
			memcpy(out, w + (len > nl ? nl + 1 : len), vl);
			out[vl] = '\0';
			return true;
		}
		w = sp ? sp + 1 : NULL;
	}
	return false;
}

/* A field's value as perf 6.1's libtraceevent prints it (tep_print_field). */
static void print_field(struct trace_seq *q, const struct perf_sample *s,
			struct tep_format_field *f)
{
	const unsigned char *d = s->raw_data;
	unsigned long long v;
	unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size;

	if (off + len > s->raw_size || ((f->flags & TEP_FIELD_IS_DYNAMIC) &&
					tep_read_number_field(f, d, &v)))
		return;
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			off = (unsigned int)(v & 0xffff);
			len = (unsigned int)((v >> 16) & 0xffff);
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (unsigned int)(f->offset + f->size);
			if ((size_t)off + len > s->raw_size)
				return;
		}
		if ((f->flags & TEP_FIELD_IS_STRING) && len && memchr(d + off, '\0', len)) {
			trace_seq_printf(q, "%s", (const char *)d + off);
			return;
		}
		trace_seq_puts(q, "ARRAY[");
		for (unsigned int i = 0; i < len; i++)
			trace_seq_printf(q, i ? ", %02x" : "%02x", d[off + i]);
		trace_seq_putc(q, ']');
		return;
	}
	if (tep_read_number_field(f, d, &v))
		return;
	if (f->flags & TEP_FIELD_IS_POINTER)
		trace_seq_printf(q, "0x%llx", v);
	else if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 4)
		trace_seq_printf(q, (f->flags & TEP_FIELD_IS_LONG) ? "0x%x" : "%d", (int)v);
	else if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 2)
		trace_seq_printf(q, "%2d", (short)v);
	else if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 1)
		trace_seq_printf(q, "%1d", (signed char)v);
	else if (f->flags & TEP_FIELD_IS_SIGNED)
		trace_seq_printf(q, "%lld", v);
	else
		trace_seq_printf(q, (f->flags & TEP_FIELD_IS_LONG) ? "0x%llx" : "%llu", v);
}

/* The field's bytes in hex (its identity); NULL when they lie outside the data. */
static const char *field_hex(struct machine *m, struct tep_format_field *f,
			     const struct perf_sample *s, char *buf, size_t size)
{
	const unsigned char *d = s->raw_data;
	unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long v;

		if (off + len > s->raw_size || tep_read_number_field(f, d, &v))
			return "";
		off = (unsigned int)(v & 0xffff);
		len = (unsigned int)((v >> 16) & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
	}
	if ((size_t)off + len > s->raw_size)
		return "";
	if (len * 2 + 1 > size)
		len = (unsigned int)(size - 1) / 2;
	for (unsigned int i = 0; i < len; i++) {
		static const char hex[] = "0123456789abcdef";

		buf[2 * i] = hex[d[off + i] >> 4];
		buf[2 * i + 1] = hex[d[off + i] & 15];
	}
	buf[2 * len] = '\0';
	return machine__intern(m, buf);
}

static int fill_key(struct sort_trace *st, struct machine *m, struct tep_event *ev, int i,
		    const struct perf_sample *s, struct hist_entry *tmpl)
{
	const struct sort_trace_key *k = &st->keys[i];
	struct tep_format_field *f = key_field(k, ev);
	int d = k->id - SORT_DYN0;
	char val[4096];
	const char *text;

	if (!k->field) {
		tmpl->dyn_val[d] = machine__intern(m, payload(st, ev, s));
		return tmpl->dyn_val[d] ? 0 : -ENOMEM;
	}
	if (!f)
		return 0;
	tmpl->dyn_raw[d] = field_hex(m, f, s, val, sizeof(val));
	text = payload(st, ev, s);
	if (!word_value(text, f->name, val, sizeof(val))) {
		trace_seq_reset(&st->seq);
		print_field(&st->seq, s, f);
		trace_seq_terminate(&st->seq);
		snprintf(val, sizeof(val), "%s", st->seq.buffer);
	}
	tmpl->dyn_val[d] = machine__intern(m, val);
	return tmpl->dyn_val[d] && tmpl->dyn_raw[d] ? 0 : -ENOMEM;
}

int sort_trace__fill(struct sort_trace *st, struct machine *m, const struct perf_event_attr *attr,
		     const struct perf_sample *s, struct hist_entry *tmpl)
{
	struct tep_event *ev = event_of(st, attr);

	if (!ev || !s->raw_data) {
		/* perf's "trace" of a sample without a payload */
		for (int i = 0; i < st->nr; i++)
			if (!st->keys[i].field)
				tmpl->dyn_val[st->keys[i].id - SORT_DYN0] = "N/A";
		return 0;
	}
	for (int i = 0; i < st->nr; i++) {
		int err = fill_key(st, m, ev, i, s, tmpl);

		if (err)
			return err;
	}
	return 0;
}
