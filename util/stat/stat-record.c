// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `tperf stat record`: the counts of a stat run into a perf.data file, as
 * perf 6.1 writes them.  See util/stat/stat-record.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/threadmap.h"
#include "util/lib/fs.h"
#include "util/perf-data/stat-event.h"
#include "util/perf-data/synthesize.h"
#include "util/stat/stat-record.h"
#include "util/stat/stat.h"

/* Keep the first error, with the writer's message or one naming the file. */
static int seterr(struct stat_record *rec, int err)
{
	if (rec->err)
		return err;
	rec->err = err;
	if (rec->data.errmsg[0])
		snprintf(rec->msg, sizeof(rec->msg), "%s", rec->data.errmsg);
	else
		snprintf(rec->msg, sizeof(rec->msg), "cannot write '%s': %s", rec->path,
			 strerror(-err));
	return err;
}

static int put(struct stat_record *rec, const void *ev, size_t size)
{
	int err;

	if (rec->err)
		return rec->err;
	err = perf_data__write(&rec->data, ev, size);
	return err ? seterr(rec, err) : 0;
}

static int synth_put(void *ctx, const union perf_event *ev, size_t size)
{
	return put(ctx, ev, size);
}

/* perf's numbers for the aggregation modes in STAT_CONFIG */
static u64 file_aggr(enum aggr_mode mode)
{
	switch (mode) {
	case AGGR_NONE: return PERF_FILE_AGGR_NONE;
	case AGGR_SOCKET: return PERF_FILE_AGGR_SOCKET;
	case AGGR_DIE: return PERF_FILE_AGGR_DIE;
	case AGGR_CORE: return PERF_FILE_AGGR_CORE;
	case AGGR_THREAD: return PERF_FILE_AGGR_THREAD;
	case AGGR_NODE: return PERF_FILE_AGGR_NODE;
	case AGGR_GLOBAL: break;
	}
	return PERF_FILE_AGGR_GLOBAL;
}

/* CMDLINE: the binary's path, then tperf's arguments, as perf writes its own. */
static int init_env(struct stat_record *rec)
{
	const char **v = calloc((size_t)rec->argc + 2, sizeof(*v));
	char *exe = calloc(1, PATH_MAX);
	ssize_t n;
	int err;

	if (!v || !exe) {
		free(v);
		free(exe);
		return -ENOMEM;
	}
	n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	v[0] = n > 0 ? exe : "tperf";
	for (int i = 0; i < rec->argc; i++)
		v[i + 1] = rec->argv[i];
	err = perf_env__init_local(&rec->hdr.env, rec->argc + 1, v);
	free(v);
	free(exe);
	rec->hdr.env.stat_data = true;
	return err;
}

/*
 * THREAD_MAP with each thread's comm for --per-thread (perf reads them
 * for its rows then, and its report names the threads by them), else
 * with empty comms.
 */
static int write_thread_map(struct stat_record *rec, struct synth *s, struct evlist *evlist,
			    bool comms)
{
	const struct thread_map *t = evlist->threads;
	size_t size = 16 + (size_t)(t ? t->nr : 0) * 24;
	u64 *buf, nr;
	int err;

	if (!comms)
		return synthesize__thread_map(s, evlist);
	if (!t || size > 0xffff)
		return 0;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	((struct perf_event_header *)buf)->type = PERF_RECORD_THREAD_MAP;
	((struct perf_event_header *)buf)->size = (u16)size;
	nr = (u64)t->nr;
	memcpy((u8 *)buf + 8, &nr, 8);
	for (int i = 0; i < t->nr; i++) {
		u8 *e = (u8 *)buf + 16 + 24 * (size_t)i;
		u64 pid = (u64)(int64_t)t->map[i];
		char rel[64], *comm = NULL;
		size_t len;

		memcpy(e, &pid, 8);
		snprintf(rel, sizeof(rel), "%d/comm", t->map[i]);
		if (t->map[i] > 0 && !procfs__read_str(rel, &comm, &len)) {
			comm[strcspn(comm, "\n")] = '\0';
			strncpy((char *)e + 8, comm, 15);
		}
		free(comm);
	}
	err = put(rec, buf, size);
	free(buf);
	return err;
}

/**
 * stat_record__start - see util/stat/stat-record.h
 */
int stat_record__start(struct stat_record *rec, struct evlist *evlist,
		       const struct perf_stat_config *config)
{
	struct stat_file_config sc = {
		.aggr_mode = file_aggr(config->aggr_mode),
		.interval = config->interval,
		.scale = config->scale,
	};
	u64 buf[STAT_CONFIG_RECORD_SIZE / 8];
	bool pipe = !strcmp(rec->path, "-");
	struct synth s = { .fn = synth_put, .ctx = rec };
	int err;

	perf_header__init(&rec->hdr);
	err = synthesize__header_attrs(&rec->hdr, evlist);
	if (!err && !pipe)
		err = init_env(rec);
	if (err) {
		snprintf(rec->msg, sizeof(rec->msg), "cannot set up '%s': %s", rec->path,
			 strerror(-err));
		perf_header__exit(&rec->hdr);
		return err;
	}
	/* perf stat record's stream: the attrs, no feature or FINISHED_INIT record */
	rec->data.own_finished_init = true;
	rec->data.pipe_attrs_only = true;
	err = perf_data__open_write(&rec->data, rec->path, &rec->hdr);
	if (err) {
		snprintf(rec->msg, sizeof(rec->msg), "%s", rec->data.errmsg[0] ?
			 rec->data.errmsg : strerror(-err));
		perf_data__close(&rec->data);
		perf_header__exit(&rec->hdr);
		return err;
	}
	rec->open = true;
	err = synthesize__event_updates(&s, evlist, pipe);
	if (!err)
		err = write_thread_map(rec, &s, evlist, config->aggr_mode == AGGR_THREAD);
	if (!err && evlist->cpus)
		err = synthesize__cpu_map(&s, evlist->cpus);
	if (!err)
		err = put(rec, buf, stat_event__synth_config(buf, &sc));
	if (err) {
		seterr(rec, err);
		stat_record__abort(rec);
	}
	return err;
}

/* The STATs of @e's fds on CPU index @ci: one per thread. */
static int write_cpu(struct stat_record *rec, struct evsel *e, int ci)
{
	for (int t = 0; t < e->threads->nr; t++) {
		int slot = ci * e->threads->nr + t;
		const struct counts_values *c = &e->counts[slot];
		struct perf_record_stat st;
		int err;

		if (e->fd[slot] < 0)
			continue;
		stat_event__synth_stat(&st, e->id[slot], e->cpus->map[ci], (u32)t, c->val, c->ena,
				       c->run);
		err = put(rec, &st, sizeof(st));
		if (err)
			return err;
	}
	return 0;
}

static bool written(const struct evsel *e)
{
	return e->supported && e->fd && e->counts && e->cpus && e->threads;
}

/**
 * stat_record__write_counts - see util/stat/stat-record.h
 */
int stat_record__write_counts(struct stat_record *rec, struct evlist *evlist)
{
	struct evsel *e;
	int err = 0;

	if (!rec->open)
		return rec->err;
	/* perf reads CPU by CPU, every event of one CPU in turn */
	for (int i = 0; evlist->cpus && i < evlist->cpus->nr && !err; i++) {
		evlist__for_each_entry(evlist, e) {
			int ci;

			if (!written(e) || (ci = cpu_map__idx(e->cpus, evlist->cpus->map[i])) < 0)
				continue;
			err = write_cpu(rec, e, ci);
			if (err)
				break;
		}
	}
	/* events on CPUs of their own outside the evlist's (a PMU's cpumask) */
	evlist__for_each_entry(evlist, e) {
		for (int ci = 0; !err && written(e) && ci < e->cpus->nr; ci++)
			if (!evlist->cpus || cpu_map__idx(evlist->cpus, e->cpus->map[ci]) < 0)
				err = write_cpu(rec, e, ci);
	}
	return err;
}

/**
 * stat_record__write_round - see util/stat/stat-record.h
 */
int stat_record__write_round(struct stat_record *rec, uint64_t type, uint64_t time)
{
	struct perf_record_stat_round r;

	if (!rec->open)
		return rec->err;
	stat_event__synth_round(&r, type, time);
	return put(rec, &r, sizeof(r));
}

/**
 * stat_record__finish - see util/stat/stat-record.h
 */
int stat_record__finish(struct stat_record *rec, bool final, uint64_t walltime)
{
	struct synth s = { .fn = synth_put, .ctx = rec };
	int err;

	if (!rec->open)
		return rec->err;
	/* perf writes the kernel map "so that older tools do not warn" */
	err = synthesize__kernel_mmap(&s);
	if (err == -ENOENT || (err && !rec->err))
		err = 0;	/* kptr_restrict hides it, or no kallsyms: none, as perf */
	if (!err && final)
		err = stat_record__write_round(rec, STAT_ROUND_FINAL, walltime);
	if (rec->err) {
		stat_record__abort(rec);
		return rec->err;
	}
	rec->open = false;
	err = perf_data__finish(&rec->data);
	if (err)
		seterr(rec, err);
	perf_header__exit(&rec->hdr);
	return err;
}

/**
 * stat_record__abort - see util/stat/stat-record.h
 */
void stat_record__abort(struct stat_record *rec)
{
	if (!rec->open)
		return;
	rec->open = false;
	perf_data__close(&rec->data);
	perf_header__exit(&rec->hdr);
}
