// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records of a stat file, read with bounds and written as perf 6.1
 * writes them.  See util/perf-data/stat-event.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/cpumap.h"
#include "util/event/threadmap.h"
#include "util/perf-data/header.h"
#include "util/perf-data/stat-event.h"

/* CPUs a CPU_MAP may name: perf's u16 numbers */
#define MAX_CPUS 65536

/**
 * stat_event__parse_config - see util/perf-data/stat-event.h
 */
int stat_event__parse_config(const union perf_event *ev, struct stat_file_config *c)
{
	const u8 *p = (const u8 *)ev;
	size_t size = ev->header.size;
	u64 nr;

	if (size < 16)
		return -EINVAL;
	memcpy(&nr, p + 8, 8);
	if (nr > (size - 16) / 16)
		return -EINVAL;
	for (u64 i = 0; i < nr; i++) {
		u64 tag, val;

		memcpy(&tag, p + 16 + i * 16, 8);
		memcpy(&val, p + 24 + i * 16, 8);
		switch (tag) {
		case STAT_CONFIG_TERM_AGGR_MODE:
			c->aggr_mode = val;
			break;
		case STAT_CONFIG_TERM_INTERVAL:
			c->interval = val;
			break;
		case STAT_CONFIG_TERM_SCALE:
			c->scale = val != 0;
			break;
		default:
			break;
		}
	}
	return 0;
}

/**
 * stat_event__parse_stat - see util/perf-data/stat-event.h
 */
int stat_event__parse_stat(const union perf_event *ev, struct perf_record_stat *st)
{
	if (ev->header.size < sizeof(*st))
		return -EINVAL;
	memcpy(st, ev, sizeof(*st));
	return 0;
}

/**
 * stat_event__parse_round - see util/perf-data/stat-event.h
 */
int stat_event__parse_round(const union perf_event *ev, struct perf_record_stat_round *r)
{
	if (ev->header.size < sizeof(*r))
		return -EINVAL;
	memcpy(r, ev, sizeof(*r));
	return 0;
}

/**
 * stat_event__thread_map - see util/perf-data/stat-event.h
 */
struct thread_map *stat_event__thread_map(const union perf_event *ev, char (**comms)[16],
					  int *err)
{
	const u8 *p = (const u8 *)ev;
	size_t size = ev->header.size;
	struct thread_map *m;
	u64 nr;

	*err = -EINVAL;
	if (comms)
		*comms = NULL;
	if (size < 16)
		return NULL;
	memcpy(&nr, p + 8, 8);
	if (!nr || nr > (size - 16) / 24)
		return NULL;
	*err = -ENOMEM;
	m = malloc(sizeof(*m) + nr * sizeof(m->map[0]));
	if (!m)
		return NULL;
	if (comms && !(*comms = calloc(nr, 16))) {
		free(m);
		return NULL;
	}
	m->refcnt = 1;
	m->nr = (int)nr;
	for (u64 i = 0; i < nr; i++) {
		u64 pid;

		memcpy(&pid, p + 16 + i * 24, 8);
		m->map[i] = (pid_t)pid;
		if (comms)
			memcpy((*comms)[i], p + 24 + i * 24, 15);	/* [15] stays 0 */
	}
	*err = 0;
	return m;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* @nr CPUs of @cpus into a new map, sorted, without repeats. */
static struct cpu_map *cpu_map_of(int *cpus, int nr, int *err)
{
	struct cpu_map *m;
	int n = 0;

	*err = -EINVAL;
	if (!nr)
		return NULL;
	qsort(cpus, nr, sizeof(*cpus), cmp_int);
	*err = -ENOMEM;
	m = malloc(sizeof(*m) + (size_t)nr * sizeof(int));
	if (!m)
		return NULL;
	for (int i = 0; i < nr; i++)
		if (!n || m->map[n - 1] != cpus[i])
			m->map[n++] = cpus[i];
	m->refcnt = 1;
	m->nr = n;
	*err = 0;
	return m;
}

/*
 * The cpu_map_data at @p, @len bytes: a list { u16 type 0, nr, cpu[nr] },
 * a mask { u16 type 1, nr, long_size; mask of nr longs, at byte 6 for
 * 4-byte longs, 10 for 8-byte ones as perf 6.1 lays it out }, or a range
 * { u16 type 2; u8 any, pad; u16 start, end }.
 */
static struct cpu_map *cpu_map_data_parse(const u8 *p, size_t len, int *err)
{
	struct cpu_map *m = NULL;
	u16 type, nr, v, lsz;
	int *cpus, n = 0;

	*err = -EINVAL;
	if (len < 4)
		return NULL;
	memcpy(&type, p, 2);
	memcpy(&nr, p + 2, 2);
	cpus = malloc(MAX_CPUS * sizeof(*cpus) + sizeof(*cpus));
	if (!cpus) {
		*err = -ENOMEM;
		return NULL;
	}
	switch (type) {
	case 0:
		if ((size_t)nr * 2 > len - 4)
			break;
		for (int i = 0; i < nr; i++) {
			memcpy(&v, p + 4 + 2 * i, 2);
			cpus[n++] = v == 0xffff ? -1 : v;
		}
		m = cpu_map_of(cpus, n, err);
		break;
	case 1: {
		size_t at;

		if (len < 6)
			break;
		memcpy(&lsz, p + 4, 2);
		if (lsz != 4 && lsz != 8)
			break;
		at = lsz == 8 ? 10 : 6;
		if (at > len || (size_t)nr * lsz > len - at || (size_t)nr * lsz * 8 > MAX_CPUS)
			break;
		for (size_t bit = 0; bit < (size_t)nr * lsz * 8; bit++)
			if (p[at + bit / 8] & (1u << (bit % 8)))
				cpus[n++] = (int)bit;
		m = cpu_map_of(cpus, n, err);
		break;
	}
	case 2: {
		u16 start, end;

		if (len < 8)
			break;
		memcpy(&start, p + 4, 2);
		memcpy(&end, p + 6, 2);
		if (start > end)
			break;
		if (p[2])
			cpus[n++] = -1;
		for (unsigned int c = start; c <= end; c++)
			cpus[n++] = (int)c;
		m = cpu_map_of(cpus, n, err);
		break;
	}
	default:
		break;
	}
	free(cpus);
	return m;
}

/**
 * stat_event__cpu_map - see util/perf-data/stat-event.h
 */
struct cpu_map *stat_event__cpu_map(const union perf_event *ev, int *err)
{
	if (ev->header.size < 8) {
		*err = -EINVAL;
		return NULL;
	}
	return cpu_map_data_parse((const u8 *)ev + 8, ev->header.size - 8, err);
}

/**
 * stat_event__parse_update - see util/perf-data/stat-event.h
 */
int stat_event__parse_update(const union perf_event *ev, struct event_update *u)
{
	const u8 *p = (const u8 *)ev;
	size_t size = ev->header.size;
	int err;

	memset(u, 0, sizeof(*u));
	if (size < 24)
		return -EINVAL;
	memcpy(&u->type, p + 8, 8);
	memcpy(&u->id, p + 16, 8);
	switch (u->type) {
	case EVENT_UPDATE_UNIT:
	case EVENT_UPDATE_NAME:
		u->str = (const char *)p + 24;
		u->len = (int)strnlen(u->str, size - 24);
		return 0;
	case EVENT_UPDATE_SCALE:
		if (size < 32)
			return -EINVAL;
		memcpy(&u->scale, p + 24, 8);
		return 0;
	case EVENT_UPDATE_CPUS:
		u->cpus = cpu_map_data_parse(p + 24, size - 24, &err);
		return u->cpus ? 0 : err;
	default:
		return -EINVAL;
	}
}

/**
 * stat_event__synth_config - see util/perf-data/stat-event.h
 */
size_t stat_event__synth_config(void *buf, const struct stat_file_config *c)
{
	u64 *w = buf;

	memset(buf, 0, STAT_CONFIG_RECORD_SIZE);
	((struct perf_event_header *)buf)->type = PERF_RECORD_STAT_CONFIG;
	((struct perf_event_header *)buf)->size = STAT_CONFIG_RECORD_SIZE;
	w[1] = STAT_CONFIG_TERM_MAX;
	w[2] = STAT_CONFIG_TERM_AGGR_MODE;
	w[3] = c->aggr_mode;
	w[4] = STAT_CONFIG_TERM_INTERVAL;
	w[5] = c->interval;
	w[6] = STAT_CONFIG_TERM_SCALE;
	w[7] = c->scale;
	return STAT_CONFIG_RECORD_SIZE;
}

/**
 * stat_event__synth_stat - see util/perf-data/stat-event.h
 */
void stat_event__synth_stat(struct perf_record_stat *st, u64 id, int cpu, u32 thread, u64 val,
			    u64 ena, u64 run)
{
	memset(st, 0, sizeof(*st));
	st->header.type = PERF_RECORD_STAT;
	st->header.size = sizeof(*st);
	st->id = id;
	st->cpu = (u32)cpu;
	st->thread = thread;
	st->val = val;
	st->ena = ena;
	st->run = run;
}

/**
 * stat_event__synth_round - see util/perf-data/stat-event.h
 */
void stat_event__synth_round(struct perf_record_stat_round *r, u64 type, u64 time)
{
	memset(r, 0, sizeof(*r));
	r->header.type = PERF_RECORD_STAT_ROUND;
	r->header.size = sizeof(*r);
	r->type = type;
	r->time = time;
}

/**
 * stat_table__map - see util/perf-data/stat-event.h
 */
int stat_table__map(struct stat_table *t, const union perf_event *ev)
{
	int err;

	if (t->vals)
		return -EINVAL;		/* the rows are made: a new map cannot change them */
	if (ev->header.type == PERF_RECORD_THREAD_MAP) {
		struct thread_map *m = stat_event__thread_map(ev, NULL, &err);

		if (!m)
			return err;
		thread_map__put(t->threads);
		t->threads = m;
	} else {
		struct cpu_map *m = stat_event__cpu_map(ev, &err);

		if (!m)
			return err;
		cpu_map__put(t->cpus);
		t->cpus = m;
	}
	return 0;
}

static int table_nr_cpus(const struct stat_table *t)
{
	return t->cpus ? t->cpus->nr : 1;
}

static int table_nr_threads(const struct stat_table *t)
{
	return t->threads ? t->threads->nr : 1;
}

/**
 * stat_table__stat - see util/perf-data/stat-event.h
 */
int stat_table__stat(struct stat_table *t, struct perf_header *h, const union perf_event *ev)
{
	struct perf_record_stat st;
	struct perf_header_attr *a;
	int ci = 0;
	size_t n;

	if (stat_event__parse_stat(ev, &st))
		return -EINVAL;
	if (!t->vals) {
		t->nr_attrs = h->nr_attrs;
		n = (size_t)t->nr_attrs * table_nr_cpus(t) * table_nr_threads(t);
		t->vals = calloc(n ? n : 1, sizeof(*t->vals));
		if (!t->vals)
			return -ENOMEM;
	}
	a = perf_header__find_attr(h, st.id);
	if (!a || a - h->attrs >= t->nr_attrs)
		return -EINVAL;
	if (t->cpus && (ci = cpu_map__idx(t->cpus, (int)st.cpu)) < 0)
		return -EINVAL;
	if (st.thread >= (u32)table_nr_threads(t))
		return -EINVAL;
	n = ((size_t)(a - h->attrs) * table_nr_cpus(t) + ci) * table_nr_threads(t) + st.thread;
	t->vals[n] = st;
	return 0;
}

/**
 * stat_table__get - see util/perf-data/stat-event.h
 */
const struct perf_record_stat *stat_table__get(const struct stat_table *t, int attr, int ci,
					       int ti)
{
	static const struct perf_record_stat zero;

	if (!t->vals || attr < 0 || attr >= t->nr_attrs || ci < 0 || ci >= table_nr_cpus(t) ||
	    ti < 0 || ti >= table_nr_threads(t))
		return &zero;
	return &t->vals[((size_t)attr * table_nr_cpus(t) + ci) * table_nr_threads(t) + ti];
}

/**
 * stat_table__exit - see util/perf-data/stat-event.h
 */
void stat_table__exit(struct stat_table *t)
{
	thread_map__put(t->threads);
	cpu_map__put(t->cpus);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}
