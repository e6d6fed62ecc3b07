// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint sort keys for report (see sort-trace.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/model/machine.h"
#include "util/report/sort-trace.h"
#include "util/trace/tracing-data.h"

static bool is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/*
 * A --sort token as perf's parse_field_name() splits it: EVENT.FIELD at
 * the first '.', then FIELD/OPTION; only the "raw" option is known.
 */
struct key_name {
	char buf[256];
	const char *event, *field;	/* event NULL: none given */
	bool raw;
};

static bool key_name__parse(struct key_name *n, const char *tok)
{
	char *dot, *slash;

	if (snprintf(n->buf, sizeof(n->buf), "%s", tok) >= (int)sizeof(n->buf))
		return false;
	dot = strchr(n->buf, '.');
	n->event = dot ? n->buf : NULL;
	n->field = dot ? dot + 1 : n->buf;
	if (dot)
		*dot = '\0';
	slash = strchr(n->field, '/');
	n->raw = false;
	if (slash) {
		*slash = '\0';
		if (strcmp(slash + 1, "raw"))
			return false;
		n->raw = true;
	}
	return !n->event || *n->event;
}

/**
 * sort_trace__is_group - whether @tok stands for several field keys
 * ("trace_fields", "EVENT.*", with or without "/raw"): sort_trace__expand()
 * lists them once the file's events are known
 */
static bool sort_trace__is_group(const char *tok)
{
	struct key_name n;

	if (!key_name__parse(&n, tok))
		return false;
	return n.event ? !strcmp(n.field, "*") : !strcmp(n.field, "trace_fields");
}

/* "trace_fields[/raw]#J", which sort_trace__expand() makes: J, else -1 */
static int nth_field(const struct sort_trace *st, const char *tok)
{
	const char *hash = strchr(tok, '#');
	char *end;
	long j;

	if (!st->expanded || !hash || strncmp(tok, "trace_fields", 12) ||
	    (hash != tok + 12 && strncmp(tok + 12, "/raw#", 5)))
		return -1;
	j = strtol(hash + 1, &end, 10);
	return *end || j < 0 || j > 65535 ? -1 : (int)j;
}

int sort_trace__add_key(struct sort_trace *st, const char *tok)
{
	struct sort_trace_key *k;
	struct key_name n = { .field = NULL };
	int nth = nth_field(st, tok);

	if (nth >= 0) {
		n.field = "trace_fields";
		n.raw = strstr(tok, "/raw#") != NULL;
	} else if (strcmp(tok, "trace") &&
		   (!key_name__parse(&n, tok) ||
		    (!sort_trace__is_group(tok) && !is_ident(n.field)))) {
		return -ENOENT;
	}
	if (st->nr == SORT_DYN_MAX)
		return -E2BIG;
	k = &st->keys[st->nr];
	memset(k, 0, sizeof(*k));
	k->ev_id = -1;
	k->nth = nth;
	if (n.field) {		/* else the trace key */
		k->field = strdup(n.field);
		k->event = n.event ? strdup(n.event) : NULL;
		k->raw = n.raw;
		if (!k->field || (n.event && !k->event)) {
			free(k->field);
			free(k->event);
			return -ENOMEM;
		}
	}
	k->raw |= st->raw_trace;
	k->id = SORT_DYN0 + st->nr++;
	return k->id;
}

static struct tep_event *attr_event(const struct sort_trace *st, const struct perf_event_attr *a)
{
	if (!st->loaded || a->type != PERF_TYPE_TRACEPOINT)
		return NULL;
	return tep_find_event(st->tev.tep, (int)a->config);
}

/* An event's name as perf's evsel has it: EVENT_DESC's, else "sys:name". */
static const char *attr_name(const struct sort_trace *st, const struct perf_header_attr *a,
			     char *buf, size_t size)
{
	struct tep_event *ev = attr_event(st, &a->attr);

	if (a->name)
		return a->name;
	if (!ev)
		return NULL;
	snprintf(buf, size, "%s:%s", ev->system, ev->name);
	return buf;
}

/*
 * The attr @name stands for, as perf's find_evsel(): "%N" the Nth event;
 * a name with a ':' the event of that name; else the one event whose name
 * has it in it (none when two have).  Return: its index, or -1.
 */
static int find_attr(const struct sort_trace *st, const struct perf_header *h, const char *name)
{
	bool full = strchr(name, ':') != NULL;
	int found = -1;

	if (name[0] == '%') {
		long nr = strtol(name + 1, NULL, 0);

		return nr <= h->nr_attrs ? (int)(nr > 0 ? nr - 1 : 0) : -1;
	}
	for (int a = 0; a < h->nr_attrs; a++) {
		char buf[512];
		const char *n = attr_name(st, &h->attrs[a], buf, sizeof(buf));

		if (!n)
			continue;
		if (full && !strcmp(n, name))
			return a;
		if (!full && strstr(n, name)) {
			if (found >= 0)
				return -1;	/* perf: ambiguous */
			found = a;
		}
	}
	return found;
}

/* The tracepoint event of the attr @name stands for, or NULL. */
static struct tep_event *named_event(const struct sort_trace *st, const struct perf_header *h,
				     const char *name)
{
	int a = find_attr(st, h, name);

	return a < 0 ? NULL : attr_event(st, &h->attrs[a].attr);
}

/*
 * The field key @k stands for in event @ev (perf finds common fields too;
 * trace_fields' the event's field nth), or NULL.
 */
static struct tep_format_field *key_field(const struct sort_trace_key *k, struct tep_event *ev)
{
	struct tep_format_field *f;
	int j = k->nth;

	if (!ev || !k->field || (k->event && ev->id != k->ev_id))
		return NULL;
	if (j < 0)
		return tep_find_any_field(ev, k->field);
	for (f = ev->format.fields; f && j; f = f->next)
		j--;
	return f;
}

static int load_data(struct sort_trace *st, const struct perf_header *h)
{
	int err;

	if (st->loaded)
		return 0;
	err = tracing_data__load(&st->tev, &st->seq, h);
	if (!err) {
		st->loaded = true;
		trace_seq_init(&st->fseq);
	}
	return err;
}

/*
 * Append "%N.field[/raw]" for each field of the Nth event (@a + 1), @ev:
 * that event, whatever its name (EVENT_DESC's may carry modifiers).
 */
static int add_fields(char **out, size_t *len, size_t *size, int a, struct tep_event *ev, bool raw)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		size_t need = strlen(f->name) + 24;

		if (*len + need >= *size) {
			size_t n = (*size + need) * 2;
			char *p = realloc(*out, n);

			if (!p)
				return -ENOMEM;
			*out = p;
			*size = n;
		}
		*len += (size_t)sprintf(*out + *len, "%s%%%d.%s%s", *len ? "," : "", a + 1, f->name,
					raw ? "/raw" : "");
	}
	return 0;
}

static int add_token(char **out, size_t *len, size_t *size, const char *tok)
{
	size_t need = strlen(tok) + 2;

	if (*len + need >= *size) {
		size_t n = (*size + need) * 2;
		char *p = realloc(*out, n);

		if (!p)
			return -ENOMEM;
		*out = p;
		*size = n;
	}
	*len += (size_t)sprintf(*out + *len, "%s%s", *len ? "," : "", tok);
	return 0;
}

static int nr_fields(const struct tep_event *ev)
{
	int n = 0;

	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		n++;
	return n;
}

/*
 * trace_fields: perf's keys are every field of every event, event by
 * event, and an event's histogram only has its own.  Its field j and
 * another event's field j share slot "trace_fields#j": each histogram
 * gets its fields in the same order, in as many slots as the event with
 * the most fields has.
 */
static int expand_group(struct sort_trace *st, const struct perf_header *h, const char *tok,
			char **out, size_t *len, size_t *size)
{
	struct key_name n;
	struct tep_event *ev;
	int most = 0, err = 0;
	bool raw;

	key_name__parse(&n, tok);
	raw = n.raw || st->raw_trace;
	if (!st->loaded)
		return n.event ? -ENOENT : 0;	/* no tracepoint: trace_fields is no key */
	if (n.event) {
		int a = find_attr(st, h, n.event);

		ev = a < 0 ? NULL : attr_event(st, &h->attrs[a].attr);
		return ev ? add_fields(out, len, size, a, ev, raw) : -ENOENT;
	}
	for (int a = 0; a < h->nr_attrs; a++) {
		ev = attr_event(st, &h->attrs[a].attr);
		if (ev && nr_fields(ev) > most)
			most = nr_fields(ev);
	}
	for (int j = 0; j < most && !err; j++) {
		char name[64];

		snprintf(name, sizeof(name), "trace_fields%s#%d", raw ? "/raw" : "", j);
		err = add_token(out, len, size, name);
	}
	return err;
}

int sort_trace__expand(struct sort_trace *st, const struct perf_header *h, const char *sort,
		       char **out, const char **bad)
{
	char *copy, *tok, *save = NULL, *res = NULL;
	size_t len = 0, size = 0;
	bool group = false;
	int err = 0;

	*out = NULL;
	*bad = NULL;
	copy = strdup(sort);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok && !group; tok = strtok_r(NULL, ", ", &save))
		group = sort_trace__is_group(tok);
	free(copy);
	if (!group)
		return 0;
	err = load_data(st, h);
	if (err && err != -ENOENT)
		return err;
	copy = strdup(sort);
	res = calloc(1, 1);
	size = 1;
	if (!copy || !res) {
		free(copy);
		free(res);
		return -ENOMEM;
	}
	err = 0;
	for (tok = strtok_r(copy, ", ", &save); tok && !err; tok = strtok_r(NULL, ", ", &save)) {
		if (!sort_trace__is_group(tok)) {
			err = add_token(&res, &len, &size, tok);
			continue;
		}
		err = expand_group(st, h, tok, &res, &len, &size);
		if (err == -ENOENT)
			*bad = sort + (tok - copy);
	}
	if (*bad) {	/* the token alone, for the message */
		size_t n = strcspn(*bad, ", ");
		char *b = strndup(*bad, n);

		free(res);
		res = NULL;
		if (b) {
			snprintf(st->bad, sizeof(st->bad), "%s", b);
			free(b);
		}
		*bad = st->bad;
	}
	free(copy);
	if (err) {
		free(res);
		return err;
	}
	st->expanded = true;
	*out = res;
	return 0;
}

/* A field key as given, for a message (in st->bad) */
static const char *key_text(struct sort_trace *st, const struct sort_trace_key *k)
{
	snprintf(st->bad, sizeof(st->bad), "%s%s%s%s", k->event ? k->event : "",
		 k->event ? "." : "", k->field, k->raw && !st->raw_trace ? "/raw" : "");
	return st->bad;
}

int sort_trace__load(struct sort_trace *st, struct perf_header *h, struct machine *m,
		     const char **bad)
{
	int err;

	*bad = NULL;
	if (!st->nr)
		return 0;
	err = load_data(st, h);
	for (int i = 0; err == -ENOENT && i < st->nr; i++) {
		if (st->keys[i].field) {
			*bad = key_text(st, &st->keys[i]);
			return -ENOENT;
		}
	}
	if (err == -ENOENT)
		return 0;	/* no tracepoint: perf's trace text is "N/A" */
	if (err)
		return err;
	trace_event__set_machine(&st->tev, m);
	for (int i = 0; i < st->nr; i++) {
		struct sort_trace_key *k = &st->keys[i];
		bool found = !k->field || k->nth >= 0;	/* trace_fields': of some event */

		if (k->field && k->event) {
			struct tep_event *ev = named_event(st, h, k->event);

			k->ev_id = ev ? ev->id : -1;
			found = ev && key_field(k, ev);
		}
		for (int a = 0; a < h->nr_attrs && !found; a++)
			found = key_field(k, attr_event(st, &h->attrs[a].attr)) != NULL;
		if (!found) {
			*bad = key_text(st, k);
			return -ENOENT;
		}
	}
	return 0;
}

/* Interned value arrays: one copy of each distinct array of st->nr values. */
struct dyn_set {
	struct hist_dyn **slots;
	size_t nr, size;
	int width;			/* values per array */
	struct dyn_block *blocks;
};

struct dyn_block {
	struct dyn_block *next;
	size_t used, size;		/* in struct hist_dyn */
	struct hist_dyn v[];
};

static size_t dyn_hash(const struct hist_dyn *v, int n)
{
	size_t h = 0;

	for (int i = 0; i < n; i++)
		h = (h ^ (size_t)v[i].val ^ ((size_t)v[i].raw << 7)) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static struct hist_dyn *dyn_copy(struct dyn_set *d, const struct hist_dyn *v)
{
	struct dyn_block *b = d->blocks;

	if (!b || b->used + (size_t)d->width > b->size) {
		size_t size = (size_t)d->width * 256;

		b = malloc(sizeof(*b) + size * sizeof(b->v[0]));
		if (!b)
			return NULL;
		b->next = d->blocks;
		b->used = 0;
		b->size = size;
		d->blocks = b;
	}
	memcpy(b->v + b->used, v, (size_t)d->width * sizeof(*v));
	b->used += (size_t)d->width;
	return b->v + b->used - d->width;
}

static int dyn_grow(struct dyn_set *d)
{
	size_t size = d->size ? d->size * 2 : 256;
	struct hist_dyn **s = calloc(size, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < d->size; i++) {
		size_t j;

		if (!d->slots[i])
			continue;
		for (j = dyn_hash(d->slots[i], d->width) & (size - 1); s[j]; j = (j + 1) & (size - 1))
			;
		s[j] = d->slots[i];
	}
	free(d->slots);
	d->slots = s;
	d->size = size;
	return 0;
}

static const struct hist_dyn *dyn_intern(struct sort_trace *st, const struct hist_dyn *v)
{
	struct dyn_set *d = st->set;
	size_t j;

	if (!d) {
		d = st->set = calloc(1, sizeof(*d));
		if (!d)
			return NULL;
		d->width = st->nr;
	}
	if ((d->nr + 1) * 2 > d->size && dyn_grow(d))
		return NULL;
	for (j = dyn_hash(v, d->width) & (d->size - 1); d->slots[j]; j = (j + 1) & (d->size - 1))
		if (!memcmp(d->slots[j], v, (size_t)d->width * sizeof(*v)))
			return d->slots[j];
	d->slots[j] = dyn_copy(d, v);
	if (d->slots[j])
		d->nr++;
	return d->slots[j];
}

static void dyn_set_free(struct dyn_set *d)
{
	if (!d)
		return;
	while (d->blocks) {
		struct dyn_block *next = d->blocks->next;

		free(d->blocks);
		d->blocks = next;
	}
	free(d->slots);
	free(d);
}

void sort_trace__exit(struct sort_trace *st)
{
	bool raw_trace = st->raw_trace;

	for (int i = 0; i < st->nr; i++) {
		free(st->keys[i].field);
		free(st->keys[i].event);
	}
	if (st->loaded) {
		tracing_data__unload(&st->tev, &st->seq);
		trace_seq_destroy(&st->fseq);
	}
	dyn_set_free(st->set);
	memset(st, 0, sizeof(*st));
	st->raw_trace = raw_trace;	/* an option, not state */
}

void sort_trace__setup_hists(struct sort_trace *st, const struct perf_event_attr *attr,
			     struct hists *h)
{
	struct tep_event *ev = attr_event(st, attr);

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
		h->dyn_raw_print[d] = k->raw;
		h->dyn_dynamic[d] = f->flags & TEP_FIELD_IS_DYNAMIC;
	}
}

static void print_field(struct trace_seq *q, const struct perf_sample *s,
			struct tep_format_field *f);

/*
 * The payload as libtraceevent prints it (perf's record has cpu 0); with
 * --raw-trace, as perf's tep_print_fields(): " name=value" for each field.
 */
static const char *payload(struct sort_trace *st, struct tep_event *ev,
			   const struct perf_sample *s)
{
	struct tep_record rec = { .data = (void *)s->raw_data, .size = (int)s->raw_size };

	trace_seq_reset(&st->seq);
	if (st->raw_trace) {
		for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
			trace_seq_printf(&st->seq, " %s=", f->name);
			print_field(&st->seq, s, f);
		}
	} else if (trace_event__record_fits(ev, s->raw_data, s->raw_size)) {
		tep_print_event(st->tev.tep, &st->seq, &rec, "%s", TEP_PRINT_INFO);
	}
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

/* libtraceevent's is_printable_array(): text up to a NUL or the end */
static bool printable(const unsigned char *p, unsigned int len)
{
	for (unsigned int i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
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
		if ((f->flags & TEP_FIELD_IS_STRING) && printable(d + off, len)) {
			/* perf prints up to the NUL, if need be past the field */
			trace_seq_printf(q, "%.*s", (int)(s->raw_size - off), (const char *)d + off);
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

/*
 * The field's bytes in hex (its identity), where they are in the hex
 * (@v->off, @v->size): of a dynamic field the whole record, which perf's
 * comparison reads at the other entry's place.  "" when they lie outside
 * the data.  Return: 0 or -ENOMEM.
 */
static int field_hex(struct machine *m, struct tep_format_field *f, const struct perf_sample *s,
		     struct hist_dyn *v)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *d = s->raw_data;
	unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size, from = off;
	char stack[4096], *buf = stack;
	size_t n;

	v->raw = "";
	v->off = v->size = 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (off + len > s->raw_size || tep_read_number_field(f, d, &loc))
			return 0;
		off = (unsigned int)(loc & 0xffff);
		len = (unsigned int)((loc >> 16) & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
		from = 0;
	}
	if ((size_t)off + len > s->raw_size)
		return 0;
	n = (f->flags & TEP_FIELD_IS_DYNAMIC) ? s->raw_size : len;
	if (2 * n + 1 > sizeof(stack) && !(buf = malloc(2 * n + 1)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = hex[d[from + i] >> 4];
		buf[2 * i + 1] = hex[d[from + i] & 15];
	}
	buf[2 * n] = '\0';
	v->raw = machine__intern(m, buf);
	v->off = off - from;
	v->size = len;
	if (buf != stack)
		free(buf);
	return v->raw ? 0 : -ENOMEM;
}

/* The payload's text of this sample, printed once (*@text NULL: not yet). */
static const char *text_of(struct sort_trace *st, struct tep_event *ev, const struct perf_sample *s,
			   const char **text)
{
	if (!*text)
		*text = payload(st, ev, s);
	return *text;
}

static int fill_key(struct sort_trace *st, struct machine *m, struct tep_event *ev, int i,
		    const struct perf_sample *s, const char **text)
{
	const struct sort_trace_key *k = &st->keys[i];
	struct tep_format_field *f = key_field(k, ev);
	struct hist_dyn *v = &st->vals[k->id - SORT_DYN0];
	char val[4096];

	if (!k->field) {
		v->val = machine__intern(m, text_of(st, ev, s, text));
		return v->val ? 0 : -ENOMEM;
	}
	if (!f)
		return 0;
	if (field_hex(m, f, s, v))
		return -ENOMEM;
	v->in_text = !k->raw && word_value(text_of(st, ev, s, text), f->name, val, sizeof(val));
	if (!v->in_text) {
		trace_seq_reset(&st->fseq);
		print_field(&st->fseq, s, f);
		trace_seq_terminate(&st->fseq);
		snprintf(val, sizeof(val), "%s", st->fseq.buffer);
	}
	v->val = machine__intern(m, val);
	return v->val && v->raw ? 0 : -ENOMEM;
}

int sort_trace__fill(struct sort_trace *st, struct machine *m, const struct perf_event_attr *attr,
		     const struct perf_sample *s, struct hist_entry *tmpl)
{
	struct tep_event *ev = attr_event(st, attr);

	memset(st->vals, 0, (size_t)st->nr * sizeof(st->vals[0]));
	if (!ev || !s->raw_data) {
		/* perf's "trace" of a sample without a payload */
		for (int i = 0; i < st->nr; i++)
			if (!st->keys[i].field)
				st->vals[st->keys[i].id - SORT_DYN0].val = "N/A";
	} else {
		const char *text = NULL;

		for (int i = 0; i < st->nr; i++) {
			int err = fill_key(st, m, ev, i, s, &text);

			if (err)
				return err;
		}
	}
	tmpl->dyn = dyn_intern(st, st->vals);
	return tmpl->dyn ? 0 : -ENOMEM;
}
