/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording: the options of `tperf record`, the attrs they give (as perf
 * 6.1 sets them), and the session that opens the events, maps one ring
 * per CPU, writes the existing state, runs the workload, drains the rings
 * into a perf.data and writes the header features at the end.
 */
#ifndef TPERF_RECORD_H
#define TPERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/symbol/build-id-cache.h"
#include "util/perf-data/event.h"
#include "util/event/evlist-ctl.h"
#include "util/event/target.h"

struct evlist;
struct evsel;

enum record_callgraph {
	CALLGRAPH_NONE,
	CALLGRAPH_FP,
	CALLGRAPH_DWARF,
	CALLGRAPH_LBR,
};

struct record_opts {
	struct target target;
	u64 freq;			/* -F (default 4000) */
	u64 period;			/* -c, 0: frequency mode */
	bool freq_given, period_given;
	enum record_callgraph callgraph;
	u32 stack_size;			/* dwarf: user stack bytes (8192) */
	u64 user_regs;			/* --user-regs: PERF_REG_X86_* mask, 0: none */
	u64 branch_stack;		/* -b, -j: PERF_SAMPLE_BRANCH_* bits, 0: none */
	bool sample_cpu, sample_addr, weight, data_src, phys_addr, raw;
	bool inherit_stat, no_samples, switch_events, namespaces, no_bpf_event;
	bool all_user, all_kernel;
	bool timestamp;			/* TIME sampled (true; --no-timestamp: false).  -T
					 * changes nothing: perf 6.1 samples TIME anyway
					 * unless --no-timestamp (or --per-thread -i) */
	bool no_inherit_set;		/* -i or --no-no-inherit given: -t keeps it */
	bool sample_identifier;		/* --sample-identifier: IDENTIFIER even for one event */
	bool sample_period_bit;		/* -P: PERIOD sampled with -c too */
	bool running_time;		/* --running-time: enabled/running times in reads */
	bool user_callchains, kernel_callchains;	/* exclude the other side's frames */
	bool no_buffering;		/* wakeup_events 1: a wake-up per record */
	int realtime_prio;		/* --realtime: SCHED_FIFO priority of the recorder (0: no) */
	unsigned int synth;		/* --synth: RECORD_SYNTH_* of the existing tasks */
	bool tail_synthesize;		/* the state written at the end, not the start */
	bool per_thread;		/* --per-thread: fds and rings per thread, any CPU */
	bool timestamp_set;		/* -T or --no-timestamp given */
	int clockid;			/* -k: -1 unset */
	size_t mmap_pages;		/* -m: data pages per ring */
	size_t mmap_flush;		/* --mmap-flush: bytes */
	const char *output;		/* -o; "-" for pipe mode */
	bool dry_run;
	bool no_buildid;		/* -B: no BUILD_ID feature, no cache */
	bool no_buildid_cache;		/* -N: no build-id cache update */
	bool no_buildid_set, no_buildid_cache_set;	/* given (--no-no-buildid too) */
	bool buildid_all;		/* --buildid-all: every mmapped DSO, not only hit ones */

	/* rotation: --switch-output[=signal|SIZE|TIME], --switch-output-event */
	bool switch_output;		/* the output is rotated (implies timestamp_filename) */
	bool switch_signal;		/* at each SIGUSR2 */
	u64 switch_size;		/* once the file holds this many data bytes (0: no) */
	u64 switch_secs;		/* every this many seconds (0: no) */
	struct evlist *switch_evlist;	/* --switch-output-event: at each sample of
					 * these events (not written), or NULL */
	int switch_max_files;		/* keep the newest N rotated files (0: all) */
	bool timestamp_filename;	/* the output ends as PATH.YYYYmmddHHMMSScc */
	u64 max_size;			/* --max-size: stop once a file holds this many bytes */
	/* each finished rotated file, as it is closed (NULL: nothing said) */
	void (*dumped)(const char *path, u64 wakeups, bool at_exit);

	/* -D, --control */
	int delay_ms;			/* enable the events that long after the start
					 * (-1: not at all, --control does; 0: no delay) */
	struct record_range {
		u64 start, end;		/* ms after the start */
	} *ranges;			/* -D A-B,C-D: enabled inside each; the end of
					 * the last ends the recording */
	int nr_ranges;
	struct evlist_ctl *ctl;		/* --control, or NULL */
	int comp_level;			/* -z: zstd level of COMPRESSED records (0: none) */
	/*
	 * What -D and --control did to the events, for the command's words:
	 * @cmd ENABLE/DISABLE (@name NULL: all; @n: how many had the name)
	 * or EVLIST.  NULL: nothing said.
	 */
	void (*events_state)(enum evlist_ctl_cmd cmd, const char *name, int n,
			     struct evlist *evlist);
};

/* --synth: what is written of the tasks that exist at the start (perf's PERF_SYNTH_*) */
enum {
	RECORD_SYNTH_TASK = 1 << 0,	/* their COMM (and FORK, system-wide) */
	RECORD_SYNTH_MMAP = 1 << 1,	/* and their executable mappings */
	RECORD_SYNTH_CGROUP = 1 << 2,	/* cgroups: tperf records none, nothing to write */
	RECORD_SYNTH_ALL = RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP | RECORD_SYNTH_CGROUP,
};

/**
 * record__parse_synth - parse --synth's comma-separated no, all, task, mmap
 * (which implies task) and cgroup into o->synth.  Return: 0 or -EINVAL with
 * a message in @buf.
 */
int record__parse_synth(struct record_opts *o, const char *str, char *buf, size_t size);

/* Defaults as perf's: 4000 Hz, 128 pages (512 KiB), perf.data. */
void record_opts__init(struct record_opts *o);

/**
 * record__parse_callgraph - parse "fp", "dwarf[,SIZE]", "lbr" or "no"
 * Return: 0 or -EINVAL with a message in @buf.
 */
int record__parse_callgraph(struct record_opts *o, const char *str, char *buf, size_t size);

/**
 * record__parse_user_regs - parse --user-regs "ax,bx,..." (perf's names, any case)
 * into o->user_regs; NULL (no value) is every register.  Return: 0 or
 * -EINVAL with a message in @buf.
 */
int record__parse_user_regs(struct record_opts *o, const char *str, char *buf, size_t size);

/** record__user_regs_names - the names --user-regs takes, space separated, into @buf */
void record__user_regs_names(char *buf, size_t size);

/**
 * record__parse_branch_filter - parse -j "any_call,u,..." (perf 6.1's names,
 * any case) into o->branch_stack; privilege levels alone mean any branch,
 * as perf.  Return: 0 or -EINVAL with a message in @buf.
 */
int record__parse_branch_filter(struct record_opts *o, const char *str, char *buf, size_t size);

/**
 * record__parse_switch_output - parse --switch-output's "signal", SIZE (with
 * a B/K/M/G suffix) or TIME (with s/m/h/d) into @o, as perf 6.1 reads it:
 * a number without a suffix is neither.  Return: 0 or -EINVAL with a
 * message in @buf.
 */
int record__parse_switch_output(struct record_opts *o, const char *str, char *buf, size_t size);

/**
 * record__parse_size - a size with a B/K/M/G suffix (perf's --max-size: the
 * suffix is required) into *@val.  Return: 0 or -EINVAL.
 */
int record__parse_size(const char *str, u64 *val);

/**
 * record__parse_delay - parse -D: "MS", "-1" or ranges "A-B,C-D" (ms, each
 * range after the one before, as perf 6.1 reads them) into @o.  Return: 0
 * or -EINVAL/-ENOMEM with a message in @buf.
 */
int record__parse_delay(struct record_opts *o, const char *str, char *buf, size_t size);

/* Whether -D holds the events back at the start (a delay, -1 or ranges). */
static inline bool record__delayed(const struct record_opts *o)
{
	return o->delay_ms || o->nr_ranges;
}

/**
 * record__max_sample_rate - kernel.perf_event_max_sample_rate (0 when unreadable)
 */
u64 record__max_sample_rate(void);

/**
 * record__config - set every evsel's attr for recording as perf 6.1 does
 * @evlist: the parsed events (an empty list gets the default cycles:P)
 * @o: the options
 *
 * sample_type IP|TID|TIME|PERIOD (+CPU, CALLCHAIN, ADDR|DATA_SRC, RAW,
 * WEIGHT_STRUCT, PHYS_ADDR, REGS_USER|STACK_USER by option), read_format
 * ID|LOST, the tracking bits on the first event (or on a dummy:HG event
 * for -a/-C), freq or period, inherit, disabled/enable_on_exec, and
 * ID or IDENTIFIER when there are several events.  The event terms
 * (period=, freq=, time=, branch_type=, inherit=, aux-output,
 * call-graph=, stack-size=, max-stack=) apply last and override the
 * options; in :S groups the members then take the leader's sample_type
 * and keep their own period only from a term, as perf 6.1 does.
 * Return: 0, -EINVAL for a term tperf cannot honour (overwrite,
 * aux-sample-size) or -ENOMEM, with the message in @buf.
 */
int record__config(struct evlist *evlist, const struct record_opts *o, char *buf, size_t size);

/* What a finished recording did, for the summary lines. */
struct record_stats {
	u64 samples;			/* PERF_RECORD_SAMPLE written */
	u64 lost_records;		/* records lost (the LOST records' counts) */
	u64 lost_samples;		/* samples lost (LOST_SAMPLES: the kernel's count) */
	u64 bytes;			/* data bytes written */
	u64 out_bytes;			/* bytes that reached the output (after an
					 * error: what the incomplete file holds) */
	u64 wakeups;			/* poll() returns with data */
	u64 files;			/* rotated files written (--switch-output) */
	u64 comp_in, comp_out;		/* -z: the rings' bytes, and what they took compressed */
	bool max_size_reached;		/* --max-size stopped it */
	u64 stop_bytes;			/* the size of the file then */
	char last_path[4096];		/* the file written last (a rotated name) */
	int workload_status;		/* waitpid status, -1 without a workload */
	int signal;			/* SIGINT/SIGTERM that stopped it, or 0 */
	char buildid_dir[4096];		/* the build-id cache updated, "" if none */
	struct build_id_cache_errs cache_errs;	/* what could not be cached */
};

/**
 * record__run - record @evlist for the target of @o
 * @evlist: configured by record__config()
 * @o: the options
 * @argc, @argv: the workload (argc 0 for -p/-t/-a/-C until a signal)
 * @cmd_argc, @cmd_argv: tperf's whole command line, for CMDLINE
 * @stats: filled
 * @buf: the message when it fails
 *
 * Return: 0, or -errno with a message in @buf ("cannot start 'x': No such
 * file or directory"...).  The output file is complete (features written)
 * whenever the events were opened, also after SIGINT/SIGTERM.
 */
int record__run(struct evlist *evlist, const struct record_opts *o, int argc, const char **argv,
		int cmd_argc, const char **cmd_argv, struct record_stats *stats, char *buf,
		size_t size);

#endif
