// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf script's sample lines: "comm tid [cpu] secs.usecs: period event: ip
 * sym+off (dso)", the callchain one frame a line ("\t%16x sym+off (dso)")
 * followed by an empty line.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "script-print.h"
#include "script-trace.h"

static const struct { const char *name; unsigned int bit; } field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "cpu", SF_CPU },
	{ "time", SF_TIME }, { "period", SF_PERIOD }, { "event", SF_EVNAME }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "symoff", SF_SYMOFF }, { "dso", SF_DSO }, { "trace", SF_TRACE },
};

static unsigned int field_bit(const char *name)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (!strcmp(name, field_names[i].name))
			return field_names[i].bit;
	return 0;
}

int script_fields__parse(struct script_opts *o, const char *s, char *buf, size_t size,
			 const char **bad)
{
	char *tok, *save = NULL;
	bool first = true;

	snprintf(buf, size, "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char op = (*tok == '+' || *tok == '-') ? *tok++ : 0;
		unsigned int bit = field_bit(tok);

		if (!bit) {
			*bad = tok;
			return -EINVAL;
		}
		if (!op && first) {
			o->fields = 0;
			o->user_set = true;
		}
		first = false;
		if (op == '-') {
			o->fields &= ~bit;
			o->removed |= bit;
			o->added &= ~bit;
		} else {
			o->fields |= bit;
			o->added |= bit;
			o->removed &= ~bit;
		}
	}
	return 0;
}

/* perf's tracepoint default, with -F's changes or -F's list */
static unsigned int script_fields__for_tracepoint(const struct script_opts *o,
						  const struct perf_event_attr *a)
{
	unsigned int f = SF_DEFAULT_TP;

	if (o->user_set)
		return o->fields;
	if (!o->added && !o->removed && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
		f |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
	return (f | o->added) & ~o->removed;
}

unsigned int script_fields__for_attr(const struct script_opts *o, const struct perf_event_attr *a)
{
	unsigned int f = o->fields & ~SF_TRACE;
	u64 t = a->sample_type;

	if (a->type == PERF_TYPE_TRACEPOINT)
		f = script_fields__for_tracepoint(o, a);

	if (!(t & PERF_SAMPLE_CPU))
		f &= ~SF_CPU;
	if (!(t & PERF_SAMPLE_TIME))
		f &= ~SF_TIME;
	/* the period is printed without PERF_SAMPLE_PERIOD too: the attr's */
	if (!(t & PERF_SAMPLE_IP))
		f &= ~(SF_IP | SF_SYM | SF_SYMOFF | SF_DSO);
	if (!(t & PERF_SAMPLE_TID))
		f &= ~(SF_TID | SF_PID);
	return f;
}

/* A line under construction: the sample's start is built here, not printf'ed. */
struct lbuf {
	char b[512];
	size_t n;
};

static void lb_pad(struct lbuf *l, int width, size_t len)
{
	while ((size_t)width > len && l->n < sizeof(l->b)) {
		l->b[l->n++] = ' ';
		width--;
	}
}

static void lb_str(struct lbuf *l, const char *s, size_t len)
{
	if (len > sizeof(l->b) - l->n)
		len = sizeof(l->b) - l->n;
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

/* "%*s" (right-aligned in @width) */
static void lb_right(struct lbuf *l, const char *s, int width)
{
	size_t len = strlen(s);

	lb_pad(l, width, len);
	lb_str(l, s, len);
}

/* "%*d" / "%0*lu" */
static void lb_num(struct lbuf *l, long long v, int width, bool zero)
{
	char tmp[24], *e = tmp + sizeof(tmp), *p = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (zero)
		while (e - p < width)
			*--p = '0';
	if (v < 0)
		*--p = '-';
	lb_pad(l, width, (size_t)(e - p));
	lb_str(l, p, (size_t)(e - p));
}

static void print_start(FILE *fp, const struct script_opts *o, unsigned int f,
			struct thread *t, const struct perf_sample *s, bool chain)
{
	struct lbuf l = { .n = 0 };

	if (f & SF_COMM) {
		const char *comm = t ? t->comm->str : ":-1";

		lb_right(&l, comm, chain ? 0 : 16);
		lb_str(&l, " ", 1);
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		char tid[16];
		int n = snprintf(tid, sizeof(tid), "%d", (int)s->tid);

		lb_num(&l, (int)s->pid, 5, false);
		lb_str(&l, "/", 1);
		lb_str(&l, tid, (size_t)n);
		lb_pad(&l, 5, (size_t)n);
		lb_str(&l, " ", 1);
	} else if (f & (SF_PID | SF_TID)) {
		lb_num(&l, (int)((f & SF_PID) ? s->pid : s->tid), 5, false);
		lb_str(&l, " ", 1);
	}
	if (f & SF_CPU) {
		lb_str(&l, "[", 1);
		lb_num(&l, (int)s->cpu, 3, true);
		lb_str(&l, "] ", 2);
	}
	if (f & SF_TIME) {
		unsigned long long secs = s->time / 1000000000ULL, ns = s->time % 1000000000ULL;

		lb_num(&l, (long long)secs, 5, false);
		lb_str(&l, ".", 1);
		lb_num(&l, (long long)(o->ns ? ns : ns / 1000), o->ns ? 9 : 6, true);
		lb_str(&l, ": ", 2);
	}
	fwrite(l.b, 1, l.n, fp);
}

/* " sym+0xoff (dso)" of an address whose map-relative value is @addr */
static void print_sym(FILE *fp, unsigned int f, const struct addr_location *al, u64 addr)
{
	if (f & SF_SYM) {
		fprintf(fp, " ");
		if (al->sym) {
			fprintf(fp, "%s", al->sym->name);
			if (f & SF_SYMOFF)
				fprintf(fp, "+0x%" PRIx64, addr - al->sym->start);
		} else {
			fprintf(fp, "[unknown]");
		}
	}
	if (f & SF_DSO)
		fprintf(fp, " (%s)", al->map ? al->map->dso->long_name : "[unknown]");
}

static void print_chain(FILE *fp, const struct script_opts *o, unsigned int f,
			struct machine *m, struct thread *t, const struct perf_sample *s)
{
	u8 cpumode = PERF_RECORD_MISC_USER;
	int n = 0;

	for (u64 i = 0; i < s->callchain_nr; i++) {	/* a bad marker empties the chain */
		u64 ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX && ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER &&
		    ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_GUEST_KERNEL &&
		    ip != PERF_CONTEXT_GUEST_USER)
			return;
	}
	for (u64 i = 0; i < s->callchain_nr && (o->max_stack <= 0 || n < o->max_stack); i++) {
		u64 ip = s->callchain[i];
		struct addr_location al;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			else if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == PERF_CONTEXT_GUEST_KERNEL)
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
			else if (ip == PERF_CONTEXT_GUEST_USER)
				cpumode = PERF_RECORD_MISC_GUEST_USER;
			else
				return;	/* corrupted: perf drops the chain */
			continue;
		}
		n++;
		machine__resolve_addr(m, t, cpumode, ip, &al);
		if (f & SF_IP)
			fprintf(fp, "\t%16" PRIx64, al.map ? al.addr : ip);
		print_sym(fp, f, &al, al.addr);
		fprintf(fp, "\n");
	}
}

int script__fprintf_sample(FILE *fp, const struct script_opts *o, unsigned int f,
			   struct machine *m, const struct perf_event_attr *attr, const char *name,
			   const struct perf_sample *s)
{
	struct thread *t = machine__findnew_thread(m, s->pid, s->tid);
	bool chain = (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && (f & SF_IP);
	u64 period = (attr->sample_type & PERF_SAMPLE_PERIOD) ? s->period : attr->sample_period;

	print_start(fp, o, f, t, s, chain);
	if (f & SF_PERIOD)
		fprintf(fp, "%10" PRIu64 " ", period);
	if (f & SF_EVNAME) {
		struct lbuf l = { .n = 0 };

		lb_right(&l, name, o->name_width);
		lb_str(&l, ": ", 2);
		fwrite(l.b, 1, l.n, fp);
	}
	if ((f & SF_TRACE) && o->trace && attr->type == PERF_TYPE_TRACEPOINT &&
	    script_trace__fprintf(fp, o->trace, attr, s))
		return -EIO;
	if (f & (SF_IP | SF_SYM | SF_DSO)) {
		if (chain) {
			fputc('\n', fp);
			print_chain(fp, o, f, m, t, s);
		} else {
			struct addr_location al;

			fputc(' ', fp);
			machine__resolve_addr(m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					      s->ip, &al);
			if (f & SF_IP)
				fprintf(fp, "%16" PRIx64, s->ip);
			print_sym(fp, f, &al, al.addr);
		}
	}
	fprintf(fp, "\n");
	return ferror(fp) ? -EIO : 0;
}
