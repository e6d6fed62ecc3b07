// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `tperf stat report`: a stat record file's rounds, printed by
 * stat-display as the counting run prints them.  See util/stat/stat-report.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"
#include "util/perf-data/session.h"
#include "util/perf-data/stat-event.h"
#include "util/stat/stat-display.h"
#include "util/stat/stat-report.h"

struct report_state {
	struct perf_tool tool;		/* first: the callbacks get it */
	struct stat_report *rep;
	struct evlist *evlist;		/* made from the header at the first record */
	struct evsel **by_idx;		/* the header's attr index -> its event */
	int nr;
	char **units;			/* the EVENT_UPDATE units the events point to */
	int nr_units;
	char (*comms)[16];		/* THREAD_MAP's comms (--per-thread rows) */
	struct stat_file_config sc;	/* STAT_CONFIG, over the defaults */
	bool configured;		/* STAT_CONFIG came, the rows are made */
	char *cmdline;			/* what the header line names */
};

static int fail(struct report_state *st, int err, const char *fmt, const char *what)
{
	snprintf(st->rep->msg, sizeof(st->rep->msg), fmt, what);
	return err;
}

/* The events of the header: at the first stat record (pipe mode: after the attrs). */
static int make_evlist(struct report_state *st, struct perf_session *session)
{
	struct perf_header *h = session->header;
	char buf[256];

	if (st->evlist)
		return 0;
	st->evlist = evlist__new();
	st->by_idx = calloc((size_t)h->nr_attrs + 1, sizeof(*st->by_idx));
	if (!st->evlist || !st->by_idx)
		return fail(st, -ENOMEM, "%s", "out of memory");
	st->nr = h->nr_attrs;
	for (int i = 0; i < h->nr_attrs; i++) {
		struct perf_header_attr *a = &h->attrs[i];
		struct evsel *e = evsel__new(&a->attr);

		if (!e || evsel__set_name(e, perf_header__event_name(h, a, buf, sizeof(buf)))) {
			evsel__delete(e);
			return fail(st, -ENOMEM, "%s", "out of memory");
		}
		evlist__add(st->evlist, e);
		st->by_idx[i] = e;
	}
	for (int i = 0; i < h->nr_attrs; i++) {
		int l = h->attrs[i].leader_idx;

		if (l >= 0 && l < h->nr_attrs && l != i) {
			st->by_idx[i]->leader = st->by_idx[l];
			st->by_idx[l]->nr_members++;
		}
	}
	return 0;
}

/* The event of @id (the only one whatever the id, as perf's evlist__id2evsel()). */
static struct evsel *evsel_of(struct report_state *st, struct perf_session *session, u64 id)
{
	struct perf_header_attr *a = perf_header__find_attr(session->header, id);
	long i = a ? a - session->header->attrs : -1;

	return i >= 0 && i < st->nr ? st->by_idx[i] : NULL;
}

static struct report_state *state(struct perf_tool *tool)
{
	return (struct report_state *)tool;
}

static int on_event_update(struct perf_tool *tool, struct perf_session *session,
			   const union perf_event *ev, struct perf_sample *sample,
			   struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct event_update u;
	struct evsel *e;
	char **units;
	int err = make_evlist(st, session);

	if (err)
		return err;
	err = stat_event__parse_update(ev, &u);
	if (err)
		return fail(st, err, "'%s': a malformed EVENT_UPDATE record", st->rep->path);
	e = evsel_of(st, session, u.id);
	if (!e) {		/* perf ignores an update of an unknown id */
		cpu_map__put(u.cpus);
		return 0;
	}
	switch (u.type) {
	case EVENT_UPDATE_UNIT:
		units = realloc(st->units, (size_t)(st->nr_units + 1) * sizeof(*units));
		if (!units)
			return fail(st, -ENOMEM, "%s", "out of memory");
		st->units = units;
		units[st->nr_units] = strndup(u.str, (size_t)u.len);
		if (!units[st->nr_units])
			return fail(st, -ENOMEM, "%s", "out of memory");
		e->unit = units[st->nr_units++];
		break;
	case EVENT_UPDATE_SCALE:
		e->scale = u.scale;
		break;
	case EVENT_UPDATE_NAME: {
		char *name = strndup(u.str, (size_t)u.len);

		if (!name || evsel__set_name(e, name)) {
			free(name);
			return fail(st, -ENOMEM, "%s", "out of memory");
		}
		free(name);
		break;
	}
	case EVENT_UPDATE_CPUS:
		cpu_map__put(e->own_cpus);
		e->own_cpus = u.cpus;
		break;
	}
	return 0;
}

static int on_thread_map(struct perf_tool *tool, struct perf_session *session,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct thread_map *m;
	int err = make_evlist(st, session);

	if (err)
		return err;
	if (st->configured)
		return fail(st, -EINVAL, "'%s': a THREAD_MAP record after the STAT_CONFIG",
			    st->rep->path);
	free(st->comms);
	m = stat_event__thread_map(ev, &st->comms, &err);
	if (!m)
		return fail(st, err, "'%s': a malformed THREAD_MAP record", st->rep->path);
	thread_map__put(st->evlist->threads);
	st->evlist->threads = m;
	return 0;
}

static int on_cpu_map(struct perf_tool *tool, struct perf_session *session,
		      const union perf_event *ev, struct perf_sample *sample,
		      struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct cpu_map *m;
	int err = make_evlist(st, session);

	if (err)
		return err;
	if (st->configured)
		return fail(st, -EINVAL, "'%s': a CPU_MAP record after the STAT_CONFIG",
			    st->rep->path);
	m = stat_event__cpu_map(ev, &err);
	if (!m)
		return fail(st, err, "'%s': a malformed CPU_MAP record", st->rep->path);
	cpu_map__put(st->evlist->cpus);
	st->evlist->cpus = m;
	return 0;
}

static enum aggr_mode aggr_of(u64 file_mode)
{
	switch (file_mode) {
	case PERF_FILE_AGGR_NONE: return AGGR_NONE;
	case PERF_FILE_AGGR_SOCKET: return AGGR_SOCKET;
	case PERF_FILE_AGGR_DIE: return AGGR_DIE;
	case PERF_FILE_AGGR_CORE: return AGGR_CORE;
	case PERF_FILE_AGGR_THREAD: return AGGR_THREAD;
	case PERF_FILE_AGGR_NODE: return AGGR_NODE;
	default: return AGGR_GLOBAL;	/* global and unset */
	}
}

/* --per-thread rows are named by the file's comms, not by what runs now. */
static void set_comms(struct report_state *st, struct evsel *e)
{
	struct evsel_stat *es = evsel__stat(e);

	if (st->rep->config->aggr_mode != AGGR_THREAD)
		return;
	for (int t = 0; t < e->threads->nr && t < es->nr_fds; t++) {
		struct stat_aggr *a = &es->aggr[es->fd_aggr[t]];

		snprintf(a->comm, sizeof(a->comm), "%s", st->comms ? st->comms[t] : "");
	}
}

/* Each event's maps (its own CPUs within the file's), counts and rows. */
static int setup_events(struct report_state *st)
{
	struct perf_stat_config *config = st->rep->config;
	struct evsel *e;
	int err;

	if (!st->evlist->cpus)
		st->evlist->cpus = cpu_map__new_any();
	if (!st->evlist->threads)
		st->evlist->threads = thread_map__new_any();
	if (!st->evlist->cpus || !st->evlist->threads)
		return fail(st, -ENOMEM, "%s", "out of memory");
	err = perf_stat__init_evlist(config, st->evlist);
	if (err)
		return fail(st, err, "%s", "out of memory");
	evlist__for_each_entry(st->evlist, e) {
		e->cpus = e->own_cpus ? cpu_map__intersect(e->own_cpus, st->evlist->cpus) :
			  cpu_map__get(st->evlist->cpus);
		if (e->cpus && !e->cpus->nr) {
			cpu_map__put(e->cpus);
			e->cpus = cpu_map__get(st->evlist->cpus);
		}
		e->threads = thread_map__get(st->evlist->threads);
		if (!e->cpus)
			return fail(st, -ENOMEM, "%s", "out of memory");
		e->counts = calloc((size_t)e->cpus->nr * e->threads->nr, sizeof(*e->counts));
		if (!e->counts)
			return fail(st, -ENOMEM, "%s", "out of memory");
		err = perf_stat__setup_aggr(config, e);
		if (err)
			return fail(st, err, "%s", "out of memory");
		set_comms(st, e);
	}
	st->configured = true;
	return 0;
}

static int on_stat_config(struct perf_tool *tool, struct perf_session *session,
			  const union perf_event *ev, struct perf_sample *sample,
			  struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct perf_stat_config *config = st->rep->config;
	bool task;
	int err = make_evlist(st, session);

	if (err)
		return err;
	if (st->configured)
		return fail(st, -EINVAL, "'%s': a second STAT_CONFIG record", st->rep->path);
	err = stat_event__parse_config(ev, &st->sc);
	if (err)
		return fail(st, err, "'%s': a malformed STAT_CONFIG record", st->rep->path);
	/* per CPU rows need CPUs: a task's counts keep the file's rows, as perf */
	task = !st->evlist->cpus || (st->evlist->cpus->nr == 1 && st->evlist->cpus->map[0] == -1);
	if (st->rep->aggr_given && task) {
		say(st->rep->say, SAY_WARNING, "processing task data, aggregation mode not set");
		config->aggr_mode = aggr_of(st->sc.aggr_mode);
	} else if (!st->rep->aggr_given) {
		config->aggr_mode = aggr_of(st->sc.aggr_mode);
	}
	config->scale = st->sc.scale;
	config->interval = (unsigned int)st->sc.interval;
	config->metric_over_rounds = true;
	return setup_events(st);
}

static int on_stat(struct perf_tool *tool, struct perf_session *session,
		   const union perf_event *ev, struct perf_sample *sample,
		   struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct perf_record_stat rs;
	struct evsel *e;
	int ci, err = make_evlist(st, session);

	if (err)
		return err;
	if (!st->configured && (err = setup_events(st)))
		return err;
	if (stat_event__parse_stat(ev, &rs))
		return fail(st, -EINVAL, "'%s': a malformed STAT record", st->rep->path);
	e = evsel_of(st, session, rs.id);
	if (!e)
		return fail(st, -EINVAL, "'%s': a STAT record of no event of the file",
			    st->rep->path);
	ci = cpu_map__idx(e->cpus, (int)rs.cpu);
	if (ci < 0 || rs.thread >= (u32)e->threads->nr) {
		snprintf(st->rep->msg, sizeof(st->rep->msg),
			 "'%s': a STAT record of CPU %d, thread %u: not counted by %s", st->rep->path,
			 (int)rs.cpu, rs.thread, evsel__name(e));
		return -EINVAL;
	}
	e->counts[ci * e->threads->nr + (int)rs.thread] =
		(struct counts_values){ .val = rs.val, .ena = rs.ena, .run = rs.run };
	e->supported = true;
	return 0;
}

static int on_stat_round(struct perf_tool *tool, struct perf_session *session,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	struct report_state *st = state(tool);
	struct perf_stat_config *config = st->rep->config;
	struct perf_record_stat_round r;
	struct timespec ts;
	struct target target = { 0 };
	const char *argv[1];
	struct evsel *e;
	int err = make_evlist(st, session);

	if (err)
		return err;
	if (!st->configured && (err = setup_events(st)))
		return err;
	if (stat_event__parse_round(ev, &r))
		return fail(st, -EINVAL, "'%s': a malformed STAT_ROUND record", st->rep->path);
	if (config->interval) {
		/* each round's change since the one before, as the run printed it */
		evlist__for_each_entry(st->evlist, e)
			perf_stat__process_counts(config, e, true, true);
		/* perf's report knows no interval's length: no "CPUs utilized" */
		init_stats(&config->walltime_nsecs_stats);
		ts.tv_sec = (time_t)(r.time / 1000000000ULL);
		ts.tv_nsec = (long)(r.time % 1000000000ULL);
		perf_stat__print_counters(config, st->evlist, &ts);
		return 0;
	}
	evlist__for_each_entry(st->evlist, e)
		perf_stat__process_counts(config, e, false, true);
	init_stats(&config->walltime_nsecs_stats);
	update_stats(&config->walltime_nsecs_stats, r.time);
	argv[0] = st->cmdline;
	perf_stat__print_header(config, &target, 1, argv);
	perf_stat__print_counters(config, st->evlist, NULL);
	perf_stat__print_footer(config);
	return 0;
}

/* The command line the file names: its CMDLINE, or "pipe" as perf says without one. */
static int cmdline_of(struct report_state *st, const struct perf_env *env)
{
	size_t len = 1;

	for (int i = 0; i < env->nr_cmdline; i++)
		len += strlen(env->cmdline[i]) + 1;
	st->cmdline = calloc(1, len + 4);
	if (!st->cmdline)
		return -ENOMEM;
	if (!env->nr_cmdline)
		strcpy(st->cmdline, "pipe");
	for (int i = 0; i < env->nr_cmdline; i++) {
		if (i)
			strcat(st->cmdline, " ");
		strcat(st->cmdline, env->cmdline[i]);
	}
	return 0;
}

static void state_exit(struct report_state *st)
{
	if (st->evlist)
		perf_stat__exit_evlist(st->evlist);
	evlist__delete(st->evlist);
	for (int i = 0; i < st->nr_units; i++)
		free(st->units[i]);
	free(st->units);
	free(st->by_idx);
	free(st->comms);
	free(st->cmdline);
}

/**
 * stat_report__run - see util/stat/stat-report.h
 */
int stat_report__run(struct stat_report *rep)
{
	struct report_state st = {
		.tool = {
			.event_update = on_event_update, .thread_map = on_thread_map,
			.cpu_map = on_cpu_map, .stat_config = on_stat_config, .stat = on_stat,
			.stat_round = on_stat_round,
		},
		.rep = rep,
		.sc = { .aggr_mode = PERF_FILE_AGGR_UNSET, .scale = true },
	};
	struct perf_session *session;
	int err;

	rep->msg[0] = '\0';
	session = perf_session__new(rep->path, &err, rep->msg, sizeof(rep->msg));
	if (!session)
		return err;
	err = cmdline_of(&st, &session->header->env);
	if (!err) {
		err = perf_session__process_events(session, &st.tool);
		if (err < 0 && !rep->msg[0])
			snprintf(rep->msg, sizeof(rep->msg), "%s", session->errmsg);
	} else {
		snprintf(rep->msg, sizeof(rep->msg), "out of memory");
	}
	state_exit(&st);
	perf_session__delete(session);
	return err > 0 ? -EINVAL : err;
}
