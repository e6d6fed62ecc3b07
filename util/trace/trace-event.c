// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent handle and plugins (see trace-event.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/model/machine.h"
#include "util/trace/trace-event.h"

int trace_event__init(struct trace_event *t, int long_size, int big_endian, int page_size)
{
	memset(t, 0, sizeof(*t));
	t->tep = tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, page_size);
	tep_set_file_bigendian(t->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	t->plugins = tep_load_plugins(t->tep);
	return 0;
}

void trace_event__exit(struct trace_event *t)
{
	if (!t->tep)
		return;
	if (t->plugins)
		tep_unload_plugins(t->plugins, t->tep);
	tep_free(t->tep);
	free(t->bad);
	memset(t, 0, sizeof(*t));
}

/*
 * The part of @buf that can be a format file: text (up to the first NUL)
 * ending with its one "print fmt:" line.  libtraceevent 1.7 dereferences
 * NULL on some bytes after that line (found by fuzz-trace-dat), and a
 * kernel never writes any there.
 */
static size_t format_text_len(const char *buf, size_t size)
{
	const char *nul = memchr(buf, '\0', size), *pf, *nl;

	if (nul)
		size = (size_t)(nul - buf);
	pf = memmem(buf, size, "\nprint fmt:", 11);
	if (pf) {
		nl = memchr(pf + 1, '\n', size - (size_t)(pf + 1 - buf));
		if (nl)
			size = (size_t)(nl + 1 - buf);
	}
	return size;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Does a "field:TYPE NAME[N];" line of @buf (@size bytes) name @name (@len)? */
static bool has_field(const char *buf, size_t size, const char *name, size_t len)
{
	for (const char *f = buf; (f = memmem(f, size - (size_t)(f - buf), "field:", 6));) {
		const char *semi = memchr(f, ';', size - (size_t)(f - buf)), *e;

		if (!semi)
			return false;
		e = semi;
		if (e > f && e[-1] == ']')		/* an array: "NAME[N]" */
			while (e > f && *e != '[')
				e--;
		if ((size_t)(e - f) > len && !memcmp(e - len, name, len) && !ident_char(*(e - len - 1)))
			return true;
		f = semi;
	}
	return false;
}

/*
 * Every REC->NAME of the print fmt names a field: libtraceevent 1.7
 * dereferences NULL on some unknown ones (found by fuzz-tracing-data).
 */
static bool fields_known(const char *buf, size_t size)
{
	const char *pf = memmem(buf, size, "\nprint fmt:", 11);

	for (const char *r = pf; r && (r = memmem(r, size - (size_t)(r - buf), "REC->", 5));) {
		const char *n = r + 5, *e = n;

		while ((size_t)(e - buf) < size && ident_char(*e))
			e++;
		if (!has_field(buf, (size_t)(pf - buf), n, (size_t)(e - n)))
			return false;
		r = e;
	}
	return true;
}

/* "KEY:digits;" at *@p (after blanks); moves past it */
static bool number_item(const char **p, const char *end, const char *key)
{
	size_t kl = strlen(key);
	const char *q = *p;

	while (q < end && (*q == '\t' || *q == ' '))
		q++;
	if ((size_t)(end - q) < kl || memcmp(q, key, kl))
		return false;
	q += kl;
	if (q < end && *q == '-')
		q++;
	if (q >= end || *q < '0' || *q > '9')
		return false;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q >= end || *q != ';')
		return false;
	*p = q + 1;
	return true;
}

/* "field:DECL;\toffset:N;\tsize:N;..." with a printable DECL, brackets paired */
static bool field_line(const char *l, const char *end)
{
	const char *semi = memchr(l, ';', (size_t)(end - l));
	int open = 0;

	if (!semi)
		return false;
	for (const char *c = l; c < semi; c++) {
		if ((unsigned char)*c < ' ' && *c != '\t')
			return false;
		open += (*c == '[') - (*c == ']');
		if (open < 0 || open > 1)
			return false;
	}
	l = semi + 1;
	return !open && number_item(&l, end, "offset:") && number_item(&l, end, "size:");
}

/* Conversions in the quoted strings at @p (up to @end); @p moves past them. */
static int count_conversions(const char **p, const char *end)
{
	const char *q = *p;
	int n = 0;

	for (;;) {
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= end || *q != '"')
			break;
		for (q++; q < end && *q != '"'; q++) {
			if (*q == '\\' && q + 1 < end) {
				q++;
				continue;
			}
			if (*q != '%')
				continue;
			if (q + 1 < end && q[1] == '%') {
				q++;
				continue;
			}
			n++;
			for (q++; q < end && strchr("-+ #0123456789.*hlzjt", *q); q++)
				n += *q == '*';
			q--;
		}
		if (q >= end)
			return -1;
		q++;
	}
	*p = q;
	return n;
}

/* Arguments after the format: commas at depth 0, outside strings. */
static int count_args(const char *q, const char *end)
{
	int n = 0, depth = 0, ternary = 0;
	bool any = false;

	for (; q < end && *q != '\n'; q++) {
		if (*q == '"' || *q == '\'') {
			char c = *q;

			for (q++; q < end && *q != c && *q != '\n'; q++)
				if (*q == '\\')
					q++;
			if (q >= end || *q != c)
				return -1;
			continue;
		}
		depth += (*q == '(' || *q == '{' || *q == '[') - (*q == ')' || *q == '}' || *q == ']');
		if (depth < 0)
			return -1;
		if (!depth && *q == ',')
			n++;
		if (*q == ';' && !depth)	/* ";" only in "({ ...; })": text spliced in */
			return -1;
		ternary += (*q == '?') - (*q == ':');
		if (ternary < -8)	/* "a ? b : c" only ("::" is not C either) */
			return -1;
		any |= *q != ' ' && *q != '\t' && *q != ',';
	}
	return depth || ternary > 0 ? -1 : any ? n : 0;
}

/* Every "X->" in the arguments @p..@end is "REC->" (libtraceevent 1.7
 * dereferences NULL for any other record name; fuzz-tracing-data). */
static bool only_rec_members(const char *p, const char *end)
{
	for (const char *q = p; q + 1 < end; q++) {
		if (*q == '"') {		/* a string: skip it */
			for (q++; q < end && *q != '"'; q++)
				q += *q == '\\' && q + 1 < end;
			continue;
		}
		if (q[0] != '-' || q[1] != '>')
			continue;
		if (q - p < 3 || memcmp(q - 3, "REC", 3) ||
		    (q - p > 3 && (isalnum((unsigned char)q[-4]) || q[-4] == '_')))
			return false;
	}
	return true;
}

/* A print fmt whose arguments are as many as its conversions need. */
static bool print_fmt_ok(const char *pf, const char *end)
{
	const char *p = pf + 11;
	int convs = count_conversions(&p, end), args;

	if (convs < 0)
		return false;
	args = count_args(p, end);
	return args >= convs;
}

/*
 * The shape libtraceevent 1.7 relies on: every field line well formed and
 * a print fmt line whose arguments match its conversions (it dereferences
 * NULL otherwise; fuzz-trace-dat).
 */
static bool format_well_formed(const char *buf, size_t size)
{
	const char *pf = memmem(buf, size, "\nprint fmt:", 11);

	/* kernel formats are ASCII text: other bytes in a field's type or
	 * size end its name early (NULL in libtraceevent; fuzz-tracing-data) */
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c >= 0x7f || (c < ' ' && c != '\t' && c != '\n'))
			return false;
	}

	if (!pf || !print_fmt_ok(pf, buf + size))
		return false;
	for (const char *l = buf; l < pf;) {
		const char *nl = memchr(l, '\n', (size_t)(pf - l)), *e = nl ? nl : pf, *f = l;

		while (f < e && (*f == '\t' || *f == ' '))
			f++;
		if ((size_t)(e - f) >= 6 && !memcmp(f, "field:", 6) && !field_line(f + 6, e))
			return false;
		l = e + 1;
	}
	return true;
}

/*
 * A print fmt with a member of another record than REC (libtraceevent 1.7
 * parses it and dereferences NULL) keeps its format string but gets an
 * argument libtraceevent refuses: the fields still parse and samples print
 * them after "[FAILED TO PARSE]", as perf's do.
 */
static int parse_without_print_fmt(struct trace_event *t, const char *sys, const char *buf,
				   size_t size, const char *pf)
{
	static const char bad[] = ", R#C\n";
	const char *q = pf + 11, *end = buf + size;
	size_t head;
	char *copy;

	while (q < end && *q != '"' && *q != '\n')	/* past the format string */
		q++;
	for (q += q < end && *q == '"'; q < end && *q != '"' && *q != '\n'; q++)
		q += *q == '\\' && q + 1 < end;
	q += q < end && *q == '"';
	head = (size_t)(q - buf);
	copy = malloc(head + sizeof(bad));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, head);
	memcpy(copy + head, bad, sizeof(bad));
	tep_parse_event(t->tep, copy, head + sizeof(bad) - 1, sys);
	free(copy);
	return -EINVAL;
}

int trace_event__parse_format(struct trace_event *t, const char *sys,
			      const char *buf, size_t size)
{
	const char *pf;

	size = format_text_len(buf, size);
	if (!format_well_formed(buf, size) || !fields_known(buf, size))
		return -EINVAL;
	pf = memmem(buf, size, "\nprint fmt:", 11);
	if (!only_rec_members(pf + 11, buf + size))
		return parse_without_print_fmt(t, sys, buf, size, pf);
	return tep_parse_event(t->tep, buf, size, sys) ? -EINVAL : 0;
}

/* The value of the line "@key..." in @buf (@size bytes), at most @n-1 bytes. */
static bool format_line(const char *buf, size_t size, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);

	for (const char *l = buf; l < buf + size;) {
		const char *e = memchr(l, '\n', buf + size - l);
		size_t len = e ? (size_t)(e - l) : (size_t)(buf + size - l);

		if (len >= kl && !memcmp(l, key, kl)) {
			len -= kl;
			if (len >= n)
				len = n - 1;
			memcpy(out, l + kl, len);
			out[len] = '\0';
			return true;
		}
		l += len + 1;
	}
	return false;
}

static int remember_bad(struct trace_event *t, const char *sys, const char *buf, size_t size)
{
	struct trace_event_bad *b = realloc(t->bad, (t->nr_bad + 1) * sizeof(*b));
	char name[96] = "?", id[24];

	if (!b)
		return -ENOMEM;
	t->bad = b;
	b += t->nr_bad++;
	memset(b, 0, sizeof(*b));
	format_line(buf, size, "name: ", name, sizeof(name));
	b->id = format_line(buf, size, "ID: ", id, sizeof(id)) ? atoi(id) : -1;
	snprintf(b->name, sizeof(b->name), "%.30s:%s", sys, name);
	return -EINVAL;
}

int trace_event__parse_format_sys(struct trace_event *t, const char *sys,
				  const char *buf, size_t size)
{
	char id[24];
	struct tep_event *ev;

	if (trace_event__parse_format(t, sys, buf, size))
		return remember_bad(t, sys, buf, format_text_len(buf, size));
	/* libtraceevent adds an event whose print fmt failed, flagged */
	size = format_text_len(buf, size);
	ev = format_line(buf, size, "ID: ", id, sizeof(id)) ? tep_find_event(t->tep, atoi(id)) : NULL;
	if (ev && (ev->flags & TEP_EVENT_FL_FAILED))
		return remember_bad(t, sys, buf, size);
	return 0;
}

void trace_event__prefer_kernel_text(struct trace_event *t)
{
	int n = tep_get_events_count(t->tep);

	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(t->tep, i);

		if (ev && ev->handler && !(ev->flags & TEP_EVENT_FL_FAILED) &&
		    ev->print_fmt.format && !trace_event__bad(t, ev->id))
			ev->handler = NULL;
	}
}

struct trace_event_bad *trace_event__bad(struct trace_event *t, int id)
{
	for (int i = 0; i < t->nr_bad; i++)
		if (t->bad[i].id == id)
			return &t->bad[i];
	return NULL;
}

struct tep_event *trace_event__payload(struct trace_event *t, struct tep_record *rec,
				       struct trace_seq *s)
{
	struct tep_event *ev = tep_find_event_by_record(t->tep, rec);

	if (!ev)
		return NULL;
	tep_print_event(t->tep, s, rec, "%s", TEP_PRINT_INFO);
	return ev;
}

/* tep_func_resolver_t over the machine's kernel map */
static char *resolve_kernel(void *priv, unsigned long long *addrp, char **modp)
{
	struct addr_location al;

	machine__resolve_addr(priv, NULL, PERF_RECORD_MISC_KERNEL, *addrp, &al);
	if (!al.sym)
		return NULL;
	*addrp -= al.addr - al.sym->start;
	if (modp)
		*modp = NULL;
	return (char *)al.sym->name;
}

void trace_event__set_machine(struct trace_event *t, struct machine *m)
{
	tep_set_function_resolver(t->tep, resolve_kernel, m);
}

/* A dynamic field's (offset, length) inside the record, checked. */
static bool dynamic_fits(const struct tep_format_field *f, const unsigned char *d, size_t size,
			 unsigned int *off, unsigned int *len)
{
	unsigned int loc = 0;

	if (f->size != 4)
		return false;
	memcpy(&loc, d + f->offset, 4);	/* host order: callers check the file's */
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (unsigned int)(f->offset + f->size);
	return (size_t)*off + *len <= size;
}

/* A char array printed with %s (not u8/unsigned char bytes such as addresses). */
static bool is_text(const struct tep_format_field *f)
{
	const char *t = f->type;

	if (!(f->flags & TEP_FIELD_IS_STRING))
		return false;
	if (!strncmp(t, "__data_loc ", 11))
		t += 11;
	else if (!strncmp(t, "__rel_loc ", 10))
		t += 10;
	return !strncmp(t, "char", 4) && (t[4] == ' ' || t[4] == '[');
}

bool trace_event__record_fits(const struct tep_event *ev, const void *data, size_t size)
{
	const unsigned char *d = data;

	if (tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep))
		return true;	/* cannot check here; such files are rare */
	for (int common = 0; common < 2; common++) {
		const struct tep_format_field *f = common ? ev->format.common_fields
							  : ev->format.fields;

		for (; f; f = f->next) {
			unsigned int off = (unsigned int)f->offset, len = (unsigned int)f->size;

			if (f->offset < 0 || f->size < 0 || (size_t)off + len > size)
				return false;
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && !dynamic_fits(f, d, size, &off, &len))
				return false;
			if (is_text(f) && len && !memchr(d + off, '\0', len))
				return false;
		}
	}
	return true;
}
