// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text and filters for trace.dat events (see ftrace-show.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace-show.h"

int ftrace_show__decode(struct trace_dat *td, const struct trace_dat_event *ev,
			struct ftrace_line *line)
{
	memset(line, 0, sizeof(*line));
	line->rec.ts = ev->ts;
	line->rec.cpu = ev->cpu;
	line->rec.data = (void *)ev->data;
	line->rec.size = ev->size;
	line->rec.record_size = ev->size;
	line->rec.missed_events = ev->missed;
	if (ev->size < 8)
		return -EINVAL;
	line->event = tep_find_event_by_record(td->tevent.tep, &line->rec);
	line->pid = tep_data_pid(td->tevent.tep, &line->rec);
	line->comm = tep_data_comm_from_pid(td->tevent.tep, line->pid);
	return 0;
}

int ftrace_show__match(struct trace_dat *td, const struct ftrace_line *line,
		       const struct ftrace_filter *f)
{
	if (f->cpu >= 0 && line->rec.cpu != f->cpu)
		return 0;
	if (f->pid >= 0 && line->pid != f->pid)
		return 0;
	if (f->comm && strcmp(f->comm, line->comm))
		return 0;
	if (line->rec.ts < f->start || (f->stop && line->rec.ts > f->stop))
		return 0;
	if (f->event) {
		char full[256];

		if (!line->event)
			return 0;
		snprintf(full, sizeof(full), "%s:%s", line->event->system, line->event->name);
		if (fnmatch(f->event, full, 0) && fnmatch(f->event, line->event->name, 0))
			return 0;
	}
	return 1;
}

static int raw_clock(struct trace_dat *td)
{
	return td->clock && (!strcmp(td->clock, "counter") || !strcmp(td->clock, "x86-tsc"));
}

static int field(struct ftrace_line *l, const char *name, unsigned long long *v);

static int field(struct ftrace_line *l, const char *name, unsigned long long *v);

int ftrace_show__graph(struct ftrace_line *l, unsigned long long *func,
		       unsigned long long *depth, unsigned long long *ns)
{
	const char *name = l->event ? l->event->name : "";
	unsigned long long call, ret;
	int kind;

	if (strncmp(name, "funcgraph_", 10))
		return FTRACE_GRAPH_NONE;
	if (!strcmp(name + 10, "entry"))
		kind = FTRACE_GRAPH_ENTRY;
	else if (!strcmp(name + 10, "exit"))
		kind = FTRACE_GRAPH_EXIT;
	else
		return FTRACE_GRAPH_NONE;
	if (field(l, "func", func) || field(l, "depth", depth))
		return FTRACE_GRAPH_NONE;
	*ns = 0;
	if (kind == FTRACE_GRAPH_EXIT) {
		if (field(l, "calltime", &call) || field(l, "rettime", &ret))
			return FTRACE_GRAPH_NONE;
		*ns = ret > call ? ret - call : 0;
	}
	return kind;
}

/* The duration column: marker, microseconds, padded up to the bar. */
static void graph_duration(struct trace_seq *s, unsigned long long ns)
{
	char num[32], mark = ns > 1000000000ULL ? '$' : ns > 1000000 ? '#' :
			     ns > 100000 ? '!' : ns > 10000 ? '+' : ' ';
	int len;

	if (ns / 1000 < 1000000)
		len = snprintf(num, sizeof(num), "%llu.%03llu", ns / 1000, ns % 1000);
	else
		len = snprintf(num, sizeof(num), "%llu", ns / 1000);
	trace_seq_printf(s, "%c %s us%*s|  ", mark, num, len < 7 ? 8 - len : 1, "");
}

/* function_graph's nested form, as trace-cmd report prints it. */
static int format_graph(struct trace_dat *td, struct ftrace_line *l, struct trace_seq *s)
{
	unsigned long long func, depth, ns;
	int kind = ftrace_show__graph(l, &func, &depth, &ns);
	const char *name;

	if (kind == FTRACE_GRAPH_NONE)
		return 0;
	if (depth > 64)
		depth = 64;
	if (kind == FTRACE_GRAPH_EXIT) {
		graph_duration(s, ns);
		trace_seq_printf(s, "%*s}", (int)depth * 2, "");
		return 1;
	}
	if (l->leaf)
		graph_duration(s, l->leaf_ns);
	else
		trace_seq_puts(s, "             |  ");
	trace_seq_printf(s, "%*s", (int)depth * 2, "");
	if ((name = tep_find_function(td->tevent.tep, func)))
		trace_seq_puts(s, name);
	else
		trace_seq_printf(s, "0x%llx", func);
	trace_seq_puts(s, l->leaf ? "();" : "() {");
	return 1;
}

void ftrace_show__format(struct trace_dat *td, struct ftrace_line *line, int latency,
			 struct trace_seq *s)
{
	struct tep_record *rec = &line->rec;
	char name[256];

	trace_seq_printf(s, "%16s-%-5d [%03d] ", line->comm, line->pid, rec->cpu);
	if (latency)
		tep_print_event(td->tevent.tep, s, rec, "%s ", TEP_PRINT_LATENCY);
	if (raw_clock(td))
		trace_seq_printf(s, "%12llu: ", rec->ts);
	else
	{
		unsigned long long us = (rec->ts + 500) / 1000;	/* rounded as trace-cmd does */

		trace_seq_printf(s, "%5llu.%06llu: ", us / 1000000, us % 1000000);
	}
	if (!line->event) {
		trace_seq_printf(s, "[UNKNOWN TYPE %d]", tep_data_type(td->tevent.tep, rec));
		return;
	}
	snprintf(name, sizeof(name), "%s:", line->event->name);
	trace_seq_printf(s, "%-21s ", name);
	if (format_graph(td, line, s))
		return;
	tep_print_event(td->tevent.tep, s, rec, "%s", TEP_PRINT_INFO);
}

int ftrace_show__parse_time(const char *s, uint64_t *start, uint64_t *stop)
{
	const char *comma = strchr(s, ',');
	char *end;
	double a = 0, b = 0;

	*start = *stop = 0;
	if (!comma)
		return -EINVAL;
	if (comma != s) {
		a = strtod(s, &end);
		if (end != comma || a < 0)
			return -EINVAL;
	}
	if (comma[1]) {
		b = strtod(comma + 1, &end);
		if (*end || b < a)
			return -EINVAL;
	}
	*start = a * 1e9;
	*stop = b * 1e9;
	return 0;
}

static int field(struct ftrace_line *l, const char *name, unsigned long long *v)
{
	if (!l->event)
		return -1;
	return tep_get_field_val(NULL, l->event, name, &l->rec, v, 0);
}

int ftrace_graph_stats__add(struct ftrace_graph_stats *st, struct ftrace_line *l)
{
	unsigned long long func, depth, call, ret, total, *child;
	size_t i;

	if (!l->event || strcmp(l->event->name, "funcgraph_exit") ||
	    field(l, "func", &func) || field(l, "depth", &depth) ||
	    field(l, "calltime", &call) || field(l, "rettime", &ret))
		return 0;
	if (depth > 30)
		depth = 30;
	child = st->child[l->rec.cpu & 4095];
	total = ret > call ? ret - call : 0;
	for (i = 0; i < st->nr && st->funcs[i].addr != func; i++)
		;
	if (i == st->nr) {
		if (st->nr == st->cap) {
			struct ftrace_graph_func *n = realloc(st->funcs,
							      (st->cap = st->cap * 2 + 16) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			st->funcs = n;
		}
		memset(&st->funcs[st->nr++], 0, sizeof(*st->funcs));
		st->funcs[i].addr = func;
	}
	st->funcs[i].calls++;
	st->funcs[i].total_ns += total;
	st->funcs[i].self_ns += total > child[depth + 1] ? total - child[depth + 1] : 0;
	child[depth + 1] = 0;
	child[depth] += total;
	return 0;
}
