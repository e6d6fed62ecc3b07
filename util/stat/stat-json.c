// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading `tperf stat -j` output back: line by line through the strict
 * JSON reader (util/lib/json), each object checked for the keys the
 * comparison needs.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/file.h"
#include "util/lib/json.h"
#include "util/stat/stat-json.h"

#define STAT_MAX_RUNS 1000000
/* larger numbers are no count: refused, so that no square overflows */
#define STAT_MAX_VALUE 1e100
/* 100 runs of 1000 rows are 2 MiB of -j output */
#define STAT_MAX_FILE_MIB 64

/* The keys naming a row of an aggregation, as stat -j writes them. */
static const char *const row_keys[] = { "cpu", "core", "die", "socket", "thread" };

__attribute__((format(printf, 4, 5)))
static int bad_line(char *msg, size_t size, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return -EINVAL;
	n = snprintf(msg, size, "line %d: ", line);
	if (n >= 0 && (size_t)n < size) {
		va_start(ap, fmt);
		vsnprintf(msg + n, size - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A string's value, or NULL when @v is absent or not a string. */
static const char *str_of(const struct json_value *v)
{
	return v && v->type == JSON_STRING ? v->str : NULL;
}

/* "1.234000" (stat -j writes the value as a string) or a number: 0, or -1. */
static int read_value(const struct json_value *v, double *val)
{
	locale_t c;
	char *end;

	if (v->type == JSON_NUMBER) {
		*val = v->num;
		return fabs(*val) <= STAT_MAX_VALUE ? 0 : -1;
	}
	c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c)
		return -1;
	*val = strtod_l(v->str, &end, c);
	freelocale(c);
	return end != v->str && !*end && fabs(*val) <= STAT_MAX_VALUE ? 0 : -1;
}

/* The row ("cpu 0") of the object @o, malloc'ed; "" when it has none. */
static int read_row(const struct json_value *o, int line, char **row, char *msg, size_t size)
{
	for (size_t i = 0; i < sizeof(row_keys) / sizeof(row_keys[0]); i++) {
		const struct json_value *v = json__get(o, row_keys[i]);

		if (!v)
			continue;
		if (!str_of(v))
			return bad_line(msg, size, line, "\"%s\" is not a string", row_keys[i]);
		if (asprintf(row, "%s %s", row_keys[i], v->str) < 0) {
			*row = NULL;
			return -ENOMEM;
		}
		return 0;
	}
	*row = strdup("");
	return *row ? 0 : -ENOMEM;
}

/* "values" of a row with "runs": a number for each run (or absent). */
static int read_values(const struct json_value *v, struct stat_count *c, char *msg, size_t size)
{
	if (!v)
		return 0;
	if (v->type != JSON_ARRAY)
		return bad_line(msg, size, c->line, "\"values\" is not an array");
	if ((int)v->nr != c->runs)
		return 0;	/* not one a run: not used (only a paired test needs them) */
	c->values = calloc(v->nr ? v->nr : 1, sizeof(*c->values));
	if (!c->values)
		return -ENOMEM;
	for (size_t i = 0; i < v->nr; i++) {
		if (v->items[i].type != JSON_NUMBER || fabs(v->items[i].num) > STAT_MAX_VALUE)
			return bad_line(msg, size, c->line,
					"\"values\" holds something else than numbers up to 1e100");
		c->values[i] = v->items[i].num;
	}
	c->nr_values = v->nr;
	return 0;
}

/* "runs", "mean" and "stddev" of a counted row, when it has them. */
static int read_runs(const struct json_value *o, struct stat_count *c, char *msg, size_t size)
{
	const struct json_value *runs = json__get(o, "runs");
	const struct json_value *mean = json__get(o, "mean");
	const struct json_value *sd = json__get(o, "stddev");

	if (!runs)
		return 0;
	if (runs->type != JSON_NUMBER || runs->num != floor(runs->num) || runs->num < 1 ||
	    runs->num > STAT_MAX_RUNS)
		return bad_line(msg, size, c->line, "\"runs\" is not a count from 1 to %d",
				STAT_MAX_RUNS);
	if (!mean || mean->type != JSON_NUMBER || fabs(mean->num) > STAT_MAX_VALUE)
		return bad_line(msg, size, c->line, "\"runs\" without a \"mean\" number up to 1e100");
	if (!sd || sd->type != JSON_NUMBER || sd->num < 0 || sd->num > STAT_MAX_VALUE)
		return bad_line(msg, size, c->line,
				"\"runs\" without a \"stddev\" number from 0 to 1e100");
	c->runs = runs->num;
	c->mean = mean->num;
	c->stddev = sd->num;
	return read_values(json__get(o, "values"), c, msg, size);
}

/* One object of the file into @c (its strings malloc'ed). */
static int read_count(const struct json_value *o, struct stat_count *c, char *msg, size_t size)
{
	const struct json_value *cv = json__get(o, "counter-value");
	const char *event = str_of(json__get(o, "event"));
	const char *unit = str_of(json__get(o, "unit"));
	int err;

	if (o->type != JSON_OBJECT)
		return bad_line(msg, size, c->line, "not a JSON object");
	if (json__get(o, "interval"))
		return bad_line(msg, size, c->line,
				"an interval row (-I): only a run's totals can be compared");
	if (!event)
		return bad_line(msg, size, c->line, "no \"event\" string");
	if (!cv || (cv->type != JSON_STRING && cv->type != JSON_NUMBER))
		return bad_line(msg, size, c->line, "no \"counter-value\"");
	if (json__get(o, "unit") && !unit)
		return bad_line(msg, size, c->line, "\"unit\" is not a string");
	c->event = strdup(event);
	c->unit = strdup(unit ? unit : "");
	if (!c->event || !c->unit)
		return -ENOMEM;
	err = read_row(o, c->line, &c->row, msg, size);
	if (err)
		return err;
	if (cv->type == JSON_STRING &&
	    (!strcmp(cv->str, "<not counted>") || !strcmp(cv->str, "<not supported>")))
		return 0;
	if (read_value(cv, &c->value))
		return bad_line(msg, size, c->line, "\"counter-value\" is not a number up to 1e100");
	c->counted = true;
	return read_runs(o, c, msg, size);
}

static void stat_count__exit(struct stat_count *c)
{
	free(c->event);
	free(c->unit);
	free(c->row);
	free(c->values);
}

/* Add the line @line (@len bytes at @s, a JSON object) to @counts. */
static int add_line(struct stat_counts *counts, int *cap, const char *s, size_t len, int line,
		    char *msg, size_t size)
{
	struct stat_count c = { .line = line };
	const struct stat_count *dup;
	struct json_value *o;
	char jmsg[128];
	int err;

	err = json__parse(s, len, &o, jmsg, sizeof(jmsg));
	if (err == -EINVAL) {
		if (size)
			snprintf(msg, size, "line %d, %s", line, jmsg);	/* "byte N: what" */
		return err;
	}
	if (err)
		return err;
	err = read_count(o, &c, msg, size);
	json__delete(o);
	if (!err && (dup = stat_counts__find(counts, c.event, c.row))) {
		char name[256];

		err = bad_line(msg, size, line,
			       "'%s' again, first on line %d: one stat run per file (no --append)",
			       stat_count__name(&c, name, sizeof(name)), dup->line);
	}
	if (!err && counts->nr == *cap) {
		struct stat_count *n;

		*cap = *cap ? 2 * *cap : 16;
		n = realloc(counts->c, *cap * sizeof(*n));
		if (!n)
			err = -ENOMEM;
		else
			counts->c = n;
	}
	if (err) {
		stat_count__exit(&c);
		return err;
	}
	counts->c[counts->nr++] = c;
	return 0;
}

/* A line of white space only, or a comment ("# started on ..."). */
static bool skipped_line(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t' || *s == '\r')) {
		s++;
		len--;
	}
	return !len || *s == '#';
}

/**
 * stat_counts__parse - the counters of stat -j output
 * @counts: receives them (zeroed first)
 * @text: the output
 * @len: its length
 * @msg: what is wrong, "line N: ..."
 * @size: its size
 *
 * Return: 0, -EINVAL (nothing kept) or -ENOMEM.
 */
int stat_counts__parse(struct stat_counts *counts, const char *text, size_t len, char *msg,
		       size_t size)
{
	const char *s = text, *end = text + len;
	int cap = 0, line = 0, err = 0;

	memset(counts, 0, sizeof(*counts));
	if (size)
		msg[0] = '\0';
	while (s < end && !err) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		line++;
		if (!skipped_line(s, n))
			err = add_line(counts, &cap, s, n, line, msg, size);
		s += n + (nl != NULL);
	}
	if (!err && !counts->nr) {
		err = -EINVAL;
		if (size)
			snprintf(msg, size, "no counter in it (is it the output of tperf stat -j?)");
	}
	if (err == -ENOMEM && size)
		snprintf(msg, size, "out of memory");
	if (err)
		stat_counts__exit(counts);
	return err;
}

/**
 * stat_counts__read - the counters of a file written by stat -j
 * @counts: receives them
 * @path: the file
 * @msg: what is wrong, "'PATH' line N: ..." or "cannot read 'PATH': ..."
 * @size: its size
 *
 * Return: 0 or -errno.
 */
int stat_counts__read(struct stat_counts *counts, const char *path, char *msg, size_t size)
{
	char *text, why[256];
	struct stat st;
	size_t len;
	FILE *f;
	int err;

	memset(counts, 0, sizeof(*counts));
	/* a regular file of a bounded size: not a FIFO, not /dev/zero */
	f = file__fopen(path, (off_t)STAT_MAX_FILE_MIB << 20, &st);
	if (!f) {
		err = errno;
		if (err == EINVAL)
			snprintf(msg, size, "'%s' is not a regular file", path);
		else if (err == EFBIG)
			snprintf(msg, size, "'%s' is larger than %d MiB", path, STAT_MAX_FILE_MIB);
		else
			snprintf(msg, size, "cannot read '%s': %s", path, strerror(err));
		return -err;
	}
	text = malloc(st.st_size + 1);
	if (!text) {
		fclose(f);
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	len = fread(text, 1, st.st_size, f);	/* what it had when opened, at most */
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (err) {
		free(text);
		snprintf(msg, size, "cannot read '%s': %s", path, strerror(-err));
		return err;
	}
	err = stat_counts__parse(counts, text, len, why, sizeof(why));
	free(text);
	if (err)
		snprintf(msg, size, "'%s': %s", path, why);
	return err;
}

/**
 * stat_counts__exit - free what stat_counts__parse() read
 * @counts: the counters (zeroed)
 */
void stat_counts__exit(struct stat_counts *counts)
{
	for (int i = 0; i < counts->nr; i++)
		stat_count__exit(&counts->c[i]);
	free(counts->c);
	memset(counts, 0, sizeof(*counts));
}

/**
 * stat_counts__find - a counter by event and row
 * @counts: the counters
 * @event: the event name
 * @row: the row ("cpu 0"), "" for a counter without aggregation
 *
 * Return: the entry or NULL.
 */
const struct stat_count *stat_counts__find(const struct stat_counts *counts, const char *event,
					   const char *row)
{
	for (int i = 0; i < counts->nr; i++)
		if (!strcmp(counts->c[i].event, event) && !strcmp(counts->c[i].row, row))
			return &counts->c[i];
	return NULL;
}

/**
 * stat_count__name - how messages and the comparison name a counter
 * @c: the counter
 * @buf: room for the name
 * @size: its size
 *
 * Return: @buf, "EVENT" or "EVENT (ROW)".
 */
const char *stat_count__name(const struct stat_count *c, char *buf, size_t size)
{
	if (*c->row)
		snprintf(buf, size, "%s (%s)", c->event, c->row);
	else
		snprintf(buf, size, "%s", c->event);
	return buf;
}
