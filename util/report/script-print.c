// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf script's sample lines: "comm tid [cpu] secs.usecs: period event: ip
 * sym+off (dso)", the callchain one frame a line ("\t%16x sym+off (dso)")
 * followed by an empty line.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/perf-data/event-fprintf.h"
#include "util/report/branch.h"
#include "util/report/mem-src.h"
#include "util/report/script-print.h"
#include "util/symbol/srccode.h"
#include "util/symbol/srcline.h"
#include "util/unwind/unwind.h"
#include "util/report/script-trace.h"

static const struct { const char *name; unsigned int bit; } field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "cpu", SF_CPU },
	{ "time", SF_TIME }, { "period", SF_PERIOD }, { "event", SF_EVNAME }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "symoff", SF_SYMOFF }, { "dso", SF_DSO }, { "addr", SF_ADDR },
	{ "weight", SF_WEIGHT }, { "ins_lat", SF_INS_LAT }, { "phys_addr", SF_PHYS_ADDR },
	{ "data_page_size", SF_DATA_PAGE_SIZE }, { "code_page_size", SF_CODE_PAGE_SIZE },
	{ "brstack", SF_BRSTACK }, { "iregs", SF_IREGS }, { "uregs", SF_UREGS }, { "trace", SF_TRACE },
	{ "srcline", SF_SRCLINE }, { "brstacksym", SF_BRSTACKSYM }, { "brstackoff", SF_BRSTACKOFF },
	{ "data_src", SF_DATA_SRC }, { "misc", SF_MISC }, { "flags", SF_FLAGS },
	{ "callindent", SF_CALLINDENT }, { "ipc", SF_IPC },
	{ "tod", SF_TOD }, { "srccode", SF_SRCCODE },
};

/* The sample_type bit each field needs (0: none, or not checked, as perf). */
static const struct { unsigned int bit; u64 type; const char *what; } field_needs[] = {
	{ SF_TID, PERF_SAMPLE_TID, "TID" }, { SF_PID, PERF_SAMPLE_TID, "TID" },
	{ SF_CPU, PERF_SAMPLE_CPU, "CPU" }, { SF_TIME, PERF_SAMPLE_TIME, "TIME" },
	{ SF_IP, PERF_SAMPLE_IP, "IP" }, { SF_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
	{ SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	{ SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ SF_UREGS, PERF_SAMPLE_REGS_USER, "REGS_USER" },
};

static const char *const output_types[SOT_MAX] = { "hw", "sw", "trace", "raw", "break" };

/* The -F type of an event: perf's types by attr.type (PMUs count as raw). */
static int output_type(const struct perf_event_attr *a)
{
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		return SOT_HW;
	case PERF_TYPE_SOFTWARE:
		return SOT_SW;
	case PERF_TYPE_TRACEPOINT:
		return SOT_TRACE;
	case PERF_TYPE_BREAKPOINT:
		return SOT_BREAK;
	default:
		return SOT_RAW;
	}
}

static unsigned int field_bit(const char *name)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (!strcmp(name, field_names[i].name))
			return field_names[i].bit;
	return 0;
}

/* "hw:..." → SOT_HW and the rest after the colon; -1 without a type. */
static int parse_type_prefix(char **list, const char **bad)
{
	char *colon = strchr(*list, ':');

	if (!colon)
		return -1;
	*colon = '\0';
	for (int i = 0; i < SOT_MAX; i++) {
		if (!strcmp(*list, output_types[i])) {
			*list = colon + 1;
			return i;
		}
	}
	*colon = ':';
	colon[1] = '\0';
	*bad = *list;
	return -2;
}

int script_fields__parse(struct script_opts *o, const char *s, char *buf, size_t size,
			 const char **bad)
{
	char *tok, *save = NULL, *list = buf;
	bool first = true;
	unsigned int *fields = &o->fields;
	int type;

	snprintf(buf, size, "%s", s);
	type = parse_type_prefix(&list, bad);
	if (type == -2)
		return -EINVAL;
	if (type >= 0) {
		fields = &o->type_fields[type];
		if (!(o->type_set & (1u << type)))
			*fields = o->user_set ? o->fields :
				  type == SOT_TRACE ? SF_DEFAULT_TP : SF_DEFAULT;
	}
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char op = (*tok == '+' || *tok == '-') ? *tok++ : 0;
		unsigned int bit = field_bit(tok);

		if (!bit) {
			*bad = tok;
			return -EINVAL;
		}
		if (!op && first) {
			*fields = 0;
			if (type < 0)
				o->user_set = true;
		}
		if (type >= 0)
			o->type_set |= 1u << type;
		first = false;
		if (op == '-') {
			*fields &= ~bit;
			if (type < 0) {
				o->removed |= bit;
				o->added &= ~bit;
			}
		} else {
			*fields |= bit;
			if (type < 0) {
				o->added |= bit;
				o->removed &= ~bit;
			}
		}
	}
	return 0;
}

unsigned int script_fields__asked(const struct script_opts *o)
{
	unsigned int f = (o->user_set ? o->fields : 0) | o->added;

	for (int i = 0; i < SOT_MAX; i++)
		if (o->type_set & (1u << i))
			f |= o->type_fields[i];
	return f;
}

int script_fields__check(const struct script_opts *o, const struct perf_event_attr *a,
			 const char *name, char *msg, size_t size)
{
	int type = output_type(a);
	unsigned int f = (o->type_set & (1u << type)) ? o->type_fields[type] :
			 o->user_set ? o->fields : 0;

	if ((f & (SF_SRCLINE | SF_SRCCODE)) && !(f & SF_IP)) {	/* perf refuses them too */
		snprintf(msg, size, "field '%s' needs 'ip' for '%s': add ip to -F",
			 (f & SF_SRCLINE) ? "srcline" : "srccode", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(field_needs) / sizeof(field_needs[0]); i++) {
		if (!(f & field_needs[i].bit) || (a->sample_type & field_needs[i].type))
			continue;
		for (size_t j = 0; j < sizeof(field_names) / sizeof(field_names[0]); j++) {
			if (field_names[j].bit != field_needs[i].bit)
				continue;
			snprintf(msg, size,
				 "samples for '%s' do not have the %s attribute: cannot print field '%s'; choose other fields with -F",
				 name, field_needs[i].what, field_names[j].name);
			return -EINVAL;
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
	int type = output_type(a);
	unsigned int f = (o->type_set & (1u << type)) ? o->type_fields[type]
						       : o->fields & ~SF_TRACE;
	u64 t = a->sample_type;

	if (a->type == PERF_TYPE_TRACEPOINT && !(o->type_set & (1u << type)))
		f = script_fields__for_tracepoint(o, a);

	if (!(t & PERF_SAMPLE_CPU))
		f &= ~SF_CPU;
	if (!(t & PERF_SAMPLE_TIME))
		f &= ~SF_TIME;
	/* the period is printed without PERF_SAMPLE_PERIOD too: the attr's */
	if (!(t & PERF_SAMPLE_IP))
		f &= ~(SF_IP | SF_SYM | SF_SYMOFF | SF_DSO | SF_SRCLINE | SF_SRCCODE);
	if (!(t & PERF_SAMPLE_TID))
		f &= ~(SF_TID | SF_PID);
	for (size_t i = 0; i < sizeof(field_needs) / sizeof(field_needs[0]); i++)
		if (field_needs[i].bit >= SF_ADDR && !(t & field_needs[i].type))
			f &= ~field_needs[i].bit;
	if (!(t & PERF_SAMPLE_BRANCH_STACK))
		f &= ~(SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF);
	return f;
}

/* ---- formatting without printf: these lines are the hot path ---- */

/* @v in decimal, padded with spaces to @width (left-aligned when @left). */
static char *put_dec(char *p, long long v, int width, bool left)
{
	char tmp[24];
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	int n = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[n++] = '-';
	for (int i = n; !left && i < width; i++)
		*p++ = ' ';
	for (int i = n; i;)
		*p++ = tmp[--i];
	for (int i = n; left && i < width; i++)
		*p++ = ' ';
	return p;
}

/* @v with exactly @digits digits, zero-padded */
static char *put_dec0(char *p, unsigned long v, int digits)
{
	for (int i = digits - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + digits;
}

/* @s right-aligned in @width columns (printf's "%*s") */
static char *put_str_pad(char *p, const char *s, size_t n, int width)
{
	for (int i = (int)n; i < width; i++)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

/* The start columns into @buf (at least 64 bytes more than the comm). */
static char *fmt_start(char *p, const struct script_opts *o, unsigned int f, const char *comm,
		       size_t comm_len, const struct perf_sample *s, bool chain)
{
	if (f & SF_COMM) {
		p = put_str_pad(p, comm, comm_len, chain ? 0 : 16);
		*p++ = ' ';
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		p = put_dec(p, (int)s->pid, 5, false);
		*p++ = '/';
		p = put_dec(p, (int)s->tid, 5, true);
		*p++ = ' ';
	} else if (f & (SF_PID | SF_TID)) {
		p = put_dec(p, (int)((f & SF_PID) ? s->pid : s->tid), 5, false);
		*p++ = ' ';
	}
	if (f & SF_CPU) {
		int cpu = (int)s->cpu;

		*p++ = '[';
		p = cpu >= 0 && cpu < 1000 ? put_dec0(p, cpu, 3) : put_dec(p, cpu, 3, false);
		p = memcpy(p, "] ", 2) + 2;
	}
	if (f & SF_TIME) {
		p = put_dec(p, (long long)(s->time / 1000000000ULL), 5, false);
		*p++ = '.';
		p = o->ns ? put_dec0(p, s->time % 1000000000ULL, 9) :
			    put_dec0(p, (s->time % 1000000000ULL) / 1000, 6);
		p = memcpy(p, ": ", 2) + 2;
	}
	return p;
}

/*
 * misc: the cpumode letters perf tests mask by mask (so a hypervisor
 * sample is "KUH", a guest user one "KGg"), then the record's own flag
 * (M: data mmap, E: exec comm, S/Sp: switch out, preempted), padded to 6.
 */
static void print_misc(FILE *fp, u16 misc, u32 type)
{
	static const struct { u16 mask; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	char buf[16];
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].mask) == modes[i].mask)
			buf[n++] = modes[i].c;
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
	    (misc & PERF_RECORD_MISC_MMAP_DATA))
		buf[n++] = 'M';
	else if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
		buf[n++] = 'E';
	else if ((type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE) &&
		 (misc & PERF_RECORD_MISC_SWITCH_OUT)) {
		buf[n++] = 'S';
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			buf[n++] = 'p';
	}
	fprintf(fp, "%.*s%*s", n, buf, 6 - n, " ");
}

/* tod: the local date and time of @time, "%Y-%m-%d %H:%M:%S.usecs " (--ns: nsecs) */
static void print_tod(FILE *fp, const struct script_opts *o, u64 time)
{
	u64 ns = time > o->clock_ns ? o->tod_ns + (time - o->clock_ns) :
				      o->tod_ns - (o->clock_ns - time);
	time_t sec = (time_t)(ns / 1000000000ULL);
	unsigned long nsec = (unsigned long)(ns % 1000000000ULL);
	char date[64];
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		fputs("failed ", fp);
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	if (o->ns)
		fprintf(fp, "%s.%09lu ", date, nsec);
	else
		fprintf(fp, "%s.%06lu ", date, nsec / 1000);
}

static void print_start(FILE *fp, const struct script_opts *o, unsigned int f,
			struct thread *t, const struct perf_sample *s, bool chain, u32 type)
{
	const char *comm = t ? t->comm->str : ":-1";
	size_t comm_len = strlen(comm);
	char buf[512], *p;

	if (comm_len > 256) {
		fprintf(fp, chain ? "%s " : "%16s ", comm);
		f &= ~SF_COMM;
		comm_len = 0;
	}
	if (f & (SF_MISC | SF_TOD)) {	/* between the cpu and the time */
		p = fmt_start(buf, o, f & ~SF_TIME, comm, comm_len, s, chain);
		fwrite_unlocked(buf, 1, p - buf, fp);
		if (f & SF_MISC)
			print_misc(fp, s->misc, type);
		if (f & SF_TOD)
			print_tod(fp, o, s->time);
		f &= SF_TIME;
	}
	p = fmt_start(buf, o, f, comm, comm_len, s, chain);
	fwrite_unlocked(buf, 1, p - buf, fp);
}

/* The period and event name columns: "%10lu %*s: " */
static void print_period_name(FILE *fp, const struct script_opts *o, unsigned int f, u64 period,
			      const char *name)
{
	size_t n = strlen(name);
	char buf[512], *p = buf;

	if (n > 256 || o->name_width > 256) {
		if (f & SF_PERIOD)
			fprintf(fp, "%10" PRIu64 " ", period);
		if (f & SF_EVNAME)
			fprintf(fp, "%*s: ", o->name_width, name);
		return;
	}
	if (f & SF_PERIOD) {
		p = period > (u64)INT64_MAX ? p + sprintf(p, "%10" PRIu64, period) :
					      put_dec(p, (long long)period, 10, false);
		*p++ = ' ';
	}
	if (f & SF_EVNAME) {
		p = put_str_pad(p, name, n, o->name_width);
		p = memcpy(p, ": ", 2) + 2;
	}
	fwrite_unlocked(buf, 1, p - buf, fp);
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

/* ---- the callchain lines, formatted without printf (the hot path) ---- */

static char *put_hex(char *p, u64 v)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* @v in hex, right-aligned in 16 columns ("%16lx") */
static char *put_hex16(char *p, u64 v)
{
	char tmp[16];
	char *e = put_hex(tmp, v);
	int n = (int)(e - tmp);

	for (int i = n; i < 16; i++)
		*p++ = ' ';
	memcpy(p, tmp, n);
	return p + n;
}

static char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/*
 * -F srcline: "\n  file.c:12" under an address, as perf prints its
 * srcline there (dso__srcline() without the symbol: "dso[hexaddr]" where
 * addr2line has no answer; nothing for "??:0"); the kernel (no line tables
 * here) as "\n  [kernel.kallsyms][ip]"; nothing without a map.
 */
static void print_srcline(FILE *fp, const struct addr_location *al, u64 ip)
{
	struct dso *d = al->map ? al->map->dso : NULL;
	const char *file, *line;
	unsigned int nr;

	if (!d)
		return;
	if (d->kind == DSO_KERNEL || d->kind == DSO_MODULE) {
		if (!srcline__find(d, al->addr, &file, &nr))
			fprintf(fp, "\n  %s:%u", file, nr);
		else
			fprintf(fp, "\n  %s[%" PRIx64 "]", d->short_name, ip);
		return;
	}
	line = dso__srcline(d, al->addr, NULL);
	if (strncmp(line, SRCLINE_UNKNOWN, strlen(SRCLINE_UNKNOWN)))
		fprintf(fp, "\n  %s", line);
}

/*
 * One frame: "\t%16x sym+0xoff (dso)\n" (@chain) or the sample line's
 * "%16x sym+0xoff (dso)", as print_sym() lays them out; built in a buffer
 * and written once (names that do not fit go through print_sym()).
 */
static void print_frame(FILE *fp, unsigned int f, const struct addr_location *al, u64 shown,
			bool chain)
{
	const char *dso = al->map ? al->map->dso->long_name : "[unknown]";
	const char *sym = al->sym ? al->sym->name : "[unknown]";
	size_t dlen = strlen(dso), slen = al->sym ? al->sym->namelen : 9;
	char buf[1024], *p = buf;

	if (slen == 0xffff || slen + dlen + 64 > sizeof(buf)) {
		if (f & SF_IP)
			fprintf(fp, chain ? "\t%16" PRIx64 : "%16" PRIx64, shown);
		print_sym(fp, f, al, al->addr);
		if (f & SF_SRCLINE)
			print_srcline(fp, al, shown);
		if (chain)
			fputc('\n', fp);
		return;
	}
	if ((f & SF_IP) && chain)
		*p++ = '\t';
	if (f & SF_IP)
		p = put_hex16(p, shown);
	if (f & SF_SYM) {
		*p++ = ' ';
		p = put_str(p, sym, slen);
		if (al->sym && (f & SF_SYMOFF)) {
			p = put_str(p, "+0x", 3);
			p = put_hex(p, al->addr - al->sym->start);
		}
	}
	if (f & SF_DSO) {
		p = put_str(p, " (", 2);
		p = put_str(p, dso, dlen);
		*p++ = ')';
	}
	if (f & SF_SRCLINE) {
		fwrite_unlocked(buf, 1, p - buf, fp);
		print_srcline(fp, al, shown);
		p = buf;
	}
	if (chain)
		*p++ = '\n';
	fwrite_unlocked(buf, 1, p - buf, fp);
}

/*
 * The source line of frame @inl of an address' inline expansion, as perf
 * prints it: the innermost the address' line, each outer one the line of
 * its call; the address' line where there is no expansion, "??:0" in a
 * symbol where there is none (unlike the sample's own line).
 */
static void print_frame_srcline(FILE *fp, const struct addr_location *al, u8 inl)
{
	struct dso *d = al->map && al->map->dso->kind == DSO_USER ? al->map->dso : NULL;
	const char *line = NULL;

	if (d && inl)
		line = srcline__frame(d, al->addr, inl);
	if (d && !line && al->sym)
		line = dso__srcline(d, al->addr, NULL);	/* "??:0" too */
	if (line)
		fprintf(fp, "\n  %s", line);
	else
		print_srcline(fp, al, al->addr);
}

/*
 * DWARF samples: the user frames unwound from the stack copy, up to
 * --max-stack of them whatever the sample's own chain printed (as perf).
 */
static void print_unwound(FILE *fp, const struct script_opts *o, unsigned int f,
			  struct machine *m, struct thread *t, const struct perf_event_attr *attr,
			  const struct perf_sample *s)
{
	const struct unwind_entry *e;
	size_t nr;

	if (!unwinder__has_stack(attr) || o->max_stack <= 0 ||
	    machine__unwind(m, t, attr, s, o->max_stack > INT_MAX ? INT_MAX : (int)o->max_stack,
			    &e, &nr))
		return;
	for (size_t i = 0; i < nr; i++) {
		struct addr_location al = { .thread = t, .map = e[i].map, .sym = e[i].sym,
					    .addr = e[i].map ? map__map_ip(e[i].map, e[i].ip)
							     : e[i].ip };

		if (f & SF_IP)
			fprintf(fp, "\t%16" PRIx64, al.addr);
		if (al.sym && al.sym->inlined) {
			if (f & SF_SYM) {
				fprintf(fp, " %s", al.sym->name);
				if (f & SF_SYMOFF)
					fprintf(fp, "+0x%" PRIx64, al.addr - al.sym->start);
			}
			if (f & SF_SRCLINE)
				print_frame_srcline(fp, &al, e[i].inl);
			fprintf(fp, " (inlined)");	/* perf's, in place of the DSO too */
		} else {
			print_sym(fp, f, &al, al.addr);
			if (f & SF_SRCLINE)
				print_frame_srcline(fp, &al, e[i].inl);
		}
		fprintf(fp, "\n");
	}
}

static void print_chain_of(FILE *fp, const struct script_opts *o, unsigned int f,
			   struct machine *m, struct thread *t, const struct perf_event_attr *attr,
			   const struct perf_sample *s);

/* An LBR call stack's chain is perf's stitched one (branch__lbr_chain()). */
static void print_chain(FILE *fp, const struct script_opts *o, unsigned int f,
			struct machine *m, struct thread *t, const struct perf_event_attr *attr,
			const struct perf_sample *s)
{
	u64 *lbr = NULL;
	size_t n = 0;

	if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	    (lbr = malloc((s->callchain_nr + s->branch_nr + 1) * sizeof(*lbr))))
		n = branch__lbr_chain(attr, s, o->max_stack, lbr);
	if (n) {
		struct perf_sample c = *s;

		c.callchain = lbr;
		c.callchain_nr = n;
		print_chain_of(fp, o, f, m, t, attr, &c);
	} else {
		print_chain_of(fp, o, f, m, t, attr, s);
	}
	free(lbr);
}

static void print_chain_of(FILE *fp, const struct script_opts *o, unsigned int f,
			   struct machine *m, struct thread *t, const struct perf_event_attr *attr,
			   const struct perf_sample *s)
{
	u8 cpumode = PERF_RECORD_MISC_USER;
	unsigned int n = 0;

	for (u64 i = 0; i < s->callchain_nr; i++) {	/* a bad marker empties the chain */
		u64 ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX && ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER &&
		    ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_GUEST_KERNEL &&
		    ip != PERF_CONTEXT_GUEST_USER)
			return;
	}
	for (u64 i = 0; i < s->callchain_nr && n < o->max_stack; i++) {
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
		print_frame(fp, f, &al, al.map ? al.addr : ip, true);
	}
	print_unwound(fp, o, f, m, t, attr, s);
}

/* Page faults' addresses are code or data of the process: perf resolves them. */
static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS ||
						 a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
						 a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

static void print_addr(FILE *fp, unsigned int f, struct machine *m, struct thread *t,
		       const struct perf_event_attr *a, const struct perf_sample *s)
{
	struct addr_location al;

	fprintf(fp, "%16" PRIx64, s->addr);
	if (!addr_correlates_sym(a) || !t)
		return;
	machine__resolve_addr(m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->addr, &al);
	if (!al.map)	/* a kernel fault on a user address, or the reverse */
		machine__resolve_addr(m, t, (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				      PERF_RECORD_MISC_USER ? PERF_RECORD_MISC_KERNEL :
				      PERF_RECORD_MISC_USER, s->addr, &al);
	print_sym(fp, f & (SF_SYM | SF_SYMOFF | SF_DSO), &al, al.addr);
}

/*
 * data_src: "%16x |OP ...|BLK ..." padded to the longest such text printed
 * so far in the run, as perf does (one file per run: a static is enough)
 */
static void print_data_src(FILE *fp, u64 data_src)
{
	static int width;
	char text[160];
	int n = snprintf(text, sizeof(text), "%16" PRIx64 " ", data_src);

	n += (int)mem_src__scnprintf(text + n, sizeof(text) - n, data_src);
	if (n > width)
		width = n;
	fprintf(fp, "%-*s", width, text);
}

/* "4K", "2M", "1G" as perf names page sizes; "N/A" for 0 or not a power of 2 */
static const char *page_size_name(u64 size, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	int u = 0;

	if (!size || (size & (size - 1)))
		return "N/A";
	while (size >= 1024 && !(size % 1024) && u < 6) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", size, units[u]);
	return buf;
}

/* A branch address: the user maps first, then the kernel's, as perf falls back. */
static void resolve_branch(struct machine *m, struct thread *t, u64 addr, struct addr_location *al)
{
	machine__resolve_addr(m, t, PERF_RECORD_MISC_USER, addr, al);
	if (!al->map)
		machine__resolve_addr(m, t, PERF_RECORD_MISC_KERNEL, addr, al);
}

/*
 * brstackoff's address: perf's map-relative one for a DSO whose symbols
 * were not read (not found, or not looked at yet: brstackoff alone does
 * not read them), the address itself for a user DSO read from its file
 * (perf marks those adjust_symbols); a kernel without symbols (no
 * kallsyms) relative to the start of its map.
 */
static u64 branch_offset(const struct map *map, u64 addr)
{
	const struct dso *d = map->dso;

	if (d->kind == DSO_KERNEL)
		return d->syms.nr ? map__map_ip(map, addr) : addr - map->start;
	if (d->kind == DSO_USER && d->loaded && d->bin_path)
		return addr;
	return map__map_ip(map, addr);
}

/* The map of a branch address, without reading symbols (as resolve_branch()). */
static struct map *branch_map(struct machine *m, struct thread *t, u64 addr)
{
	struct map *map = t->maps ? maps__find(t->maps, addr) : NULL;

	return map ? map : maps__find(m->kmaps, addr);
}

/*
 * One end of a branch: brstack's " 0xfrom" / "/0xto", brstackoff's the same
 * with the map-relative address, brstacksym's "sym+0xoff" ("[unknown]"),
 * each followed by "(dso)" with the dso field.
 */
static void print_branch_end(FILE *fp, unsigned int f, struct machine *m, struct thread *t,
			     u64 addr, bool to)
{
	struct addr_location al = { .map = NULL, .sym = NULL, .addr = addr };
	struct map *map = NULL;

	if (t && (f & SF_BRSTACKOFF))	/* before resolve_branch() reads the symbols */
		map = branch_map(m, t, addr);
	if (map)
		addr = branch_offset(map, addr);
	if (t && (f & (SF_DSO | SF_BRSTACKSYM)))
		resolve_branch(m, t, al.addr, &al);
	if (to)
		fputc('/', fp);
	if (f & SF_BRSTACKSYM) {
		if (al.sym)
			fprintf(fp, "%s+0x%" PRIx64, al.sym->name, al.addr - al.sym->start);
		else
			fputs("[unknown]", fp);
	} else {
		fprintf(fp, to ? "0x%" PRIx64 : " 0x%" PRIx64, addr);
	}
	if ((f & SF_DSO) && t)
		fprintf(fp, "(%s)", al.map ? al.map->dso->long_name : "[unknown]");
}

/*
 * brstack: " 0xfrom[(dso)]/0xto[(dso)]/P/-/-/cycles/type " per entry;
 * brstacksym and brstackoff (when brstack is not asked) print the two
 * ends as print_branch_end() does.
 */
static void print_brstack(FILE *fp, unsigned int f, struct machine *m, struct thread *t,
			  const struct perf_sample *s)
{
	if (f & SF_BRSTACK)
		f &= ~(SF_BRSTACKSYM | SF_BRSTACKOFF);
	else if (f & SF_BRSTACKSYM)
		f &= ~SF_BRSTACKOFF;
	if ((f & SF_BRSTACKOFF) && t) {	/* perf has read the sample's DSO by now */
		struct addr_location al;

		machine__resolve_addr(m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &al);
	}
	for (u64 i = 0; i < s->branch_nr; i++) {
		const struct perf_branch_entry_raw *e = &s->branch_entries[i];
		const char *type = branch__type_name(e->flags);

		print_branch_end(fp, f, m, t, e->from, false);
		print_branch_end(fp, f, m, t, e->to, true);
		fprintf(fp, "/%c/%c/%c/%u/%s ", branch__mispred_char(e->flags),
			BRANCH_IN_TX(e->flags) ? 'X' : '-', BRANCH_ABORT(e->flags) ? 'A' : '-',
			BRANCH_CYCLES(e->flags), type ? type : "(null)");
	}
}

/* iregs/uregs: " ABI:2    AX:0x... " */
static void print_regs(FILE *fp, u64 abi, u64 mask, unsigned int nr, const u64 *regs)
{
	unsigned int n = 0;

	fprintf(fp, " ABI:%" PRIu64 " ", abi);
	if (!regs)
		return;
	for (unsigned int bit = 0; bit < 64 && n < nr; bit++) {
		char name[16];

		if (mask & (1ULL << bit))
			fprintf(fp, "%5s:0x%" PRIx64 " ", perf_reg_name(bit, name, sizeof(name)),
				regs[n++]);
	}
}

/* The fields perf prints after the ip and callchain */
static void print_tail(FILE *fp, unsigned int f, struct machine *m, struct thread *t,
		       const struct perf_sample *s)
{
	char buf[32];

	if (f & SF_IREGS)
		print_regs(fp, s->intr_regs.abi, s->intr_regs.mask, s->intr_regs.nr,
			   s->intr_regs.regs);
	if (f & SF_UREGS)
		print_regs(fp, s->user_regs.abi, s->user_regs.mask, s->user_regs.nr,
			   s->user_regs.regs);
	if (f & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF))
		print_brstack(fp, f, m, t, s);
	if (f & SF_PHYS_ADDR)
		fprintf(fp, "%16" PRIx64, s->phys_addr);
	if (f & SF_DATA_PAGE_SIZE)
		fprintf(fp, " %s", page_size_name(s->data_page_size, buf, sizeof(buf)));
	if (f & SF_CODE_PAGE_SIZE)
		fprintf(fp, " %s", page_size_name(s->code_page_size, buf, sizeof(buf)));
}

/*
 * srccode: "|LINE     text" on its own line for the sample's address, from
 * the source file the line table names; nothing when the file cannot be
 * read, and nothing when the thread's previous line shown was the same.
 */
static void print_srccode(FILE *fp, struct machine *m, struct thread *t,
			  const struct perf_sample *s)
{
	struct addr_location al;
	const char *path, *text;
	unsigned int line;
	size_t len;

	if (!t)
		return;
	machine__resolve_addr(m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &al);
	if (!al.map || srcline__find_path(al.map->dso, al.addr, &path, &line))
		return;
	if (t->srccode_file && t->srccode_line == line && !strcmp(t->srccode_file, path))
		return;
	if (srccode__line(path, line, &text, &len))
		return;
	fprintf(fp, "|%-8u %.*s\n", line, (int)len, text);
	t->srccode_file = path;
	t->srccode_line = line;
}

/*
 * perf's unwinders refuse to unwind with --max-stack 0: the whole chain
 * of a sample with registers and a stack copy fails, and perf prints the
 * sample's address on its line as without a callchain.
 */
static bool unwind_refused(const struct script_opts *o, const struct perf_event_attr *attr,
			   const struct perf_sample *s)
{
	return !o->max_stack && unwinder__has_stack(attr) && s->user_regs.regs &&
	       s->user_stack.size;
}

int script__fprintf_sample(FILE *fp, const struct script_opts *o, unsigned int f,
			   struct machine *m, const struct perf_event_attr *attr, const char *name,
			   const struct perf_sample *s)
{
	struct thread *t = machine__findnew_thread(m, s->pid, s->tid);
	bool chain = (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && (f & SF_IP) &&
		     !o->hide_callchain;
	u64 period = (attr->sample_type & PERF_SAMPLE_PERIOD) ? s->period : attr->sample_period;

	print_start(fp, o, f, t, s, chain, PERF_RECORD_SAMPLE);
	if (f & (SF_PERIOD | SF_EVNAME))
		print_period_name(fp, o, f, period, name);
	if (f & SF_FLAGS)	/* the branch flags of PT/BTS samples: none here */
		fprintf(fp, "  %-21s ", "");
	if ((f & SF_TRACE) && o->trace && attr->type == PERF_TYPE_TRACEPOINT &&
	    script_trace__fprintf(fp, o->trace, attr, s))
		return -EIO;
	if (f & SF_ADDR)
		print_addr(fp, f, m, t, attr, s);
	if (f & SF_DATA_SRC)
		print_data_src(fp, s->data_src);
	if (f & SF_WEIGHT)
		fprintf(fp, "%16" PRIu64, s->weight);
	if (f & SF_INS_LAT)
		fprintf(fp, "%16u", s->ins_lat);
	if (f & SF_IP) {	/* perf prints no sym or dso without the ip */
		if (chain && !unwind_refused(o, attr, s)) {
			fputc('\n', fp);
			print_chain(fp, o, f, m, t, attr, s);
		} else {
			struct addr_location al;

			fputc_unlocked(' ', fp);
			machine__resolve_addr(m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					      s->ip, &al);
			print_frame(fp, f, &al, s->ip, false);
		}
	}
	if (f & (SF_IREGS | SF_UREGS | SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF | SF_PHYS_ADDR | SF_DATA_PAGE_SIZE |
		 SF_CODE_PAGE_SIZE))
		print_tail(fp, f, m, t, s);
	fputc_unlocked('\n', fp);
	if ((f & SF_SRCCODE) && (attr->sample_type & PERF_SAMPLE_IP))
		print_srccode(fp, m, t, s);
	return ferror(fp) ? -EIO : 0;
}

void script__fprintf_start_rec(FILE *fp, const struct script_opts *o, unsigned int fields,
			       const struct perf_event_attr *attr, struct thread *t,
			       const struct perf_sample *s, u32 type)
{
	bool chain = (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && (fields & SF_IP) &&
		     !o->hide_callchain;

	print_start(fp, o, fields, t, s, chain, type);
}
