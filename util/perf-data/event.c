// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record names and the sample parser / synthesizer.  The field order is the
 * kernel's (see the PERF_RECORD_SAMPLE comment in <linux/perf_event.h>).
 */
#include <errno.h>
#include <string.h>

#include "util/perf-data/event.h"

static const char *const event_names[PERF_RECORD_TYPES] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	[PERF_RECORD_COMPRESSED2] = "COMPRESSED2",
};

/**
 * perf_event__name - the name of a record type as `perf report --stats` shows it
 * @type: PERF_RECORD_*
 *
 * Return: "SAMPLE", "MMAP2" ... or NULL for a type this version does not know.
 */
const char *perf_event__name(unsigned int type)
{
	return type < PERF_RECORD_TYPES ? event_names[type] : NULL;
}

/* A bounded reader over the record body. */
struct cursor {
	const u8 *p, *end;
};

static int take_u64(struct cursor *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

static int take_u32x2(struct cursor *c, u32 *a, u32 *b)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

/* Skip @n u64 words, returning where they start. */
static int take_array(struct cursor *c, u64 n, const u64 **out)
{
	if (n > (u64)(c->end - c->p) / 8)
		return -EINVAL;
	*out = (const u64 *)c->p;
	c->p += n * 8;
	return 0;
}

static int take_bytes(struct cursor *c, u64 n, const void **out)
{
	if (n > (u64)(c->end - c->p))
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

static unsigned int read_entry_u64s(u64 fmt)
{
	return 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
}

/*
 * read_format: a group is { nr, [enabled], [running], nr x { value, [id],
 * [lost] } }; a single counter is { value, [enabled], [running], [id], [lost] }.
 */
static int parse_read(struct cursor *c, u64 fmt, struct perf_sample *s)
{
	u64 nr = 1;

	s->read.entry_u64s = read_entry_u64s(fmt);
	if (!(fmt & PERF_FORMAT_GROUP)) {
		s->read.nr = 1;
		s->read.values = (const u64 *)c->p;
		if (take_u64(c, &s->read.value))
			return -EINVAL;
		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && take_u64(c, &s->read.time_enabled))
			return -EINVAL;
		if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && take_u64(c, &s->read.time_running))
			return -EINVAL;
		if ((fmt & PERF_FORMAT_ID) && take_u64(c, &s->read.id))
			return -EINVAL;
		if ((fmt & PERF_FORMAT_LOST) && take_u64(c, &s->read.lost))
			return -EINVAL;
		s->read.values = NULL;	/* not contiguous: use value/id/lost */
		return 0;
	}
	if (take_u64(c, &nr))
		return -EINVAL;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && take_u64(c, &s->read.time_enabled))
		return -EINVAL;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && take_u64(c, &s->read.time_running))
		return -EINVAL;
	if (nr > (u64)(c->end - c->p) / 8 / s->read.entry_u64s)
		return -EINVAL;
	s->read.nr = nr;
	if (take_array(c, nr * s->read.entry_u64s, &s->read.values))
		return -EINVAL;
	if (nr) {
		const u64 *v = s->read.values;

		s->read.value = v[0];
		if (fmt & PERF_FORMAT_ID)
			s->read.id = v[1];
		if (fmt & PERF_FORMAT_LOST)
			s->read.lost = v[s->read.entry_u64s - 1];
	}
	return 0;
}

static int parse_regs(struct cursor *c, u64 mask, typeof(((struct perf_sample *)0)->user_regs) *r)
{
	if (take_u64(c, &r->abi))
		return -EINVAL;
	r->mask = mask;
	if (!r->abi)
		return 0;
	r->nr = __builtin_popcountll(mask);
	return take_array(c, r->nr, &r->regs);
}

static int parse_stack(struct cursor *c, struct perf_sample *s)
{
	if (take_u64(c, &s->user_stack.size))
		return -EINVAL;
	if (!s->user_stack.size)
		return 0;
	if (take_bytes(c, s->user_stack.size, &s->user_stack.data))
		return -EINVAL;
	if (take_u64(c, &s->user_stack.dyn_size) || s->user_stack.dyn_size > s->user_stack.size)
		return -EINVAL;
	return 0;
}

static int parse_branch(struct cursor *c, const struct perf_event_attr *attr,
			struct perf_sample *s)
{
	u64 nr;
	const u64 *e;

	if (take_u64(c, &nr))
		return -EINVAL;
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
		s->branch_has_hw_idx = true;
		if (take_u64(c, &s->branch_hw_idx))
			return -EINVAL;
	}
	if (nr > (u64)(c->end - c->p) / sizeof(struct perf_branch_entry_raw))
		return -EINVAL;
	if (take_array(c, nr * 3, &e))
		return -EINVAL;
	s->branch_nr = nr;
	s->branch_entries = (const struct perf_branch_entry_raw *)e;
	return 0;
}

static int parse_weight(struct cursor *c, u64 type, struct perf_sample *s)
{
	u64 w;

	if (take_u64(c, &w))
		return -EINVAL;
	if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
		s->weight = (u32)w;
		s->ins_lat = (u16)(w >> 32);
		s->p_stage_cyc = (u16)(w >> 48);
	} else {
		s->weight = w;
	}
	return 0;
}

/* From TID to STREAM_ID/PERIOD/READ/CALLCHAIN..: the fields after IP. */
static int parse_body(struct cursor *c, const struct perf_event_attr *attr,
		      struct perf_sample *s)
{
	u64 t = attr->sample_type, v;

	if ((t & PERF_SAMPLE_TID) && take_u32x2(c, &s->pid, &s->tid))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TIME) && take_u64(c, &s->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ADDR) && take_u64(c, &s->addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && take_u64(c, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && take_u64(c, &s->stream_id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CPU) && take_u32x2(c, &s->cpu, &s->cpu_res))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PERIOD) && take_u64(c, &s->period))
		return -EINVAL;
	if ((t & PERF_SAMPLE_READ) && parse_read(c, attr->read_format, s))
		return -EINVAL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(c, &v) || take_array(c, v, &s->callchain))
			return -EINVAL;
		s->callchain_nr = v;
	}
	if (t & PERF_SAMPLE_RAW) {
		u32 sz;
		const void *p;

		if (c->end - c->p < 4)
			return -EINVAL;
		memcpy(&sz, c->p, 4);
		c->p += 4;
		if (take_bytes(c, sz, &p))
			return -EINVAL;
		s->raw_size = sz;
		s->raw_data = p;
		/* the u32 and the data together are padded to 8 bytes */
		v = (4 + (u64)sz) % 8;
		if (v && take_bytes(c, 8 - v, &p))
			return -EINVAL;
	}
	if ((t & PERF_SAMPLE_BRANCH_STACK) && parse_branch(c, attr, s))
		return -EINVAL;
	if ((t & PERF_SAMPLE_REGS_USER) && parse_regs(c, attr->sample_regs_user, &s->user_regs))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STACK_USER) && parse_stack(c, s))
		return -EINVAL;
	if ((t & PERF_SAMPLE_WEIGHT_TYPE) && parse_weight(c, t, s))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_SRC) && take_u64(c, &s->data_src))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TRANSACTION) && take_u64(c, &s->transaction))
		return -EINVAL;
	if ((t & PERF_SAMPLE_REGS_INTR) && parse_regs(c, attr->sample_regs_intr, &s->intr_regs))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PHYS_ADDR) && take_u64(c, &s->phys_addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CGROUP) && take_u64(c, &s->cgroup))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_PAGE_SIZE) && take_u64(c, &s->data_page_size))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CODE_PAGE_SIZE) && take_u64(c, &s->code_page_size))
		return -EINVAL;
	if (t & PERF_SAMPLE_AUX) {
		if (take_u64(c, &s->aux.size) || take_bytes(c, s->aux.size, &s->aux.data))
			return -EINVAL;
	}
	return 0;
}

/**
 * perf_sample__parse - see util/perf-data/event.h
 */
int perf_sample__parse(const struct perf_event_attr *attr, const void *rec,
		       size_t size, struct perf_sample *out)
{
	const struct perf_event_header *h = rec;
	struct cursor c = { (const u8 *)rec + sizeof(*h), (const u8 *)rec + size };
	u64 t = attr->sample_type;

	memset(out, 0, sizeof(*out));
	if (size < sizeof(*h))
		return -EINVAL;
	out->type = t;
	out->misc = h->misc;
	out->cpu = (u32)-1;
	if ((t & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &out->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IP) && take_u64(&c, &out->ip))
		return -EINVAL;
	return parse_body(&c, attr, out);
}

/**
 * perf_sample__id_hdr_size - see util/perf-data/event.h
 */
size_t perf_sample__id_hdr_size(const struct perf_event_attr *attr)
{
	u64 t = attr->sample_type;

	if (!attr->sample_id_all)
		return 0;
	return 8 * (!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		    !!(t & PERF_SAMPLE_IDENTIFIER));
}

/**
 * perf_sample__parse_id - see util/perf-data/event.h
 */
int perf_sample__parse_id(const struct perf_event_attr *attr, const void *rec,
			  size_t size, struct perf_sample *out)
{
	const struct perf_event_header *h = rec;
	size_t n = perf_sample__id_hdr_size(attr);
	u64 t = attr->sample_type;
	struct cursor c;

	memset(out, 0, sizeof(*out));
	out->cpu = (u32)-1;
	if (size < sizeof(*h))
		return -EINVAL;
	out->misc = h->misc;
	if (!n)
		return 0;
	if (size < sizeof(*h) + n)
		return -EINVAL;
	out->type = t & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	c.p = (const u8 *)rec + size - n;
	c.end = (const u8 *)rec + size;
	if ((t & PERF_SAMPLE_TID) && take_u32x2(&c, &out->pid, &out->tid))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TIME) && take_u64(&c, &out->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && take_u64(&c, &out->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &out->stream_id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CPU) && take_u32x2(&c, &out->cpu, &out->cpu_res))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &out->id))
		return -EINVAL;
	return 0;
}

/**
 * perf_event__parse_sample - see util/perf-data/event.h
 */
int perf_event__parse_sample(const struct perf_event_attr *attr, const union perf_event *ev,
			     size_t size, struct perf_sample *out)
{
	if (size < sizeof(ev->header)) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	if (ev->header.type == PERF_RECORD_SAMPLE)
		return perf_sample__parse(attr, ev, size, out);
	if (ev->header.type >= PERF_RECORD_USER_TYPE_START) {
		memset(out, 0, sizeof(*out));
		out->cpu = (u32)-1;
		out->misc = ev->header.misc;
		return 0;
	}
	return perf_sample__parse_id(attr, ev, size, out);
}

/**
 * perf_event__time - see util/perf-data/event.h
 */
int perf_event__time(const struct perf_event_attr *attr, const union perf_event *ev,
		     size_t size, u64 *time)
{
	u64 t = attr->sample_type;
	size_t pos;

	if (!(t & PERF_SAMPLE_TIME) || size < sizeof(ev->header) ||
	    ev->header.type >= PERF_RECORD_USER_TYPE_START)
		return -ENOENT;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		pos = sizeof(ev->header) + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) +
						!!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID));
		if (pos + 8 > size)
			return -EINVAL;
	} else {
		size_t n = perf_sample__id_hdr_size(attr);

		if (!n)
			return -ENOENT;
		if (n + sizeof(ev->header) > size)
			return -EINVAL;
		pos = size - n + 8 * !!(t & PERF_SAMPLE_TID);
	}
	memcpy(time, (const u8 *)ev + pos, 8);
	return 0;
}

/**
 * perf_sample__id_pos - see util/perf-data/event.h
 */
int perf_sample__id_pos(u64 t)
{
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
	       !!(t & PERF_SAMPLE_ADDR);
	return pos;
}

/**
 * perf_sample__is_pos - see util/perf-data/event.h
 */
int perf_sample__is_pos(u64 t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
}

/* --- writing --- */

struct sink {
	u8 *p, *end;
	bool overflow;
};

static void put(struct sink *k, const void *src, size_t n)
{
	if ((size_t)(k->end - k->p) < n) {
		k->overflow = true;
		k->p = k->end;
		return;
	}
	if (src)
		memcpy(k->p, src, n);
	else
		memset(k->p, 0, n);
	k->p += n;
}

static void put_u64(struct sink *k, u64 v)
{
	put(k, &v, 8);
}

static void put_u32x2(struct sink *k, u32 a, u32 b)
{
	put(k, &a, 4);
	put(k, &b, 4);
}

static void put_regs(struct sink *k, const typeof(((struct perf_sample *)0)->user_regs) *r,
		     u64 mask)
{
	put_u64(k, r->abi);
	if (r->abi)
		put(k, r->regs, 8 * (size_t)__builtin_popcountll(mask));
}

static void write_read(struct sink *k, u64 fmt, const struct perf_sample *s)
{
	u64 nr = s->read.values ? s->read.nr : 1;

	if (!(fmt & PERF_FORMAT_GROUP)) {
		put_u64(k, s->read.value);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			put_u64(k, s->read.time_enabled);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			put_u64(k, s->read.time_running);
		if (fmt & PERF_FORMAT_ID)
			put_u64(k, s->read.id);
		if (fmt & PERF_FORMAT_LOST)
			put_u64(k, s->read.lost);
		return;
	}
	put_u64(k, nr);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		put_u64(k, s->read.time_enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		put_u64(k, s->read.time_running);
	if (s->read.values) {
		put(k, s->read.values, 8 * nr * read_entry_u64s(fmt));
		return;
	}
	put_u64(k, s->read.value);
	if (fmt & PERF_FORMAT_ID)
		put_u64(k, s->read.id);
	if (fmt & PERF_FORMAT_LOST)
		put_u64(k, s->read.lost);
}

static void write_tail(struct sink *k, const struct perf_event_attr *attr,
		       const struct perf_sample *s)
{
	u64 t = attr->sample_type;

	if (t & PERF_SAMPLE_BRANCH_STACK) {
		put_u64(k, s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			put_u64(k, s->branch_hw_idx);
		put(k, s->branch_entries, s->branch_nr * sizeof(struct perf_branch_entry_raw));
	}
	if (t & PERF_SAMPLE_REGS_USER)
		put_regs(k, &s->user_regs, attr->sample_regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		put_u64(k, s->user_stack.size);
		if (s->user_stack.size) {
			put(k, s->user_stack.data, s->user_stack.size);
			put_u64(k, s->user_stack.dyn_size);
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_STRUCT)
		put_u64(k, (u32)s->weight | (u64)s->ins_lat << 32 | (u64)s->p_stage_cyc << 48);
	else if (t & PERF_SAMPLE_WEIGHT)
		put_u64(k, s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		put_u64(k, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		put_u64(k, s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		put_regs(k, &s->intr_regs, attr->sample_regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		put_u64(k, s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		put_u64(k, s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		put_u64(k, s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		put_u64(k, s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		put_u64(k, s->aux.size);
		put(k, s->aux.data, s->aux.size);
	}
}

static void write_sample(struct sink *k, const struct perf_event_attr *attr,
			 const struct perf_sample *s)
{
	u64 t = attr->sample_type;

	if (t & PERF_SAMPLE_IDENTIFIER)
		put_u64(k, s->id);
	if (t & PERF_SAMPLE_IP)
		put_u64(k, s->ip);
	if (t & PERF_SAMPLE_TID)
		put_u32x2(k, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		put_u64(k, s->time);
	if (t & PERF_SAMPLE_ADDR)
		put_u64(k, s->addr);
	if (t & PERF_SAMPLE_ID)
		put_u64(k, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		put_u64(k, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		put_u32x2(k, s->cpu, s->cpu_res);
	if (t & PERF_SAMPLE_PERIOD)
		put_u64(k, s->period);
	if (t & PERF_SAMPLE_READ)
		write_read(k, attr->read_format, s);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		put_u64(k, s->callchain_nr);
		put(k, s->callchain, 8 * s->callchain_nr);
	}
	if (t & PERF_SAMPLE_RAW) {
		size_t pad = (8 - (4 + (size_t)s->raw_size) % 8) % 8;

		put(k, &s->raw_size, 4);
		put(k, s->raw_data, s->raw_size);
		put(k, NULL, pad);
	}
	write_tail(k, attr, s);
}

/**
 * perf_sample__size - see util/perf-data/event.h
 */
size_t perf_sample__size(const struct perf_event_attr *attr, const struct perf_sample *s)
{
	size_t n = sizeof(struct perf_event_header);
	u64 t = attr->sample_type, fmt = attr->read_format;

	n += 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
		  !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) +
		  !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
		  !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_PERIOD) +
		  !!(t & PERF_SAMPLE_WEIGHT_TYPE) + !!(t & PERF_SAMPLE_DATA_SRC) +
		  !!(t & PERF_SAMPLE_TRANSACTION) + !!(t & PERF_SAMPLE_PHYS_ADDR) +
		  !!(t & PERF_SAMPLE_CGROUP) + !!(t & PERF_SAMPLE_DATA_PAGE_SIZE) +
		  !!(t & PERF_SAMPLE_CODE_PAGE_SIZE));
	if (t & PERF_SAMPLE_READ) {
		u64 nr = (fmt & PERF_FORMAT_GROUP) && s->read.values ? s->read.nr : 1;

		n += 8 * (!!(fmt & PERF_FORMAT_GROUP) + !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			  !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING));
		n += 8 * nr * read_entry_u64s(fmt);
	}
	if (t & PERF_SAMPLE_CALLCHAIN)
		n += 8 + 8 * s->callchain_nr;
	if (t & PERF_SAMPLE_RAW)
		n += (4 + (size_t)s->raw_size + 7) & ~(size_t)7;
	if (t & PERF_SAMPLE_BRANCH_STACK)
		n += 8 + 8 * !!(attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) +
		     s->branch_nr * sizeof(struct perf_branch_entry_raw);
	if (t & PERF_SAMPLE_REGS_USER)
		n += 8 + (s->user_regs.abi ? 8 * __builtin_popcountll(attr->sample_regs_user) : 0);
	if (t & PERF_SAMPLE_REGS_INTR)
		n += 8 + (s->intr_regs.abi ? 8 * __builtin_popcountll(attr->sample_regs_intr) : 0);
	if (t & PERF_SAMPLE_STACK_USER)
		n += 8 + (s->user_stack.size ? s->user_stack.size + 8 : 0);
	if (t & PERF_SAMPLE_AUX)
		n += 8 + s->aux.size;
	return n;
}

/**
 * perf_sample__synthesize - see util/perf-data/event.h
 */
int perf_sample__synthesize(const struct perf_event_attr *attr, const struct perf_sample *s,
			    void *buf, size_t size)
{
	size_t n = perf_sample__size(attr, s);
	struct perf_event_header h = { PERF_RECORD_SAMPLE, s->misc, (u16)n };
	struct sink k = { buf, (u8 *)buf + size, false };

	if (n > 0xffff || n % 8)
		return -EINVAL;
	if (n > size)
		return -ENOSPC;
	put(&k, &h, sizeof(h));
	write_sample(&k, attr, s);
	if (k.overflow || (size_t)(k.p - (u8 *)buf) != n)
		return -EINVAL;
	return (int)n;
}

/**
 * perf_sample__synthesize_id - see util/perf-data/event.h
 */
size_t perf_sample__synthesize_id(const struct perf_event_attr *attr,
				  const struct perf_sample *s, void *buf)
{
	size_t n = perf_sample__id_hdr_size(attr);
	struct sink k = { buf, (u8 *)buf + n, false };
	u64 t = attr->sample_type;

	if (!n)
		return 0;
	if (t & PERF_SAMPLE_TID)
		put_u32x2(&k, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		put_u64(&k, s->time);
	if (t & PERF_SAMPLE_ID)
		put_u64(&k, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		put_u64(&k, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		put_u32x2(&k, s->cpu, s->cpu_res);
	if (t & PERF_SAMPLE_IDENTIFIER)
		put_u64(&k, s->id);
	return n;
}
