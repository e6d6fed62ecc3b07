// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf record: run a command (or watch processes, threads, CPUs) and
 * record its samples into a perf.data that perf 6.1 reads.  Glue only:
 * options into struct record_opts, util/record/record.c does the work.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/record/mmap.h"
#include "util/event/parse-events.h"
#include "util/lib/parse-options.h"
#include "util/probe/probe-sdt.h"
#include "util/record/record.h"

static const char *const record_usage[] = {
	"tperf record [<options>] [<command>]",
	"tperf record [<options>] -- <command> [<options>]",
	NULL
};

static int opt_freq(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	char *end;

	if (!strcmp(arg, "max")) {
		o->freq = record__max_sample_rate();
	} else {
		o->freq = strtoull(arg, &end, 0);
		if (*end || !o->freq || arg[0] == '-') {
			ui__error("invalid frequency '%s': give a number of samples per second or 'max'",
			      arg);
			return -1;
		}
	}
	o->freq_given = true;
	return 0;
}

static int opt_period(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	char *end;

	o->period = strtoull(arg, &end, 0);
	if (*end || !o->period || arg[0] == '-') {
		ui__error("invalid sample period '%s': give a positive number of events", arg);
		return -1;
	}
	o->period_given = true;
	return 0;
}

static int opt_g(const struct option *opt, const char *arg, int unset)
{
	((struct record_opts *)opt->value)->callgraph = unset ? CALLGRAPH_NONE : CALLGRAPH_FP;
	return 0;
}

static int opt_callgraph(const struct option *opt, const char *arg, int unset)
{
	char msg[256];

	if (unset) {
		((struct record_opts *)opt->value)->callgraph = CALLGRAPH_NONE;
		return 0;
	}
	if (record__parse_callgraph(opt->value, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

/*
 * -b and -j: one of them, once (perf refuses both, or -j twice); --no-X
 * takes the branch stack back.
 */
static int set_branch_stack(struct record_opts *o, const char *arg, int unset)
{
	char msg[256];

	if (unset) {
		o->branch_stack = 0;
		return 0;
	}
	if (o->branch_stack) {
		ui__error("--branch-any (-b) and --branch-filter (-j) exclude each other, "
			  "and -j is given once: put every filter in one -j list");
		return -1;
	}
	if (!arg) {
		o->branch_stack = PERF_SAMPLE_BRANCH_ANY;
		return 0;
	}
	if (record__parse_branch_filter(o, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

static int opt_branch_any(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	return set_branch_stack(opt->value, NULL, unset);
}

static int opt_branch_filter(const struct option *opt, const char *arg, int unset)
{
	return set_branch_stack(opt->value, arg, unset);
}

static int opt_user_regs(const struct option *opt, const char *arg, int unset)
{
	char msg[256];

	if (unset) {
		((struct record_opts *)opt->value)->user_regs = 0;
		return 0;
	}
	if (!arg) {	/* --user-regs alone: every user register, as perf */
		record__parse_user_regs(opt->value, NULL, msg, sizeof(msg));
		return 0;
	}
	if (!strcmp(arg, "?")) {
		record__user_regs_names(msg, sizeof(msg));
		fprintf(stderr, "available registers: %s\n", msg);
		exit(0);
	}
	if (record__parse_user_regs(opt->value, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

static int opt_mmap_pages(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	int r;

	if (strchr(arg, ',')) {
		ui__error("'-m %s': the size after ',' is for AUX area events (intel_pt and the like), "
		      "which tperf record does not support; give -m PAGES", arg);
		return -1;
	}
	r = perf_mmap__pages(arg, &o->mmap_pages);
	if (r < 0) {
		ui__error("invalid ring buffer size '%s': give a number of pages or a size "
		      "such as 512K", arg);
		return -1;
	}
	if (r > 0)
		pr_info("rounding mmap pages size to %zuK (%zu pages)\n",
			o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 1024, o->mmap_pages);
	return 0;
}

static int opt_mmap_flush(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	unsigned long long v;
	char *end;

	v = strtoull(arg, &end, 0);
	switch (*end) {
	case 'B': case 'b': end++; break;
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	default: break;
	}
	if (*end || !v || arg[0] == '-') {
		ui__error("invalid --mmap-flush '%s': give a number of bytes (B/K/M/G suffixes)", arg);
		return -1;
	}
	o->mmap_flush = (size_t)v;
	return 0;
}

static int opt_switch_output(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	char msg[256];

	if (unset) {
		o->switch_output = o->switch_signal = false;
		o->switch_size = o->switch_secs = 0;
		return 0;
	}
	if (record__parse_switch_output(o, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

static int opt_max_size(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->max_size = 0;
		return 0;
	}
	if (record__parse_size(arg, &o->max_size) || !o->max_size) {
		ui__error("invalid --max-size '%s': give a size with B/K/M/G, such as 100M", arg);
		return -1;
	}
	return 0;
}

/* -z[N]: perf's levels, 1 (the default, also for 0) to 22 (more is 22) */
static int opt_comp_level(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	char *end;
	long v = 1;

	if (unset) {
		o->comp_level = 0;
		return 0;
	}
	if (arg) {
		v = strtol(arg, &end, 10);
		if (*end || !*arg || v < 0) {
			ui__error("invalid compression level '%s': give a number from 1 to 22", arg);
			return -1;
		}
	}
	o->comp_level = v < 1 ? 1 : v > 22 ? 22 : (int)v;
	return 0;
}

static int opt_synth(const struct option *opt, const char *arg, int unset)
{
	char msg[256];

	if (record__parse_synth(opt->value, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

static int opt_delay(const struct option *opt, const char *arg, int unset)
{
	char msg[256];

	if (record__parse_delay(opt->value, arg, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

/* -D and --control: what happened to the events, in perf's words */
static void events_state(enum evlist_ctl_cmd cmd, const char *name, int n, struct evlist *evlist)
{
	struct evsel *e;

	if (cmd == EVLIST_CTL_EVLIST) {
		evlist__for_each_entry(evlist, e)
			fprintf(stderr, "%s\n", evsel__name(e));
		return;
	}
	if (name && !n)
		fprintf(stderr, "failed: can't find '%s' event\n", name);
	else if (tperf_config.quiet)
		return;
	else if (name)
		fprintf(stderr, "Event %s %s\n", name, cmd == EVLIST_CTL_ENABLE ? "enabled" : "disabled");
	else
		fprintf(stderr, "Events %s\n", cmd == EVLIST_CTL_ENABLE ? "enabled" : "disabled");
}

/* --switch-output: each file as it is closed, in perf's words */
static void dumped(const char *path, u64 wakeups, bool at_exit)
{
	if (tperf_config.quiet)
		return;
	fprintf(stderr, at_exit ? "[ tperf record: Woken up %llu times to write data ]\n" :
		"[ tperf record: dump data: Woken up %llu times ]\n", (unsigned long long)wakeups);
	fprintf(stderr, "[ tperf record: Dump %s ]\n", path);
}

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

static int opt_clockid(const struct option *opt, const char *arg, int unset)
{
	struct record_opts *o = opt->value;
	const char *a = strncasecmp(arg, "CLOCK_", 6) ? arg : arg + 6;
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(a, clocks[i].name)) {
			o->clockid = clocks[i].id;
			return 0;
		}
	}
	v = strtol(arg, &end, 0);
	if (*end || v < 0 || v > 64 || !*arg) {
		ui__error("unknown clock '%s': use monotonic, monotonic_raw, realtime, boottime, "
		      "tai or a clockid number", arg);
		return -1;
	}
	o->clockid = (int)v;
	return 0;
}

/* Cap -F at kernel.perf_event_max_sample_rate, as perf does. */
static void cap_freq(struct record_opts *o)
{
	u64 max = record__max_sample_rate();

	if (o->period_given || !max || o->freq <= max)
		return;
	if (o->freq_given)
		ui__warning("maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to "
			"%llu Hz\n       the limit can be raised via "
			"/proc/sys/kernel/perf_event_max_sample_rate",
			(unsigned long long)max, (unsigned long long)o->freq,
			(unsigned long long)max);
	o->freq = max;
}

/* The command line for the CMDLINE feature: the binary's path, then ours. */
static const char **cmdline(int argc, const char **argv)
{
	static char exe[PATH_MAX];
	const char **v = calloc((size_t)argc + 2, sizeof(*v));
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!v)
		return NULL;
	exe[n > 0 ? n : 0] = '\0';
	v[0] = n > 0 ? exe : "tperf";
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	return v;
}

static int dry_run(struct evlist *evlist)
{
	struct evsel *e;

	if (tperf_config.verbose >= 2)
		evlist__for_each_entry(evlist, e)
			perf_event_attr__fprintf(stderr, &e->attr);
	return 0;
}

static void print_summary(const struct record_opts *o, const struct record_stats *s)
{
	const char *path = o->output;
	/* the kernel's count of lost samples, else (kernel < 5.15) the LOST records' */
	u64 lost = s->lost_samples ? s->lost_samples : s->lost_records;
	u64 total = s->samples + lost;
	char comp[128] = "";

	if (lost)
		ui__warning("lost %llu samples out of %llu (%.1f%%): the ring buffers overflowed; "
			"try a larger -m or a lower -F",
			(unsigned long long)lost, (unsigned long long)total,
			100.0 * (double)lost / (double)total);
	if (tperf_config.quiet)
		return;
	if (s->comp_out)	/* -z: perf's words after the size */
		snprintf(comp, sizeof(comp), ", compressed (original %.3f MB, ratio is %.3f)",
			 s->comp_in / 1024.0 / 1024.0, (double)s->comp_in / (double)s->comp_out);
	if (s->max_size_reached)
		fprintf(stderr, "[ tperf record: tperf size limit reached (%llu KB), stopping "
			"session ]\n", (unsigned long long)(s->stop_bytes >> 10));
	if (s->files) {	/* rotated: perf names no file, tperf says how many */
		fprintf(stderr, "[ tperf record: Captured and wrote %.3f MB %s.<timestamp> (%llu "
			"files, %llu samples)%s ]\n", s->bytes / 1024.0 / 1024.0, path,
			(unsigned long long)s->files, (unsigned long long)s->samples, comp);
		return;
	}
	fprintf(stderr, "[ tperf record: Woken up %llu times to write data ]\n",
		(unsigned long long)s->wakeups);
	fprintf(stderr, "[ tperf record: Captured and wrote %.3f MB %s", s->bytes / 1024.0 / 1024.0,
		path);
	if (s->samples && strcmp(o->output, "-"))
		fprintf(stderr, " (%llu samples)", (unsigned long long)s->samples);
	fprintf(stderr, "%s ]\n", comp);
}

/* The build-id cache is best effort: one line per kind of failure. */
static void warn_cache_errs(const struct record_stats *s)
{
	const struct build_id_cache_errs *e = &s->cache_errs;

	for (int i = 0; i < e->nr; i++) {
		char more[64] = "";

		if (e->kind[i].count > 1)
			snprintf(more, sizeof(more), " (and %u more)", e->kind[i].count - 1);
		ui__warning("cannot add '%s'%s to the build-id cache '%s': %s", e->kind[i].name,
			more, s->buildid_dir, strerror(e->kind[i].err));
	}
}

/* perf's exit status: the workload's, or the signal that stopped us. */
/*
 * perf's status when recording fails (its -1): the events, the command, the
 * output file, a refused --filter.  Scripts test it, so it is perf's rather
 * than the general 1.
 */
#define RECORD_EXIT_FAILED 255

static int exit_status(const struct record_stats *s, const char *cmd)
{
	int st = s->workload_status;

	if (s->signal)
		return 128 + s->signal;
	if (st == -1)
		return 0;
	if (s->max_size_reached && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM)
		return 0;	/* our SIGTERM, as perf's: a normal end */
	if (WIFSIGNALED(st)) {
		if (!tperf_config.quiet)
			ui__note("'%s' was killed by signal %d", cmd, WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st)) {
		if (!tperf_config.quiet)
			ui__note("'%s' exited with status %d", cmd, WEXITSTATUS(st));
		return WEXITSTATUS(st);
	}
	return 0;
}

static void check_target(struct record_opts *o, int argc, const char *const usage[],
			 const struct option *options)
{
	char msg[256] = "";

	if (!argc && target__none(&o->target))
		usage_with_options_msg(usage, options, "give a command to run, or -p, -t, -a or -C");
	if (target__validate(&o->target, msg, sizeof(msg)))
		usage_with_options_msg(usage, options, "%s", msg);
	if (msg[0])
		ui__warning("%s", msg);
	if (o->target.tid && !o->no_inherit_set)
		o->target.no_inherit = true;	/* -t: those threads only, as perf */
	if (o->all_user && o->all_kernel)
		usage_with_options_msg(usage, options, "--all-user and --all-kernel exclude each other");
	if (o->switch_output && !strcmp(o->output, "-"))
		usage_with_options_msg(usage, options, "--switch-output needs a file: it cannot "
				       "rotate a pipe ('-o -')");
	if (o->timestamp_filename && !strcmp(o->output, "-"))
		usage_with_options_msg(usage, options, "--timestamp-filename needs a file, not a "
				       "pipe ('-o -')");
	if (o->switch_max_files && !o->switch_output)
		usage_with_options_msg(usage, options, "--switch-max-files needs --switch-output");
	if (o->per_thread && target__has_cpu(&o->target))
		usage_with_options_msg(usage, options, "--per-thread is for a command, -p or -t, "
				       "not for -a or -C");
	if (o->realtime_prio < 0 || o->realtime_prio > 99)
		usage_with_options_msg(usage, options, "--realtime takes a SCHED_FIFO priority "
				       "from 1 to 99");
	if (o->switch_max_files < 0)
		usage_with_options_msg(usage, options, "--switch-max-files takes a number of files");
	/*
	 * perf's default with --switch-output: no build-ids, so that a switch
	 * is quick; --no-no-buildid or --no-no-buildid-cache keeps them.
	 */
	if (o->switch_output && !(o->no_buildid_set && !o->no_buildid) &&
	    !(o->no_buildid_cache_set && !o->no_buildid_cache))
		o->no_buildid = o->no_buildid_cache = true;
	if (o->comp_level) {	/* perf: no build-id collection with -z */
		pr_debug("Compression enabled, disabling build id collection at the end of the "
			 "session.\n");
		o->no_buildid = true;
	}
	if (o->mmap_flush > o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4)
		o->mmap_flush = o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4;
}

int cmd_record(int argc, const char **argv)
{
	struct record_opts o;
	struct evlist *evlist = evlist__new();
	struct evlist *switch_evlist = evlist__new();	/* --switch-output-event */
	struct probe_sdt *sdt = NULL;
	struct record_stats stats;
	const int full_argc = argc;
	const char **full_argv = cmdline(argc, argv);	/* before parsing rewrites argv */
	bool dry = false;
	const char *control = NULL;	/* --control */
	bool group = false;		/* --group */
	struct evlist_ctl ctl;
	char msg[1024] = "";
	int err;

	record_opts__init(&o);
	o.dumped = dumped;
	o.events_state = events_state;
	evlist_ctl__init(&ctl);
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &evlist, "event",
			     "event selector: use 'tperf list' to list the events",
			     parse_events_option),
		OPT_CALLBACK(0, "filter", &evlist, "filter",
			     "event filter (tracepoints of the last -e)", parse_tp_filter_option),
		OPT_CALLBACK_NOOPT(0, "exclude-perf", &evlist, NULL,
				   "don't record events from tperf itself", parse_exclude_perf_option),
		OPT_STRING('p', "pid", &o.target.pid, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &o.target.tid, "tid", "record events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &o.target.system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o.target.cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN_SET('i', "no-inherit", &o.target.no_inherit, &o.no_inherit_set,
			    "child tasks do not inherit counters"),
		OPT_CALLBACK('F', "freq", &o, "freq or 'max'",
			     "profile at this frequency", opt_freq),
		OPT_CALLBACK('c', "count", &o, "n", "event period to sample", opt_period),
		OPT_CALLBACK_NOOPT('g', NULL, &o, NULL,
				   "enables call-graph recording (frame pointers)", opt_g),
		OPT_CALLBACK(0, "call-graph", &o, "record_mode[,record_size]",
			     "setup and enables call-graph recording: fp, dwarf[,size], lbr",
			     opt_callgraph),
		OPT_CALLBACK_NOOPT('b', "branch-any", &o, NULL,
				   "sample any taken branches (the branch stack, LBR)", opt_branch_any),
		OPT_CALLBACK('j', "branch-filter", &o, "branch filter mask",
			     "sample the branch stack with these filters: any,any_call,any_ret,"
			     "ind_call,ind_jmp,call,cond,u,k,hv,in_tx,no_tx,abort_tx,save_type,"
			     "stack,priv", opt_branch_filter),
		OPT_CALLBACK_OPTARG(0, "user-regs", &o, NULL, "register",
				    "sample selected user registers (all without a value): "
				    "use '--user-regs=?' to list them", opt_user_regs),
		OPT_BOOLEAN(0, "user-callchains", &o.user_callchains,
			    "use only user callchains"),
		OPT_BOOLEAN(0, "kernel-callchains", &o.kernel_callchains,
			    "use only kernel callchains"),
		OPT_CALLBACK('m', "mmap-pages", &o, "pages",
			     "number of mmap data pages (a power of two) or a size with B/K/M/G",
			     opt_mmap_pages),
		OPT_CALLBACK(0, "mmap-flush", &o, "number",
			     "minimal number of bytes that is extracted from mmap data pages",
			     opt_mmap_flush),
		OPT_STRING('o', "output", &o.output, "file", "output file name ('-': a pipe)"),
		OPT_BOOLEAN_SET('T', "timestamp", &o.timestamp, &o.timestamp_set,
				"record the sample timestamps"),
		OPT_BOOLEAN(0, "per-thread", &o.per_thread, "use per-thread mmaps"),
		OPT_BOOLEAN(0, "sample-cpu", &o.sample_cpu, "record the sample cpu"),
		OPT_BOOLEAN(0, "sample-identifier", &o.sample_identifier,
			    "Record the sample identifier"),
		OPT_BOOLEAN('P', "period", &o.sample_period_bit, "Record the sample period"),
		OPT_BOOLEAN(0, "running-time", &o.running_time,
			    "Record running/enabled time of read (:S) events"),
		OPT_BOOLEAN(0, "no-buffering", &o.no_buffering,
			    "collect data without buffering"),
		OPT_INTEGER('r', "realtime", &o.realtime_prio,
			    "collect data with this RT SCHED_FIFO priority"),
		OPT_BOOLEAN(0, "tail-synthesize", &o.tail_synthesize,
			    "synthesize non-sample events at the end of output"),
		OPT_CALLBACK(0, "synth", &o, "no|all|task|mmap|cgroup",
			     "Fine-tune event synthesis: default=all", opt_synth),
		OPT_BOOLEAN(0, "group", &group, "put the counters into a counter group"),
		OPT_BOOLEAN('d', "data", &o.sample_addr, "record the sample addresses"),
		OPT_BOOLEAN('W', "weight", &o.weight, "sample by weight (on special events only)"),
		OPT_BOOLEAN(0, "data-src", &o.data_src, "record the sample data source"),
		OPT_BOOLEAN(0, "phys-data", &o.phys_addr, "record the sample physical addresses"),
		OPT_BOOLEAN('R', "raw-samples", &o.raw,
			    "collect raw sample records from all opened counters"),
		OPT_BOOLEAN('s', "stat", &o.inherit_stat, "per thread counts"),
		OPT_BOOLEAN('n', "no-samples", &o.no_samples, "don't sample"),
		OPT_BOOLEAN(0, "switch-events", &o.switch_events, "record context switch events"),
		OPT_BOOLEAN(0, "namespaces", &o.namespaces, "record namespaces events"),
		OPT_BOOLEAN(0, "no-bpf-event", &o.no_bpf_event, "do not record bpf events"),
		OPT_BOOLEAN(0, "all-user", &o.all_user, "configure all used events to run in user space"),
		OPT_BOOLEAN(0, "all-kernel", &o.all_kernel,
			    "configure all used events to run in kernel space"),
		OPT_CALLBACK('k', "clockid", &o, "clockid",
			     "clockid to use for events, see clock_gettime()", opt_clockid),
		OPT_BOOLEAN_SET('B', "no-buildid", &o.no_buildid, &o.no_buildid_set,
			    "do not collect buildids in perf.data"),
		OPT_BOOLEAN_SET('N', "no-buildid-cache", &o.no_buildid_cache,
				&o.no_buildid_cache_set, "do not update the buildid cache"),
		OPT_BOOLEAN(0, "buildid-all", &o.buildid_all,
			    "Record build-id of all DSOs regardless of hits"),
		OPT_CALLBACK_OPTARG(0, "switch-output", &o, NULL, "signal or size[BKMG] or time[smhd]",
				    "Switch output when receiving SIGUSR2 (signal) or cross a size "
				    "or time threshold", opt_switch_output),
		OPT_CALLBACK_OPTARG('z', "compression-level", &o, NULL, "n",
				    "Compress records using specified level (default: 1 - fastest "
				    "compression, 22 - greatest compression)", opt_comp_level),
		OPT_CALLBACK('D', "delay", &o, "ms",
			     "ms to wait before starting measurement after program start (-1: start "
			     "with events disabled), or ranges of time to enable events e.g. "
			     "'-D 10-20,30-40'", opt_delay),
		OPT_STRING(0, "control", &control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			   "Listen on ctl-fd descriptor for command to control measurement "
			   "('enable': enable events, 'disable': disable events, 'snapshot': "
			   "acknowledged only); optionally send 'ack\\n' to ack-fd after each "
			   "command; ctl-fifo / ack-fifo are opened and used as ctl-fd / ack-fd"),
		OPT_CALLBACK(0, "switch-output-event", &switch_evlist, "switch output event",
			     "switch output event selector. use 'tperf list' to list available "
			     "events", parse_events_option),
		OPT_INTEGER(0, "switch-max-files", &o.switch_max_files,
			    "Limit number of switch output generated files"),
		OPT_BOOLEAN(0, "timestamp-filename", &o.timestamp_filename,
			    "append timestamp to output filename"),
		OPT_CALLBACK(0, "max-size", &o, "size",
			     "Limit the maximum size of the output file", opt_max_size),
		OPT_BOOLEAN(0, "dry-run", &dry, "parse options then exit (with -vv: print the attrs)"),
		OPT_INCR('v', "verbose", &tperf_config.verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &tperf_config.quiet, "don't print any message"),
		OPT_END()
	};

	if (evlist && full_argv)
		sdt = probe_sdt__attach(evlist, argc, argv);	/* -e sdt_P:N -- ./prog */
	if (evlist)
		evlist->say = builtin__say;
	if (!sdt || !switch_evlist) {
		ui__error("out of memory");
		evlist__delete(switch_evlist);
		evlist__delete(evlist);
		free(full_argv);
		return RECORD_EXIT_FAILED;
	}
	argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (switch_evlist && switch_evlist->nr_entries) {
		/* perf: the event is a signal to switch */
		o.switch_evlist = switch_evlist;
		o.switch_output = o.switch_signal = o.timestamp_filename = true;
	}
	check_target(&o, argc, record_usage, options);
	if (group && evlist)	/* --group: every event in one group led by the first */
		evlist__set_leader(evlist);
	cap_freq(&o);
	err = record__config(evlist, &o, msg, sizeof(msg));
	if (err) {
		ui__error("%s", msg);
		evlist__delete(evlist);
		evlist__delete(switch_evlist);
		probe_sdt__delete(sdt);
		free(full_argv);
		free(o.ranges);
		return err == -EINVAL ? PARSE_OPT_USAGE_EXIT : RECORD_EXIT_FAILED;
	}
	if (dry) {
		err = dry_run(evlist);
		evlist__delete(evlist);
		evlist__delete(switch_evlist);
		probe_sdt__delete(sdt);
		free(full_argv);
		free(o.ranges);
		return err;
	}
	if (control) {
		/* a bad spec or a FIFO that does not open: usage errors, as perf's */
		if (evlist_ctl__open(&ctl, control, msg, sizeof(msg)))
			usage_with_options_msg(record_usage, options, "%s", msg);
		o.ctl = &ctl;
	}
	err = record__run(evlist, &o, argc, argv, full_argc + 1, full_argv,
			  &stats, msg, sizeof(msg));
	evlist_ctl__close(&ctl);
	free(o.ranges);
	if (err)
		ui__error("%s", msg[0] ? msg : strerror(-err));
	if (!err)
		print_summary(&o, &stats);
	else if (stats.out_bytes && !tperf_config.quiet)
		/* no "Captured and wrote": the samples counted did not all reach it */
		fprintf(stderr, "[ tperf record: %.3f MB written to %s before the error: the "
			"file is incomplete ]\n", stats.out_bytes / 1024.0 / 1024.0, o.output);
	warn_cache_errs(&stats);
	evlist__delete(evlist);
	evlist__delete(switch_evlist);
	probe_sdt__delete(sdt);
	free(full_argv);
	if (err)
		return RECORD_EXIT_FAILED;
	return exit_status(&stats, argc ? argv[0] : "");
}
