// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The read loop over a perf.data (see util/perf-data/session.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/lib/debug.h"
#include "util/perf-data/event-fprintf.h"
#include "util/perf-data/session.h"

static struct perf_header_attr *perf_session__attr_of(struct perf_session *s,
						      const union perf_event *ev, size_t size);

#define OE_MAX_BYTES	(256u << 20)	/* queued bytes before a forced half flush */
#define OE_CHUNK	(1u << 20)	/* queued records are copied into chunks this big */

/*
 * Queued records: a record in the file's mapping is referred to where it
 * is; any other (pipe buffer, decompressed) is copied into a chunk.  A
 * chunk is freed when its last record is delivered.
 */
struct oe_chunk {
	size_t used, live;
	u64 data[];
};

struct oe_event {
	u64 time, seq, offset;
	struct oe_chunk *chunk;
	struct perf_data_block *block;	/* the block of streamed input ev is in, held */
	u32 size;
	const union perf_event *ev;	/* in a block, or rec */
	u64 rec[];			/* the record, when copied */
};

struct ordered_events {
	struct oe_event **q, **tmp;	/* q[0, nr_sorted) is in order */
	size_t nr, nr_sorted, cap, bytes;
	struct oe_chunk *cur;
	u64 seq, max_time, next_flush, last_flushed;
};

static void seterr(struct perf_session *s, const char *fmt, ...) __printf(2, 3);
static void seterr(struct perf_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
	va_end(ap);
}

/**
 * perf_session__new - see util/perf-data/session.h
 */
struct perf_session *perf_session__new(const char *path, int *err, char *msg, size_t size)
{
	struct perf_session *s = calloc(1, sizeof(*s));

	if (!s) {
		*err = -ENOMEM;
		snprintf(msg, size, "out of memory");
		return NULL;
	}
	s->header = &s->data.header;
	s->oe = calloc(1, sizeof(*s->oe));
	*err = s->oe ? perf_data__open_read(&s->data, path) : -ENOMEM;
	if (*err) {
		snprintf(msg, size, "%s", s->oe ? s->data.errmsg : "out of memory");
		perf_session__delete(s);
		return NULL;
	}
	return s;
}

static void oe_release(struct ordered_events *oe, struct oe_event *e)
{
	struct oe_chunk *c = e->chunk;

	if (e->block)
		perf_data__unhold(e->block);
	if (!--c->live && c != oe->cur)
		free(c);
}

static void oe_free(struct ordered_events *oe)
{
	if (!oe)
		return;
	for (size_t i = 0; i < oe->nr; i++)
		oe_release(oe, oe->q[i]);
	free(oe->cur);
	free(oe->q);
	free(oe->tmp);
	free(oe);
}

/**
 * perf_session__delete - close the file and free the session
 * @s: the session (NULL is fine)
 */
void perf_session__delete(struct perf_session *s)
{
	if (!s)
		return;
	oe_free(s->oe);		/* before the close: queued records hold blocks */
	perf_data__close(&s->data);
	free(s->id_index);
	free(s);
}

/* ---- which event a record belongs to ---- */

static int cmp_id(const void *a, const void *b)
{
	const u64 *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int build_id_index(struct perf_session *s)
{
	struct perf_header *h = s->header;
	size_t n = 0, k = 0;

	for (int i = 0; i < h->nr_attrs; i++)
		n += h->attrs[i].nr_ids;
	free(s->id_index);
	s->id_index = malloc((n ? n : 1) * 2 * sizeof(u64));
	if (!s->id_index)
		return -ENOMEM;
	for (int i = 0; i < h->nr_attrs; i++)
		for (u32 j = 0; j < h->attrs[i].nr_ids; j++) {
			s->id_index[2 * k] = h->attrs[i].ids[j];
			s->id_index[2 * k++ + 1] = i;
		}
	qsort(s->id_index, n, 2 * sizeof(u64), cmp_id);
	s->nr_id_index = n;
	s->id_index_attrs = h->nr_attrs;
	return 0;
}

static struct perf_header_attr *find_id(struct perf_session *s, u64 id)
{
	u64 key[2] = { id, 0 }, *hit;

	if (s->id_index_attrs != s->header->nr_attrs && build_id_index(s))
		return NULL;
	hit = bsearch(key, s->id_index, s->nr_id_index, 2 * sizeof(u64), cmp_id);
	return hit ? &s->header->attrs[hit[1]] : NULL;
}

/**
 * perf_session__attr_of - the event a record belongs to, by its id
 * Return: the attr, or NULL (unknown id, user record, no attrs yet).
 */
static struct perf_header_attr *perf_session__attr_of(struct perf_session *s,
						      const union perf_event *ev, size_t size)
{
	struct perf_header *h = s->header;
	struct perf_event_attr *first;
	u64 id;
	int pos;

	if (!h->nr_attrs || ev->header.type >= PERF_RECORD_USER_TYPE_START)
		return NULL;
	if (h->nr_attrs == 1)
		return &h->attrs[0];
	first = &h->attrs[0].attr;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		pos = perf_sample__id_pos(first->sample_type);
		if (pos < 0 || sizeof(struct perf_event_header) + 8 * (size_t)(pos + 1) > size)
			return NULL;
		memcpy(&id, (const u8 *)ev + sizeof(struct perf_event_header) + 8 * pos, 8);
		return find_id(s, id);
	}
	if (!first->sample_id_all)
		return &h->attrs[0];
	pos = perf_sample__is_pos(first->sample_type);
	if (pos < 0 || sizeof(struct perf_event_header) + 8 * (size_t)pos > size)
		return NULL;
	memcpy(&id, (const u8 *)ev + size - 8 * pos, 8);
	return id ? find_id(s, id) : &h->attrs[0];	/* synthesized: id 0, as perf */
}

/* ---- delivery ---- */

static perf_event_fn kernel_fn(struct perf_tool *t, unsigned int type)
{
	switch (type) {
	case PERF_RECORD_SAMPLE: return t->sample;
	case PERF_RECORD_MMAP: return t->mmap;
	case PERF_RECORD_MMAP2: return t->mmap2;
	case PERF_RECORD_COMM: return t->comm;
	case PERF_RECORD_FORK: return t->fork;
	case PERF_RECORD_EXIT: return t->exit;
	case PERF_RECORD_LOST: return t->lost;
	case PERF_RECORD_LOST_SAMPLES: return t->lost_samples;
	case PERF_RECORD_READ: return t->read;
	case PERF_RECORD_THROTTLE: return t->throttle;
	case PERF_RECORD_UNTHROTTLE: return t->unthrottle;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: return t->context_switch;
	case PERF_RECORD_NAMESPACES: return t->namespaces;
	case PERF_RECORD_CGROUP: return t->cgroup;
	case PERF_RECORD_KSYMBOL: return t->ksymbol;
	case PERF_RECORD_BPF_EVENT: return t->bpf_event;
	case PERF_RECORD_TEXT_POKE: return t->text_poke;
	case PERF_RECORD_AUX: return t->aux;
	case PERF_RECORD_ITRACE_START: return t->itrace_start;
	case PERF_RECORD_AUX_OUTPUT_HW_ID: return t->aux_output_hw_id;
	default: return NULL;
	}
}

static perf_event_fn user_fn(struct perf_tool *t, unsigned int type)
{
	switch (type) {
	case PERF_RECORD_HEADER_ATTR: return t->attr;
	case PERF_RECORD_HEADER_FEATURE: return t->feature;
	case PERF_RECORD_HEADER_TRACING_DATA: return t->tracing_data;
	case PERF_RECORD_HEADER_BUILD_ID: return t->build_id;
	case PERF_RECORD_ID_INDEX: return t->id_index;
	case PERF_RECORD_FINISHED_ROUND: return t->finished_round;
	case PERF_RECORD_FINISHED_INIT: return t->finished_init;
	case PERF_RECORD_AUXTRACE_INFO: return t->auxtrace_info;
	case PERF_RECORD_AUXTRACE: return t->auxtrace;
	case PERF_RECORD_AUXTRACE_ERROR: return t->auxtrace_error;
	case PERF_RECORD_THREAD_MAP: return t->thread_map;
	case PERF_RECORD_CPU_MAP: return t->cpu_map;
	case PERF_RECORD_STAT_CONFIG: return t->stat_config;
	case PERF_RECORD_STAT: return t->stat;
	case PERF_RECORD_STAT_ROUND: return t->stat_round;
	case PERF_RECORD_EVENT_UPDATE: return t->event_update;
	case PERF_RECORD_TIME_CONV: return t->time_conv;
	default: return t->user_other;
	}
}

/* Parse and hand a kernel record to the tool. */
/* -D: perf names a pipe "pipe" and counts its offsets after the pipe header. */
static void dump_record(struct perf_session *s, struct perf_tool *t, const union perf_event *ev,
			u64 offset, const struct perf_event_attr *attr, const struct perf_sample *sample)
{
	bool pipe = s->data.is_pipe;
	u64 off = pipe && offset >= sizeof(struct perf_pipe_file_header) ?
		  offset - sizeof(struct perf_pipe_file_header) : offset;

	perf_event__fprintf_dump(t->dump_fp, ev, off, pipe ? "pipe" : s->data.path, s->header,
				 attr, sample);
}

static int deliver(struct perf_session *s, struct perf_tool *t, const union perf_event *ev,
		   u64 offset)
{
	unsigned int type = ev->header.type;
	perf_event_fn fn = kernel_fn(t, type);
	struct perf_header_attr *a = perf_session__attr_of(s, ev, ev->header.size);
	struct perf_sample sample;

	if (type == PERF_RECORD_LOST && ev->header.size >= sizeof(ev->lost))
		s->stats.nr_lost += ev->lost.lost;
	if (type == PERF_RECORD_LOST_SAMPLES && ev->header.size >= sizeof(ev->lost_samples))
		s->stats.total_lost_samples += ev->lost_samples.lost;
	if (!fn)
		fn = t->kernel_other;
	if (!a) {
		if (type == PERF_RECORD_SAMPLE) {
			s->stats.nr_unknown_id++;
			return 0;
		}
		memset(&sample, 0, sizeof(sample));
		sample.cpu = (u32)-1;
	} else if (perf_event__parse_sample(&a->attr, ev, ev->header.size, &sample)) {
		seterr(s, "'%s': corrupt %s record at offset %#llx: its fields do not fit in "
		       "its %u bytes", s->data.path, perf_event__name(type),
		       (unsigned long long)offset, ev->header.size);
		return -EINVAL;
	}
	if (t->dump_fp)
		dump_record(s, t, ev, offset, a ? &a->attr : NULL, &sample);
	return fn ? fn(t, s, ev, &sample, a) : 0;
}

/* ---- ordered events ---- */

static int cmp_oe(const void *a, const void *b)
{
	const struct oe_event *x = *(struct oe_event *const *)a, *y = *(struct oe_event *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort the records queued since the last flush and merge them into the sorted prefix. */
static void oe_sort(struct ordered_events *oe)
{
	size_t a = 0, b = oe->nr_sorted, k = 0;

	if (oe->nr_sorted == oe->nr)
		return;
	qsort(oe->q + oe->nr_sorted, oe->nr - oe->nr_sorted, sizeof(*oe->q), cmp_oe);
	if (oe->nr_sorted) {
		while (a < oe->nr_sorted && b < oe->nr)
			oe->tmp[k++] = cmp_oe(&oe->q[b], &oe->q[a]) < 0 ? oe->q[b++] : oe->q[a++];
		while (a < oe->nr_sorted)
			oe->tmp[k++] = oe->q[a++];
		while (b < oe->nr)
			oe->tmp[k++] = oe->q[b++];
		memcpy(oe->q, oe->tmp, oe->nr * sizeof(*oe->q));
	}
	oe->nr_sorted = oe->nr;
}

/*
 * A record waiting in the queue has left the caches (a round is megabytes):
 * while one is delivered, fetch the next one's start (header, callchain,
 * registers, the top of a stack copy) and its end (a stack copy's size).
 */
static void prefetch_record(const struct oe_event *e)
{
	const char *p = (const char *)e->ev;
	size_t head = e->size < 512 ? e->size : 512;

	for (size_t off = 0; off < head; off += 64)
		__builtin_prefetch(p + off);
	__builtin_prefetch(p + e->size - 1);
}

/* Deliver the queued records up to @limit in time order (@limit ~0: all). */
static int oe_flush(struct perf_session *s, struct perf_tool *t, u64 limit, size_t max_nr)
{
	struct ordered_events *oe = s->oe;
	size_t i, done;
	int err = 0;

	if (!oe->nr)		/* oe->q is NULL while nothing was queued */
		return 0;
	oe_sort(oe);
	for (i = 0; i < oe->nr && i < max_nr && oe->q[i]->time <= limit; i++) {
		struct oe_event *e = oe->q[i];

		if (i + 1 < oe->nr)
			prefetch_record(oe->q[i + 1]);
		oe->last_flushed = e->time;
		if (!err)
			err = deliver(s, t, e->ev, e->offset);
		oe->bytes -= e->size;
		oe_release(oe, e);
	}
	done = i;
	if (done && oe->nr > done)
		memmove(oe->q, oe->q + done, (oe->nr - done) * sizeof(*oe->q));
	oe->nr -= done;
	oe->nr_sorted = oe->nr;
	return err;
}

static struct oe_event *oe_alloc(struct ordered_events *oe, size_t size)
{
	size_t need = (sizeof(struct oe_event) + size + 7) & ~(size_t)7;
	struct oe_chunk *c = oe->cur;
	struct oe_event *e;

	if (!c || c->used + need > OE_CHUNK) {
		if (c && !c->live) {
			c->used = 0;
		} else {
			c = malloc(sizeof(*c) + OE_CHUNK);
			if (!c)
				return NULL;
			c->used = c->live = 0;
			oe->cur = c;
		}
	}
	e = (struct oe_event *)((u8 *)c->data + c->used);
	c->used += need;
	c->live++;
	e->chunk = c;
	return e;
}

static int oe_grow(struct ordered_events *oe)
{
	size_t cap = oe->cap ? oe->cap * 2 : 4096;
	struct oe_event **nq = realloc(oe->q, cap * sizeof(*nq)), **nt;

	if (!nq)
		return -ENOMEM;
	oe->q = nq;
	nt = realloc(oe->tmp, cap * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	oe->tmp = nt;
	oe->cap = cap;
	return 0;
}

static int oe_queue(struct perf_session *s, struct perf_tool *t, const struct perf_data_record *r,
		    u64 time)
{
	struct ordered_events *oe = s->oe;
	const union perf_event *ev = r->event;
	struct oe_event *e;

	if (oe->nr == oe->cap && oe_grow(oe))
		return -ENOMEM;
	e = oe_alloc(oe, r->block ? 0 : ev->header.size);
	if (!e)
		return -ENOMEM;
	e->time = time;
	e->seq = oe->seq++;
	e->offset = r->offset;
	e->size = ev->header.size;
	e->block = r->block;
	if (r->block) {
		perf_data__hold(r->block);
		e->ev = ev;
	} else {
		memcpy(e->rec, ev, ev->header.size);
		e->ev = (const union perf_event *)e->rec;
	}
	oe->q[oe->nr++] = e;
	oe->bytes += ev->header.size;
	if (time < oe->last_flushed)
		s->stats.nr_unordered++;
	if (time > oe->max_time)
		oe->max_time = time;
	if (oe->bytes > OE_MAX_BYTES)
		return oe_flush(s, t, UINT64_MAX, oe->nr / 2);
	return 0;
}

static int process_kernel(struct perf_session *s, struct perf_tool *t,
			  const struct perf_data_record *r)
{
	const union perf_event *ev = r->event;
	struct perf_header_attr *a;
	u64 time;

	if (!t->ordered_events)
		return deliver(s, t, ev, r->offset);
	a = perf_session__attr_of(s, ev, ev->header.size);
	/* no time, or time 0 (synthesized before the start): at once, as perf */
	if (!a || perf_event__time(&a->attr, ev, ev->header.size, &time) || !time)
		return deliver(s, t, ev, r->offset);
	if (!s->first_time || time < s->first_time)
		s->first_time = time;
	if (time > s->last_time)
		s->last_time = time;
	return oe_queue(s, t, r, time);
}

/* ---- user records ---- */

static int id_index(struct perf_session *s, const union perf_event *ev)
{
	struct perf_header *h = s->header;
	u64 nr, max;

	if (ev->header.size < sizeof(ev->id_index))
		return -EINVAL;
	nr = ev->id_index.nr;
	max = (ev->header.size - sizeof(ev->id_index)) / sizeof(ev->id_index.entries[0]);
	if (nr > max)
		return -EINVAL;
	for (u64 i = 0; i < nr; i++) {
		const struct perf_record_id_index_entry *e = &ev->id_index.entries[i];
		struct perf_header_attr *a;
		u64 *ids;

		if (e->idx >= (u64)h->nr_attrs || find_id(s, e->id))
			continue;
		a = &h->attrs[e->idx];
		ids = realloc(a->ids, (a->nr_ids + 1) * sizeof(u64));
		if (!ids)
			return -ENOMEM;
		ids[a->nr_ids++] = e->id;
		a->ids = ids;
		s->id_index_attrs = -1;	/* rebuild */
	}
	return 0;
}

static int tracing_data(struct perf_session *s, const struct perf_data_record *r)
{
	struct perf_env *e = &s->header->env;

	if (e->tracing_data || !r->payload_size)
		return 0;
	e->tracing_data = malloc(r->payload_size);
	if (!e->tracing_data)
		return -ENOMEM;
	memcpy(e->tracing_data, r->payload, r->payload_size);
	e->tracing_data_size = r->payload_size;
	perf_header__set_feat(s->header, HEADER_TRACING_DATA);
	return 0;
}

static int feature(struct perf_session *s, const union perf_event *ev)
{
	u64 f;
	size_t n;

	if (ev->header.size < sizeof(ev->feat))
		return -EINVAL;
	f = ev->feat.feat_id;
	n = ev->header.size - sizeof(ev->feat);
	if (f >= HEADER_FEAT_BITS)
		return 0;
	if (perf_header__process_feature(s->header, (int)f, ev->feat.data, n))
		return -EINVAL;
	perf_header__set_feat(s->header, (int)f);
	return 0;
}

/* What the session itself takes from a user record. */
static int absorb_user(struct perf_session *s, const struct perf_data_record *r)
{
	const union perf_event *ev = r->event;

	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		s->id_index_attrs = -1;
		return perf_header__process_attr_record(s->header, ev);
	case PERF_RECORD_HEADER_FEATURE:
		return feature(s, ev);
	case PERF_RECORD_HEADER_BUILD_ID:
		return perf_header__process_build_id_record(s->header, ev, ev->header.size);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return tracing_data(s, r);
	case PERF_RECORD_ID_INDEX:
		return id_index(s, ev);
	default:
		return 0;
	}
}

static int process_user(struct perf_session *s, struct perf_tool *t,
			const struct perf_data_record *r)
{
	const union perf_event *ev = r->event;
	unsigned int type = ev->header.type;
	perf_event_fn fn = user_fn(t, type);
	struct perf_sample sample = { .cpu = (u32)-1 };
	int err;

	if (t->dump_fp)
		dump_record(s, t, ev, r->offset, NULL, &sample);
	err = absorb_user(s, r);

	if (err == -ENOMEM) {
		seterr(s, "out of memory");
		return err;
	}
	if (err) {
		seterr(s, "'%s': corrupt %s record (%u bytes) at offset %#llx", s->data.path,
		       perf_event__name(type), ev->header.size, (unsigned long long)r->offset);
		return err;
	}
	if (type == PERF_RECORD_FINISHED_ROUND && t->ordered_events) {
		err = oe_flush(s, t, s->oe->next_flush, SIZE_MAX);
		s->oe->next_flush = s->oe->max_time;
		if (err)
			return err;
	}
	if (type == PERF_RECORD_FINISHED_INIT)
		s->finished_init = true;
	return fn ? fn(t, s, ev, &sample, NULL) : 0;
}

static bool known_type(unsigned int type)
{
	return type < PERF_RECORD_MAX ||
	       (type >= PERF_RECORD_USER_TYPE_START && type < PERF_RECORD_HEADER_MAX);
}

static void set_warning(struct perf_session *s)
{
	struct perf_data *d = &s->data;
	size_t n = 0;

	if (d->size_fixed && !d->is_pipe)
		n = snprintf(s->warnmsg, sizeof(s->warnmsg),
			     "'%s': the header gives no valid data size (was perf record killed?); "
			     "read the data up to the end of the file", d->path);
	if (!d->truncated || n >= sizeof(s->warnmsg))
		return;
	if (d->truncated_payload && !d->is_pipe)
		snprintf(s->warnmsg + n, sizeof(s->warnmsg) - n,
			 "%s'%s': truncated record at offset %#llx: the file ends inside its %s "
			 "payload (%llu bytes declared, %llu in the file); the %llu records before "
			 "it were read", n ? "; " : "", d->path, (unsigned long long)d->truncated_at,
			 perf_event__name(d->truncated_type),
			 (unsigned long long)d->truncated_payload,
			 (unsigned long long)d->truncated_payload_held,
			 (unsigned long long)s->stats.nr_records);
	else if (d->truncated_payload)
		snprintf(s->warnmsg + n, sizeof(s->warnmsg) - n,
			 "%s'%s': unexpected end of event stream at offset %#llx: inside its %s "
			 "payload (%llu bytes declared, %llu read)", n ? "; " : "", d->path,
			 (unsigned long long)d->truncated_at, perf_event__name(d->truncated_type),
			 (unsigned long long)d->truncated_payload,
			 (unsigned long long)d->truncated_payload_held);
	else if (d->is_pipe)
		snprintf(s->warnmsg + n, sizeof(s->warnmsg) - n,
			 "%s'%s': unexpected end of event stream at offset %#llx", n ? "; " : "",
			 d->path, (unsigned long long)d->truncated_at);
	else
		snprintf(s->warnmsg + n, sizeof(s->warnmsg) - n,
			 "%s'%s': truncated record at offset %#llx: the file ends inside it; "
			 "the %llu records before it were read", n ? "; " : "", d->path,
			 (unsigned long long)d->truncated_at,
			 (unsigned long long)s->stats.nr_records);
}

static int process_one(struct perf_session *s, struct perf_tool *t,
		       const struct perf_data_record *r)
{
	unsigned int type = r->event->header.type;

	s->stats.nr_records++;
	s->stats.total_size += r->event->header.size;
	if (!known_type(type)) {
		s->stats.nr_unknown_type++;
		if (t->skip_unknown)
			return 0;
		seterr(s, "'%s': unknown record type %u at offset %#llx (written by a newer perf?)",
		       s->data.path, type, (unsigned long long)r->offset);
		return -EINVAL;
	}
	s->stats.nr_events[type]++;
	if (type >= PERF_RECORD_USER_TYPE_START)
		return process_user(s, t, r);
	return process_kernel(s, t, r);
}

/*
 * "Processing events... 42%" to the session's hook (SAY_PROGRESS) while a
 * large file is read, and "" at the end (the command erases the line); the
 * command sets the hook when stderr is a terminal and it is not quiet.
 */
#define PROGRESS_MIN_SIZE	(32ULL << 20)

struct progress {
	u64 start, total, nr;
	int shown;			/* the percentage printed, or -1 */
};

static void progress_start(struct perf_session *s, struct progress *pr)
{
	struct perf_data *d = &s->data;

	*pr = (struct progress){ .start = d->data_start, .shown = -1 };
	if (s->say && !d->is_pipe && !d->is_dir &&
	    d->data_end - d->data_start >= PROGRESS_MIN_SIZE)
		pr->total = d->data_end - d->data_start;
}

static void progress_update(struct perf_session *s, struct progress *pr, u64 offset)
{
	int pct = offset <= pr->start ? 0 : (int)((offset - pr->start) * 100 / pr->total);

	if (pct > 100)
		pct = 100;
	if (pct == pr->shown)
		return;
	pr->shown = pct;
	say(s->say, SAY_PROGRESS, "Processing events... %3d%%", pct);
}

static void progress_end(struct perf_session *s, struct progress *pr)
{
	if (pr->shown >= 0)
		say(s->say, SAY_PROGRESS, "%s", "");
}

/**
 * perf_session__process_events - see util/perf-data/session.h
 */
int perf_session__process_events(struct perf_session *s, struct perf_tool *t)
{
	struct perf_data_record r;
	struct progress pr;
	u64 nr_compressed = s->data.nr_compressed, nr_compressed2 = s->data.nr_compressed2;
	int ret, err = 0;

	/* perf's -D says so when the records have no time to sort them by (a stat file) */
	if (t->dump_fp && t->ordered_events && !s->header->pipe && s->header->nr_attrs &&
	    !s->header->attrs[0].attr.sample_id_all)
		fprintf(t->dump_fp, "WARNING: No sample_id_all support, falling back to unordered processing\n");
	progress_start(s, &pr);
	while ((ret = perf_data__next(&s->data, &r)) > 0) {
		err = process_one(s, t, &r);
		if (err)
			break;
		if (s->finished_init && t->stop_at_finished_init)
			break;
		if (pr.total && !(++pr.nr & 0xffff))
			progress_update(s, &pr, r.offset);
	}
	progress_end(s, &pr);
	s->stats.nr_events[PERF_RECORD_COMPRESSED] += s->data.nr_compressed - nr_compressed -
						      (s->data.nr_compressed2 - nr_compressed2);
	s->stats.nr_events[PERF_RECORD_COMPRESSED2] += s->data.nr_compressed2 - nr_compressed2;
	if (ret < 0) {
		err = ret;
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", s->data.errmsg);
	}
	if (!err)
		err = oe_flush(s, t, UINT64_MAX, SIZE_MAX);
	set_warning(s);
	return err;
}

int perf_session__name_events(struct perf_tool *tool, struct perf_session *session,
			      const union perf_event *ev, struct perf_sample *sample,
			      struct perf_header_attr *attr)
{
	(void)tool;
	(void)sample;
	(void)attr;
	if (ev->header.size >= sizeof(ev->feat) && ev->feat.feat_id == HEADER_EVENT_DESC)
		perf_header__name_events(session->header, ev->feat.data,
					 ev->header.size - sizeof(ev->feat));
	return 0;
}

/**
 * perf_session__lost_warnings - see util/perf-data/session.h
 */
void perf_session__lost_warnings(const struct perf_session *s, bool lost_chunks, char *buf,
				 size_t size)
{
	const struct perf_session_stats *st = &s->stats;
	u64 total = 0, samples = st->nr_events[PERF_RECORD_SAMPLE];
	size_t n = 0;
	int r;

	buf[0] = '\0';
	for (int i = 1; i < PERF_RECORD_TYPES; i++)
		total += st->nr_events[i];
	/* perf counts in u32 and prints with %d */
	if (lost_chunks && st->nr_events[PERF_RECORD_LOST]) {
		r = snprintf(buf, size, "Warning:\nProcessed %d events and lost %d chunks!\n\n"
			     "Check IO/CPU overload!\n\n", (int)(u32)total,
			     (int)(u32)st->nr_events[PERF_RECORD_LOST]);
		n = r < 0 ? 0 : (size_t)r < size ? (size_t)r : size - 1;
	}
	if (st->total_lost_samples &&
	    (double)st->total_lost_samples / (double)(samples + st->total_lost_samples) > 0.05)
		snprintf(buf + n, size - n, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			 (unsigned long long)(samples + st->total_lost_samples),
			 100.0 * (double)st->total_lost_samples /
			 (double)(samples + st->total_lost_samples));
}
