// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recording: attrs as perf 6.1 sets them, and the attr-side options.  The
 * session (rings, synthesis, workload, output) is in util/record-run.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlist.h"
#include "evsel.h"
#include "fs.h"
#include "record.h"

/* x86_64 user registers perf samples for DWARF unwinding (AX..R15 without segments) */
#define DWARF_REGS_USER_X86_64	0xff0fffULL

/**
 * record_opts__init - see util/record.h
 */
void record_opts__init(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = 4000;
	o->stack_size = 8192;
	o->clockid = -1;
	o->mmap_pages = 128;
	o->mmap_flush = 1;
	o->output = "perf.data";
}

static int parse_stack_size(const char *s, u32 *size, char *buf, size_t len)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*end || *s == '-' || !v || v > 65528) {
		snprintf(buf, len, "invalid dwarf stack size '%s': give a size from 1 to 65528 "
			 "bytes", s);
		return -EINVAL;
	}
	*size = (u32)((v + 7) & ~7UL);	/* perf rounds up to a multiple of 8 */
	return 0;
}

/* The x86_64 user registers perf names (PERF_REG_X86_* bit numbers). */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	NULL, NULL, NULL, NULL, "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

/**
 * record__user_regs_names - the register names --user-regs takes, space separated
 */
void record__user_regs_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]) && n < size; i++)
		if (x86_regs[i])
			n += snprintf(buf + n, size - n, "%s ", x86_regs[i]);
}

/**
 * record__parse_user_regs - see util/record.h
 */
int record__parse_user_regs(struct record_opts *o, const char *str, char *buf, size_t size)
{
	char *copy = strdup(str), *tok, *save = NULL;
	u64 mask = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			if (x86_regs[i] && !strcasecmp(tok, x86_regs[i]))
				break;
		if (i == sizeof(x86_regs) / sizeof(x86_regs[0])) {
			snprintf(buf, size, "unknown register '%s': run 'tperf record "
				 "--user-regs=?' for the list", tok);
			err = -EINVAL;
		}
		mask |= 1ULL << i;
	}
	free(copy);
	if (!err && !mask) {
		snprintf(buf, size, "no register in '%s': run 'tperf record --user-regs=?' "
			 "for the list", str);
		err = -EINVAL;
	}
	if (!err)
		o->user_regs = mask;
	return err;
}

/**
 * record__parse_callgraph - see util/record.h
 */
int record__parse_callgraph(struct record_opts *o, const char *str, char *buf, size_t size)
{
	if (!strcmp(str, "fp")) {
		o->callgraph = CALLGRAPH_FP;
	} else if (!strcmp(str, "lbr")) {
		o->callgraph = CALLGRAPH_LBR;
	} else if (!strcmp(str, "no")) {
		o->callgraph = CALLGRAPH_NONE;
	} else if (!strcmp(str, "dwarf")) {
		o->callgraph = CALLGRAPH_DWARF;
	} else if (!strncmp(str, "dwarf,", 6)) {
		o->callgraph = CALLGRAPH_DWARF;
		return parse_stack_size(str + 6, &o->stack_size, buf, size);
	} else {
		snprintf(buf, size, "unknown call graph mode '%s': use fp, dwarf[,SIZE], lbr or no",
			 str);
		return -EINVAL;
	}
	return 0;
}

/**
 * record__max_sample_rate - see util/record.h
 */
u64 record__max_sample_rate(void)
{
	int v;

	return procfs__read_int("sys/kernel/perf_event_max_sample_rate", &v) || v < 0 ? 0 : (u64)v;
}

static void config_period(struct evsel *e, const struct record_opts *o)
{
	struct perf_event_attr *a = &e->attr;

	if (!a->sample_period || o->freq_given || o->period_given) {
		if (o->period_given) {
			a->freq = 0;
			a->sample_period = o->period;
		} else {
			a->sample_type |= PERF_SAMPLE_PERIOD;
			a->freq = 1;
			a->sample_freq = o->freq;
		}
	}
	if (e->terms.period_set) {
		a->sample_period = e->terms.period;
		a->freq = 0;
		a->sample_type &= ~(u64)PERF_SAMPLE_PERIOD;
	}
	if (e->terms.freq_set) {
		a->sample_freq = e->terms.freq;
		a->freq = 1;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (o->no_samples)
		a->sample_freq = 0;
}

static void config_callgraph(struct evsel *e, const struct record_opts *o)
{
	struct perf_event_attr *a = &e->attr;
	enum record_callgraph cg = o->callgraph;

	if (!strcmp(e->terms.call_graph, "fp"))
		cg = CALLGRAPH_FP;
	else if (!strcmp(e->terms.call_graph, "dwarf"))
		cg = CALLGRAPH_DWARF;
	else if (!strcmp(e->terms.call_graph, "lbr"))
		cg = CALLGRAPH_LBR;
	else if (!strcmp(e->terms.call_graph, "no"))
		cg = CALLGRAPH_NONE;
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	if (cg == CALLGRAPH_NONE)
		return;
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (e->terms.max_stack >= 0)
		a->sample_max_stack = (u16)e->terms.max_stack;
	if (cg == CALLGRAPH_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= DWARF_REGS_USER_X86_64;
		a->sample_stack_user = e->terms.stack_size ? e->terms.stack_size : o->stack_size;
		a->exclude_callchain_user = 1;
	} else if (cg == CALLGRAPH_LBR && !a->exclude_user) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
	}
}

static bool wants_addr(const struct record_opts *o)
{
	return o->sample_addr || o->callgraph == CALLGRAPH_DWARF;
}

static void config_tracking(struct perf_event_attr *a, const struct record_opts *o)
{
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
	a->ksymbol = a->bpf_event = 1;
	a->mmap_data = wants_addr(o);
	a->context_switch = o->switch_events;
	a->namespaces = o->namespaces;
}

static void config_sample_bits(struct evsel *e, const struct record_opts *o)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (o->sample_cpu || o->raw || target__has_cpu(&o->target))
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->raw)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (wants_addr(o))
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->data_src)
		a->sample_type |= PERF_SAMPLE_DATA_SRC;
	if (o->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->phys_addr)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
}

/* :S groups: the leader samples, every sample reads the whole group. */
static void config_sample_read(struct evsel *e)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_READ;
	if (e->leader->nr_members > 1)
		a->read_format |= PERF_FORMAT_GROUP;
	a->inherit = 0;		/* the kernel refuses inherit with PERF_SAMPLE_READ */
	if (e != e->leader) {
		a->freq = 0;
		a->sample_period = 0;
	}
}

static void config_evsel(struct evsel *e, const struct record_opts *o, bool track)
{
	struct perf_event_attr *a = &e->attr;
	bool leader = evsel__is_group_leader(e);

	config_sample_bits(e, o);
	if (a->type == PERF_TYPE_TRACEPOINT)	/* perf's tracepoint evsels sample the period */
		a->sample_type |= PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	config_period(e, o);
	config_callgraph(e, o);
	a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	a->inherit = !o->target.no_inherit && e->terms.inherit != 0;
	a->sample_id_all = 1;
	if (o->all_user)
		a->exclude_kernel = 1;
	if (o->all_kernel)
		a->exclude_user = 1;
	if (o->clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	if (track)
		config_tracking(a, o);
	a->disabled = leader;
	a->enable_on_exec = leader && target__none(&o->target);
	if (e->leader->sample_read_leader)
		config_sample_read(e);
}

/* perf's system-wide tracking event: dummy:HG, enabled from the open. */
static int add_dummy(struct evlist *evlist, const struct record_opts *o)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU,
		.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST,
		.sample_id_all = 1,
	};
	struct evsel *e;

	a.inherit = !o->target.no_inherit;
	if (o->clockid >= 0) {
		a.use_clockid = 1;
		a.clockid = o->clockid;
	}
	config_tracking(&a, o);
	e = evsel__new(&a);
	if (!e || evsel__set_name(e, "dummy:HG")) {
		evsel__delete(e);
		return -ENOMEM;
	}
	config_sample_bits(e, o);
	config_callgraph(e, o);
	if (o->inherit_stat) {
		e->attr.inherit_stat = 1;
		e->attr.read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	evlist__add(evlist, e);
	return 0;
}

/* The default event: cycles at the highest precision (perf's cycles:P). */
static int add_default(struct evlist *evlist)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(a),
		.precise_ip = 3,
	};
	struct evsel *e = evsel__new(&a);

	if (!e || evsel__set_name(e, "cycles:P")) {
		evsel__delete(e);
		return -ENOMEM;
	}
	e->precise_max = 1;
	evlist__add(evlist, e);
	return 0;
}

/*
 * Several events, or a pipe (perf 6.1 sets sample_id for pipe output, so
 * that the samples name their HEADER_ATTR): ID, or IDENTIFIER when their
 * sample_types differ.
 */
static void config_sample_id(struct evlist *evlist, bool pipe)
{
	struct evsel *first = evlist__first(evlist), *e;
	bool identifier = false;

	if (evlist->nr_entries < 2 && !pipe)
		return;
	evlist__for_each_entry(evlist, e)
		identifier |= e->attr.sample_type != first->attr.sample_type;
	evlist__for_each_entry(evlist, e) {
		if (identifier) {
			e->attr.sample_type &= ~(u64)PERF_SAMPLE_ID;
			e->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		} else {
			e->attr.sample_type |= PERF_SAMPLE_ID;
		}
		e->attr.read_format |= PERF_FORMAT_ID;
	}
}

/**
 * record__config - see util/record.h
 */
int record__config(struct evlist *evlist, const struct record_opts *o)
{
	bool system = target__has_cpu(&o->target);
	struct evsel *e;

	if (!evlist->nr_entries && add_default(evlist))
		return -ENOMEM;
	evlist__for_each_entry(evlist, e)
		config_evsel(e, o, !system && e == evlist__first(evlist));
	if (system && add_dummy(evlist, o))
		return -ENOMEM;
	config_sample_id(evlist, o->output && !strcmp(o->output, "-"));
	return 0;
}
