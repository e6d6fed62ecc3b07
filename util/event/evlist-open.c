// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evlist: the CPUs and threads of a target, and opening, reading, enabling
 * and closing every event of the list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/cpumap.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/lib/rlimit.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"

static void evlist__set_maps(struct evlist *evlist, struct cpu_map *cpus,
			     struct thread_map *threads)
{
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	evlist->cpus = cpus;
	evlist->threads = threads;
}

static int threads_strerror(const char *what, const char *list, char *buf, size_t size)
{
	int err = errno;

	if (err == ESRCH)
		snprintf(buf, size, "cannot find %s '%s': no such process; check the ids "
			 "with 'ps'", what, list);
	else if (err == EINVAL)
		snprintf(buf, size, "invalid %s id list '%s': expected comma-separated "
			 "numbers", what, list);
	else
		snprintf(buf, size, "cannot list the threads of %s '%s': %s", what, list,
			 strerror(err));
	return -err;
}

/* The CPUs of -C @list, each of which must be online. */
static int cpus_from_list(const char *list, struct cpu_map **out, char *buf, size_t size)
{
	struct cpu_map *cpus = cpu_map__new(list), *online;
	char on[256] = "";
	int err = 0;

	if (!cpus) {
		snprintf(buf, size, "invalid CPU list '%s': expected a list such as '0-3,6'",
			 list);
		return -EINVAL;
	}
	online = cpu_map__new_online();
	for (int i = 0; online && i < cpus->nr && !err; i++) {
		if (cpu_map__idx(online, cpus->map[i]) >= 0)
			continue;
		cpu_map__snprint(online, on, sizeof(on));
		snprintf(buf, size, "CPU %d in '%s' is not online (online CPUs: %s); "
			 "choose CPUs among those", cpus->map[i], list, on);
		err = -ENODEV;
	}
	cpu_map__put(online);
	if (err) {
		cpu_map__put(cpus);
		return err;
	}
	*out = cpus;
	return 0;
}

/**
 * evlist__create_maps - the CPUs and threads of a target
 * @evlist: receives ->cpus and ->threads
 * @target: a validated target (see target__validate())
 * @buf: receives the message on failure
 * @size: size of @buf
 *
 * -p: every thread of the processes, on any CPU; -t: those threads; -a or
 * -C: the CPUs (online ones only), every thread; no target: any CPU, the
 * threads come with evlist__set_workload_pid().
 *
 * Return: 0 or -errno with a message in @buf.
 */
int evlist__create_maps(struct evlist *evlist, const struct target *target,
			char *buf, size_t size)
{
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	int err;

	if (target->pid || target->tid) {
		threads = target->pid ? thread_map__new_by_pid_str(target->pid)
				      : thread_map__new_by_tid_str(target->tid);
		if (!threads)
			return threads_strerror(target->pid ? "process" : "thread",
						target->pid ? target->pid : target->tid, buf,
						size);
		cpus = cpu_map__new_any();
	} else if (target->cpu_list) {
		err = cpus_from_list(target->cpu_list, &cpus, buf, size);
		if (err)
			return err;
		threads = thread_map__new_any();
	} else if (target->system_wide) {
		cpus = cpu_map__new_online();
		threads = thread_map__new_any();
	} else {
		cpus = cpu_map__new_any();
	}
	evlist__set_maps(evlist, cpus, threads);
	if (!cpus || (!threads && !target__none(target))) {
		snprintf(buf, size, "cannot set up the CPUs and threads to count: %s",
			 strerror(errno ? errno : ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

/**
 * evlist__set_workload_pid - count the forked workload
 * @evlist: without a CPU target its threads become {@pid}; with -a or -C
 *          (CPUs counted whatever runs) only ->workload_pid is set
 * @pid: the workload's pid
 */
void evlist__set_workload_pid(struct evlist *evlist, pid_t pid)
{
	evlist->workload_pid = pid;
	if (evlist->cpus && !(evlist->cpus->nr == 1 && evlist->cpus->map[0] == -1))
		return;
	thread_map__put(evlist->threads);
	evlist->threads = thread_map__new_by_tid(pid);
}

/* Errors stat shows as <not supported> rather than failing the command. */
static bool err_is_unsupported(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
	case ENOSYS:
	case EINVAL:	/* perf stat too: "tsc:u" or "msr/event=0x99/" */
		return true;
	default:
		return false;
	}
}

/* Outcome of the CPU-major pass in errs[]: 0 open, -errno failed, or: */
#define NEEDS_OPEN 1	/* open it (again) event by event */

/*
 * A weak group failed: close it and make each of its events its own leader
 * (marked NEEDS_OPEN in @errs when given).
 */
static void evlist__break_group(struct evlist *evlist, struct evsel *leader, int *errs)
{
	struct evsel *e;
	int j = 0;

	pr_debug("weak group with leader '%s' failed: opening its events separately\n",
		 evsel__name(leader));
	evlist__for_each_entry(evlist, e) {
		if (e->leader == leader) {
			evsel__close(e);
			e->leader = e;
			e->nr_members = 1;
			e->attr.read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
			if (errs)
				errs[j] = NEEDS_OPEN;
		}
		j++;
	}
}

struct open_ctx {
	struct evlist *evlist;
	int flags;
	int *errs;		/* CPU-major outcomes by position, or NULL */
	struct evsel *restart;	/* set when a weak group was split */
	char *buf;
	size_t size;
};

/*
 * @evsel failed to open with @err (0: it did not): fall back and retry,
 * split its weak group, keep it as unsupported, or fail.  0 when open or
 * kept, 1 when its weak group was broken up (reopen from ctx->restart),
 * -errno with the message when fatal.
 */
static int evlist__open_failed(struct open_ctx *ctx, struct evsel *evsel, int err)
{
	struct evsel *leader = evsel->leader;
	char msg[256];

	while (err && (ctx->flags & EVLIST_OPEN_FALLBACK) &&
	       evsel__fallback(evsel, err, msg, sizeof(msg))) {
		say(ctx->evlist->say, SAY_NOTE, "%s", msg);
		err = evsel__open(evsel, ctx->evlist->cpus, ctx->evlist->threads);
	}
	if (!err)
		return 0;
	if (leader != evsel && leader->weak_group) {
		evlist__break_group(ctx->evlist, leader, ctx->errs);
		ctx->restart = leader;
		return 1;
	}
	/* as perf stat: a group whose leader cannot open is fatal */
	if ((ctx->flags & EVLIST_OPEN_KEEP_UNSUPPORTED) && err_is_unsupported(-err) &&
	    (leader != evsel || evsel->nr_members <= 1)) {
		pr_debug("%s event is not supported by the kernel\n", evsel__name(evsel));
		return 0;
	}
	evsel__open_strerror(evsel, err, ctx->buf, ctx->size);
	return err;
}

/* Open one event, as evlist__open_failed() returns. */
static int evlist__open_evsel(struct open_ctx *ctx, struct evsel *evsel)
{
	struct evsel *leader = evsel->leader;

	if (leader != evsel && !leader->supported) {
		evsel->supported = false;
		evsel->open_err = leader->open_err;
		return 0;
	}
	return evlist__open_failed(ctx, evsel,
				   evsel__open(evsel, ctx->evlist->cpus, ctx->evlist->threads));
}

/*
 * Event by event; with ctx->errs, only the events the CPU-major pass did
 * not open, with the error it got.
 */
static int evlist__open_each(struct open_ctx *ctx)
{
	struct list_head *head = &ctx->evlist->entries, *pos = head->next;
	int k = 0, err;

	while (pos != head) {
		struct evsel *evsel = list_entry(pos, struct evsel, node);

		if (!ctx->errs || ctx->errs[k] == NEEDS_OPEN)
			err = evlist__open_evsel(ctx, evsel);
		else
			err = evlist__open_failed(ctx, evsel, ctx->errs[k]);
		if (err < 0)
			return err;
		if (err == 0) {
			if (ctx->errs)
				ctx->errs[k] = 0;
			pos = pos->next;
			k++;
			continue;
		}
		/* a weak group was split: reopen from its leader */
		for (k = 0, pos = head->next; pos != &ctx->restart->node; pos = pos->next)
			k++;
	}
	return 0;
}

/* The CPUs of every prepared event, sorted, in @cpus (of @max); the count. */
static int evlist__cpu_union(struct evlist *evlist, const int *errs, int *cpus, int max)
{
	struct evsel *evsel;
	int n = 0, k = 0;

	evlist__for_each_entry(evlist, evsel) {
		for (int i = 0; !errs[k] && evsel->cpus && i < evsel->cpus->nr; i++) {
			int c = evsel->cpus->map[i], j = n;

			for (int x = 0; x < n; x++)
				if (cpus[x] == c)
					j = -1;
			if (j < 0 || n == max)
				continue;
			while (j > 0 && cpus[j - 1] > c) {
				cpus[j] = cpus[j - 1];
				j--;
			}
			cpus[j] = c;
			n++;
		}
		k++;
	}
	return n;
}

/* Open CPU @cpu of every prepared event that has it, in list order. */
static void evlist__open_one_cpu(struct evlist *evlist, int *errs, int cpu)
{
	struct evsel *evsel;
	int k = 0, lk = 0;

	evlist__for_each_entry(evlist, evsel) {
		int ci = evsel->cpus ? cpu_map__idx(evsel->cpus, cpu) : -1;

		if (evsel__is_group_leader(evsel))
			lk = k;
		else if (errs[lk] && !errs[k])
			errs[k] = NEEDS_OPEN;	/* after its leader, if that opens */
		if (!errs[k] && ci >= 0)
			errs[k] = evsel__open_cpu(evsel, ci);
		k++;
	}
}

/*
 * perf stat's order: prepare every event, then for each CPU open every
 * event that counts there; what failed is then handled event by event.
 */
static int evlist__open_cpu_major(struct open_ctx *ctx)
{
	struct evlist *evlist = ctx->evlist;
	int max = cpu__max_cpu() + 1, n, k = 0, *cpus, err;
	struct evsel *evsel;

	ctx->errs = calloc((size_t)evlist->nr_entries + 1, sizeof(int));
	cpus = calloc((size_t)max, sizeof(int));
	if (!ctx->errs || !cpus) {
		free(cpus);
		snprintf(ctx->buf, ctx->size, "cannot open the events: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	evlist__for_each_entry(evlist, evsel) {
		if (!evsel__is_group_leader(evsel) && evsel->leader->open_err)
			ctx->errs[k] = NEEDS_OPEN;
		else
			ctx->errs[k] = evsel__open_prepare(evsel, evlist->cpus, evlist->threads);
		if (ctx->errs[k] && ctx->errs[k] != NEEDS_OPEN)
			evsel->open_err = -ctx->errs[k];
		k++;
	}
	n = evlist__cpu_union(evlist, ctx->errs, cpus, max);
	for (int i = 0; i < n; i++)
		evlist__open_one_cpu(evlist, ctx->errs, cpus[i]);
	k = 0;
	evlist__for_each_entry(evlist, evsel) {
		int e = ctx->errs[k];

		e = evsel__open_finish(evsel, e == NEEDS_OPEN ? -EBADF : e);
		if (ctx->errs[k] != NEEDS_OPEN)
			ctx->errs[k] = e;
		k++;
	}
	free(cpus);
	err = evlist__open_each(ctx);
	free(ctx->errs);
	ctx->errs = NULL;
	return err;
}

/*
 * A member added to a group whose leader already counts is not scheduled
 * until the task next comes back on a CPU: a short-lived or CPU-bound
 * target then reads 0 for it (seen with {task-clock,page-faults} on the
 * calling thread, a few runs in a hundred).  So a leader that would start
 * counting at the open is opened disabled (@hold) and enabled once its whole
 * group is open; its attr is given back as the caller set it.
 */
static void evlist__hold_groups(struct evlist *evlist, bool hold)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *attr = &evsel->attr;

		if (hold && evsel__is_group_leader(evsel) && evsel->nr_members > 1 &&
		    !attr->disabled && !attr->enable_on_exec) {
			attr->disabled = 1;
			evsel->held_disabled = true;
		} else if (!hold && evsel->held_disabled) {
			attr->disabled = 0;
		}
	}
}

/* Start the groups evlist__hold_groups() held, now that they are whole. */
static void evlist__release_groups(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->held_disabled && evsel->counts)
			evsel__enable(evsel);
		evsel->held_disabled = false;
	}
}

/**
 * evlist__open - open every event of @evlist on its maps
 * @evlist: the events, after evlist__create_maps() (and the workload pid)
 * @flags: EVLIST_OPEN_KEEP_UNSUPPORTED, EVLIST_OPEN_FALLBACK,
 *         EVLIST_OPEN_CPU_MAJOR
 * @buf: receives the message on failure
 * @size: size of @buf
 *
 * Return: 0, or -errno with the message; nothing stays open on failure.
 */
int evlist__open(struct evlist *evlist, int flags, char *buf, size_t size)
{
	struct open_ctx ctx = { .evlist = evlist, .flags = flags, .buf = buf, .size = size };
	int err;

	if (!evlist->cpus || !evlist->threads) {
		snprintf(buf, size, "no target to count: give a command, -p, -t, -a or -C");
		return -EINVAL;
	}
	err = rlimit__ensure_nofile(evlist__nr_fds(evlist), buf, size);
	if (err)
		return err;
	evlist__hold_groups(evlist, true);
	if (flags & EVLIST_OPEN_CPU_MAJOR)
		err = evlist__open_cpu_major(&ctx);
	else
		err = evlist__open_each(&ctx);
	evlist__hold_groups(evlist, false);
	if (err)
		evlist__close(evlist);
	else
		evlist__release_groups(evlist);
	return err;
}

/**
 * evlist__close - close every event
 * @evlist: the events
 */
void evlist__close(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel)
		evsel__close(evsel);
}

/* A member whose counts come with its leader's group read. */
static bool read_with_leader(const struct evsel *evsel)
{
	const struct evsel *leader = evsel->leader;

	return leader != evsel && leader->counts &&
	       (leader->attr.read_format & PERF_FORMAT_GROUP);
}

/**
 * evlist__read - read every open event into its counts
 * @evlist: the events (groups read once, through their leader)
 *
 * Return: 0 or the first -errno.
 */
int evlist__read(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int err;

		if (!evsel->counts || read_with_leader(evsel))
			continue;
		err = evsel__read(evsel);
		if (err)
			return err;
	}
	return 0;
}

static int evlist__each(struct evlist *evlist, int (*fn)(struct evsel *))
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int err;

		if (!evsel->counts)
			continue;
		err = fn(evsel);
		if (err)
			return err;
	}
	return 0;
}

/**
 * evlist__apply_filters - set the tracepoint filters of the open events
 * @evlist: the events, opened
 * @buf: receives the message when the kernel refuses a filter
 * @size: size of @buf
 *
 * Return: 0 or the -errno of the first refusal (EINVAL: a syntax error or
 * a field the tracepoint does not have).
 */
int evlist__apply_filters(struct evlist *evlist, char *buf, size_t size)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int err;

		if (!evsel->filter || !evsel->counts)
			continue;
		err = evsel__apply_filter(evsel, evsel->filter);
		if (err) {
			/* perf's words, which scripts may look for */
			snprintf(buf, size, "failed to set filter \"%s\" on event %s with %d (%s)",
				 evsel->filter, evsel__name(evsel), -err, strerror(-err));
			return err;
		}
	}
	return 0;
}

/**
 * evlist__enable - start every open event counting
 * @evlist: the events
 *
 * Return: 0 or the first -errno.
 */
int evlist__enable(struct evlist *evlist)
{
	return evlist__each(evlist, evsel__enable);
}

/**
 * evlist__disable - stop every open event
 * @evlist: the events
 *
 * Return: 0 or the first -errno.
 */
int evlist__disable(struct evlist *evlist)
{
	return evlist__each(evlist, evsel__disable);
}
