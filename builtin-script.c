// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf script: read a perf.data and print each sample as perf 6.1's
 * `perf script` does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/perf-data/event-fprintf.h"
#include "util/lib/parse-options.h"
#include "util/report/reader.h"
#include "util/report/sample-filter.h"
#include "util/symbol/srccode.h"
#include "util/report/script-print.h"
#include "util/report/script-trace.h"
#include "util/perf-data/session.h"
#include "util/event/cpumap.h"
#include "util/event/threadmap.h"
#include "util/perf-data/stat-event.h"
#include "util/unwind/unwind.h"

/* The filter options as given, parsed into sample-filter once known valid. */
struct script_filter_args {
	const char *comms, *pids, *tids, *cpus, *time, *dsos, *syms;
};

struct script {
	const char *input, *symfs, *kallsyms, *unwinder;
	bool inline_frames;
	struct string_list fields;	/* -F, repeatable (one per event type) */
	struct script_opts o;
	struct machine machine;
	struct perf_session *session;
	struct sample_filter filter;
	struct script_filter_args fa;
	bool show_mmap, show_task, show_switch, show_lost, dump_raw;
	bool started;
	const char *list_fields;	/* --list-fields[=EVENT] ("" for all) */
	struct script_trace trace;
	char **names;			/* each attr's name, once (tracepoint names
					 * cost a walk of the tracing data) */
	int nr_names;
	struct stat_table stat;		/* a stat record file's counts */
	bool stat_head;			/* their heading was printed */
};

struct script_tool {
	struct perf_tool tool;
	struct script *sc;
};

static struct script *sc_of(struct perf_tool *tool)
{
	return ((struct script_tool *)tool)->sc;
}

/* The tracepoint formats of the file, once its tracing data is known. */
static int script_start_trace(struct script *sc)
{
	struct perf_header *h = sc->session->header;
	bool any = false;
	int err;

	for (int i = 0; i < h->nr_attrs; i++)
		any |= h->attrs[i].attr.type == PERF_TYPE_TRACEPOINT;
	if (!any)
		return 0;
	err = script_trace__init(&sc->trace, h);
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT)
		ui__warning("'%s' has no tracing data: tracepoint samples are printed without their fields",
			sc->input);
	else if (err)
		ui__warning("cannot read the tracing data of '%s' (malformed): tracepoint samples are printed without their fields",
			sc->input);
	else
		sc->o.trace = &sc->trace;
	script_trace__set_machine(&sc->trace, &sc->machine);
	return 0;
}

/* Once the events are known: the name column's width, tracepoint formats. */
static int script_start(struct script *sc)
{
	struct perf_header *h = sc->session->header;
	char buf[256], msg[512];

	sc->started = true;
	if (script_fields__asked(&sc->o) & SF_TOD) {
		if (!h->env.has_clock_data) {
			ui__error("cannot print field 'tod': '%s' has no clock data; record with -k/--clockid",
			      sc->input);
			return -EINVAL;
		}
		sc->o.tod_ns = h->env.clock_tod_ns;
		sc->o.clock_ns = h->env.clock_clockid_ns;
	}
	sc->names = calloc(h->nr_attrs + 1, sizeof(*sc->names));
	if (!sc->names)
		return -ENOMEM;
	sc->nr_names = h->nr_attrs;
	for (int i = 0; i < h->nr_attrs; i++) {
		const char *name = perf_header__event_name(h, &h->attrs[i], buf, sizeof(buf));
		int len = strlen(name);

		if (script_fields__check(&sc->o, &h->attrs[i].attr, name, msg, sizeof(msg))) {
			ui__error("%s", msg);
			return -EINVAL;
		}
		sc->names[i] = strdup(name);
		if (!sc->names[i])
			return -ENOMEM;
		if (len > sc->o.name_width)
			sc->o.name_width = len;
	}
	return script_start_trace(sc);
}

/* After a sample printed raw for the first time: one warning. */
static void script_warn_trace(struct script *sc, const char *name)
{
	if (*name)
		ui__warning("cannot parse the format of '%s' in '%s': its samples are printed with their raw fields",
			name, sc->input);
	else
		ui__warning("'%s' has no format for some tracepoint samples: they are printed as raw bytes",
			sc->input);
	sc->trace.warn = NULL;
}

/* Does the sample pass --dsos and --symbols (on its resolved ip)? */
static bool script_match_location(struct script *sc, struct thread *t,
				  const struct perf_sample *sample)
{
	struct addr_location al;
	const struct sample_filter *f = &sc->filter;

	if (!f->nr_dsos && !f->nr_syms)
		return true;
	machine__resolve_addr(&sc->machine, t, sample->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			      sample->ip, &al);
	if (!sample_filter__match_dso(f, al.map ? al.map->dso->long_name : NULL))
		return false;
	return sample_filter__match_sym(f, al.sym ? al.sym->name : NULL,
					al.sym && al.map ? al.map->start + al.sym->start -
					al.map->pgoff : 0);
}

/* -D: perf's " ... thread:" and " ...... dso:" lines after a sample's dump. */
static void script_dump_resolution(struct script *sc, struct thread *t,
				   const struct perf_sample *sample)
{
	struct addr_location al;

	machine__resolve_addr(&sc->machine, t, sample->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			      sample->ip, &al);
	printf(" ... thread: %s:%d\n", t->comm->str, t->tid);
	printf(" ...... dso: %s\n", al.map ? al.map->dso->long_name : "<not found>");
}

/* --cpu alone (side-band records and the early sample check) */
static bool script_match_cpu(const struct script *sc, const struct perf_sample *sample)
{
	return !sc->filter.cpus ||
	       sample_filter__match(&(struct sample_filter){ .cpus = sc->filter.cpus }, sample, NULL);
}

/*
 * As perf: --time and --cpu first, then the sample is resolved (-D prints
 * its thread and DSO), then --comms/--pid/--tid and --dsos/--symbols.
 */
static bool script_keep_sample(struct script *sc, const struct perf_sample *sample)
{
	struct thread *t;

	if (!sample_filter__match_time(&sc->filter, sample->time) || !script_match_cpu(sc, sample))
		return false;
	t = machine__findnew_thread(&sc->machine, sample->pid, sample->tid);
	if (!t)
		return true;
	if (sc->dump_raw)
		script_dump_resolution(sc, t, sample);
	return sample_filter__match(&sc->filter, sample, t->comm->str) &&
	       script_match_location(sc, t, sample);
}

static int process_sample(struct perf_tool *tool, struct perf_session *s,
			  const union perf_event *ev, struct perf_sample *sample,
			  struct perf_header_attr *attr)
{
	struct script *sc = sc_of(tool);
	char buf[256];
	int err;

	(void)ev;
	(void)s;
	if (!sc->started && (err = script_start(sc)))
		return err;
	if (!attr || !script_keep_sample(sc, sample))
		return 0;
	err = script__fprintf_sample(stdout, &sc->o, script_fields__for_attr(&sc->o, &attr->attr),
				     &sc->machine, &attr->attr,
				     attr->idx >= 0 && attr->idx < sc->nr_names ? sc->names[attr->idx] :
				     perf_header__event_name(s->header, attr, buf, sizeof(buf)), sample);
	if (sc->trace.warn)
		script_warn_trace(sc, sc->trace.warn);
	return err;
}

static int process_model(struct perf_tool *tool, struct perf_session *s,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(&sc_of(tool)->machine, ev, sample);
}

/* The thread a side-band line is printed for, as perf script picks it. */
static struct thread *side_band_thread(struct script *sc, const union perf_event *ev,
				       const struct perf_sample *sample)
{
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:	/* pid/tid at the same offsets in these */
		if (ev->header.size >= sizeof(ev->header) + 8)
			return machine__findnew_thread(&sc->machine, (int)ev->comm.pid,
						       (int)ev->comm.tid);
		return NULL;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (ev->header.size >= sizeof(ev->fork))
			return machine__findnew_thread(&sc->machine, (int)ev->fork.pid,
						       (int)ev->fork.tid);
		return NULL;
	default:
		return machine__findnew_thread(&sc->machine, (int)sample->pid, (int)sample->tid);
	}
}

/* One --show-*-events line: the sample's start fields, then the record. */
static int print_side_band(struct script *sc, const union perf_event *ev,
			   struct perf_sample *sample, struct perf_header_attr *attr)
{
	struct perf_header *h = sc->session->header;
	const struct perf_event_attr *a = attr ? &attr->attr : h->nr_attrs ? &h->attrs[0].attr : NULL;
	struct thread *t;

	if (!a)
		return 0;
	if (!a->sample_id_all) {
		sample->cpu = 0;
		sample->time = 0;
	}
	if (!script_match_cpu(sc, sample))
		return 0;
	t = side_band_thread(sc, ev, sample);
	script__fprintf_start_rec(stdout, &sc->o, script_fields__for_attr(&sc->o, a), a, t, sample,
				  ev->header.type);
	return perf_event__fprintf(stdout, ev);
}

static bool side_band_shown(const struct script *sc, unsigned int type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return sc->show_mmap;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sc->show_task;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return sc->show_switch;
	case PERF_RECORD_LOST:
		return sc->show_lost;
	default:
		return false;
	}
}

/*
 * Side-band records: the model is updated, and with --show-*-events the
 * record is printed; perf prints an EXIT before the thread goes away and
 * the others after the model took them.
 */
static int process_side_band(struct perf_tool *tool, struct perf_session *s,
			     const union perf_event *ev, struct perf_sample *sample,
			     struct perf_header_attr *attr)
{
	struct script *sc = sc_of(tool);
	bool show = side_band_shown(sc, ev->header.type);
	int err;

	if (show && !sc->started && (err = script_start(sc)))
		return err;
	if (show && ev->header.type == PERF_RECORD_EXIT && (err = print_side_band(sc, ev, sample, attr)))
		return err;
	err = process_model(tool, s, ev, sample, attr);
	if (err || !show || ev->header.type == PERF_RECORD_EXIT)
		return err;
	return print_side_band(sc, ev, sample, attr);
}

/* --cpu and --time need the file's events; percent ranges its time span. */
static int script_prepare_filter(struct script *sc)
{
	struct perf_header *h = sc->session->header;
	u64 and = h->nr_attrs ? ~0ULL : 0;
	char msg[512];

	for (int i = 0; i < h->nr_attrs; i++)
		and &= h->attrs[i].attr.sample_type;
	if (sample_filter__prepare(&sc->filter, and, h->env.first_sample_time,
				   h->env.last_sample_time, sc->input, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -EINVAL;
	}
	return 0;
}

/* A large stdout buffer when not a terminal: fewer write()s for big outputs. */
static void script_setup_output(void)
{
	static char buf[1 << 20];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

/* --list-fields: the header (pipe mode: its records) is enough. */
static int list_fields(struct script *sc)
{
	struct perf_tool tool = { .stop_at_finished_init = true, .skip_unknown = true };
	const char *ev = *sc->list_fields ? sc->list_fields : NULL;
	int err = 0;

	if (sc->session->header->pipe)
		err = perf_session__process_events(sc->session, &tool);
	if (err < 0)
		return err;
	err = script_trace__init(&sc->trace, sc->session->header);
	if (!err)
		err = script_trace__list_fields(stdout, &sc->trace, sc->session->header, ev);
	if (err == -ENOENT && ev)
		ui__error("no tracepoint '%s' in '%s': list them all with --list-fields", ev, sc->input);
	else if (err == -ENOENT)
		ui__error("'%s' has no tracepoint event with a format", sc->input);
	else if (err == -EINVAL)
		ui__error("cannot read the tracing data of '%s': it is malformed", sc->input);
	else if (err == -ENOMEM)
		ui__error("out of memory reading '%s'", sc->input);
	return err ? 1 : 0;
}

/* A stat file's THREAD_MAP, CPU_MAP and STAT records, kept for the rounds. */
static int process_stat(struct perf_tool *tool, struct perf_session *s,
			const union perf_event *ev, struct perf_sample *sample,
			struct perf_header_attr *attr)
{
	struct script *sc = sc_of(tool);
	int err = ev->header.type == PERF_RECORD_STAT ?
		  stat_table__stat(&sc->stat, s->header, ev) : stat_table__map(&sc->stat, ev);

	if (err == -EINVAL)
		snprintf(s->errmsg, sizeof(s->errmsg), "'%s': a %s record that does not fit the file",
			 sc->input, perf_event__name(ev->header.type));
	return err;
}

/* Each STAT_ROUND: every event's counts per CPU and thread, as perf script shows them. */
static int process_stat_round(struct perf_tool *tool, struct perf_session *s,
			      const union perf_event *ev, struct perf_sample *sample,
			      struct perf_header_attr *attr)
{
	struct script *sc = sc_of(tool);
	const struct stat_table *t = &sc->stat;
	struct perf_record_stat_round r;
	char buf[256];

	if (stat_event__parse_round(ev, &r))
		return 0;
	if (!sc->stat_head)
		printf("CPU   THREAD             VAL             ENA             RUN            TIME EVENT\n");
	sc->stat_head = true;
	for (int i = 0; i < s->header->nr_attrs; i++) {
		const char *name = perf_header__event_name(s->header, &s->header->attrs[i], buf,
							   sizeof(buf));

		for (int c = 0; c < (t->cpus ? t->cpus->nr : 1); c++) {
			for (int th = 0; th < (t->threads ? t->threads->nr : 1); th++) {
				const struct perf_record_stat *v = stat_table__get(t, i, c, th);

				printf("%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64
				       " %s\n", t->cpus ? t->cpus->map[c] : -1,
				       t->threads ? (int)t->threads->map[th] : -1, v->val, v->ena,
				       v->run, r.time, name);
			}
		}
	}
	return 0;
}

/* Kernel samples are possible: not every event excludes the kernel. */
static bool may_sample_kernel(const struct perf_header *h)
{
	for (int i = 0; i < h->nr_attrs; i++)
		if (!h->attrs[i].attr.exclude_kernel)
			return true;
	return false;
}

static int run_script(struct script *sc)
{
	struct script_tool st = { .sc = sc };
	const struct reader_opts ro = { .input = sc->input, .symfs = sc->symfs,
					.kallsyms = sc->kallsyms, .unwinder = sc->unwinder,
					.inline_frames = sc->inline_frames };
	char msg[512];
	int err;

	st.tool.sample = process_sample;
	st.tool.mmap = st.tool.mmap2 = st.tool.comm = process_side_band;
	st.tool.fork = st.tool.exit = process_side_band;
	st.tool.context_switch = st.tool.lost = process_side_band;
	st.tool.ksymbol = process_model;
	st.tool.feature = perf_session__name_events;
	st.tool.thread_map = st.tool.cpu_map = st.tool.stat = process_stat;
	st.tool.stat_round = process_stat_round;
	st.tool.ordered_events = true;
	st.tool.dump_fp = sc->dump_raw ? stdout : NULL;
	script_setup_output();
	sc->session = reader__open(&ro, builtin__progress(), msg, sizeof(msg));
	if (!sc->session) {
		ui__error("%s", msg);
		return 1;
	}
	if (sc->list_fields) {
		err = list_fields(sc);
		script_trace__exit(&sc->trace);
		perf_session__delete(sc->session);
		return err;
	}
	if (script_prepare_filter(sc)) {
		perf_session__delete(sc->session);
		return 1;
	}
	err = reader__machine(&sc->machine, &ro, sc->session, may_sample_kernel(sc->session->header),
			      builtin__say);
	if (err)
		ui__error("out of memory reading '%s'", sc->input);
	else
		err = perf_session__process_events(sc->session, &st.tool);
	if (err == -ENOMEM)
		ui__error("out of memory reading '%s'", sc->input);
	else if (err < 0 && sc->session->errmsg[0])
		ui__error("%s", sc->session->errmsg);
	if (!err && sc->session->warnmsg[0])
		ui__warning("%s", sc->session->warnmsg);
	if (!err) {	/* --show-lost-events shows the chunks: perf does not count them then */
		perf_session__lost_warnings(sc->session, !sc->show_lost, msg, sizeof(msg));
		fputs(msg, stderr);
	}
	if (!err && (fflush(stdout) || ferror(stdout))) {
		ui__error("cannot write the output: %s", strerror(errno));
		err = -EIO;
	}
	machine__exit(&sc->machine);
	script_trace__exit(&sc->trace);
	srccode__exit();
	for (int i = 0; i < sc->nr_names; i++)
		free(sc->names[i]);
	free(sc->names);
	stat_table__exit(&sc->stat);
	perf_session__delete(sc->session);
	return err ? 1 : 0;
}

/* Parse the filter options; a bad list is a usage error (message in @msg). */
static int script_parse_filter(struct script *sc, char *msg, size_t size)
{
	struct script_filter_args *a = &sc->fa;
	struct sample_filter *f = &sc->filter;
	int err = 0;

	if (!err && a->comms)
		err = sample_filter__parse_comm(f, a->comms, msg, size);
	if (!err && a->pids)
		err = sample_filter__parse_pid(f, a->pids, msg, size);
	if (!err && a->tids)
		err = sample_filter__parse_tid(f, a->tids, msg, size);
	if (!err && a->cpus)
		err = sample_filter__parse_cpu(f, a->cpus, msg, size);
	if (!err && a->time)
		err = sample_filter__parse_time(f, a->time, msg, size);
	if (!err && a->dsos)
		err = sample_filter__parse_dso(f, a->dsos, msg, size);
	if (!err && a->syms)
		err = sample_filter__parse_sym(f, a->syms, msg, size);
	if (err == -ENOMEM)
		snprintf(msg, size, "out of memory");
	return err;
}

/* perf 6.1's -F names that tperf does not print yet (tperf-script(1) says so). */
static bool perf_only_field(const char *name)
{
	static const char *const names[] = { "insn", "insnlen", "bpf-output", "synth", "metric" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { .o = { .fields = SF_DEFAULT, .max_stack = 127 }, .inline_frames = true };
	const struct option options[] = {
		OPT_STRING('i', "input", &sc.input, "file", "input file name"),
		OPT_CALLBACK('F', "fields", &sc.fields, "str",
			     "comma separated fields, optionally prefixed with a type (hw,sw,trace,raw,break) and ':': comm,tid,pid,cpu,time,period,event,trace,ip,sym,symoff,dso,addr,weight,ins_lat,phys_addr,data_page_size,code_page_size,brstack,brstacksym,brstackoff,iregs,uregs,srcline,srccode,data_src,misc,tod,ipc,flags,callindent; +field/-field change the default",
			     parse_opt_string_list),
		OPT_BOOLEAN(0, "ns", &sc.o.ns, "use 9 decimal places when displaying time"),
		OPT_UINTEGER(0, "max-stack", &sc.o.max_stack,
			    "set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_STRING(0, "symfs", &sc.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &sc.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('c', "comms", &sc.fa.comms, "comm[,comm...]", "only display events for these comms"),
		OPT_STRING(0, "pid", &sc.fa.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &sc.fa.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('C', "cpu", &sc.fa.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &sc.fa.time, "str", "Time span of interest (start,stop)"),
		OPT_STRING(0, "dsos", &sc.fa.dsos, "dso[,dso...]", "only consider symbols in these DSOs"),
		OPT_STRING('S', "symbols", &sc.fa.syms, "symbol[,symbol...]", "only consider these symbols"),
		OPT_BOOLEAN('G', "hide-call-graph", &sc.o.hide_callchain,
			    "When printing symbols do not display call chain"),
		OPT_BOOLEAN(0, "show-mmap-events", &sc.show_mmap, "Show the mmap events"),
		OPT_BOOLEAN(0, "show-task-events", &sc.show_task, "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-switch-events", &sc.show_switch, "Show context switch events (if recorded)"),
		OPT_BOOLEAN(0, "show-lost-events", &sc.show_lost, "Show lost events (if recorded)"),
		OPT_BOOLEAN('D', "dump-raw-trace", &sc.dump_raw, "dump raw trace in ASCII"),
		OPT_STRING(0, "unwinder", &sc.unwinder, "libdw|libunwind",
			   "unwinder of --call-graph dwarf recordings (default libdw)"),
		OPT_BOOLEAN(0, "inline", &sc.inline_frames,
			    "show inlined functions in DWARF callchains (default on)"),
		OPT_BOOLEAN(0, "demangle", &tperf_config.demangle,
			    "demangle C++ and Rust symbol names (default on)"),
		OPT_STRING_OPTARG(0, "list-fields", &sc.list_fields, "event",
				  "list the fields of the file's tracepoints (or of one) and exit", ""),
		OPT_END()
	};
	const char *const usage[] = { "tperf script [<options>]", NULL };
	char buf[256], msg[512];
	const char *bad = NULL;
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	for (int i = 0; i < sc.fields.n; i++) {
		if (!script_fields__parse(&sc.o, sc.fields.v[i], buf, sizeof(buf), &bad))
			continue;
		if (!strcmp(bad, "brstackinsn"))
			usage_with_options_msg(usage, options, "field 'brstackinsn' needs a "
					       "disassembler of the branches' code, which tperf does "
					       "not have; use brstack, brstacksym or brstackoff");
		usage_with_options_msg(usage, options, perf_only_field(bad) ?
					       "field '%s' of perf script is not supported by tperf yet"
					       " (perf: Invalid field requested)" :
					       "unknown field '%s' in -F (perf: Invalid field requested)", bad);
	}
	if (script_parse_filter(&sc, msg, sizeof(msg)))
		usage_with_options_msg(usage, options, "%s", msg);
	if (!sc.input || !*sc.input)
		sc.input = perf_data__default_input();
	if (sc.kallsyms && builtin__check_text_file("--kallsyms", sc.kallsyms))
		ret = 255;	/* perf script's status there */
	else
		ret = run_script(&sc);
	sample_filter__exit(&sc.filter);
	free(sc.fields.v);
	return ret;
}
