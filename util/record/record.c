// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recording: attrs as perf 6.1 sets them, and the attr-side options.  The
 * session (rings, synthesis, workload, output) is in util/record/record-run.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/evlist.h"
#include "util/lib/debug.h"
#include "util/event/evsel.h"
#include "util/event/parse-events.h"
#include "util/lib/fs.h"
#include "util/record/record.h"

/* x86_64 user registers perf samples for DWARF unwinding (AX..R15 without segments) */
#define DWARF_REGS_USER_X86_64	0xff0fffULL

/**
 * record_opts__init - see util/record/record.h
 */
void record_opts__init(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = 4000;
	o->timestamp = true;
	o->stack_size = 8192;
	o->clockid = -1;
	o->mmap_pages = 128;
	o->mmap_flush = 1;
	o->output = "perf.data";
	o->synth = RECORD_SYNTH_ALL;
}

/**
 * record__parse_synth - see util/record/record.h
 */
int record__parse_synth(struct record_opts *o, const char *str, char *buf, size_t size)
{
	static const struct {
		const char *name;
		unsigned int bits;
	} words[] = {
		{ "no", 0 }, { "all", RECORD_SYNTH_ALL }, { "task", RECORD_SYNTH_TASK },
		{ "mmap", RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP }, { "cgroup", RECORD_SYNTH_CGROUP },
	};
	unsigned int bits = 0;
	const char *p = str;

	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == n && !strncmp(p, words[i].name, n))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			snprintf(buf, size, "invalid --synth '%s': give no, all, task, mmap or cgroup, "
				 "separated by commas", str);
			return -EINVAL;
		}
		bits |= words[i].bits;
		p += n + (p[n] == ',');
	}
	o->synth = bits;
	return 0;
}

/* A number with one suffix character of @tags, whose multipliers are @mult. */
static int parse_tagged(const char *str, const char *tags, const u64 *mult, u64 *val)
{
	const char *t;
	char *end;
	u64 v;

	if (!str || !isdigit((unsigned char)*str))
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (errno || !*end || end[1] || !(t = strchr(tags, *end)))
		return -EINVAL;
	if (v > UINT64_MAX / mult[t - tags])
		return -EINVAL;
	*val = v * mult[t - tags];
	return 0;
}

static const u64 size_mult[] = { 1, 1ULL << 10, 1ULL << 20, 1ULL << 30 };
static const u64 time_mult[] = { 1, 60, 3600, 86400 };

/**
 * record__parse_size - see util/record/record.h
 */
int record__parse_size(const char *str, u64 *val)
{
	return parse_tagged(str, "BKMG", size_mult, val);
}

/**
 * record__parse_switch_output - see util/record/record.h
 */
int record__parse_switch_output(struct record_opts *o, const char *str, char *buf, size_t size)
{
	u64 v;

	o->switch_output = true;
	o->timestamp_filename = true;
	if (!str || !strcmp(str, "signal")) {
		o->switch_signal = true;
		return 0;
	}
	if (!record__parse_size(str, &v) && v) {
		o->switch_size = v;
		return 0;
	}
	if (!parse_tagged(str, "smhd", time_mult, &v) && v) {
		o->switch_secs = v;
		return 0;
	}
	snprintf(buf, size, "invalid --switch-output '%s': give 'signal', a size with B/K/M/G "
		 "(such as 10M) or a time with s/m/h/d (such as 30s)", str);
	return -EINVAL;
}

static int parse_ms(const char *s, char **end, u64 *v)
{
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno ? -EINVAL : 0;
}

/**
 * record__parse_delay - see util/record/record.h
 */
int record__parse_delay(struct record_opts *o, const char *str, char *buf, size_t size)
{
	const char *p = str;
	char *end;
	u64 v;

	free(o->ranges);
	o->ranges = NULL;
	o->nr_ranges = 0;
	o->delay_ms = 0;
	if (!strcmp(str, "-1")) {
		o->delay_ms = -1;
		return 0;
	}
	if (!parse_ms(str, &end, &v) && !*end && v && v <= INT32_MAX) {
		o->delay_ms = (int)v;
		return 0;
	}
	while (*p) {
		struct record_range r, *n;

		if (parse_ms(p, &end, &r.start) || *end != '-' || parse_ms(end + 1, &end, &r.end) ||
		    r.end <= r.start || (o->nr_ranges && r.start < o->ranges[o->nr_ranges - 1].end) ||
		    (*end && (*end != ',' || !end[1])))
			goto bad;
		n = realloc(o->ranges, ((size_t)o->nr_ranges + 1) * sizeof(*n));
		if (!n) {
			snprintf(buf, size, "out of memory");
			return -ENOMEM;
		}
		o->ranges = n;
		o->ranges[o->nr_ranges++] = r;
		p = *end ? end + 1 : end;
	}
	if (o->nr_ranges)
		return 0;
bad:
	free(o->ranges);
	o->ranges = NULL;
	o->nr_ranges = 0;
	snprintf(buf, size, "invalid -D '%s': give milliseconds (more than 0), -1 (start with "
		 "the events disabled) or ranges of milliseconds such as 10-20,30-40", str);
	return -EINVAL;
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

/*
 * record__parse_branch_filter - see util/record/record.h
 */
int record__parse_branch_filter(struct record_opts *o, const char *str, char *buf, size_t size)
{
	const u64 plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			PERF_SAMPLE_BRANCH_HV;
	u64 mode = 0;
	int err = parse_branch_filter(str, &mode, buf, size);

	if (err)
		return err;
	o->branch_stack = (mode & ~plm) ? mode : PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/**
 * record__parse_user_regs - see util/record/record.h
 */
int record__parse_user_regs(struct record_opts *o, const char *str, char *buf, size_t size)
{
	char *copy, *tok, *save = NULL;
	u64 mask = 0;
	int err = 0;

	if (!str) {
		o->user_regs = DWARF_REGS_USER_X86_64;	/* every register perf names */
		return 0;
	}
	copy = strdup(str);
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
 * record__parse_callgraph - see util/record/record.h
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
 * record__max_sample_rate - see util/record/record.h
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
			a->freq = 1;
			a->sample_freq = o->freq;
		}
	}
	if (a->freq || o->sample_period_bit)	/* -P: the period of each sample */
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (o->no_samples)
		a->sample_freq = 0;
}

/* x86_64 registers DWARF unwinding cannot do without: IP and SP */
#define DWARF_MINIMAL_REGS_X86_64	((1ULL << 8) | (1ULL << 7))

/* One call graph setting, global (--call-graph) or an event's terms. */
struct callgraph_param {
	enum record_callgraph mode;
	u32 dump_size;			/* dwarf: bytes of user stack */
	u16 max_stack;			/* sample_max_stack, 0: the kernel's */
};

/* Turn call graphs on in @e's attr as perf's __evsel__config_callchain(). */
static void config_callchain(struct evsel *e, const struct record_opts *o,
			     const struct callgraph_param *cg)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = cg->max_stack;
	if (cg->mode == CALLGRAPH_LBR) {
		if (o->branch_stack) {
			say(e->evlist->say, SAY_WARNING, "LBR call stacks cannot be recorded "
			    "with a branch stack (-b, -j): falling back to frame pointers");
		} else if (a->exclude_user) {
			say(e->evlist->say, SAY_WARNING, "LBR call stacks are of user space only "
			    "and '%s' counts none: falling back to frame pointers", evsel__name(e));
		} else {
			a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = PERF_SAMPLE_BRANCH_USER |
						PERF_SAMPLE_BRANCH_CALL_STACK |
						PERF_SAMPLE_BRANCH_NO_CYCLES |
						PERF_SAMPLE_BRANCH_NO_FLAGS |
						PERF_SAMPLE_BRANCH_HW_INDEX;
		}
	} else if (cg->mode == CALLGRAPH_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		if (o->user_regs) {
			a->sample_regs_user |= DWARF_MINIMAL_REGS_X86_64;
			say(e->evlist->say, SAY_WARNING, "--user-regs with a dwarf call graph: IP "
			    "and SP are added, unwinding may fail without the other registers");
		} else {
			a->sample_regs_user |= DWARF_REGS_USER_X86_64;
		}
		a->sample_stack_user = cg->dump_size;
		a->exclude_callchain_user = 1;
	}
	if (o->kernel_callchains)	/* --kernel-callchains: the kernel frames only */
		a->exclude_callchain_user = 1;
	if (o->user_callchains)		/* --user-callchains: the user frames only */
		a->exclude_callchain_kernel = 1;
}

/*
 * What perf's evsel__reset_callgraph() takes back of the global call
 * graph when an event has its own: the sample bits only (the register
 * mask, stack size and exclude_callchain_user stay, as in perf 6.1).
 */
static void reset_callchain(struct evsel *e, enum record_callgraph global)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type &= ~(u64)PERF_SAMPLE_CALLCHAIN;
	if (global == CALLGRAPH_LBR) {
		a->sample_type &= ~(u64)PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type &= ~(u64)(PERF_SAMPLE_BRANCH_USER |
						PERF_SAMPLE_BRANCH_CALL_STACK |
						PERF_SAMPLE_BRANCH_HW_INDEX);
	} else if (global == CALLGRAPH_DWARF) {
		a->sample_type &= ~(u64)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	}
}

/*
 * call-graph=, stack-size= and max-stack= terms: the event's own call
 * graph replaces the global one (max-stack alone means fp; dwarf samples
 * data addresses too, as perf 6.1's evsel__apply_config_terms()).
 */
static void config_callgraph_terms(struct evsel *e, const struct record_opts *o, bool track)
{
	const struct evsel_config_terms *t = &e->terms;
	struct callgraph_param cg = { .mode = CALLGRAPH_NONE };
	const char *mode = t->call_graph[0] ? t->call_graph : NULL;
	struct record_opts parsed;
	char msg[128];

	if (!mode && !t->stack_size && t->max_stack <= 0)
		return;
	if (t->max_stack > 0) {
		cg.max_stack = (u16)t->max_stack;
		if (!mode)
			mode = "fp";
	}
	if (mode && strcmp(mode, "no")) {
		record_opts__init(&parsed);
		if (record__parse_callgraph(&parsed, mode, msg, sizeof(msg))) {
			say(e->evlist->say, SAY_WARNING, "call-graph=%s of '%s': %s; the global "
			    "call graph applies", mode, evsel__name(e), msg);
			return;
		}
		cg.mode = parsed.callgraph;
		cg.dump_size = parsed.stack_size;
	}
	if (t->stack_size)
		cg.dump_size = (t->stack_size + 7) & ~7U;
	if (o->callgraph != CALLGRAPH_NONE)
		reset_callchain(e, o->callgraph);
	if (cg.mode == CALLGRAPH_NONE)
		return;
	if (cg.mode == CALLGRAPH_DWARF) {
		e->attr.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		e->attr.mmap_data = track;
	}
	config_callchain(e, o, &cg);
}

/* The event's terms, applied last: they override the options (perf's order). */
static void config_terms(struct evsel *e, const struct record_opts *o, bool track)
{
	const struct evsel_config_terms *t = &e->terms;
	struct perf_event_attr *a = &e->attr;

	if (t->period_set) {
		a->sample_period = t->period;
		a->freq = 0;
		a->sample_type &= ~(u64)PERF_SAMPLE_PERIOD;
	}
	if (t->freq_set) {
		a->sample_freq = t->freq;
		a->freq = 1;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (t->time == 1)
		a->sample_type |= PERF_SAMPLE_TIME;
	else if (t->time == 0)
		a->sample_type &= ~(u64)PERF_SAMPLE_TIME;
	if (t->branch_sample_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type |= t->branch_sample_type;	/* or-ed, as perf */
	} else if (t->branch_type[0]) {	/* branch_type=no */
		a->sample_type &= ~(u64)PERF_SAMPLE_BRANCH_STACK;
	}
	if (t->inherit >= 0)
		a->inherit = (u64)t->inherit;
	if (t->aux_output)
		a->aux_output = 1;
	config_callgraph_terms(e, o, track);
}

static bool wants_addr(const struct record_opts *o)
{
	return o->sample_addr || o->callgraph == CALLGRAPH_DWARF;
}

static void config_tracking(struct perf_event_attr *a, const struct record_opts *o)
{
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
	a->ksymbol = 1;
	a->bpf_event = !o->no_bpf_event;
	a->mmap_data = wants_addr(o);
	a->context_switch = o->switch_events;
	a->namespaces = o->namespaces;
}

static void config_sample_bits(struct evsel *e, const struct record_opts *o)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/*
	 * -R samples TIME even with --no-timestamp; --per-thread (which does
	 * not inherit) only with -T, as perf 6.1
	 */
	if ((o->timestamp && (!o->per_thread || o->timestamp_set ||
			      target__has_cpu(&o->target))) || o->raw)
		a->sample_type |= PERF_SAMPLE_TIME;
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

/* The global call graph (-g, --call-graph) and --user-regs. */
static void config_callgraph(struct evsel *e, const struct record_opts *o)
{
	struct callgraph_param cg = { .mode = o->callgraph, .dump_size = o->stack_size };

	if (cg.mode != CALLGRAPH_NONE)
		config_callchain(e, o, &cg);
	if (o->branch_stack) {	/* -b, -j: after the call graph, as perf */
		e->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		e->attr.branch_sample_type = o->branch_stack;
	}
	if (o->user_regs) {
		e->attr.sample_type |= PERF_SAMPLE_REGS_USER;
		e->attr.sample_regs_user |= o->user_regs;
	}
}

/*
 * :S: every sample of the event reads its group.  A group of several
 * cannot inherit (the kernel refuses inherited group reads).
 */
static void config_sample_read(struct evsel *e)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_ID;
	a->read_format |= PERF_FORMAT_ID;
	if (e->leader->nr_members > 1) {
		a->read_format |= PERF_FORMAT_GROUP;
		a->inherit = 0;
	}
}

static void config_evsel(struct evsel *e, const struct record_opts *o, bool track)
{
	struct perf_event_attr *a = &e->attr;
	bool leader = evsel__is_group_leader(e);

	a->inherit = !o->target.no_inherit && !o->per_thread;
	if (e->sample_read_leader)	/* its own :S (a group's :S is every member's) */
		config_sample_read(e);
	config_sample_bits(e, o);
	if (a->type == PERF_TYPE_TRACEPOINT)	/* perf's tracepoint evsels sample the period */
		a->sample_type |= PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	config_period(e, o);
	config_callgraph(e, o);
	a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->running_time)	/* --running-time: the times with each read */
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (o->no_buffering) {	/* --no-buffering: a wake-up per record */
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (o->inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	a->sample_id_all = 1;
	if (track)
		config_tracking(a, o);
	a->disabled = leader;
	/* -D: the events wait for record to enable them, not for the exec */
	a->enable_on_exec = leader && target__none(&o->target) && !record__delayed(o);
	if (o->clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	if (o->all_user)
		a->exclude_kernel = 1, a->exclude_user = 0;
	if (o->all_kernel)
		a->exclude_kernel = 0, a->exclude_user = 1;
	config_terms(e, o, track);
}

/*
 * :S groups, once every attr is set (perf's evsel__config_leader_sampling()):
 * the leader samples and its samples read the members, which sample the
 * leader's sample_type and do not sample themselves unless an event term
 * (period=, freq=) says so.
 */
static void config_leader_sampling(struct evsel *e)
{
	struct evsel *leader = e->leader;
	struct perf_event_attr *a = &e->attr;

	if (!leader->sample_read_leader || e == leader)
		return;
	if (!e->terms.period_set && !e->terms.freq_set) {
		a->freq = 0;
		a->sample_period = 0;
	}
	a->sample_type = leader->attr.sample_type;
}

/*
 * perf's tracking event, dummy:HG: system-wide enabled from the open; with
 * -D (for a task) enabled at the exec while the events wait, so that the
 * maps of the start are recorded.
 */
static int add_dummy(struct evlist *evlist, const struct record_opts *o)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST,
		.sample_id_all = 1,
	};
	struct evsel *e;

	if (!target__has_cpu(&o->target))
		a.disabled = a.enable_on_exec = 1;
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
static void config_sample_id(struct evlist *evlist, bool pipe, bool sample_identifier)
{
	struct evsel *first = evlist__first(evlist), *e;
	bool identifier = sample_identifier;	/* --sample-identifier */

	if (evlist->nr_entries < 2 && !pipe && !sample_identifier)
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

/*
 * Terms tperf cannot honour: refused, never ignored.  overwrite asks for a
 * backward ring read only at the end (perf's --overwrite machinery, not
 * implemented); aux-sample-size needs an AUX area event (intel_pt ...).
 */
static int check_terms(struct evlist *evlist, char *buf, size_t size)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		if (e->terms.overwrite == 1) {
			snprintf(buf, size, "'%s': the overwrite term (a backward ring buffer "
				 "kept until the end) is not supported by tperf record; drop it",
				 evsel__name(e));
			return -EINVAL;
		}
		if (e->terms.aux_sample_size) {
			snprintf(buf, size, "'%s': aux-sample-size needs an AUX area event "
				 "(such as intel_pt) leading its group: there is none to sample",
				 evsel__name(e));
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * record__config - see util/record/record.h
 */
int record__config(struct evlist *evlist, const struct record_opts *o, char *buf, size_t size)
{
	bool system = target__has_cpu(&o->target);
	bool dummy = system || record__delayed(o);	/* the tracking bits on a dummy:HG */
	struct evsel *e;
	int err = check_terms(evlist, buf, size);

	if (err)
		return err;
	snprintf(buf, size, "out of memory");
	if (!evlist->nr_entries && add_default(evlist))
		return -ENOMEM;
	evlist__for_each_entry(evlist, e)
		config_evsel(e, o, !dummy && e == evlist__first(evlist));
	evlist__for_each_entry(evlist, e)
		config_leader_sampling(e);
	if (dummy && add_dummy(evlist, o))
		return -ENOMEM;
	config_sample_id(evlist, o->output && !strcmp(o->output, "-"), o->sample_identifier);
	return 0;
}
