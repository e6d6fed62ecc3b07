// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf ftrace: record the ftrace ring buffer of a private tracefs instance
 * into trace-cmd's trace.dat, show it as text, report it as tables, or
 * print it live.
 */
#include <errno.h>
#include <fnmatch.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>

#include "builtin.h"
#include "util/lib/io.h"
#include "util/lib/debug.h"
#include "util/lib/file-out.h"
#include "util/trace/ftrace-record.h"
#include "util/lib/parse-options.h"
#include "util/trace/trace-dat.h"
#include "util/trace/tracefs-instance.h"
#include "util/event/workload.h"
#include "util/trace/ftrace-report.h"
#include "util/trace/ftrace-setup.h"
#include "util/trace/ftrace-show.h"

struct ftrace_opts {
	const char *output, *tracer, *cpus, *clock, *graph_opts, *func_opts, *compression;
	int file_version;
	const char *filter_err;	/* a --filter without its own -e before it */
	struct string_list events, filters, funcs, nofuncs, gfuncs, nogfuncs;
	int pid, all, inherit, depth, buffer_kb, cleanup;
	double duration;
};

static volatile sig_atomic_t stop_sig;

static void note_stale(void);

static const char *const record_usage[] = {
	"tperf ftrace record [<options>] [-- <command> [<args>]]", NULL };
static const char *const live_usage[] = {
	"tperf ftrace [trace] [<options>] [-- <command> [<args>]]",
	"tperf ftrace record [<options>] [-- <command> [<args>]]",
	"tperf ftrace show [<options>]",
	"tperf ftrace report [<options>]",
	"tperf ftrace latency -T <func> [-- <command> [<args>]]", NULL };

#define TRACE_OPTIONS(o)							\
	OPT_STRING('t', "tracer", &(o)->tracer, "tracer",			\
		   "function, function_graph or nop (default: nop with -e, else function)"), \
	OPT_CALLBACK('e', "event", &(o)->events, "sys:name",			\
		     "trace this event (globs allowed, repeatable)", parse_opt_string_list), \
	OPT_CALLBACK(0, "filter", (o), "expr",					\
		     "filter for the events of the preceding -e", parse_filter),	\
	OPT_CALLBACK('T', "trace-funcs", &(o)->funcs, "func",			\
		     "trace only these functions", parse_opt_string_list),	\
	OPT_CALLBACK('N', "notrace-funcs", &(o)->nofuncs, "func",		\
		     "do not trace these functions", parse_opt_string_list),	\
	OPT_CALLBACK('G', "graph-funcs", &(o)->gfuncs, "func",			\
		     "graph these functions", parse_opt_string_list),		\
	OPT_CALLBACK('g', "nograph-funcs", &(o)->nogfuncs, "func",		\
		     "do not graph these functions", parse_opt_string_list),	\
	OPT_INTEGER('D', "graph-depth", &(o)->depth, "maximum function_graph depth"), \
	OPT_STRING(0, "graph-opts", &(o)->graph_opts, "options",		\
		   "function_graph options: nosleep-time,noirqs,verbose"), \
	OPT_STRING(0, "func-opts", &(o)->func_opts, "options",		\
		   "function tracer options: call-graph,irq-info"),		\
	OPT_INTEGER('p', "pid", &(o)->pid, "trace this process"),		\
	OPT_BOOLEAN('a', "all-cpus", &(o)->all, "trace the whole system"),	\
	OPT_STRING('C', "cpu", &(o)->cpus, "cpus", "trace only these CPUs (0,2-3)"), \
	OPT_BOOLEAN(0, "inherit", &(o)->inherit, "trace the children of the command too"), \
	OPT_INTEGER('m', "buffer-size", &(o)->buffer_kb, "ring buffer size per CPU in KiB"), \
	OPT_STRING(0, "clock", &(o)->clock, "clock", "trace clock (local, global, mono, ...)"), \
	OPT_DOUBLE('d', "duration", &(o)->duration, "stop after this many seconds")

/*
 * --filter applies to the -e given just before it: o->filters.v[i] is the
 * filter of o->events.v[i] (NULL for none).  Misuse is reported after
 * parsing, in one message.
 */
static int parse_filter(const struct option *opt, const char *arg, int unset)
{
	struct ftrace_opts *o = opt->value;
	struct option list = { .value = &o->filters };

	if (unset || o->filter_err)
		return 0;
	if (!o->events.n || o->filters.n >= o->events.n) {
		o->filter_err = arg;
		return 0;
	}
	while (o->filters.n < o->events.n - 1)
		if (parse_opt_string_list(&list, NULL, 0))
			return -1;
	if (parse_opt_string_list(&list, arg, 0))
		return -1;
	return 0;
}

/* "0,2-3" -> list of CPUs; NULL for all.  Returns the count or -EINVAL. */
static int parse_cpus(const char *s, int **out)
{
	int n = 0, max = sysconf(_SC_NPROCESSORS_CONF);
	int *v = calloc(max, sizeof(int));

	*out = v;
	if (!v)
		return -ENOMEM;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -EINVAL;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b < a || b >= max || (*end && *end != ','))
			return -EINVAL;
		for (long c = a; c <= b; c++)
			if (n < max)
				v[n++] = c;
		s = *end ? end + 1 : end;
	}
	return n;
}

/* Wait for the end: the command exits, a signal, or -d. */
static void wait_for_end(struct workload *w, pid_t target, double duration, int *status)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!stop_sig) {
		if (target > 0 && kill(target, 0) && errno == ESRCH)
			break;	/* -p: the process is gone */
		if (w->pid > 0 && waitpid(w->pid, status, WNOHANG) == w->pid) {
			w->pid = -1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (duration > 0 && (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 >= duration)
			break;
		usleep(20000);
	}
}

/* per_cpu/cpuN/stats of the traced CPUs, concatenated; lost events summed. */
static char *cpu_stats(int nr_cpus, unsigned long long *lost)
{
	size_t cap = 1024 * (nr_cpus + 1), len = 0;
	char *all = calloc(1, cap);

	*lost = 0;
	for (int i = 0; all && i < nr_cpus; i++) {
		char file[64], buf[1024];
		const char *p;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		if (tracefs_instance__read(file, buf, sizeof(buf)) < 0)
			continue;
		len += snprintf(all + len, cap - len, "CPU: %d\n%s", i, buf);
		if ((p = strstr(buf, "overrun:")))
			*lost += strtoull(p + 8, NULL, 10);
		if ((p = strstr(buf, "dropped events:")))
			*lost += strtoull(p + 15, NULL, 10);
	}
	return all;
}

/* Events in the per-CPU page files, and how many CPUs had some. */
static unsigned long long count_events(struct ftrace_recorder *r, int *ncpus)
{
	struct ftrace_page_fmt fmt;
	unsigned long long n = 0;
	char *page = malloc(r->page_size);

	ftrace_page_fmt__init_default(&fmt, sizeof(long), 0, r->page_size);
	*ncpus = 0;
	for (int i = 0; page && i < r->nr_cpus; i++) {
		off_t off = 0;
		unsigned long long before = n;

		while (io__pread_all(r->tmp_fds[i], page, r->page_size, off) == (ssize_t)r->page_size) {
			struct ftrace_page_iter it;
			struct ftrace_page_event ev;

			if (ftrace_page__init(&it, &fmt, page, r->page_size))
				break;
			while (ftrace_page__next(&it, &ev) > 0)
				n++;
			off += r->page_size;
		}
		*ncpus += n > before;
	}
	free(page);
	return n;
}

/* How record's -o is opened: version 7 goes back to patch sizes (no FIFO) */
static int output_how(const struct ftrace_opts *o)
{
	return FILE_CREATE_BACKUP | (o->file_version == 7 ? FILE_CREATE_SEEKABLE : 0);
}

static int write_dat(struct ftrace_opts *o, const char *mnt, struct ftrace_recorder *r,
		     struct string_list *names)
{
	char clock[512] = "", err[512], *stats;
	unsigned long long lost, nev;
	struct trace_dat_wparams p = {
		.tracefs = mnt, .events = names->v, .nr_events = names->n,
		.nr_cpus = r->nr_cpus, .cpu_fds = r->tmp_fds, .clock_text = clock,
		.version = "tperf " TPERF_VERSION, .file_version = o->file_version,
		.compression = o->compression,
	};
	struct stat st = { 0 };
	int ncpus, ret, fd;

	/* as record's -o: an existing file becomes FILE.old, no link followed */
	fd = file__create(o->output, output_how(o), 0644, err, sizeof(err));
	if (fd < 0) {
		ui__error("%s", err);
		return fd;
	}
	tracefs_instance__read("trace_clock", clock, sizeof(clock));
	p.cpustats = stats = cpu_stats(r->nr_cpus, &lost);
	ret = trace_dat__write_fd(fd, o->output, &p, err, sizeof(err));
	free(stats);
	fstat(fd, &st);
	if (close(fd) && !ret) {
		ret = -errno;
		snprintf(err, sizeof(err), "cannot write '%s': %s", o->output, strerror(errno));
	}
	if (ret) {
		ui__error("%s", err);
		return ret;
	}
	nev = count_events(r, &ncpus);
	fprintf(stderr, "[ tperf ftrace: %llu events from %d CPUs, %llu lost, wrote %.1f MB %s ]\n",
		nev, ncpus, lost, st.st_size / 1e6, o->output);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted (the writer groups by system) and without duplicates. */
static void sort_names(struct string_list *l)
{
	int n = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	for (int i = 0; i < l->n; i++) {
		if (!n || strcmp(l->v[i], l->v[n - 1]))
			l->v[n++] = l->v[i];
		else
			free((char *)l->v[i]);
	}
	l->n = n;
}

/* Copy the instance's trace_pipe to stdout until the end. */
static int live_loop(struct workload *w, double duration, int *status)
{
	char path[600], buf[65536];
	int fd = open(tracefs_instance__path("trace_pipe", path, sizeof(path)),
		      O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct timespec t0, now;
	int done = 0;

	if (fd < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, n, stdout) != (size_t)n)
				done = 1;
		fflush(stdout);
		if (done || stop_sig)
			break;
		if (w->pid > 0 && waitpid(w->pid, status, WNOHANG) == w->pid) {
			w->pid = -1;
			done = 1;	/* one more read for the tail */
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (duration > 0 && (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 >= duration)
			done = 1;
		poll(&p, 1, 50);
	}
	close(fd);
	return 0;
}

static char *output_dir(const char *output)
{
	char *dup = strdup(output), *slash = strrchr(dup, '/');

	if (!slash) {
		free(dup);
		return strdup(".");
	}
	if (slash == dup)
		slash[1] = 0;
	else
		*slash = 0;
	return dup;
}

/* The pages go to temporary files beside the output: a full disk shows here. */
static void stop_failed(const struct ftrace_opts *o, int err)
{
	char *dir = output_dir(o->output);

	ui__error("cannot read the ring buffer (temporary files in '%s'): %s", dir ? dir : ".",
		  strerror(-err));
	free(dir);
}

static int start_workload(struct workload *w, const char **argv)
{
	int ret = workload__start(w);

	if (ret)
		ui__error("cannot run '%s': %s", argv[0], strerror(-ret));
	return ret;
}

static int run_trace(struct ftrace_opts *o, int argc, const char **argv, int live)
{
	struct workload w = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct string_list names = { 0 };
	struct ftrace_recorder r = { 0 };
	const char *mnt = tracefs_instance__mount_point();
	int *cpus = NULL, ncpus = 0, status = 0, ret;
	char msg[512];
	char name[64], *dir;

	if (o->pid != -1 && (o->pid <= 0 || (kill(o->pid, 0) && errno == ESRCH))) {
		/* it recorded nothing and said "0 events", status 0 (perf: 255, silent);
		 * 0 and below traced every process */
		ui__error("cannot find process '%d': no such process; check the ids with 'ps'",
			  o->pid);
		return 255;
	}
	/* the file is written at the end: what would refuse it, before the work */
	if (!live && file__create_check(o->output, output_how(o), msg, sizeof(msg))) {
		ui__error("%s", msg);
		return 1;
	}
	if (!mnt) {
		ui__error("tracefs is not mounted and cannot be: mount it at /sys/kernel/tracing");
		return 1;
	}
	if (!o->tracer)
		o->tracer = o->events.n ? "nop" : "function";
	if (o->cpus && (ncpus = parse_cpus(o->cpus, &cpus)) <= 0) {
		ui__error("invalid CPU list '%s': use e.g. 0,2-3", o->cpus);
		free(cpus);
		return 129;
	}
	note_stale();
	tracefs_instance__on_signal(&stop_sig);
	snprintf(name, sizeof(name), "tperf-%d", (int)getpid());
	ret = tracefs_instance__create(name);
	if (ret) {
		ui__error("cannot create the tracefs instance '%s': %s", name,
			  builtin__tracefs_strerror(-ret));
		free(cpus);
		return ret == -EACCES || ret == -EPERM ? 255 : 1;	/* perf's for no permission */
	}
	if (argc && (ret = workload__prepare(&w, argv))) {
		ui__error("cannot start '%s': %s", argv[0], strerror(-ret));
		goto out;
	}
	{
		const struct ftrace_setup setup = {
			.tracer = o->tracer, .func_opts = o->func_opts,
			.graph_opts = o->graph_opts, .events = &o->events,
			.filters = &o->filters, .funcs = &o->funcs, .nofuncs = &o->nofuncs,
			.gfuncs = &o->gfuncs, .nogfuncs = &o->nogfuncs,
			.buffer_kb = o->buffer_kb, .clock = o->clock, .inherit = o->inherit,
			.pid = argc && !o->all ? w.pid : o->pid, .cpus = cpus, .ncpus = ncpus };

		ret = ftrace_setup__apply(&setup, mnt, &names, msg, sizeof(msg));
		if (ret)
			ui__error("%s", msg);
	}
	sort_names(&names);
	if (!ret && !live) {
		dir = output_dir(o->output);
		ret = ftrace_recorder__start(&r, ncpus ? cpus : NULL, ncpus, dir);
		if (ret)
			ui__error("cannot read the ring buffer (temporary files in '%s'): %s", dir,
			      strerror(-ret));
		free(dir);
	}
	if (!ret)
		ret = tracefs_instance__write("tracing_on", "1");
	if (!ret && argc)
		ret = start_workload(&w, argv);
	if (ret) {
		if (w.pid > 0)
			workload__abort(&w);
		goto out;
	}
	if (live)
		live_loop(&w, o->duration, &status);
	else
		wait_for_end(&w, argc ? -1 : o->pid, o->duration, &status);
	tracefs_instance__write("tracing_on", "0");
	if (!live) {
		ret = ftrace_recorder__stop(&r);
		if (ret)
			stop_failed(o, ret);
		else
			ret = write_dat(o, mnt, &r, &names);
	}
	if (w.pid > 0) {
		kill(w.pid, SIGTERM);
		workload__wait(&w, &status);
	}
out:
	ftrace_recorder__exit(&r);
	{
		char left[64];
		int err = tracefs_instance__remove_named(left, sizeof(left));

		if (err)
			ui__warning("cannot remove the tracefs instance '%s': %s; "
				    "'tperf ftrace --cleanup' removes it", left, strerror(-err));
	}
	for (int i = 0; i < names.n; i++)
		free((char *)names.v[i]);
	free(names.v);
	free(cpus);
	if (stop_sig && !tracefs_instance__user_stop(stop_sig)) {
		/* a closed pipe, SIGUSR1, a timer: tracefs restored, end as the signal would */
		fflush(stdout);
		signal(stop_sig, SIG_DFL);
		raise(stop_sig);
	}
	if (!ret && stop_sig && !argc)
		return 0;
	return ret ? 1 : 0;
}

/*
 * -D and --graph-opts depth=/thresh= would write max_graph_depth and
 * tracing_thresh, which tracefs has only at the top level (no instance has
 * them): tperf does not touch the top level, so they are display filters of
 * `show` instead.  129 with the way to get the same result.
 */
static int check_graph_opts(struct ftrace_opts *o)
{
	const char *g = o->graph_opts ? o->graph_opts : "";
	const char *depth = strstr(g, "depth="), *thresh = strstr(g, "thresh=");

	if (o->depth > 0 || (depth && (depth == g || depth[-1] == ','))) {
		ui__error("-D/--graph-depth: max_graph_depth exists only at the top level of tracefs, which tperf leaves alone; "
		      "record without it and show with 'tperf ftrace show -D %d'",
		      o->depth > 0 ? o->depth : atoi(depth + 6));
		return 129;
	}
	if (thresh && (thresh == g || thresh[-1] == ',')) {
		ui__error("--graph-opts thresh: tracing_thresh exists only at the top level of tracefs, which tperf leaves alone; "
		      "record without it and show with 'tperf ftrace show --graph-thresh %d'",
		      atoi(thresh + 7));
		return 129;
	}
	return 0;
}

/* --file-version and --compression: 129 on a bad combination. */
static int check_file_opts(struct ftrace_opts *o)
{
	if (!o->file_version)
		o->file_version = o->compression ? 7 : 6;
	if (o->file_version != 6 && o->file_version != 7) {
		ui__error("unsupported trace.dat version %d: use 6 or 7", o->file_version);
		return 129;
	}
	if (o->compression && !strcmp(o->compression, "any"))
		o->compression = "zstd";
	if (o->compression && strcmp(o->compression, "none") &&
	    strcmp(o->compression, "zstd") && strcmp(o->compression, "zlib")) {
		ui__error("unknown compression '%s': use zstd, zlib, any or none", o->compression);
		return 129;
	}
	if (o->compression && o->file_version != 7) {
		ui__error("--compression needs --file-version 7 (version 6 files are not compressed)");
		return 129;
	}
	return 0;
}

/* --cleanup: remove what killed tperfs left; @argc: the arguments left (none) */
static int cleanup(int argc)
{
	char names[8192];
	size_t nr;
	int ret, failed = 0;

	if (argc) {
		ui__error("--cleanup takes no command");
		return 129;
	}
	ret = tracefs_instance__stale(names, sizeof(names), &nr);
	if (ret) {
		ui__error("cannot list the tracefs instances: %s", builtin__tracefs_strerror(-ret));
		return 1;
	}
	if (!nr)
		printf("no tracefs instance left by a tperf that no longer runs\n");
	for (const char *n = names; *n; n += strlen(n) + 1) {
		ret = tracefs_instance__remove_stale(n);
		if (ret) {
			ui__error("cannot remove the tracefs instance '%s': %s", n,
				  builtin__tracefs_strerror(-ret));
			failed = 1;
		} else {
			printf("removed the tracefs instance '%s' (its tperf no longer runs)\n", n);
		}
	}
	return failed;
}

/* Say which instances killed tperfs left, and how to remove them. */
static void note_stale(void)
{
	char names[8192];
	size_t nr;

	if (tracefs_instance__stale(names, sizeof(names), &nr))
		return;
	for (const char *n = names; *n; n += strlen(n) + 1)
		ui__warning("the tracefs instance '%s' was left by a tperf that no longer runs "
			    "(killed?): remove it with 'tperf ftrace --cleanup'", n);
}

static int ftrace_record(int argc, const char **argv, int live)
{
	struct ftrace_opts o = { .output = "trace.dat", .pid = -1 };
	const struct option record_options[] = {
		OPT_STRING('o', "output", &o.output, "file", "the trace.dat file to write"),
		OPT_INTEGER(0, "file-version", &o.file_version, "trace.dat version: 6 (default) or 7"),
		OPT_STRING(0, "compression", &o.compression, "algo",
			   "version 7: compress with zstd, zlib, any (zstd) or none"),
		TRACE_OPTIONS(&o),
		OPT_END()
	};
	const struct option live_options[] = {
		TRACE_OPTIONS(&o),
		OPT_BOOLEAN(0, "cleanup", &o.cleanup,
			    "remove the instances of tperfs that no longer run (killed), then exit"),
		OPT_END()
	};
	int ret;

	argc = parse_options(argc, argv, live ? live_options : record_options,
			     live ? live_usage : record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (o.cleanup) {
		ret = cleanup(argc);
		goto out;
	}
	if ((ret = check_file_opts(&o)) || (ret = check_graph_opts(&o)))
		goto out;
	if (o.filter_err) {
		ui__error("--filter '%s' has no event of its own: each --filter follows the -e it applies to",
		      o.filter_err);
		ret = 129;
		goto out;
	}
	ret = run_trace(&o, argc, argv, live);
out:
	free(o.events.v);
	free(o.filters.v);
	free(o.funcs.v);
	free(o.nofuncs.v);
	free(o.gfuncs.v);
	free(o.nogfuncs.v);
	return ret;
}

struct show_opts {
	const char *input, *comm, *event, *time, *sort;
	int cpu, pid, latency, graph_depth;
	double percent_limit, graph_thresh;
	struct ftrace_filter f;
};

#define FILTER_OPTIONS(s)							\
	OPT_STRING('i', "input", &(s)->input, "file", "the trace.dat file to read"), \
	OPT_INTEGER(0, "cpu", &(s)->cpu, "only events of this CPU"),		\
	OPT_STRING(0, "comm", &(s)->comm, "comm", "only events of tasks with this name"), \
	OPT_INTEGER(0, "pid", &(s)->pid, "only events of this task"),		\
	OPT_STRING(0, "time", &(s)->time, "start,stop", "only events in this time window (seconds)"), \
	OPT_STRING(0, "event", &(s)->event, "sys:name", "only these events (glob)")

static int open_input(struct show_opts *s, struct trace_dat *td)
{
	char err[512];
	int ret;

	s->f.cpu = s->cpu;
	s->f.pid = s->pid;
	s->f.comm = s->comm;
	s->f.event = s->event;
	if (s->time && ftrace_show__parse_time(s->time, &s->f.start, &s->f.stop)) {
		ui__error("invalid time window '%s': use START,STOP in seconds", s->time);
		return 129;
	}
	ret = trace_dat__open(td, s->input, err, sizeof(err));
	if (ret) {
		ui__error("%s", err);
		return 1;
	}
	return 0;
}

/*
 * Whether show's -D / --graph-thresh hide a function_graph record: what the
 * kernel would not have recorded with max_graph_depth / tracing_thresh.
 */
static int graph_hidden(struct show_opts *s, struct ftrace_line *l)
{
	unsigned long long func, depth, ns;
	int kind;

	if (s->graph_depth <= 0 && s->graph_thresh <= 0)
		return 0;
	kind = ftrace_show__graph(l, &func, &depth, &ns);
	if (kind == FTRACE_GRAPH_NONE)
		return 0;
	if (s->graph_depth > 0 && depth >= (unsigned long long)s->graph_depth)
		return 1;
	return s->graph_thresh > 0 && (kind == FTRACE_GRAPH_ENTRY || ns < s->graph_thresh * 1000);
}

/* The next decoded event that -D / --graph-thresh keep: 1, 0 at the end, -EINVAL. */
static int next_line(struct trace_dat_iter *it, struct show_opts *s, struct ftrace_line *l)
{
	struct trace_dat_event ev;
	int ret;

	while ((ret = trace_dat__iter_next(it, &ev)) > 0) {
		if (ftrace_show__decode(it->td, &ev, l)) {
			it->bad_offset = 0;
			return -EINVAL;
		}
		if (!graph_hidden(s, l))
			return 1;
	}
	return ret;
}

/*
 * A funcgraph_entry directly followed (in time, on any CPU, as trace-cmd
 * looks) by the exit of the same task and function is a leaf call: @l gets
 * its duration and the exit is consumed.  Otherwise @next is kept.
 */
static int merge_leaf(struct trace_dat_iter *it, struct show_opts *s, struct ftrace_line *l,
		      struct ftrace_line *next, int *have_next)
{
	unsigned long long func, depth, ns, nfunc, ndepth;
	int ret;

	if (ftrace_show__graph(l, &func, &depth, &ns) != FTRACE_GRAPH_ENTRY)
		return 0;
	if (it->td->nr_buffers > 1) {	/* trace-cmd looks in the entry's buffer */
		struct trace_dat_event ev;

		ret = trace_dat__iter_peek(it, l->buffer, &ev);
		if (ret <= 0 || ftrace_show__decode(it->td, &ev, next))
			return ret < 0 ? ret : 0;
		if (ftrace_show__graph(next, &nfunc, &ndepth, &ns) == FTRACE_GRAPH_EXIT &&
		    nfunc == func && next->pid == l->pid) {
			l->leaf = 1;
			l->leaf_ns = ns;
			trace_dat__iter_drop(it, l->buffer);
		}
		return 0;
	}
	ret = next_line(it, s, next);
	if (ret <= 0)
		return ret;
	if (ftrace_show__graph(next, &nfunc, &ndepth, &ns) == FTRACE_GRAPH_EXIT &&
	    nfunc == func && next->pid == l->pid) {
		l->leaf = 1;
		l->leaf_ns = ns;
	} else {
		*have_next = 1;
	}
	return 0;
}

/* Call @fn for every event passing the filters; 1 on corrupt data. */
static int for_each_line(struct trace_dat *td, struct show_opts *s, int leaves,
			 int (*fn)(struct trace_dat *, struct ftrace_line *, void *), void *arg)
{
	struct trace_dat_iter it;
	struct ftrace_line line, next;
	int ret, have_next = 0;

	if (trace_dat__iter_init(&it, td))
		return 1;
	for (;;) {
		if (have_next) {
			line = next;
			have_next = 0;
		} else if ((ret = next_line(&it, s, &line)) <= 0) {
			break;
		}
		if (leaves && (ret = merge_leaf(&it, s, &line, &next, &have_next)) < 0)
			break;
		ret = 1;
		if (ftrace_show__match(td, &line, &s->f) && fn(td, &line, arg))
			break;
	}
	if (ret < 0)
		ui__error("'%s': corrupt CPU data at offset %llu", td->path,
		      (unsigned long long)it.bad_offset);
	trace_dat__iter_exit(&it);
	return ret < 0;
}

struct show_print {
	int latency;
	struct trace_seq seq;	/* reused for every line */
};

static int print_line(struct trace_dat *td, struct ftrace_line *line, void *arg)
{
	struct show_print *p = arg;

	trace_seq_reset(&p->seq);
	ftrace_show__format(td, line, p->latency, &p->seq);
	trace_seq_putc(&p->seq, '\n');
	return fwrite(p->seq.buffer, 1, p->seq.len, stdout) != p->seq.len;
}

static int ftrace_show(int argc, const char **argv)
{
	struct show_opts s = { .input = "trace.dat", .cpu = -1, .pid = -1 };
	const char *const usage[] = { "tperf ftrace show [<options>]", NULL };
	const struct option options[] = {
		FILTER_OPTIONS(&s),
		OPT_BOOLEAN('l', "latency", &s.latency, "show the latency columns as `trace` does"),
		OPT_INTEGER('D', "graph-depth", &s.graph_depth,
			    "function_graph: hide calls at this depth and deeper"),
		OPT_DOUBLE(0, "graph-thresh", &s.graph_thresh,
			   "function_graph: only returns of calls of at least this many us"),
		OPT_END()
	};
	struct show_print pr;
	struct trace_dat td;
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if ((ret = open_input(&s, &td)))
		return ret;
	printf("cpus=%d\n", td.nr_cpus);
	if (td.latency_text) {	/* a latency file: its text, as trace-cmd prints it */
		fwrite(td.latency_text, 1, td.latency_len, stdout);
		putchar('\n');
		trace_dat__close(&td);
		return fflush(stdout) || ferror(stdout) ? (ui__error("cannot write the output: %s",
								 strerror(errno)), 1) : 0;
	}
	pr.latency = s.latency;
	trace_seq_init(&pr.seq);
	ret = for_each_line(&td, &s, 1, print_line, &pr);
	trace_seq_destroy(&pr.seq);
	trace_dat__close(&td);
	if (fflush(stdout) || ferror(stdout)) {
		ui__error("cannot write the output: %s", strerror(errno));
		return 1;
	}
	return ret;
}

#include <search.h>

static void print_report(struct ftrace_report *r, double limit)
{
	printf("# Samples: %llu\n#\n# Overhead   Samples", r->total);
	for (int i = 0; i < r->nkeys; i++)
		printf("  %s", r->keys[i]);
	printf("\n# ........  ........\n#\n");
	ftrace_report__sort(r);
	for (size_t i = 0; i < r->nrows; i++) {
		double pct = 100.0 * r->rows[i]->count / (r->total ? r->total : 1);
		char *p;

		if (pct < limit)
			continue;
		for (p = r->rows[i]->key; (p = strchr(p, '\t'));)
			*p = ' ', p++;
		printf("%9.2f%%  %8llu  %s\n", pct, r->rows[i]->count, r->rows[i]->key);
	}
}

/* function_graph: calls, total, self and average time per function. */
static void print_graph(struct trace_dat *td, struct ftrace_graph_stats *g, double limit)
{
	unsigned long long all = 0;

	for (size_t i = 0; i < g->nr; i++)
		all += g->funcs[i].self_ns;
	ftrace_report__sort_graph(g);
	printf("# Functions: %zu\n#\n#     Self      Calls     Total(us)      Self(us)       Avg(us)  Function\n"
	       "# ........  ........  ............  ............  ............  ........\n#\n", g->nr);
	for (size_t i = 0; i < g->nr; i++) {
		struct ftrace_graph_func *f = &g->funcs[i];
		double pct = 100.0 * f->self_ns / (all ? all : 1);
		const char *name = tep_find_function(td->tevent.tep, f->addr);

		if (pct < limit)
			continue;
		printf("%9.2f%%  %8llu  %12.3f  %12.3f  %12.3f  ", pct, f->calls, f->total_ns / 1e3,
		       f->self_ns / 1e3, f->total_ns / 1e3 / f->calls);
		if (name)
			printf("%s\n", name);
		else
			printf("0x%llx\n", f->addr);
	}
}

/*
 * Count by @sort and print the table; by default (@auto_sym) a function or
 * function_graph trace is reported by function (sym) instead of by event.
 */
static int run_report(struct trace_dat *td, struct show_opts *s, const char *sort, int auto_sym)
{
	struct ftrace_report r;
	int ret;

	if (ftrace_report__init(&r, sort))
		return 1;
	ret = for_each_line(td, s, 0, ftrace_report__add_line, &r);
	if (!ret && !r.err && auto_sym && ftrace_report__functions_only(&r)) {
		ftrace_report__exit(&r);
		return run_report(td, s, "sym", 0);
	}
	if (!ret && !r.err && r.graph && r.graph->nr)
		print_graph(td, r.graph, s->percent_limit);
	else if (!ret && !r.err)
		print_report(&r, s->percent_limit);
	ret = ret || r.err;
	ftrace_report__exit(&r);
	return ret;
}

static int ftrace_report(int argc, const char **argv)
{
	struct show_opts s = { .input = "trace.dat", .cpu = -1, .pid = -1, .sort = NULL };
	const char *const usage[] = { "tperf ftrace report [<options>]", NULL };
	const char *fields = NULL;
	const struct option options[] = {
		FILTER_OPTIONS(&s),
		OPT_STRING('s', "sort", &s.sort, "key[,key...]",
			   "sort by event, comm, pid, cpu, sym or SYS:NAME.FIELD (default: event, sym for function traces)"),
		OPT_STRING('F', "fields", &fields, "key[,key...]", "the same as --sort"),
		OPT_DOUBLE(0, "percent-limit", &s.percent_limit, "hide rows below this percentage"),
		OPT_BOOLEAN(0, "stdio", &s.latency, "print tables as text (the only mode)"),
		OPT_END()
	};
	struct trace_dat td;
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if ((ret = open_input(&s, &td)))
		return ret;
	if (!s.sort && fields)
		s.sort = fields;
	ret = run_report(&td, &s, s.sort ? s.sort : "event", !s.sort);
	trace_dat__close(&td);
	return ret;
}

/* Durations of @func's calls (funcgraph_exit) in log2 microsecond buckets. */
static int latency_hist(struct trace_dat *td, const char *func, unsigned long long hist[22])
{
	struct trace_dat_iter it;
	struct trace_dat_event ev;
	int ret;

	if (trace_dat__iter_init(&it, td))
		return -ENOMEM;
	while ((ret = trace_dat__iter_next(&it, &ev)) > 0) {
		struct ftrace_line l;
		unsigned long long addr, call, rtn, us;
		const char *name;
		int b = 0;

		if (ftrace_show__decode(td, &ev, &l) || !l.event ||
		    strcmp(l.event->name, "funcgraph_exit") ||
		    tep_get_field_val(NULL, l.event, "func", &l.rec, &addr, 0) ||
		    tep_get_field_val(NULL, l.event, "calltime", &l.rec, &call, 0) ||
		    tep_get_field_val(NULL, l.event, "rettime", &l.rec, &rtn, 0))
			continue;
		name = tep_find_function(td->tevent.tep, addr);
		if (!name || strcmp(name, func))
			continue;
		us = rtn > call ? (rtn - call) / 1000 : 0;
		while (us && b < 21) {
			us >>= 1;
			b++;
		}
		hist[b]++;
	}
	trace_dat__iter_exit(&it);
	return ret;
}

static void print_hist(const unsigned long long hist[22])
{
	unsigned long long total = 0;

	for (int i = 0; i < 22; i++)
		total += hist[i];
	printf("#   DURATION     |      COUNT | GRAPH                                          |\n");
	for (int i = 0; i < 22; i++) {
		int bar = total ? (int)(hist[i] * 46 / total) : 0;
		unsigned long long lo = i ? 1ULL << (i - 1) : 0, hi = 1ULL << i;

		if (i == 21)
			printf("  %6llu - ...  us |", lo);
		else
			printf("  %6llu - %-6llu us |", lo, hi);
		printf(" %10llu | %-*.*s%*s |\n", hist[i], bar, bar,
		       "##############################################", 46 - bar, "");
	}
}

static int ftrace_latency(int argc, const char **argv)
{
	struct ftrace_opts o = { .pid = -1, .tracer = "function_graph" };
	const char *const usage[] = { "tperf ftrace latency -T <func> [-- <command> [<args>]]", NULL };
	const struct option options[] = {
		OPT_CALLBACK('T', "trace-funcs", &o.funcs, "func", "the function to measure",
			     parse_opt_string_list),
		OPT_INTEGER('p', "pid", &o.pid, "trace this process"),
		OPT_BOOLEAN('a', "all-cpus", &o.all, "trace the whole system"),
		OPT_STRING('C', "cpu", &o.cpus, "cpus", "trace only these CPUs"),
		OPT_DOUBLE('d', "duration", &o.duration, "stop after this many seconds"),
		OPT_END()
	};
	unsigned long long hist[22] = { 0 };
	char tmpl[] = "/tmp/tperf-latency-XXXXXX", err[512], file[64];
	struct trace_dat td;
	int ret;

	argc = parse_options(argc, argv, options, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (o.funcs.n != 1) {
		ui__error("'tperf ftrace latency' needs exactly one -T FUNC");
		free(o.funcs.v);
		return 129;
	}
	o.gfuncs = o.funcs;
	o.funcs = (struct string_list){ 0 };
	if (!mkdtemp(tmpl)) {
		ui__error("cannot create a temporary folder in /tmp: %s", strerror(errno));
		return 1;
	}
	snprintf(file, sizeof(file), "%s/t.dat", tmpl);
	o.output = file;
	ret = run_trace(&o, argc, argv, 0);
	if (!ret && !(ret = trace_dat__open(&td, file, err, sizeof(err)) ? 1 : 0)) {
		ret = latency_hist(&td, o.gfuncs.v[0], hist) < 0;
		trace_dat__close(&td);
		if (!ret)
			print_hist(hist);
	}
	unlink(file);
	rmdir(tmpl);
	free(o.gfuncs.v);
	return ret ? 1 : 0;
}

int cmd_ftrace(int argc, const char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "record"))
		return ftrace_record(argc - 1, argv + 1, 0);
	if (argc > 1 && !strcmp(argv[1], "show"))
		return ftrace_show(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return ftrace_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "latency"))
		return ftrace_latency(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "trace"))
		return ftrace_record(argc - 1, argv + 1, 1);
	return ftrace_record(argc, argv, 1);
}
