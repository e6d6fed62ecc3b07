// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf ftrace report's counting (ftrace-report.h).
 */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/ftrace-report.h"
#include "util/trace/trace-dat.h"

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct report_row *)a)->key, ((const struct report_row *)b)->key);
}

/* The value of key @k for @line in @buf; 0 when the line has no such value. */
static int key_value(struct trace_dat *td, struct ftrace_line *l, const char *k,
		     char *buf, size_t size)
{
	const char *dot = strchr(k, '.');

	if (!strcmp(k, "event") || !strcmp(k, "sym")) {
		if (!l->event)
			return 0;
		if (!strcmp(k, "sym")) {
			unsigned long long ip;
			const char *fn;

			if (strcmp(l->event->name, "function") ||
			    tep_get_field_val(NULL, l->event, "ip", &l->rec, &ip, 0))
				return 0;
			fn = tep_find_function(td->tevent.tep, ip);
			if (fn)
				snprintf(buf, size, "%s", fn);
			else
				snprintf(buf, size, "0x%llx", ip);
			return 1;
		}
		snprintf(buf, size, "%s:%s", l->event->system, l->event->name);
	} else if (!strcmp(k, "comm")) {
		snprintf(buf, size, "%s", l->comm);
	} else if (!strcmp(k, "pid")) {
		snprintf(buf, size, "%d", l->pid);
	} else if (!strcmp(k, "cpu")) {
		snprintf(buf, size, "%03d", l->rec.cpu);
	} else if (dot) {
		char full[256];
		struct tep_format_field *f;
		unsigned long long v;

		if (!l->event)
			return 0;
		snprintf(full, sizeof(full), "%s:%s", l->event->system, l->event->name);
		if (strncmp(full, k, dot - k) || full[dot - k])
			return 0;
		f = tep_find_field(l->event, dot + 1);
		if (!f)
			return 0;
		if (f->flags & TEP_FIELD_IS_STRING) {
			int len;
			const char *p = tep_get_field_raw(NULL, l->event, dot + 1, &l->rec, &len, 0);

			snprintf(buf, size, "%.*s", p ? (int)strnlen(p, len) : 0, p ? p : "");
		} else if (!tep_read_number_field(f, l->rec.data, &v)) {
			snprintf(buf, size, "%llu", v);
		} else {
			return 0;
		}
	}
	return 1;
}

int ftrace_report__add_line(struct trace_dat *td, struct ftrace_line *line, void *arg)
{
	struct ftrace_report *r = arg;
	char key[4096] = "", val[1024];
	size_t len = 0;
	struct report_row probe = { .key = key }, **found;

	if (r->graph && ftrace_graph_stats__add(r->graph, line))
		return r->err = 1;

	for (int i = 0; i < r->nkeys; i++) {
		if (!key_value(td, line, r->keys[i], val, sizeof(val)))
			return 0;
		len += snprintf(key + len, sizeof(key) - len, "%s%s", i ? "\t" : "", val);
		if (len >= sizeof(key))
			return 0;
	}
	r->total++;
	found = tfind(&probe, &r->tree, cmp_row);
	if (found) {
		(*found)->count++;
		return 0;
	}
	if (r->nrows == r->cap) {
		struct report_row **n = realloc(r->rows, (r->cap = r->cap * 2 + 64) * sizeof(*n));

		if (!n)
			return r->err = 1;
		r->rows = n;
	}
	r->rows[r->nrows] = calloc(1, sizeof(struct report_row));
	if (!r->rows[r->nrows] || !(r->rows[r->nrows]->key = strdup(key)))
		return r->err = 1;
	r->rows[r->nrows]->count = 1;
	tsearch(r->rows[r->nrows], &r->tree, cmp_row);
	r->nrows++;
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct report_row *x = *(struct report_row *const *)a, *y = *(struct report_row *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int cmp_graph(const void *a, const void *b)
{
	const struct ftrace_graph_func *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void nofree(void *p)
{
	(void)p;
}

void ftrace_report__exit(struct ftrace_report *r)
{
	if (r->graph)
		free(r->graph->funcs);
	free(r->graph);
	tdestroy(r->tree, nofree);
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i]->key);
		free(r->rows[i]);
	}
	free(r->rows);
	free(r->keys);
	free(r->keys_buf);
	memset(r, 0, sizeof(*r));
}

bool ftrace_report__functions_only(const struct ftrace_report *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (strcmp(r->rows[i]->key, "ftrace:function") &&
		    strncmp(r->rows[i]->key, "ftrace:funcgraph_", 17))
			return 0;
	return r->nrows > 0;
}


int ftrace_report__init(struct ftrace_report *r, const char *sort)
{
	char *save = NULL;

	memset(r, 0, sizeof(*r));
	r->keys_buf = strdup(sort);
	if (!r->keys_buf)
		return -ENOMEM;
	for (char *t = strtok_r(r->keys_buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char **nk = realloc(r->keys, (r->nkeys + 1) * sizeof(*r->keys));

		if (!nk) {
			ftrace_report__exit(r);
			return -ENOMEM;
		}
		r->keys = nk;
		r->keys[r->nkeys++] = t;
	}
	if (!strcmp(sort, "sym") && !(r->graph = calloc(1, sizeof(*r->graph)))) {
		ftrace_report__exit(r);
		return -ENOMEM;
	}
	return 0;
}

void ftrace_report__sort(struct ftrace_report *r)
{
	if (r->nrows)	/* no event: no array (qsort() wants one) */
		qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_count);
}

void ftrace_report__sort_graph(struct ftrace_graph_stats *g)
{
	if (g->nr)
		qsort(g->funcs, g->nr, sizeof(*g->funcs), cmp_graph);
}
