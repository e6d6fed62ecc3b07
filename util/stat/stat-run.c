// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `tperf stat` run loop.  Signals (SIGCHLD, SIGINT, SIGTERM) only set
 * flags; the loop sleeps in ppoll() with them unblocked so that none is lost
 * between a check and the sleep.  A SIGINT or SIGTERM is passed on to the
 * workload, whose exit then ends the run.
 */
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/event/evlist-ctl.h"
#include "util/event/pmu.h"
#include "util/perf-data/stat-event.h"
#include "util/stat/stat-display.h"
#include "util/stat/stat-record.h"
#include "util/stat/stat-run.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"
#include "util/event/workload.h"

/*
 * Set the attr fields perf stat sets: read_format (times, group), sample
 * type IDENTIFIER, no period, inherit, disabled on leaders, enable_on_exec
 * for a workload (not with -D).
 */
static void perf_stat__config_attrs(struct evlist *evlist, const struct target *target,
				    bool inherit, bool enable_on_exec, bool identifier);

static volatile sig_atomic_t got_signal, child_exited;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_child(int sig)
{
	child_exited = 1;
}

/**
 * perf_stat__config_attrs - the attr fields perf stat sets
 * @evlist: the events
 * @target: what is counted (enable_on_exec for a workload only)
 * @inherit: count children too
 * @enable_on_exec: let the workload's exec enable the events
 * @identifier: sample_type IDENTIFIER (perf leaves it out of stat record's pipe stream)
 */
static void perf_stat__config_attrs(struct evlist *evlist, const struct target *target,
				    bool inherit, bool enable_on_exec, bool identifier)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		struct perf_event_attr *attr = &evsel->attr;

		evsel__config_read_format(evsel);
		attr->sample_type = identifier ? PERF_SAMPLE_IDENTIFIER : 0;
		/* tracepoints come with a sample period: counting wants none */
		attr->sample_period = 0;
		attr->freq = 0;
		attr->inherit = inherit && evsel->terms.inherit != 0;
		attr->disabled = 0;
		attr->enable_on_exec = 0;
		if (evsel__is_group_leader(evsel)) {
			attr->disabled = 1;
			attr->enable_on_exec = enable_on_exec && target__none(target);
		}
		/*
		 * CPU-wide events (msr, power, powercap) counting for a workload
		 * start at the open: enable_on_exec would never fire on them
		 * (evsel__open clears these the same way).
		 */
		if (attr->enable_on_exec && (evsel->requires_cpu || evsel->own_cpus ||
					     evsel->powercap)) {
			attr->enable_on_exec = 0;
			attr->disabled = 0;
		}
	}
}

/* perf's pmu_have_event("cpu", @name): a sysfs alias of the cpu PMU. */
static bool cpu_pmu_has(const char *name)
{
	struct pmu *pmu = pmu__find("cpu");

	return pmu && pmu__find_alias(pmu, name);
}

/**
 * perf_stat__default_events - the events perf 6.1 stat counts without -e
 * @target: cpu-clock counts for -a and -C, task-clock otherwise
 * @buf: receives the comma-separated list, in perf's order
 * @size: its size
 *
 * The hardware events are listed whether or not this machine can count
 * them: perf shows the ones it cannot as <not supported>.  The stall events
 * come only when the cpu PMU lists them in sysfs, as perf adds them.
 */
void perf_stat__default_events(const struct target *target, char *buf, size_t size)
{
	snprintf(buf, size, "%s,context-switches,cpu-migrations,page-faults%s%s,"
		 "cycles,instructions,branches,branch-misses",
		 target__has_cpu(target) ? "cpu-clock" : "task-clock",
		 cpu_pmu_has("stalled-cycles-frontend") ? ",stalled-cycles-frontend" : "",
		 cpu_pmu_has("stalled-cycles-backend") ? ",stalled-cycles-backend" : "");
}

/**
 * perf_stat__detailed_events - the events perf 6.1 adds for -d, -dd, -ddd
 * @level: how many -d were given (1 to 3 count; more is 3)
 * @buf: receives the comma-separated list, in perf's order
 * @size: its size
 *
 * Cache events: on a machine without a PMU they show <not supported>, as
 * in perf.
 */
void perf_stat__detailed_events(int level, char *buf, size_t size)
{
	snprintf(buf, size, "L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses%s%s",
		 level >= 2 ? ",L1-icache-loads,L1-icache-load-misses,dTLB-loads,"
			      "dTLB-load-misses,iTLB-loads,iTLB-load-misses" : "",
		 level >= 3 ? ",L1-dcache-prefetches,L1-dcache-prefetch-misses" : "");
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	return ts;
}

/* -p/-t: true while at least one of the threads still exists. */
static bool targets_alive(struct evlist *evlist)
{
	struct thread_map *t = evlist->threads;

	for (int i = 0; t && i < t->nr; i++)
		if (t->map[i] > 0 && (kill(t->map[i], 0) == 0 || errno == EPERM))
			return true;
	return false;
}

static void read_and_process(struct stat_run *r, bool delta, bool reset)
{
	struct evsel *evsel;

	evlist__read(r->evlist);
	if (r->record)
		stat_record__write_counts(r->record, r->evlist);	/* errors kept for the end */
	evlist__for_each_entry(r->evlist, evsel)
		perf_stat__process_counts(r->config, evsel, delta, reset);
}

/*
 * --summary: the counts since the start (the kernel's totals, not a delta)
 * and the whole elapsed time, for the table after the intervals.
 */
static void process_summary(struct stat_run *r, uint64_t elapsed)
{
	struct evsel *evsel;

	evlist__for_each_entry(r->evlist, evsel)
		perf_stat__process_counts(r->config, evsel, false, true);
	init_stats(&r->config->walltime_nsecs_stats);
	update_stats(&r->config->walltime_nsecs_stats, elapsed);
}

static void print_interval(struct stat_run *r, uint64_t t0)
{
	uint64_t ns = now_ns() - t0;
	struct timespec ts = ns_ts(ns);

	read_and_process(r, true, true);
	if (r->record)
		stat_record__write_round(r->record, STAT_ROUND_INTERVAL, ns);
	init_stats(&r->config->walltime_nsecs_stats);
	update_stats(&r->config->walltime_nsecs_stats, r->config->interval * 1000000ULL);
	perf_stat__print_counters(r->config, r->evlist, &ts);
	/* each interval out now: read as it comes through a pipe, and kept
	 * when tperf is killed (it stayed in stdio's buffer, all of it) */
	fflush(r->config->output);
}

struct wait_state {
	struct workload *w;	/* NULL: no workload */
	bool child_done;
	uint64_t t0, next_tick, enable_at;
	uint64_t deadline;	/* --timeout: when the run ends (UINT64_MAX: never) */
	unsigned int intervals;
	bool enabled;
	bool timed_out;		/* the workload was sent SIGTERM at the deadline */
};

/*
 * One command of --control, as perf 6.1 takes them (util/event/evlist-ctl):
 * "enable" and "disable" (all events, or "enable NAME"), "evlist", and
 * "ping", "stop" and "snapshot", which stat only acknowledges.
 */
static void control_command(struct stat_run *r, struct wait_state *s, enum evlist_ctl_cmd cmd,
			    const char *name)
{
	if (cmd == EVLIST_CTL_ENABLE || cmd == EVLIST_CTL_DISABLE) {
		int n = evlist_ctl__apply(r->evlist, cmd, name);

		if (!name) {
			s->enabled = true;	/* a -D delay no longer applies */
			perf_stat__print_delay_state(cmd == EVLIST_CTL_ENABLE);
		} else if (n) {
			perf_stat__print_event_state(name, cmd == EVLIST_CTL_ENABLE);
		} else {
			perf_stat__print_no_event(name);
		}
	} else if (cmd == EVLIST_CTL_EVLIST) {
		perf_stat__print_evlist(r->evlist);
	}
	if (evlist_ctl__acked(cmd) && evlist_ctl__ack(r->ctl))
		pr_debug("--control: cannot write the ack: %s\n", strerror(errno));
}

/* Read what the --control descriptor holds and run each whole line. */
static void control_read(struct stat_run *r, struct wait_state *s)
{
	enum evlist_ctl_cmd cmd;
	const char *name;

	evlist_ctl__read(r->ctl);
	while ((cmd = evlist_ctl__next(r->ctl, &name)) != EVLIST_CTL_NONE)
		control_command(r, s, cmd, name);
}

static bool wait_step(struct stat_run *r, struct wait_state *s, const sigset_t *unblocked)
{
	uint64_t now = now_ns(), timeout = UINT64_MAX;
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	struct timespec tmo;
	struct rusage ru;
	int status;

	if (got_signal && (!s->w || s->child_done))
		return false;
	if (got_signal && s->w) {
		kill(s->w->pid, got_signal);
		got_signal = -got_signal;	/* passed on once; remember it */
	}
	if (s->w && child_exited && wait4(s->w->pid, &status, WNOHANG, &ru) == s->w->pid) {
		r->status = status;
		r->config->ru_data = ru;
		s->child_done = true;
		return false;
	}
	if (!s->w && target__has_task(r->target) && !targets_alive(r->evlist))
		return false;
	if (now >= s->deadline && !s->timed_out) {
		/* --timeout: as perf, the workload gets SIGTERM and its end ends the run */
		if (!s->w)
			return false;
		kill(s->w->pid, SIGTERM);
		s->timed_out = true;
	}
	if (!s->enabled && now >= s->enable_at) {
		/* -D: as in perf, the clock (elapsed, -I stamps) starts now */
		evlist__enable(r->evlist);
		s->enabled = true;
		s->t0 = now;
		s->next_tick = now + r->config->interval * 1000000ULL;
		perf_stat__print_delay_state(true);
	}
	if (r->config->interval && now >= s->next_tick) {
		print_interval(r, s->t0);
		s->next_tick += r->config->interval * 1000000ULL;
		if (r->config->interval_count && ++s->intervals >= r->config->interval_count)
			return false;
		return true;
	}
	if (r->config->interval)
		timeout = s->next_tick - now;
	if (!s->enabled)
		timeout = s->enable_at - now < timeout ? s->enable_at - now : timeout;
	if (!s->timed_out && s->deadline - now < timeout)
		timeout = s->deadline - now;
	if (!s->w && target__has_task(r->target) && timeout > 100000000ULL)
		timeout = 100000000ULL;
	tmo = ns_ts(timeout);
	pfd.fd = r->ctl ? r->ctl->fd : -1;
	if (ppoll(&pfd, pfd.fd >= 0, timeout == UINT64_MAX ? NULL : &tmo, unblocked) > 0) {
		if (pfd.revents & (POLLIN | POLLHUP))
			control_read(r, s);
		else if (pfd.revents & (POLLNVAL | POLLERR))
			r->ctl->fd = -1;	/* not a descriptor to read: ignored, as perf */
	}
	return true;
}

static void wait_run(struct stat_run *r, struct wait_state *s)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (wait_step(r, s, &old))
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Hardware events that could not be opened (the note about a missing PMU). */
static int count_unsupported_hw(struct evlist *evlist)
{
	struct evsel *evsel;
	int n = 0;

	evlist__for_each_entry(evlist, evsel)
		if (!evsel->supported && evsel->attr.type == PERF_TYPE_HARDWARE)
			n++;
	return n;
}

/*
 * As perf stat: when perf_event_paranoid forbids counting the kernel, the
 * event that failed counts user space only (its name gets ":u").
 */
static bool retry_user_only(struct stat_run *r, int err)
{
	struct evsel *evsel;
	char msg[256];

	if ((err != -EACCES && err != -EPERM) || target__has_cpu(r->target))
		return false;
	evlist__for_each_entry(r->evlist, evsel) {
		if (evsel->open_err != EACCES && evsel->open_err != EPERM)
			continue;
		if (!evsel__fallback(evsel, err, msg, sizeof(msg)))
			return false;
		pr_debug("%s\n", msg);
		evlist__close(r->evlist);
		evlist__for_each_entry(r->evlist, evsel) {
			evsel->open_err = 0;
			evsel->supported = false;
		}
		return true;
	}
	return false;
}

/*
 * Each event's rows and their stats; also of events never opened (a --pre
 * failed first), which show <not supported> as in perf.
 */
static int setup_rows(struct stat_run *r)
{
	struct evsel *evsel;
	int err;

	evlist__for_each_entry(r->evlist, evsel) {
		err = perf_stat__setup_aggr(r->config, evsel);
		if (err) {
			snprintf(r->msg, sizeof(r->msg), "cannot set up the counts: %s",
				 strerror(-err));
			return err;
		}
	}
	return 0;
}

static int open_counters(struct stat_run *r, bool first)
{
	int flags = EVLIST_OPEN_KEEP_UNSUPPORTED | EVLIST_OPEN_CPU_MAJOR;
	int err;

	while ((err = evlist__open(r->evlist, flags, r->msg, sizeof(r->msg))) &&
	       retry_user_only(r, err))
		;
	if (err) {
		evlist__close(r->evlist);
		return err;
	}
	err = evlist__apply_filters(r->evlist, r->msg, sizeof(r->msg));
	if (err) {
		r->filter_failed = true;
		evlist__close(r->evlist);
		return err;
	}
	if (!first)
		return 0;	/* same maps every run: the rows and their stats stay */
	r->nr_unsupported_hw = count_unsupported_hw(r->evlist);
	return setup_rows(r);
}

static int start_workload(struct stat_run *r, struct workload *w)
{
	int err = workload__start(w);

	if (err)
		snprintf(r->msg, sizeof(r->msg), "cannot run '%s': %s", r->argv[0],
			 strerror(-err));
	return err;
}

static int run_once(struct stat_run *r, bool first)
{
	struct wait_state s = { .w = NULL };
	struct workload w;
	int err;

	child_exited = 0;
	if (r->argc) {
		err = workload__prepare(&w, r->argv);
		if (err) {
			snprintf(r->msg, sizeof(r->msg), "cannot start '%s': %s", r->argv[0],
				 strerror(-err));
			return err;
		}
		/* -a/-C with a command count everything, not just the command */
		if (target__none(r->target))
			evlist__set_workload_pid(r->evlist, w.pid);
		s.w = &w;
	}
	err = open_counters(r, first);
	if (!err && r->record && first) {
		err = stat_record__start(r->record, r->evlist, r->config);
		if (err) {
			snprintf(r->msg, sizeof(r->msg), "%s", r->record->msg);
			evlist__close(r->evlist);
		}
	}
	if (err) {
		if (s.w)
			workload__abort(&w);
		return err;
	}
	/* a workload without -D is enabled by its exec, the rest here (as perf) */
	s.enabled = r->delay_ms < 0 || (s.w && !r->delay_ms && target__none(r->target));
	if (!s.enabled && !r->delay_ms) {
		evlist__enable(r->evlist);
		s.enabled = true;
	}
	/* workload__start() waits for the exec: the clock starts before it */
	s.t0 = now_ns();
	if (s.w && (err = start_workload(r, &w))) {
		evlist__close(r->evlist);
		return err;
	}
	s.next_tick = s.t0 + r->config->interval * 1000000ULL;
	s.deadline = r->timeout_ms ? s.t0 + r->timeout_ms * 1000000ULL : UINT64_MAX;
	s.enable_at = s.t0 + (r->delay_ms > 0 ? r->delay_ms * 1000000ULL : 0);
	if (r->delay_ms) {
		perf_stat__print_delay_state(false);
		if (r->delay_ms > 0)
			s.next_tick = UINT64_MAX;	/* intervals from the enable */
	}
	wait_run(r, &s);
	if (s.w && !s.child_done) {	/* --interval-count ended it */
		kill(w.pid, SIGTERM);
		wait4(w.pid, NULL, 0, &r->config->ru_data);
		r->status = -1;	/* stopped by us: not the command's failure */
	}
	evlist__disable(r->evlist);
	if (s.child_done && WIFSIGNALED(r->status))
		perf_stat__print_signaled(r->argv[0], WTERMSIG(r->status));
	if (r->config->interval) {
		if (!r->config->interval_count || s.intervals < r->config->interval_count)
			print_interval(r, s.t0);
		if (r->config->summary)
			process_summary(r, now_ns() - s.t0);
	} else {
		uint64_t elapsed = now_ns() - s.t0;

		update_stats(&r->config->walltime_nsecs_stats, elapsed);
		if (r->config->walltime_run && r->config->nr_walltime_run < r->config->run_count)
			r->config->walltime_run[r->config->nr_walltime_run++] = elapsed;
		read_and_process(r, false, false);
	}
	/* perf stat record -I reads once more at the end: STATs without a round */
	if (r->record && r->config->interval && !evlist__read(r->evlist))
		stat_record__write_counts(r->record, r->evlist);
	evlist__close(r->evlist);
	return 0;
}

/*
 * One run with what goes around it: sync() for -S, --pre (a failure skips
 * the run, as in perf, and is kept in r->pre_status), --post.
 */
static int run_with_commands(struct stat_run *r, bool *rows_ready)
{
	int err, status;

	if (r->pre_cmd) {
		fflush(NULL);
		status = system(r->pre_cmd);
		r->pre_status = status;
		if (status) {
			r->nr_pre_failed++;
			return *rows_ready ? 0 : setup_rows(r);
		}
	}
	if (r->sync)
		sync();
	err = run_once(r, !*rows_ready);
	if (err)
		return err;
	*rows_ready = true;
	if (r->post_cmd) {
		fflush(NULL);
		status = system(r->post_cmd);
		if (status) {
			r->post_status = status;
			r->nr_post_failed++;
		}
	}
	return 0;
}

/*
 * A run of the baseline (--compare-with) then one of ours: side by side in
 * time, so that a change of the machine's load between runs falls on both.
 */
static int run_alternating(struct stat_run *r, bool *base_ready, bool *rows_ready)
{
	struct stat_run *b = r->baseline;
	int err;

	if (b) {
		b->status = -1;
		err = run_with_commands(b, base_ready);
		if (err) {
			snprintf(r->msg, sizeof(r->msg), "%s", b->msg);
			return err;
		}
		if (got_signal)
			return 0;
	}
	return run_with_commands(r, rows_ready);
}

/* --summary: the totals after the intervals, with perf's header and footer. */
static void print_summary(struct stat_run *r)
{
	struct perf_stat_config *c = r->config;

	c->summary_rows = true;
	perf_stat__print_header(c, r->target, r->argc, r->argv);
	perf_stat__print_counters(c, r->evlist, NULL);
	perf_stat__print_footer(c);
	c->summary_rows = false;
}

static void dry_run(struct stat_run *r)
{
	struct evsel *evsel;

	if (tperf_config.verbose < 2)
		return;
	evlist__for_each_entry(r->evlist, evsel)
		perf_event_attr__fprintf(stderr, &evsel->attr);
}

/**
 * stat_run__run - every run of tperf stat, with its output
 * @r: the configuration; results in @r->status, @r->signr, @r->msg
 *
 * Return: 0, or -errno with the message in @r->msg.
 */
int stat_run__run(struct stat_run *r)
{
	struct sigaction sa = { .sa_handler = on_signal }, sc = { .sa_handler = on_child };
	struct sigaction old_int, old_term, old_chld;
	bool rows_ready = false, base_ready = false;
	int err = 0, run;

	r->status = -1;
	got_signal = 0;
	if (r->config->walltime_run_table) {
		r->config->walltime_run = calloc(r->config->run_count,
						 sizeof(*r->config->walltime_run));
		if (!r->config->walltime_run) {
			snprintf(r->msg, sizeof(r->msg), "out of memory");
			return -ENOMEM;
		}
	}
	perf_stat__config_attrs(r->evlist, r->target, !r->target->no_inherit, !r->delay_ms,
				!r->record || strcmp(r->record->path, "-"));
	if (r->baseline)
		perf_stat__config_attrs(r->baseline->evlist, r->target, !r->target->no_inherit,
					!r->delay_ms, true);
	if (r->dry_run) {
		dry_run(r);
		return 0;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGCHLD, &sc, &old_chld);
	for (run = 0; run < r->config->run_count && !err && !got_signal; run++)
		err = run_alternating(r, &base_ready, &rows_ready);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	r->signr = got_signal < 0 ? -got_signal : got_signal;
	if (err) {
		if (r->record)
			stat_record__abort(r->record);
		return err;
	}
	if (run < r->config->run_count && run > 0) {
		r->config->run_count = run;	/* stopped early: what ran */
		if (r->baseline)
			r->baseline->config->run_count = run;
	}
	if (!r->config->interval) {
		perf_stat__print_header(r->config, r->target, r->argc, r->argv);
		perf_stat__print_counters(r->config, r->evlist, NULL);
	} else if (r->config->summary && rows_ready) {
		print_summary(r);	/* its own footer */
	}
	if (!r->config->interval || !r->config->summary || !rows_ready)
		perf_stat__print_footer(r->config);
	if (r->record) {
		/* after the counts, as perf: a file that cannot be written loses no output */
		err = stat_record__finish(r->record, !r->config->interval,
					  (uint64_t)r->config->walltime_nsecs_stats.max);
		if (err)
			snprintf(r->msg, sizeof(r->msg), "%s", r->record->msg);
	}
	return err;
}
