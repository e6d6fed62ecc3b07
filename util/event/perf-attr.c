// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and one-line dumps of perf_event_attr, in the text perf 6.1 prints
 * (checked against `perf evlist -v` on recorded files).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/event/perf-attr.h"

static const char *const hw_names[PERF_COUNT_HW_MAX] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
					   "branch", "node" };
static const char *const cache_ops[][2] = { { "load", "loads" }, { "store", "stores" },
					    { "prefetch", "prefetches" } };
static const char *const cache_results[] = { "refs", "misses" };
/* The ops (bit per PERF_COUNT_HW_CACHE_OP_*) each cache has, as perf knows them. */
static const unsigned char cache_ops_valid[] = { 7, 5, 7, 7, 1, 1, 7 };

/* ":ukhppp" and "H"/"G" as perf derives them from the exclude bits. */
static int add_modifiers(const struct perf_event_attr *a, char *buf, size_t size)
{
	char mod[16];
	int n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mod[n++] = 'k';
		if (!a->exclude_user)
			mod[n++] = 'u';
		if (!a->exclude_hv)
			mod[n++] = 'h';
		guest_default = true;
	}
	if (a->precise_ip) {
		for (unsigned int i = 0; i < a->precise_ip && i < 3; i++)
			mod[n++] = 'p';
		guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mod[n++] = 'H';
		if (!a->exclude_guest)
			mod[n++] = 'G';
	}
	if (!n)
		return 0;
	mod[n] = '\0';
	return snprintf(buf, size, ":%s", mod);
}

static int cache_name(uint64_t config, char *buf, size_t size)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= sizeof(cache_names) / sizeof(cache_names[0]) || op > 2 || res > 1 ||
	    !(cache_ops_valid[type] & (1 << op)))
		return snprintf(buf, size, "invalid-cache");
	if (res)
		return snprintf(buf, size, "%s-%s-%s", cache_names[type], cache_ops[op][0],
				cache_results[res]);
	return snprintf(buf, size, "%s-%s", cache_names[type], cache_ops[op][1]);
}

static int bp_name(const struct perf_event_attr *a, char *buf, size_t size)
{
	int n = snprintf(buf, size, "mem:0x%" PRIx64 ":", (uint64_t)a->bp_addr);

	if (a->bp_type & 1)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "r");
	if (a->bp_type & 2)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "w");
	if (a->bp_type & 4)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "x");
	return n;
}

/**
 * perf_attr__default_name - see util/event/perf-attr.h
 */
int perf_attr__default_name(const struct perf_event_attr *a, char *buf, size_t size)
{
	int n;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		n = snprintf(buf, size, "%s", a->config < PERF_COUNT_HW_MAX && hw_names[a->config] ?
			     hw_names[a->config] : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		n = snprintf(buf, size, "%s",
			     a->config < sizeof(sw_names) / sizeof(sw_names[0]) ?
			     sw_names[a->config] : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		n = cache_name(a->config, buf, size);
		break;
	case PERF_TYPE_RAW:
		n = snprintf(buf, size, "raw 0x%" PRIx64, (uint64_t)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		n = bp_name(a, buf, size);
		break;
	case PERF_TYPE_TRACEPOINT:
		return snprintf(buf, size, "unknown tracepoint");
	default:
		return snprintf(buf, size, "unknown attr type: %u", a->type);
	}
	if (n < 0 || (size_t)n >= size)
		return n;
	return n + add_modifiers(a, buf + n, size - n);
}

struct bit_name {
	uint64_t bit;
	const char *name;
};

#define B(p, x) { p##x, #x }
static const struct bit_name sample_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID),
	B(PERF_SAMPLE_, CPU), B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID),
	B(PERF_SAMPLE_, RAW), B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER),
	B(PERF_SAMPLE_, STACK_USER), B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR),
	B(PERF_SAMPLE_, DATA_SRC), B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR),
	B(PERF_SAMPLE_, AUX), B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE),
	B(PERF_SAMPLE_, CODE_PAGE_SIZE), B(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL },
};

static const struct bit_name read_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), B(PERF_FORMAT_, LOST), { 0, NULL },
};

static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL),
	B(PERF_SAMPLE_BRANCH_, ANY_RETURN), B(PERF_SAMPLE_BRANCH_, IND_CALL),
	B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX),
	B(PERF_SAMPLE_BRANCH_, NO_TX), B(PERF_SAMPLE_BRANCH_, COND),
	B(PERF_SAMPLE_BRANCH_, CALL_STACK), B(PERF_SAMPLE_BRANCH_, IND_JUMP),
	B(PERF_SAMPLE_BRANCH_, CALL), B(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	B(PERF_SAMPLE_BRANCH_, NO_CYCLES), B(PERF_SAMPLE_BRANCH_, TYPE_SAVE),
	B(PERF_SAMPLE_BRANCH_, HW_INDEX), B(PERF_SAMPLE_BRANCH_, PRIV_SAVE), { 0, NULL },
};
#undef B

static void bits(char *buf, size_t size, uint64_t v, const struct bit_name *t)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; t->name; t++)
		if (v & t->bit)
			n += snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? "|" : "",
				      t->name);
}

typedef void (*field_fn)(const char *name, const char *val, void *priv);

static void u(field_fn fn, void *priv, const char *name, uint64_t v)
{
	char b[32];

	if (!v)
		return;
	snprintf(b, sizeof(b), "%" PRIu64, v);
	fn(name, b, priv);
}

static void x(field_fn fn, void *priv, const char *name, uint64_t v)
{
	char b[32];

	if (!v)
		return;
	snprintf(b, sizeof(b), "%#" PRIx64, v);
	fn(name, b, priv);
}

static void bitf(field_fn fn, void *priv, const char *name, uint64_t v,
		 const struct bit_name *t)
{
	char b[512];

	if (!v)
		return;
	bits(b, sizeof(b), v, t);
	fn(name, b, priv);
}

static void flags(const struct perf_event_attr *a, field_fn fn, void *priv)
{
#define F(f) u(fn, priv, #f, a->f)
	F(disabled); F(inherit); F(pinned); F(exclusive); F(exclude_user); F(exclude_kernel);
	F(exclude_hv); F(exclude_idle); F(mmap); F(comm); F(freq); F(inherit_stat);
	F(enable_on_exec); F(task); F(watermark); F(precise_ip); F(mmap_data);
	F(sample_id_all); F(exclude_host); F(exclude_guest); F(exclude_callchain_kernel);
	F(exclude_callchain_user); F(mmap2); F(comm_exec); F(use_clockid); F(context_switch);
	F(write_backward); F(namespaces); F(ksymbol); F(bpf_event); F(aux_output);
	F(cgroup); F(text_poke); F(build_id); F(inherit_thread); F(remove_on_exec);
	F(sigtrap);
#undef F
}

/**
 * perf_attr__for_each_field - see util/event/perf-attr.h
 */
void perf_attr__for_each_field(const struct perf_event_attr *a, field_fn fn, void *priv)
{
	char b[32];

	u(fn, priv, "type", a->type);
	u(fn, priv, "size", a->size);
	x(fn, priv, "config", a->config);
	u(fn, priv, "{ sample_period, sample_freq }", a->sample_period);
	bitf(fn, priv, "sample_type", a->sample_type, sample_bits);
	bitf(fn, priv, "read_format", a->read_format, read_bits);
	flags(a, fn, priv);
	u(fn, priv, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	u(fn, priv, "bp_type", a->bp_type);
	x(fn, priv, "{ bp_addr, config1 }", a->bp_addr);
	x(fn, priv, "{ bp_len, config2 }", a->bp_len);
	bitf(fn, priv, "branch_sample_type", a->branch_sample_type, branch_bits);
	x(fn, priv, "sample_regs_user", a->sample_regs_user);
	u(fn, priv, "sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		snprintf(b, sizeof(b), "%d", a->clockid);
		fn("clockid", b, priv);
	}
	x(fn, priv, "sample_regs_intr", a->sample_regs_intr);
	u(fn, priv, "aux_watermark", a->aux_watermark);
	u(fn, priv, "sample_max_stack", a->sample_max_stack);
	u(fn, priv, "aux_sample_size", a->aux_sample_size);
	u(fn, priv, "sig_data", a->sig_data);
}

struct line {
	char *buf;
	size_t size, n;
};

static void line_add(const char *name, const char *val, void *priv)
{
	struct line *l = priv;
	int r = snprintf(l->buf + (l->n < l->size ? l->n : l->size),
			 l->n < l->size ? l->size - l->n : 0, "%s%s: %s", l->n ? ", " : ": ",
			 name, val);

	if (r > 0)
		l->n += r;
}

/**
 * perf_attr__snprint_line - see util/event/perf-attr.h
 */
int perf_attr__snprint_line(const struct perf_event_attr *attr, char *buf, size_t size)
{
	struct line l = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	perf_attr__for_each_field(attr, line_add, &l);
	return (int)l.n;
}
