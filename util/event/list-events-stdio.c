// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Print what list-events.c collected: Linux perf 6.1's text layout, the
 * --raw-dump names, or JSON (documented in tperf-list(1)).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/event/list-events.h"

#define NAME_WIDTH 50
#define DESC_INDENT 8

/* The text line of an entry: "NAME OR ALIAS", or NAME. */
static const char *entry_line(const struct list_entry *e, char *buf, size_t size)
{
	if (!e->alias)
		return e->name;
	snprintf(buf, size, "%s OR %s", e->name, e->alias);
	return buf;
}

/*
 * @s word-wrapped: continuation lines start at column @start; a line is
 * broken before a word that would reach column @max.
 */
static void fprint_wrapped(FILE *fp, const char *s, int start, int max)
{
	int column = start;

	while (*s) {
		int len = (int)strcspn(s, " \t");

		if (column + len >= max && column > start) {
			fprintf(fp, "\n%*s", start, "");
			column = start;
		}
		column += fprintf(fp, "%s%.*s", column > start ? " " : "", len, s);
		s += len;
		s += strspn(s, " \t");
	}
}

static void fprint_entry(FILE *fp, const struct list_entry *e, const struct list_print_opts *o)
{
	char buf[512];

	if (e->desc && o->desc) {
		fprintf(fp, "  %-*s\n%*s", NAME_WIDTH, entry_line(e, buf, sizeof(buf)),
			DESC_INDENT, "[");
		fprint_wrapped(fp, e->desc, DESC_INDENT, o->columns > 0 ? o->columns : 80);
		fprintf(fp, "]\n");
		return;
	}
	fprintf(fp, "  %-*s [%s]\n", NAME_WIDTH, entry_line(e, buf, sizeof(buf)), e->type);
}

/* What perf prints after a section: in a pager, a blank line (and a hint). */
static void fprint_section_end(FILE *fp, enum list_section section,
			       const struct list_print_opts *o)
{
	if (!o->pager)
		return;
	if (section == LIST_RAW)
		fprintf(fp, "   (see 'man tperf-list' on how to encode it)\n");
	fputc('\n', fp);
}

static void fprint_text(FILE *fp, const struct list_events *le, const struct list_print_opts *o)
{
	bool described = false;

	if (o->pager)
		fprintf(fp, "\nList of pre-defined events (to be used in -e or -M):\n\n");
	for (size_t i = 0; i < le->n; i++) {
		const struct list_entry *e = &le->v[i];

		if (i && e->section != le->v[i - 1].section) {
			fprint_section_end(fp, le->v[i - 1].section, o);
			described = false;
		}
		/* described events come last in their section, after a blank line */
		if (e->desc && o->desc && !described) {
			fputc('\n', fp);
			described = true;
		}
		fprint_entry(fp, e, o);
	}
	if (le->n)
		fprint_section_end(fp, le->v[le->n - 1].section, o);
}

static void fprint_raw_dump(FILE *fp, const struct list_events *le)
{
	for (size_t i = 0; i < le->n; i++) {
		const struct list_entry *e = &le->v[i];

		if (e->section != LIST_RAW && e->section != LIST_BREAKPOINT)
			fprintf(fp, "%s ", e->raw_name ? e->raw_name : e->name);
	}
}

static void fprint_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void fprint_json_field(FILE *fp, bool *first, const char *key, const char *val)
{
	if (!val)
		return;
	fprintf(fp, "%s\t\"%s\": ", *first ? "" : ",\n", key);
	fprint_json_string(fp, val);
	*first = false;
}

static void fprint_json(FILE *fp, const struct list_events *le)
{
	fputs("[\n", fp);
	for (size_t i = 0; i < le->n; i++) {
		const struct list_entry *e = &le->v[i];
		bool first = true;

		fputs("{\n", fp);
		fprint_json_field(fp, &first, "Unit", e->pmu);
		fprint_json_field(fp, &first, "EventName", e->name);
		fprint_json_field(fp, &first, "EventAlias", e->alias);
		fprint_json_field(fp, &first, "ScaleUnit", e->scale_unit);
		fprint_json_field(fp, &first, "EventType", e->type);
		fprint_json_field(fp, &first, "BriefDescription", e->desc);
		fprint_json_field(fp, &first, "Encoding", e->encoding);
		fprintf(fp, "\n}%s\n", i + 1 < le->n ? "," : "");
	}
	fputs("]\n", fp);
}

int list_events__fprintf(const struct list_events *le, FILE *fp,
			 const struct list_print_opts *o)
{
	if (o->json)
		fprint_json(fp, le);
	else if (o->raw_dump)
		fprint_raw_dump(fp, le);
	else
		fprint_text(fp, le, o);
	if (fflush(fp) || ferror(fp))
		return -(errno ? errno : EIO);
	return 0;
}
