// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recording session: open the events (falling back from cycles to
 * cpu-clock), one ring per CPU with every fd of that CPU redirected into
 * it, the perf.data header first (data.size 0, so a killed recorder leaves
 * a readable file), the synthesized state, the workload, the drain loop
 * (ppoll on the rings, 100 ms at most; FINISHED_ROUND after each pass that
 * wrote, and the data written out then), and the
 * features (SAMPLE_TIME, BUILD_ID of the hit DSOs) at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "util/symbol/build-id.h"
#include "util/lib/config.h"
#include "util/event/cpumap.h"
#include "util/perf-data/compress.h"
#include "util/perf-data/data.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/perf-data/header.h"
#include "util/record/mmap.h"
#include "util/record/record.h"
#include "util/perf-data/synthesize.h"
#include "util/event/threadmap.h"
#include "util/trace/tracing-data.h"
#include "util/event/workload.h"

struct rec {
	const struct record_opts *opts;
	struct evlist *evlist;
	struct perf_header hdr;
	struct perf_data data;
	bool data_open;
	struct perf_mmap *rings;
	int nr_rings;
	struct perf_mmap *sb_rings;	/* --switch-output-event's */
	int nr_sb_rings;
	struct dso_hits *hits;
	struct workload wl;
	bool has_workload, workload_done;
	u64 first_time, last_time;
	struct record_stats *stats;
	int write_err;
	/* rotation (--switch-output) */
	u64 file_wakeups;		/* the current file's, for "dump data: Woken up" */
	u64 next_switch;		/* CLOCK_MONOTONIC ns of the next timed switch */
	char **kept;			/* --switch-max-files: the rotated files, a ring */
	int kept_pos;
	/* -D, --control */
	u64 t0;				/* CLOCK_MONOTONIC ns of the start */
	u64 next_delay;			/* when -D acts next (0: never) */
	int range;			/* -D ranges: the one we are in or wait for */
	bool in_range;
	bool stop;			/* --control's "stop", or the last range ended */
	u64 trim_buf[65536 / 8];	/* a sample with its stack copy trimmed */
	/* -z: the rings' records, compressed a ring read at a time */
	struct perf_zstd *zstd;
	unsigned char *zin;		/* records waiting for their COMPRESSED record */
	size_t zin_len;
	u64 file_in, file_out;		/* this file's bytes before and after compression */
};

static volatile sig_atomic_t got_signal, got_child, got_switch;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_child = 1;
	else if (sig == SIGUSR2)
		got_switch = 1;
	else
		got_signal = sig;
}

/*
 * The signals that end a recording: it stops, writes out what it has and
 * the header, and the command ends with 128 + the signal, as the signal
 * would have ended it (perf dies of SIGPIPE and SIGHUP, its file unfinished).
 * SIGPIPE is also how a reader of `-o -` going away shows: the write says
 * EPIPE and the recording stops the same way.
 */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };

/* Block the signals we wait for (ppoll unblocks them); *@old gets the mask. */
static void setup_signals(const struct record_opts *o, sigset_t *old)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t set;

	got_signal = got_child = got_switch = 0;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		sigaction(stop_signals[i], &sa, NULL);
		sigaddset(&set, stop_signals[i]);
	}
	if (o->switch_signal) {	/* --switch-output=signal: SIGUSR2 rotates the output */
		sigaction(SIGUSR2, &sa, NULL);
		sigaddset(&set, SIGUSR2);
	}
	sigprocmask(SIG_BLOCK, &set, old);
}

/* ---- the events ---- */

/* The CPUs to record on: the target's, or every online CPU for tasks. */
static int set_record_cpus(struct evlist *evlist, const struct target *t)
{
	if (target__has_cpu(t))
		return 0;
	cpu_map__put(evlist->cpus);
	evlist->cpus = cpu_map__new_online();
	return evlist->cpus ? 0 : -ENOMEM;
}

/* cycles -> cpu-clock (keeping the precise modifiers, as perf names it) */
static int fallback(struct evsel *e)
{
	char msg[256];

	if (!evsel__fallback(e, e->open_err, msg, sizeof(msg)))
		return -1;
	pr_debug("%s\n", msg);
	return 0;
}

/* Lower the precision of a cycles:P default event that does not open. */
static bool lower_precise(struct evsel *e)
{
	if (!e->precise_max || !e->attr.precise_ip || e->attr.type != PERF_TYPE_HARDWARE)
		return false;
	e->attr.precise_ip--;
	pr_debug2("decreasing precise_ip by one (%u)\n", e->attr.precise_ip);
	return true;
}

static int open_events(struct evlist *evlist, char *buf, size_t size)
{
	for (int tries = 0; tries < 16; tries++) {
		struct evsel *failed = NULL, *e;
		int err = evlist__open(evlist, 0, buf, size);

		if (!err) {
			buf[0] = '\0';
			return 0;
		}
		evlist__for_each_entry(evlist, e) {
			if (e->open_err && !failed)
				failed = e;
		}
		if (!failed)
			return err;
		if (lower_precise(failed))
			continue;
		if (failed->precise_max)
			failed->attr.precise_ip = 3;
		if (fallback(failed))
			return err;
	}
	return -EINVAL;
}

/* ---- rings ---- */

/* A set of rings, one per CPU: the recording's, or --switch-output-event's. */
struct rings {
	struct perf_mmap *m;
	int nr;
	size_t pages;
};

static struct perf_mmap *rings_cpu(struct rings *rs, int cpu)
{
	for (int i = 0; i < rs->nr; i++)
		if (rs->m[i].cpu == cpu)
			return &rs->m[i];
	return NULL;
}

/*
 * The key of the ring of an fd: its CPU; --per-thread (CPU -1), one ring
 * per thread, keyed -1 - the thread's index (the kernel redirects an fd of
 * any CPU only into a ring of the same task).
 */
static int ring_key(int cpu, int thread_idx)
{
	return cpu >= 0 ? cpu : -1 - thread_idx;
}

static struct perf_mmap *ring_of_cpu(struct rec *r, int cpu)
{
	struct rings rs = { r->rings, r->nr_rings, 0 };

	return rings_cpu(&rs, cpu);
}

static int attach_fd(struct rings *rs, int fd, int cpu, char *buf, size_t size)
{
	struct perf_mmap *m = rings_cpu(rs, cpu);
	int err;

	if (m) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd)) {
			err = -errno;
			snprintf(buf, size, "cannot redirect an event into the ring of CPU %d: %s",
				 cpu, strerror(errno));
			return err;
		}
		return 0;
	}
	m = &rs->m[rs->nr];
	err = perf_mmap__mmap(m, fd, cpu, rs->pages);
	if (err) {
		snprintf(buf, size, "cannot map a ring buffer of %zu pages on CPU %d: %s%s",
			 rs->pages, cpu, strerror(-err),
			 err == -EPERM || err == -ENOMEM ?
			 " (try a smaller -m, or raise /proc/sys/kernel/perf_event_mlock_kb)" : "");
		return err;
	}
	rs->nr++;
	return 0;
}

/* One ring per CPU for the events of @evlist, the other fds of the CPU redirected to it. */
static int map_evlist(struct evlist *evlist, struct rings *rs, char *buf, size_t size)
{
	struct evsel *e;
	int max = 0;

	evlist__for_each_entry(evlist, e)
		max += e->cpus ? e->cpus->nr : 0;
	rs->m = calloc((size_t)max + 1, sizeof(*rs->m));
	if (!rs->m)
		return -ENOMEM;
	evlist__for_each_entry(evlist, e) {
		if (!e->fd)
			continue;
		for (int ci = 0; ci < e->cpus->nr; ci++) {
			for (int ti = 0; ti < e->threads->nr; ti++) {
				int fd = e->fd[ci * e->threads->nr + ti], err;

				if (fd < 0)
					continue;
				err = attach_fd(rs, fd, ring_key(e->cpus->map[ci], ti), buf, size);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

static int mmap_rings(struct rec *r, char *buf, size_t size)
{
	struct rings rs = { .pages = r->opts->mmap_pages };
	int err;

	/* perf's -v lines: the flush threshold, the size of each ring with its header page */
	pr_debug("mmap flush: %zu\n", r->opts->mmap_flush);
	pr_debug("mmap size %zuB\n", (r->opts->mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
	err = map_evlist(r->evlist, &rs, buf, size);
	r->rings = rs.m;
	r->nr_rings = rs.nr;
	return err;
}

/*
 * --switch-output-event: its events in a list of their own, never written,
 * each record a wake-up (wakeup_events 1), and each sample a switch of the
 * output, as perf's side-band thread does.
 */
static int open_switch_events(struct rec *r, char *buf, size_t size)
{
	struct evlist *sb = r->opts->switch_evlist;
	struct evsel *e, *first = evlist__first(r->evlist);
	struct rings rs = { .pages = 1 };
	int err;

	if (!sb)
		return 0;
	cpu_map__put(sb->cpus);
	thread_map__put(sb->threads);
	sb->cpus = cpu_map__get(r->evlist->cpus);
	sb->threads = thread_map__get(r->evlist->threads);
	evlist__for_each_entry(sb, e) {
		e->attr.sample_id_all = 1;
		e->attr.watermark = 0;
		e->attr.wakeup_events = 1;
		e->attr.disabled = 1;
		e->attr.enable_on_exec = first->attr.enable_on_exec;
		e->attr.inherit = first->attr.inherit;
		if (!e->attr.freq && !e->attr.sample_period)
			e->attr.sample_period = 1;
	}
	err = evlist__open(sb, 0, buf, size);
	if (!err)
		err = evlist__apply_filters(sb, buf, size);
	if (!err)
		err = map_evlist(sb, &rs, buf, size);
	r->sb_rings = rs.m;
	r->nr_sb_rings = rs.nr;
	return err;
}

static int count_sample(void *ctx, const union perf_event *ev, size_t size)
{
	(void)size;
	*(int *)ctx += ev->header.type == PERF_RECORD_SAMPLE;
	return 0;
}

/* Empty the --switch-output-event rings; a sample there asks for a switch. */
static void read_switch_events(struct rec *r)
{
	int samples = 0;

	for (int i = 0; i < r->nr_sb_rings; i++)
		perf_mmap__read(&r->sb_rings[i], count_sample, &samples);
	if (samples)
		got_switch = 1;
}

/* ---- the output ---- */

/*
 * CLOCK_DATA, as perf 6.1 writes it with -k: the wall clock (gettimeofday,
 * microseconds) and the sample clock read one after the other, which
 * script's tod field and data convert --tod turn sample times into dates by.
 */
static void record__clock_data(struct perf_env *env, int clockid)
{
	struct timeval tod;
	struct timespec ref;

	if (gettimeofday(&tod, NULL) || clock_gettime(clockid, &ref))
		return;
	env->has_clock_data = true;
	env->clock_data_clockid = (u32)clockid;
	env->clock_tod_ns = (u64)tod.tv_sec * 1000000000ULL + (u64)tod.tv_usec * 1000ULL;
	env->clock_clockid_ns = (u64)ref.tv_sec * 1000000000ULL + (u64)ref.tv_nsec;
}

static int open_output(struct rec *r, int argc, const char **argv, char *buf, size_t size)
{
	const char *path = r->opts->output;
	int err;

	perf_header__init(&r->hdr);
	err = synthesize__header_attrs(&r->hdr, r->evlist);
	if (!err)
		err = perf_env__init_local(&r->hdr.env, argc, argv);
	if (err)
		return err;
	r->hdr.env.branch_stack = r->opts->branch_stack != 0;	/* -b/-j: report's branch mode */
	if (r->opts->clockid >= 0) {
		struct timespec res;

		if (!clock_getres(r->opts->clockid, &res))
			r->hdr.env.clockid_res_ns = (u64)res.tv_sec * 1000000000ULL + (u64)res.tv_nsec;
		record__clock_data(&r->hdr.env, r->opts->clockid);
	}
	if (r->opts->comp_level) {	/* -z: the COMPRESSED feature, as perf writes it */
		struct perf_env *e = &r->hdr.env;

		e->comp_ver = 0;
		e->comp_type = PERF_COMP_ZSTD;
		e->comp_level = (u32)r->opts->comp_level;
		e->comp_mmap_len = (u32)((r->opts->mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
		r->zstd = perf_zstd__new(r->opts->comp_level);
		r->zin = malloc(65536);
		if (!r->zstd || !r->zin)
			return -ENOMEM;
	}
	err = tracing_data__build(r->evlist, &r->hdr.env.tracing_data, &r->hdr.env.tracing_data_size);
	if (err) {
		snprintf(buf, size, "cannot read the tracepoint formats from tracefs: %s",
			 strerror(-err));
		return err;
	}
	r->data.own_finished_init = true;
	err = perf_data__open_write(&r->data, path, &r->hdr);
	if (err) {
		snprintf(buf, size, "%s", r->data.errmsg);
		perf_data__close(&r->data);
		return err;
	}
	r->data_open = true;	/* pipe mode: the library writes the tracing data record */
	return 0;
}

static const struct perf_event_attr *attr_of(struct rec *r, const union perf_event *ev,
					     size_t size)
{
	struct perf_header_attr *a = &r->hdr.attrs[0];
	int pos;
	u64 id;

	if (r->hdr.nr_attrs == 1)
		return &a->attr;
	pos = perf_sample__id_pos(a->attr.sample_type);
	if (pos < 0 || size < sizeof(ev->header) + (size_t)(pos + 1) * 8)
		return NULL;
	memcpy(&id, (const u8 *)ev + sizeof(ev->header) + (size_t)pos * 8, 8);
	a = perf_header__find_attr(&r->hdr, id);
	return a ? &a->attr : NULL;
}

static void account(struct rec *r, const union perf_event *ev, size_t size)
{
	const struct perf_event_attr *attr;
	struct perf_sample s;

	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		r->stats->samples++;
		attr = attr_of(r, ev, size);
		if (attr && (attr->sample_type & PERF_SAMPLE_TIME) &&
		    !perf_sample__parse(attr, ev, size, &s)) {
			if (!r->first_time || s.time < r->first_time)
				r->first_time = s.time;
			if (s.time > r->last_time)
				r->last_time = s.time;
		}
		if (r->hits)
			dso_hits__record(r->hits, attr, ev, size);
		return;
	case PERF_RECORD_LOST:
		if (size >= sizeof(ev->lost))
			r->stats->lost_records += ev->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= sizeof(ev->lost_samples))
			r->stats->lost_samples += ev->lost_samples.lost;
		break;
	default:
		break;
	}
	if (r->hits)
		dso_hits__record(r->hits, NULL, ev, size);
}

/*
 * A sample with a user stack copy keeps only the part of the copy the
 * kernel filled (dyn_size, rounded up to 8): the rest is never read, and
 * it is most of a DWARF recording.  Readers take the copy's size from the
 * record, so the format is unchanged.  Return: the record to write, @ev
 * itself when there is nothing to trim.
 */
static const union perf_event *trim_stack(struct rec *r, const union perf_event *ev,
					  size_t *size)
{
	const struct perf_event_attr *attr;
	struct perf_sample s;
	int n;

	if (ev->header.type != PERF_RECORD_SAMPLE)
		return ev;
	attr = attr_of(r, ev, *size);
	if (!attr || !(attr->sample_type & PERF_SAMPLE_STACK_USER) ||
	    perf_sample__parse(attr, ev, *size, &s) || !s.user_stack.size)
		return ev;
	if (((s.user_stack.dyn_size + 7) & ~7ULL) >= s.user_stack.size)
		return ev;
	s.user_stack.size = (s.user_stack.dyn_size + 7) & ~7ULL;
	n = perf_sample__synthesize(attr, &s, r->trim_buf, sizeof(r->trim_buf));
	if (n <= 0)
		return ev;
	*size = (size_t)n;
	return (const union perf_event *)r->trim_buf;
}

/* Write one record (from a ring or synthesized). */
static int write_record(void *ctx, const union perf_event *ev, size_t size)
{
	struct rec *r = ctx;
	int err;

	ev = trim_stack(r, ev, &size);
	err = perf_data__write(&r->data, ev, size);

	if (err) {
		r->write_err = err;
		return err;
	}
	account(r, ev, size);
	return 0;
}

/* -z: a COMPRESSED record (or records that did not compress) to the file */
static int write_raw(void *ctx, const void *buf, size_t size)
{
	struct rec *r = ctx;
	int err = perf_data__write(&r->data, buf, size);

	if (err)
		r->write_err = err;
	return err;
}

static int flush_zin(struct rec *r)
{
	long n = perf_zstd__records(r->zstd, r->zin, r->zin_len, write_raw, r);

	if (n < 0)
		return r->write_err = (int)n;
	r->file_in += r->zin_len;
	r->file_out += (u64)n;
	r->stats->comp_in += r->zin_len;
	r->stats->comp_out += (u64)n;
	r->zin_len = 0;
	return 0;
}

/* A record from a ring: written, or with -z kept for the next COMPRESSED record. */
static int ring_record(void *ctx, const union perf_event *ev, size_t size)
{
	struct rec *r = ctx;
	int err;

	if (!r->zstd)
		return write_record(ctx, ev, size);
	ev = trim_stack(r, ev, &size);
	if (r->zin_len + size > PERF_ZSTD_MAX_IN && (err = flush_zin(r)))
		return err;
	memcpy(r->zin + r->zin_len, ev, size);
	r->zin_len += size;
	account(r, ev, size);
	return 0;
}

static int finished_round(struct rec *r)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };

	return write_record(r, (const union perf_event *)&h, sizeof(h));
}

/* ---- existing state ---- */

/* ID_INDEX: the ring an fd of @cpu writes into (its index in r->rings) */
static int ring_idx(void *ctx, int cpu, int thread_idx)
{
	struct rec *r = ctx;
	struct perf_mmap *m = ring_of_cpu(r, ring_key(cpu, thread_idx));

	return m ? (int)(m - r->rings) : -1;
}

/* The parent of process @pid from /proc/PID/stat, or -1. */
static pid_t parent_of(const char *procfs, pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, ppid;

	snprintf(path, sizeof(path), "%s/%d/stat", procfs, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

/*
 * A rotated file's workload: the processes it started since (their
 * mappings and names were in an earlier file), each with its FORK, its
 * threads and its maps; those still running when the file starts.
 */
static int synthesize_descendants(struct synth *s, pid_t root)
{
	pid_t known[256];
	int nr = 1, err = 0, grew = 1;

	known[0] = root;
	while (grew && !err) {	/* until no process joins: a child after its parent */
		DIR *d = opendir("/proc");
		struct dirent *de;

		if (!d)
			return 0;
		grew = 0;
		while (!err && (de = readdir(d)) && nr < (int)(sizeof(known) / sizeof(known[0]))) {
			pid_t pid = (pid_t)atoi(de->d_name), ppid;
			bool have = false;

			if (pid <= 0)
				continue;
			for (int i = 0; i < nr && !have; i++)
				have = known[i] == pid;
			ppid = have ? -1 : parent_of("/proc", pid);
			for (int i = 0; i < nr && ppid > 0; i++) {
				if (known[i] != ppid)
					continue;
				known[nr++] = pid;
				grew = 1;
				err = synthesize__thread(s, pid, true);
				if (err == -ESRCH)
					err = 0;
				break;
			}
		}
		closedir(d);
	}
	return err;
}

/*
 * What describes the start of a file.  @again: a rotated file's, where the
 * workload has run: its whole state (maps too), not the COMM of its fork.
 */
static void synth_init(struct rec *r, struct synth *s)
{
	*s = (struct synth){
		.id_hdr_size = r->hdr.attrs[0].id_hdr_size ?
			       r->hdr.attrs[0].id_hdr_size :
			       perf_sample__id_hdr_size(&r->hdr.attrs[0].attr),
		.mmap_data = r->opts->sample_addr,
		.namespaces = r->opts->namespaces,
		.fn = write_record,
		.ctx = r,
	};
}

/* The events and the system: at the start, or at the end (--tail-synthesize). */
static int synthesize_state(struct rec *r, struct synth *sp)
{
	const struct target *t = &r->opts->target;
	struct thread_map *threads = r->evlist->threads;
	struct synth s = *sp;
	bool kernel = false;
	struct evsel *e;
	int err = synthesize__time_conv(&s, r->nr_rings ? r->rings[0].base : NULL);

	if (err == -EAGAIN)
		err = 0;	/* perf: a debug message, no record */
	if (!err)
		err = synthesize__id_index(&s, r->evlist, ring_idx, r);
	evlist__for_each_entry(r->evlist, e)
		kernel |= !e->attr.exclude_kernel;
	if (!err && kernel)	/* perf: no kernel maps when every event excludes it */
		err = synthesize__kernel_mmap(&s);
	if (err == -ENOENT || err == -EACCES)
		err = 0;	/* kallsyms hidden: no kernel map, as perf */
	if (!err && kernel)
		err = synthesize__modules(&s);
	if (!err)
		err = synthesize__event_updates(&s, r->evlist, r->data.is_pipe);
	if (!err)
		err = synthesize__thread_map(&s, r->evlist);
	if (!err)
		err = synthesize__cpu_map(&s, r->evlist->cpus);
	/* --synth: the existing tasks, with or without their maps */
	s.comm_only = !(r->opts->synth & RECORD_SYNTH_MMAP);
	if (!(r->opts->synth & RECORD_SYNTH_TASK)) {
		/* none of them */
	} else if (!err && target__has_task(t)) {
		for (int i = 0; !err && i < threads->nr; i++) {
			err = synthesize__thread(&s, threads->map[i], false);
			if (err == -ESRCH)
				err = 0;
		}
	} else if (!err && target__has_cpu(t)) {
		err = synthesize__all(&s);
	}
	return err;
}

static int synthesize(struct rec *r, bool again)
{
	struct perf_event_header fin = { PERF_RECORD_FINISHED_INIT, 0, sizeof(fin) };
	struct synth s;
	int err = 0;

	synth_init(r, &s);
	if (!r->opts->tail_synthesize || again)	/* a rotated file describes its start */
		err = synthesize_state(r, &s);
	if (!err && r->has_workload && !(again && r->workload_done)) {
		s.comm_only = !again;
		err = synthesize__thread(&s, r->wl.pid, false);
		if (err == -ESRCH)
			err = 0;
		if (!err && again)
			err = synthesize_descendants(&s, r->wl.pid);
	}
	/* perf: the end of what describes the start, before the kernel's records */
	return err ? err : write_record(r, (const union perf_event *)&fin, sizeof(fin));
}

/* ---- rotation (--switch-output, --timestamp-filename) ---- */

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* perf's suffix: local time to the hundredth of a second, YYYYmmddHHMMSScc */
static void timestamp(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, size, "%Y%m%d%H%M%S", &tm);
	snprintf(buf + n, size - n, "%02u", (unsigned)(ts.tv_nsec / 10000000));
}

/* --switch-max-files: remember @path, and remove the oldest beyond N */
static int keep_file(struct rec *r, const char *path)
{
	int n = r->opts->switch_max_files;
	char *old;

	if (n <= 0)
		return 0;
	if (!r->kept && !(r->kept = calloc((size_t)n, sizeof(*r->kept))))
		return -ENOMEM;
	old = r->kept[r->kept_pos];
	if (old) {
		if (unlink(old) && errno != ENOENT)
			pr_debug("cannot remove '%s': %s\n", old, strerror(errno));
		free(old);
	}
	r->kept[r->kept_pos] = strdup(path);
	r->kept_pos = (r->kept_pos + 1) % n;
	return 0;
}

static int finish(struct rec *r, char *buf, size_t size);
static int drain(struct rec *r, bool final);

/* The build-ids found for one file: the next starts with none. */
static int reset_build_ids(struct rec *r)
{
	struct perf_env *env = &r->hdr.env;

	for (u32 i = 0; i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	env->build_ids = NULL;
	env->nr_build_ids = 0;
	if (!r->hits)
		return 0;
	dso_hits__delete(r->hits);
	r->hits = dso_hits__new();
	return r->hits ? 0 : -ENOMEM;
}

/*
 * Close the output with its features and rename it PATH.TIMESTAMP; unless
 * @at_exit, start a new PATH with the state of the system written again,
 * so that each file reads on its own.  What comes into the rings from
 * then on goes to the next file, so no sample is lost.
 */
static int switch_output(struct rec *r, bool at_exit, char *buf, size_t size)
{
	const char *path = r->opts->output;
	char ts[32], *name;
	int err = finish(r, buf, size);

	if (err)
		return err;
	timestamp(ts, sizeof(ts));
	if (asprintf(&name, "%s.%s", path, ts) < 0)
		return -ENOMEM;
	if (rename(path, name)) {
		err = -errno;
		snprintf(buf, size, "cannot rename '%s' to '%s': %s", path, name, strerror(errno));
		free(name);
		return err;
	}
	snprintf(r->stats->last_path, sizeof(r->stats->last_path), "%s", name);
	r->stats->files++;
	if (r->opts->dumped)
		r->opts->dumped(name, r->file_wakeups, at_exit);
	r->file_wakeups = 0;
	err = keep_file(r, name);
	free(name);
	if (err || at_exit)
		return err;
	err = reset_build_ids(r);
	if (err)
		return err;
	memset(&r->data, 0, sizeof(r->data));
	r->first_time = r->last_time = 0;
	r->file_in = r->file_out = 0;
	r->hdr.env.comp_ratio = 0;
	r->data.own_finished_init = true;
	err = perf_data__open_write(&r->data, path, &r->hdr);
	if (err) {
		snprintf(buf, size, "%s", r->data.errmsg);
		perf_data__close(&r->data);
		return err;
	}
	r->data_open = true;
	err = synthesize(r, true);
	if (!err && r->opts->switch_secs)
		r->next_switch = mono_ns() + r->opts->switch_secs * 1000000000ULL;
	return err;
}

/* Is it time to switch files, or to stop (--max-size)? */
static int check_switch(struct rec *r, char *buf, size_t size)
{
	const struct record_opts *o = r->opts;
	bool now = false;
	int err;

	if (o->max_size && r->data.written >= o->max_size) {
		r->stats->max_size_reached = true;
		r->stats->stop_bytes = r->data.out_bytes;
		return 1;
	}
	if (!o->switch_output)
		return 0;
	if (got_switch) {
		got_switch = 0;
		now = true;
	}
	if (o->switch_size && r->data.written >= o->switch_size)
		now = true;
	if (o->switch_secs && mono_ns() >= r->next_switch)
		now = true;
	if (!now)
		return 0;
	/*
	 * What the rings hold goes to the file that ends: its processes are
	 * described there, and one that has exited since would be in the
	 * next file as a sample without maps.
	 */
	err = drain(r, true);
	return err ? err : switch_output(r, false, buf, size);
}

/* ---- -D and --control ---- */

static bool is_tracking_dummy(struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY &&
	       !strcmp(evsel__name(e), "dummy:HG");
}

/* -D: enable or disable the events, not the tracking dummy, as perf's ranges do */
static void set_events(struct rec *r, bool on)
{
	struct evsel *e;

	evlist__for_each_entry(r->evlist, e) {
		if (is_tracking_dummy(e))
			continue;
		if (on)
			evsel__enable(e);
		else
			evsel__disable(e);
	}
	if (r->opts->events_state)
		r->opts->events_state(on ? EVLIST_CTL_ENABLE : EVLIST_CTL_DISABLE, NULL, 0,
				      r->evlist);
}

static void delay_start(struct rec *r)
{
	const struct record_opts *o = r->opts;
	struct evsel *e;

	r->t0 = mono_ns();
	if (!record__delayed(o))
		return;
	if (!target__none(&o->target)) {	/* the tracking dummy runs from now */
		evlist__for_each_entry(r->evlist, e)
			if (is_tracking_dummy(e))
				evsel__enable(e);
	}
	if (o->events_state)
		o->events_state(EVLIST_CTL_DISABLE, NULL, 0, r->evlist);
	if (o->delay_ms > 0)
		r->next_delay = r->t0 + (u64)o->delay_ms * 1000000ULL;
	else if (o->nr_ranges)
		r->next_delay = r->t0 + o->ranges[0].start * 1000000ULL;
}

/* -D's time has come: the delay is over, a range starts or ends. */
static void delay_tick(struct rec *r)
{
	const struct record_opts *o = r->opts;

	if (!r->next_delay || mono_ns() < r->next_delay)
		return;
	r->next_delay = 0;
	if (!o->nr_ranges) {
		set_events(r, true);
		return;
	}
	r->in_range = !r->in_range;
	set_events(r, r->in_range);
	if (r->in_range) {
		r->next_delay = r->t0 + o->ranges[r->range].end * 1000000ULL;
	} else if (++r->range < o->nr_ranges) {
		r->next_delay = r->t0 + o->ranges[r->range].start * 1000000ULL;
	} else {
		r->stop = true;	/* perf: the recording ends with the last range */
	}
}

/* One --control command, as perf record takes it; "snapshot" is only acknowledged. */
static void control_command(struct rec *r, enum evlist_ctl_cmd cmd, const char *name)
{
	const struct record_opts *o = r->opts;
	int n = 0;

	if (cmd == EVLIST_CTL_ENABLE || cmd == EVLIST_CTL_DISABLE) {
		n = evlist_ctl__apply(r->evlist, cmd, name);
		if (!name)
			r->next_delay = 0;	/* a -D still to come no longer applies */
	}
	if (o->events_state && (cmd == EVLIST_CTL_ENABLE || cmd == EVLIST_CTL_DISABLE ||
				cmd == EVLIST_CTL_EVLIST))
		o->events_state(cmd, name, n, r->evlist);
	if (cmd == EVLIST_CTL_STOP)
		r->stop = true;
	if (evlist_ctl__acked(cmd) && evlist_ctl__ack(o->ctl))
		pr_debug("--control: cannot write the ack: %s\n", strerror(errno));
}

static void control_read(struct rec *r)
{
	enum evlist_ctl_cmd cmd;
	const char *name;

	evlist_ctl__read(r->opts->ctl);
	while ((cmd = evlist_ctl__next(r->opts->ctl, &name)) != EVLIST_CTL_NONE)
		control_command(r, cmd, name);
}

/* ---- the drain loop ---- */

static int drain(struct rec *r, bool final)
{
	bool wrote = false;

	for (int i = 0; i < r->nr_rings; i++) {
		struct perf_mmap *m = &r->rings[i];
		long n;

		if (!final && perf_mmap__avail(m) < r->opts->mmap_flush)
			continue;
		n = perf_mmap__read(m, ring_record, r);
		if (!r->write_err && r->zin_len)	/* -z: a ring read, compressed */
			flush_zin(r);
		if (r->write_err)
			return r->write_err;
		if (n > 0)
			wrote = true;
	}
	if (wrote && (r->write_err = finished_round(r)))
		return r->write_err;
	/* out of the buffer at every round: a SIGKILL loses only what came after */
	if ((r->write_err = perf_data__flush(&r->data)))
		return r->write_err;
	return 0;
}

static void check_workload(struct rec *r)
{
	int status;

	if (!r->has_workload || r->workload_done)
		return;
	if (waitpid(r->wl.pid, &status, WNOHANG) == r->wl.pid) {
		r->workload_done = true;
		r->stats->workload_status = status;
	}
}

static void stop_workload(struct rec *r)
{
	if (r->has_workload && !r->workload_done) {
		kill(r->wl.pid, SIGTERM);
		if (!workload__wait(&r->wl, &r->stats->workload_status))
			r->workload_done = true;
	}
}

/*
 * A ring wakes the loop when it is half full (the kernel's default
 * watermark): at a slow rate samples would stay there, out of the file,
 * for seconds, and a SIGKILL would lose them.  The rings are read at
 * least this often.
 */
static const struct timespec drain_every = { 0, 100 * 1000 * 1000 };

static int loop(struct rec *r, const sigset_t *waitmask, char *buf, size_t size)
{
	struct pollfd *pfd = calloc((size_t)r->nr_rings + (size_t)r->nr_sb_rings + 1,
				    sizeof(*pfd));
	int live = r->nr_rings, err = 0, n, ctl = r->nr_rings + r->nr_sb_rings;
	struct evlist_ctl *c = r->opts->ctl;

	if (!pfd)
		return -ENOMEM;
	for (int i = 0; i < r->nr_rings; i++)
		pfd[i] = (struct pollfd){ .fd = r->rings[i].fd, .events = POLLIN };
	for (int i = 0; i < r->nr_sb_rings; i++)
		pfd[r->nr_rings + i] = (struct pollfd){ .fd = r->sb_rings[i].fd, .events = POLLIN };
	pfd[ctl] = (struct pollfd){ .fd = c ? c->fd : -1, .events = POLLIN };
	for (;;) {
		struct timespec tmo = drain_every;
		u64 now;

		err = drain(r, false);
		read_switch_events(r);
		if (!err)
			err = check_switch(r, buf, size);
		if (err) {
			err = err > 0 ? 0 : err;	/* > 0: --max-size reached */
			break;
		}
		check_workload(r);
		delay_tick(r);
		if (got_signal || r->stop || r->workload_done || (!live && !r->has_workload))
			break;
		now = mono_ns();
		if (r->next_delay && r->next_delay - now < 100000000ULL)	/* -D: on time */
			tmo = (struct timespec){ 0, (long)(r->next_delay > now ? r->next_delay - now : 0) };
		n = ppoll(pfd, (nfds_t)ctl + 1, &tmo, waitmask);
		if (n < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		r->stats->wakeups += n != 0;	/* perf's "Woken up": not the timer's */
		r->file_wakeups += n != 0;
		if (n > 0 && pfd[ctl].fd >= 0 && pfd[ctl].revents) {
			if (pfd[ctl].revents & (POLLIN | POLLHUP))
				control_read(r);
			else	/* not a descriptor to read: ignored, as perf */
				c->fd = -1;
			pfd[ctl].fd = c->fd;
		}
		for (int i = 0; i < r->nr_rings; i++) {
			if (pfd[i].fd >= 0 && pfd[i].revents & (POLLHUP | POLLERR)) {
				pfd[i].fd = -1;
				live--;
			}
		}
	}
	free(pfd);
	return err;
}

/* ---- the end ---- */

/*
 * The kernel's count of the samples one fd lost (PERF_FORMAT_LOST, kernel
 * >= 5.15), from a read() laid out by @rf: value, [enabled], [running],
 * [id], [lost]; a group gives nr first and { value, [id], [lost] } per
 * member, ours being the one with @id.  Return: the count, 0 when unknown.
 */
static u64 fd_lost(int fd, u64 rf, u64 id)
{
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t has_id = !!(rf & PERF_FORMAT_ID), per = 2 + has_id, nv, i;
	u64 v[3 + 3 * 64];
	ssize_t n;

	if (!(rf & PERF_FORMAT_LOST))
		return 0;
	n = read(fd, v, sizeof(v));
	if (n <= 0 || n % 8)
		return 0;
	nv = (size_t)n / 8;
	if (!(rf & PERF_FORMAT_GROUP))
		return 1 + times + has_id < nv ? v[1 + times + has_id] : 0;
	i = 1 + times;
	for (u64 k = 0; k < v[0] && i + per <= nv; k++, i += per)
		if (has_id ? v[i + 1] == id : k == 0)
			return v[i + per - 1];
	return 0;
}

/*
 * perf 6.1's LOST_SAMPLES at the end: one per fd that lost samples, with
 * that fd's id in its sample_id trailer (the other trailer fields 0), so
 * that report shows "Total Lost Samples" per event.
 */
static int write_lost_samples(struct rec *r)
{
	struct evsel *e;

	evlist__for_each_entry(r->evlist, e) {
		int n = e->fd && e->cpus && e->threads ? e->cpus->nr * e->threads->nr : 0;

		for (int i = 0; i < n; i++) {
			u64 buf[(sizeof(struct perf_record_lost_samples) + 64) / 8];
			struct perf_record_lost_samples *ls = (void *)buf;
			struct perf_sample s = { .id = e->id[i] };
			u64 lost = e->fd[i] >= 0 ? fd_lost(e->fd[i], e->attr.read_format, e->id[i]) : 0;
			int err;

			if (!lost)
				continue;
			memset(buf, 0, sizeof(buf));
			ls->header.type = PERF_RECORD_LOST_SAMPLES;
			ls->lost = lost;
			ls->header.size = (u16)(sizeof(*ls) +
						perf_sample__synthesize_id(&e->attr, &s, ls + 1));
			err = write_record(r, (const union perf_event *)ls, ls->header.size);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * The build-id cache, after the data is safe, as perf does: for a file
 * (not a pipe), unless -N or -B.  Best effort: failures only go to stats.
 */
static void cache_build_ids(struct rec *r)
{
	char dir[4096];

	if (!r->hits || r->opts->no_buildid_cache || !strcmp(r->opts->output, "-") ||
	    !r->hdr.env.nr_build_ids)
		return;
	snprintf(r->stats->buildid_dir, sizeof(r->stats->buildid_dir), "%s",
		 buildid_dir__get(dir, sizeof(dir)));
	build_id_cache__add_env(r->stats->buildid_dir, &r->hdr.env, &r->stats->cache_errs);
}

static int finish(struct rec *r, char *buf, size_t size)
{
	int err = 0;

	r->stats->bytes += r->data.written;
	if (r->zstd && r->file_out)	/* perf rounds the ratio to the nearest */
		r->hdr.env.comp_ratio = (u32)((double)r->file_in / (double)r->file_out + 0.5);
	r->hdr.env.first_sample_time = r->first_time;
	r->hdr.env.last_sample_time = r->last_time;
	if (r->hits && r->opts->buildid_all)
		dso_hits__mark_all(r->hits);
	if (r->hits)
		err = dso_hits__fill_env(r->hits, &r->hdr.env);
	if (!err)
		err = perf_data__finish(&r->data);
	else
		perf_data__close(&r->data);
	r->data_open = false;
	if (err)
		snprintf(buf, size, "%s", r->data.errmsg[0] ? r->data.errmsg : strerror(-err));
	else
		cache_build_ids(r);
	return err;
}

static void cleanup(struct rec *r)
{
	if (r->data_open)
		perf_data__close(&r->data);
	for (int i = 0; i < r->nr_rings; i++)
		perf_mmap__munmap(&r->rings[i]);
	free(r->rings);
	perf_zstd__delete(r->zstd);
	free(r->zin);
	for (int i = 0; i < r->nr_sb_rings; i++)
		perf_mmap__munmap(&r->sb_rings[i]);
	free(r->sb_rings);
	if (r->opts->switch_evlist)
		evlist__close(r->opts->switch_evlist);
	for (int i = 0; r->kept && i < r->opts->switch_max_files; i++)
		free(r->kept[i]);
	free(r->kept);
	evlist__close(r->evlist);
	dso_hits__delete(r->hits);
	perf_header__exit(&r->hdr);
	if (r->has_workload && r->wl.go_fd >= 0)
		workload__abort(&r->wl);
}

static int prepare(struct rec *r, int argc, const char **argv, char *buf, size_t size)
{
	const struct target *t = &r->opts->target;
	int err = evlist__create_maps(r->evlist, t, buf, size);

	if (err)
		return err;
	if (argc) {
		err = workload__prepare(&r->wl, argv);
		if (err) {
			snprintf(buf, size, "cannot start '%s': %s", argv[0], strerror(-err));
			return err;
		}
		r->has_workload = true;
		if (target__none(t))
			evlist__set_workload_pid(r->evlist, r->wl.pid);
	}
	err = r->opts->per_thread ? 0 : set_record_cpus(r->evlist, t);
	if (!err)
		err = open_events(r->evlist, buf, size);
	if (!err)	/* the events are still disabled: nothing unfiltered is recorded */
		err = evlist__apply_filters(r->evlist, buf, size);
	if (!err)
		err = mmap_rings(r, buf, size);
	if (!err)
		err = open_switch_events(r, buf, size);
	return err;
}

static int start(struct rec *r, const char **argv, char *buf, size_t size)
{
	int err;

	if (!target__none(&r->opts->target)) {
		if (!record__delayed(r->opts))
			evlist__enable(r->evlist);
		if (r->opts->switch_evlist)
			evlist__enable(r->opts->switch_evlist);
	}
	if (!r->has_workload) {
		delay_start(r);
		return 0;
	}
	err = workload__start(&r->wl);
	if (err) {
		r->workload_done = true;
		snprintf(buf, size, "cannot run '%s': %s", argv[0], strerror(-err));
		return err;
	}
	delay_start(r);
	return 0;
}

/**
 * record__run - see util/record/record.h
 */
int record__run(struct evlist *evlist, const struct record_opts *o, int argc, const char **argv,
		int cmd_argc, const char **cmd_argv, struct record_stats *stats, char *buf,
		size_t size)
{
	struct rec r = { .opts = o, .evlist = evlist, .stats = stats };
	sigset_t waitmask;
	int err, err2;

	memset(stats, 0, sizeof(*stats));
	stats->workload_status = -1;
	r.wl.go_fd = r.wl.err_fd = -1;
	setup_signals(o, &waitmask);
	if (o->switch_secs)
		r.next_switch = mono_ns() + o->switch_secs * 1000000000ULL;
	err = prepare(&r, argc, argv, buf, size);
	if (!err && o->realtime_prio) {
		/* --realtime: the recorder only (the command is forked already), as perf */
		struct sched_param sp = { .sched_priority = o->realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			err = -errno;
			snprintf(buf, size, "cannot run with the realtime priority %d (SCHED_FIFO): %s",
				 o->realtime_prio, strerror(errno));
		}
	}
	if (!err)
		err = open_output(&r, cmd_argc, cmd_argv, buf, size);
	if (!err && !o->no_buildid && !(r.hits = dso_hits__new()))
		err = -ENOMEM;
	if (!err)
		err = synthesize(&r, false);
	if (!err)
		err = start(&r, argv, buf, size);
	if (!err)
		err = loop(&r, &waitmask, buf, size);
	if (r.write_err && !buf[0])
		snprintf(buf, size, "%s", r.data.errmsg);
	stats->signal = got_signal;
	if (r.data_open) {
		evlist__disable(evlist);
		stop_workload(&r);
		if (!r.write_err)
			drain(&r, true);
		if (!r.write_err && o->tail_synthesize) {	/* the state at the end */
			struct synth s;

			synth_init(&r, &s);
			synthesize_state(&r, &s);
		}
		if (!r.write_err)
			write_lost_samples(&r);
		if (o->timestamp_filename)
			err2 = switch_output(&r, true, buf, size);
		else
			err2 = finish(&r, buf, size);
		err = err ? err : err2;
		stats->out_bytes = r.data.out_bytes;
	}
	cleanup(&r);
	sigprocmask(SIG_SETMASK, &waitmask, NULL);
	return err;
}
