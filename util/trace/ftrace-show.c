// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text and filters for trace.dat events (see ftrace-show.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/ftrace-show.h"

static void mark_comms_sorted(struct trace_dat *td);

int ftrace_show__decode(struct trace_dat *td, const struct trace_dat_event *ev,
			struct ftrace_line *line)
{
	memset(line, 0, sizeof(*line));
	line->rec.ts = ev->ts;
	line->rec.cpu = ev->cpu;
	line->buffer = ev->buffer;
	line->rec.data = (void *)ev->data;
	line->rec.size = ev->size;
	line->rec.record_size = ev->size;
	line->rec.missed_events = ev->missed;
	if (ev->size < 8)
		return -EINVAL;
	line->event = tep_find_event_by_record(td->tevent.tep, &line->rec);
	line->pid = tep_data_pid(td->tevent.tep, &line->rec);
	line->comm = tep_data_comm_from_pid(td->tevent.tep, line->pid);
	if (line->pid)	/* pid 0 is "<idle>" without a look-up */
		mark_comms_sorted(td);
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

/* The general path, and the only one for the latency layout. */
static void format_slow(struct trace_dat *td, struct ftrace_line *line, int latency,
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

/*
 * The fast path.  libtraceevent's tep_print_event() parses its format string
 * and goes through printf for every field of every event; a trace of
 * sched_switch / sched_wakeup spends most of `show` there.  Those two events
 * are printed here directly, the way libtraceevent's sched_switch plugin
 * prints them (with its side effect: the comm of a task seen in a payload is
 * registered for the pid when the pid has none).  Each event type is checked
 * once, on its first record, against tep_print_event(): a difference (no
 * plugin, another layout) sends that type back to libtraceevent for good.
 */
enum { FAST_UNKNOWN, FAST_NONE, FAST_SWITCH, FAST_WAKEUP };

struct fast_event {
	int kind;
	struct tep_format_field *f[8];
};

struct ftrace_show_cache {
	struct fast_event ev[65536];	/* by event id (common_type is 16 bits) */
	uint8_t *registered;		/* pids whose comm was handed to tep */
	int max_pid;
	int comms_sorted;		/* tep has looked a pid up (see note_comm) */
};

static void cache_free(void *p)
{
	struct ftrace_show_cache *c = p;

	free(c->registered);
	free(c);
}

static char *put_uint(char *p, unsigned long long v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_int(char *p, long long v)
{
	if (v < 0) {
		*p++ = '-';
		return put_uint(p, -(unsigned long long)v);
	}
	return put_uint(p, v);
}

/* The number @v zero-padded to @width digits (more when needed). */
static char *put_uint_pad(char *p, unsigned long long v, int width, char pad)
{
	char tmp[24];
	char *e = put_uint(tmp, v);
	int n = e - tmp;

	while (n < width--)
		*p++ = pad;
	memcpy(p, tmp, n);
	return p + n;
}

static unsigned long long fval(struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return v;
}

/*
 * Hand @comm of @pid to tep as the plugin does on every comm it prints.
 * Until tep first looks a pid up, it keeps what it is given in a list,
 * duplicates and all, and sorts that list at the first look-up: which of two
 * comms of one pid wins then depends on every entry, so each is handed over,
 * as often as trace-cmd hands it.  From then on tep ignores a pid it has, and
 * the bitmap saves the call.
 */
static void note_comm(struct ftrace_show_cache *c, struct trace_dat *td, const char *comm,
		      int pid)
{
	if (pid >= 0 && pid < c->max_pid) {
		uint8_t bit = 1 << (pid % 8);

		if (c->comms_sorted && (c->registered[pid / 8] & bit))
			return;
		c->registered[pid / 8] |= bit;
	}
	tep_register_comm(td->tevent.tep, comm, pid);
}

/* The comm field (NUL- or size-bounded), handed to tep for @pid when @reg. */
static char *put_comm(struct ftrace_show_cache *c, struct trace_dat *td, char *p,
		      struct tep_format_field *f, const struct tep_record *rec, int pid, int reg)
{
	const char *comm = (const char *)rec->data + f->offset;
	size_t len = strnlen(comm, f->size);

	memcpy(p, comm, len);
	p[len] = 0;
	if (reg)
		note_comm(c, td, p, pid);
	return p + len;
}

static void put_state(char **pp, unsigned long long v)
{
	static const char states[] = "SDTtZXxW";
	char *p = *pp;
	int found = 0;

	for (int i = 0; states[i]; i++) {
		if (!(v & (1ULL << i)))
			continue;
		if (found)
			*p++ = '|';
		found = 1;
		*p++ = states[i];
	}
	if (!found)
		*p++ = 'R';
	*pp = p;
}

/* The payload of @rec through the fast path into @out (room for 256 bytes). */
static void fast_payload(struct ftrace_show_cache *c, struct trace_dat *td,
			 struct fast_event *fe, const struct tep_record *rec, char *out, int reg)
{
	char *p = out;
	unsigned long long pid;

	if (fe->kind == FAST_SWITCH) {
		pid = fval(fe->f[1], rec);
		p = put_comm(c, td, p, fe->f[0], rec, pid, reg);
		*p++ = ':';
		p = put_int(p, (long long)pid);
		*p++ = ' ';
		*p++ = '[';
		p = put_int(p, (int)fval(fe->f[2], rec));
		memcpy(p, "] ", 2);
		p += 2;
		put_state(&p, fval(fe->f[3], rec));
		memcpy(p, " ==> ", 5);
		p += 5;
		pid = fval(fe->f[5], rec);
		p = put_comm(c, td, p, fe->f[4], rec, pid, reg);
		*p++ = ':';
		p = put_int(p, (long long)pid);
		memcpy(p, " [", 2);
		p = put_int(p + 2, (int)fval(fe->f[6], rec));
		*p++ = ']';
	} else {
		pid = fval(fe->f[1], rec);
		p = put_comm(c, td, p, fe->f[0], rec, pid, reg);
		*p++ = ':';
		p = put_int(p, (long long)pid);
		memcpy(p, " [", 2);
		p = put_int(p + 2, (long long)fval(fe->f[2], rec));
		*p++ = ']';
		if (fe->f[3]) {
			memcpy(p, " success=", 9);
			p = put_int(p + 9, (long long)fval(fe->f[3], rec));
		}
		memcpy(p, " CPU:", 5);
		p = put_uint_pad(p + 5, fval(fe->f[4], rec), 3, '0');
	}
	*p = 0;
}

static int fields(struct tep_event *e, const char *const *names, struct tep_format_field **f,
		  unsigned optional)
{
	for (int i = 0; names[i]; i++) {
		f[i] = tep_find_field(e, names[i]);
		if (!f[i] && !(optional & (1U << i)))
			return -1;
		if (f[i] && (f[i]->flags & TEP_FIELD_IS_ARRAY) != (strstr(names[i], "comm") ? TEP_FIELD_IS_ARRAY : 0))
			return -1;
	}
	return 0;
}

/*
 * How the type of @l is printed: decided on its first record, whose payload
 * libtraceevent then prints into @s (*@done set): printing it a second time
 * would hand its comms to tep twice (see note_comm).
 */
static struct fast_event *fast_event(struct ftrace_show_cache *c, struct trace_dat *td,
				     struct ftrace_line *l, struct trace_seq *s, int *done)
{
	static const char *const sw[] = { "prev_comm", "prev_pid", "prev_prio", "prev_state",
					  "next_comm", "next_pid", "next_prio", NULL };
	static const char *const wk[] = { "comm", "pid", "prio", "success", "target_cpu", NULL };
	struct fast_event *fe = &c->ev[l->event->id & 0xffff];
	unsigned int start = s->len;
	char mine[300];

	*done = 0;
	if (fe->kind != FAST_UNKNOWN)
		return fe;
	fe->kind = FAST_NONE;
	if (strcmp(l->event->system, "sched") || td->big_endian)
		return fe;
	if (!strcmp(l->event->name, "sched_switch") && !fields(l->event, sw, fe->f, 0))
		fe->kind = FAST_SWITCH;
	else if ((!strcmp(l->event->name, "sched_wakeup") ||
		  !strcmp(l->event->name, "sched_wakeup_new")) &&
		 !fields(l->event, wk, fe->f, 1 << 3))
		fe->kind = FAST_WAKEUP;
	if (fe->kind == FAST_NONE)
		return fe;
	tep_print_event(td->tevent.tep, s, &l->rec, "%s", TEP_PRINT_INFO);
	*done = 1;
	fast_payload(c, td, fe, &l->rec, mine, 0);	/* the plugin has handed the comms over */
	if (s->len - start != strlen(mine) || memcmp(s->buffer + start, mine, s->len - start))
		fe->kind = FAST_NONE;
	return fe;
}

static struct ftrace_show_cache *show_cache(struct trace_dat *td)
{
	struct ftrace_show_cache *c = td->show_priv;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->max_pid = 1 << 22;
	c->registered = calloc(c->max_pid / 8, 1);
	if (!c->registered) {
		free(c);
		return NULL;
	}
	td->show_priv = c;
	td->show_priv_free = cache_free;
	return c;
}

/* tep has sorted its comms: it looked up a pid other than 0. */
static void mark_comms_sorted(struct trace_dat *td)
{
	struct ftrace_show_cache *c = show_cache(td);

	if (c)
		c->comms_sorted = 1;
}

/* trace-cmd's "NAME: " column of a file with several buffers, "" the top's */
static void put_buffer_column(struct trace_dat *td, struct ftrace_line *l, struct trace_seq *s)
{
	const char *name = td->buffer_names[l->buffer];
	size_t w = 0;

	for (int i = 0; i < td->nr_buffers; i++)
		if (strlen(td->buffer_names[i]) > w)
			w = strlen(td->buffer_names[i]);
	trace_seq_printf(s, "%*s%c ", (int)w, name, *name ? ':' : ' ');
}

/* "            comm-pid   [cpu] secs.usecs: name:                 " */
static void put_prefix(struct trace_dat *td, struct ftrace_line *l, struct trace_seq *s)
{
	char buf[128 + 256], *p = buf;
	const char *comm = l->comm ? l->comm : "<...>";
	size_t len = strlen(comm);
	unsigned long long us = (l->rec.ts + 500) / 1000;	/* rounded as trace-cmd does */

	if (len > 128) {	/* a comm this long takes the general path */
		trace_seq_puts(s, comm);
	} else {
		for (size_t i = len; i < 16; i++)
			*p++ = ' ';
		memcpy(p, comm, len);
		p += len;
	}
	*p++ = '-';
	{
		char *start = p;

		p = put_int(p, l->pid);
		while (p - start < 5)
			*p++ = ' ';
	}
	memcpy(p, " [", 2);
	p = put_uint_pad(p + 2, l->rec.cpu, 3, '0');
	memcpy(p, "] ", 2);
	p += 2;
	if (raw_clock(td)) {
		p = put_uint_pad(p, l->rec.ts, 12, ' ');
	} else {
		p = put_uint_pad(p, us / 1000000, 5, ' ');
		*p++ = '.';
		p = put_uint_pad(p, us % 1000000, 6, '0');
	}
	*p++ = ':';
	*p++ = ' ';
	if (l->event) {
		const char *name = l->event->name;
		size_t n = strnlen(name, 200);
		char *start = p;

		memcpy(p, name, n);
		p += n;
		*p++ = ':';
		while (p - start < 21)
			*p++ = ' ';
		*p++ = ' ';
	}
	*p = 0;
	trace_seq_puts(s, buf);
}

void ftrace_show__format(struct trace_dat *td, struct ftrace_line *line, int latency,
			 struct trace_seq *s)
{
	struct tep_record *rec = &line->rec;
	struct ftrace_show_cache *c;
	struct fast_event *fe;
	char payload[300];
	int done = 0;

	/* with several buffers trace-cmd puts the "NAME: " column before
	 * the dropped-events line, and not again on the event's own line */
	if (td->nr_buffers > 1 && rec->missed_events)
		put_buffer_column(td, line, s);
	if (rec->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu, rec->missed_events);
	else if (rec->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", rec->cpu);
	if (td->nr_buffers > 1 && !rec->missed_events && !latency)
		put_buffer_column(td, line, s);
	if (latency) {
		format_slow(td, line, latency, s);
		return;
	}
	put_prefix(td, line, s);
	if (!line->event) {
		trace_seq_printf(s, "[UNKNOWN TYPE %d]", tep_data_type(td->tevent.tep, rec));
		return;
	}
	if (format_graph(td, line, s))
		return;
	c = show_cache(td);
	fe = c ? fast_event(c, td, line, s, &done) : NULL;
	if (done)
		return;
	if (fe && fe->kind != FAST_NONE) {
		fast_payload(c, td, fe, rec, payload, 1);
		trace_seq_puts(s, payload);
		return;
	}
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
