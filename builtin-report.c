// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf report: read a perf.data and print the profile as perf 6.1's
 * `report --stdio` does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/hist.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/sort-trace.h"

struct report {
	const char *input, *sort, *symfs, *kallsyms;
	int children;			/* -1: default (on when the file has callchains) */
	bool inverted, show_nr_samples, quiet, stdio, stats;
	bool callchain_set, no_callchain;
	double percent_limit;
	struct callchain_param cc;
	struct machine machine;
	struct hists *hists;		/* one per attr */
	int nr_hists;
	enum sort_key_id keys[SORT_NR_KEYS];
	int nr_keys;
	u64 total_lost_samples;
	struct cc_frame *frames;
	char *levels;
	size_t frames_alloc;
	struct perf_session *session;
	struct sort_trace trace_keys;	/* --sort trace, --sort [sys:event.]field */
	bool bad_sort_key;		/* a field key that no event has: usage error */
};

static struct report *rep_of(struct perf_tool *tool);

struct report_tool {
	struct perf_tool tool;
	struct report *rep;
};

static struct report *rep_of(struct perf_tool *tool)
{
	return ((struct report_tool *)tool)->rep;
}

static int frames_reserve(struct report *r, size_t n)
{
	struct cc_frame *f;
	char *l;

	if (n <= r->frames_alloc)
		return 0;
	f = realloc(r->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	r->frames = f;
	l = realloc(r->levels, n);
	if (!l)
		return -ENOMEM;
	r->levels = l;
	r->frames_alloc = n;
	return 0;
}

/* The sample's callchain, resolved, callee first; markers set the cpumode. */
static int resolve_callchain(struct report *r, struct thread *t, const struct perf_sample *s,
			     size_t *nr)
{
	u8 cpumode = PERF_RECORD_MISC_USER;
	size_t n = 0;

	*nr = 0;
	if (frames_reserve(r, s->callchain_nr + 1))
		return -ENOMEM;
	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];
		struct addr_location al;

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				cpumode = PERF_RECORD_MISC_GUEST_USER;
				break;
			default:
				return 0;	/* corrupted: perf drops the chain */
			}
			continue;
		}
		machine__resolve_addr(&r->machine, t, cpumode, ip, &al);
		r->frames[n] = (struct cc_frame){ al.map ? al.map->dso : NULL, al.sym, ip };
		r->levels[n] = al.map ? al.level : 0;
		n++;
	}
	*nr = n;
	return 0;
}

/* Callee or caller order, cut at --max-stack from the start of that order. */
static size_t order_frames(struct report *r, size_t n)
{
	size_t max = r->cc.max_stack > 0 ? (size_t)r->cc.max_stack : n;

	if (r->cc.order == ORDER_CALLER) {
		for (size_t i = 0; i < n / 2; i++) {
			struct cc_frame f = r->frames[i];
			char l = r->levels[i];

			r->frames[i] = r->frames[n - 1 - i];
			r->frames[n - 1 - i] = f;
			r->levels[i] = r->levels[n - 1 - i];
			r->levels[n - 1 - i] = l;
		}
	}
	return n < max ? n : max;
}

static int add_children(struct report *r, struct hists *h, const struct hist_entry *self_tmpl,
			struct hist_entry *self, u64 period, size_t n)
{
	struct hist_entry **seen = malloc((n + 1) * sizeof(*seen));
	char level = self_tmpl->level;
	size_t nseen = 0;
	int err = 0;

	if (!seen)
		return -ENOMEM;
	seen[nseen++] = self;
	for (size_t i = 0; i < n && !err; i++) {
		struct hist_entry tmpl = *self_tmpl, *e;
		bool dup = false;

		tmpl.dso = r->frames[i].dso;
		tmpl.sym = r->frames[i].sym;
		tmpl.ip = r->frames[i].ip;
		if (r->levels[i])
			level = r->levels[i];	/* frames without a map keep the last one */
		tmpl.level = level;
		e = hists__findnew(h, &tmpl);
		if (!e) {
			err = -ENOMEM;
			break;
		}
		/* an entry is credited once per sample, however many frames map to it */
		for (size_t k = 0; k < nseen && !dup; k++)
			dup = seen[k] == e;
		if (dup)
			continue;
		seen[nseen++] = e;
		e->period_acc += period;
		e->nr_acc++;
		if (h->has_callchain) {
			err = cc_node__append(&e->callchain, r->frames + i, n - i, period,
					      r->cc.key_address);
			if (n - i > e->max_depth)
				e->max_depth = n - i;
		}
	}
	free(seen);
	return err;
}

static int process_sample(struct perf_tool *tool, struct perf_session *s,
			  const union perf_event *ev, struct perf_sample *sample,
			  struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);
	struct hist_entry tmpl = { 0 }, *e;
	struct addr_location al;
	struct thread *t;
	struct hists *h;
	u64 period;
	size_t n = 0;

	if (!attr || attr->idx < 0 || attr->idx >= r->nr_hists)
		return 0;
	h = &r->hists[attr->idx];
	period = (attr->attr.sample_type & PERF_SAMPLE_PERIOD) ? sample->period
							       : attr->attr.sample_period;
	t = machine__findnew_thread(&r->machine, sample->pid, sample->tid);
	if (!t)
		return -ENOMEM;
	machine__resolve_addr(&r->machine, t, sample->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			      sample->ip, &al);
	if ((h->has_callchain || h->children) && (attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		if (resolve_callchain(r, t, sample, &n))
			return -ENOMEM;
		n = order_frames(r, n);
	}
	tmpl.comm = t->comm;
	tmpl.thread = t;
	tmpl.dso = al.map ? al.map->dso : NULL;
	tmpl.sym = al.sym;
	tmpl.ip = al.addr;
	tmpl.level = al.level;
	tmpl.cpu = sample->cpu;
	if (r->trace_keys.nr && sort_trace__fill(&r->trace_keys, &r->machine, &attr->attr, sample, &tmpl))
		return -ENOMEM;
	e = hists__findnew(h, &tmpl);
	if (!e)
		return -ENOMEM;
	e->period += period;
	e->nr_samples++;
	h->nr_samples++;
	if (h->children) {
		e->period_acc += period;
		e->nr_acc++;
	}
	if (h->has_callchain && cc_node__append(&e->callchain, r->frames, n, period,
						r->cc.key_address))
		return -ENOMEM;
	if (h->has_callchain && n > e->max_depth)
		e->max_depth = n;
	if (h->children && add_children(r, h, &tmpl, e, period, n))
		return -ENOMEM;
	(void)s;
	(void)ev;
	return 0;
}

static int process_model(struct perf_tool *tool, struct perf_session *s,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(&rep_of(tool)->machine, ev, sample);
}

static int process_lost_samples(struct perf_tool *tool, struct perf_session *s,
				const union perf_event *ev, struct perf_sample *sample,
				struct perf_header_attr *attr)
{
	(void)s;
	(void)sample;
	(void)attr;
	if (ev->header.size >= sizeof(ev->lost_samples))
		rep_of(tool)->total_lost_samples += ev->lost_samples.lost;
	return 0;
}

static u64 combined_sample_type(struct perf_header *h)
{
	u64 t = 0;

	for (int i = 0; i < h->nr_attrs; i++)
		t |= h->attrs[i].attr.sample_type;
	return t;
}

/* The tracepoint keys, once the tracing data is known. */
static int setup_trace_keys(struct report *r)
{
	const char *bad;
	int err = sort_trace__load(&r->trace_keys, r->session->header, &r->machine, &bad);

	if (err == -ENOENT && bad)
		r->bad_sort_key = true;	/* perf: "Unknown --sort key" */
	else if (err == -ENOENT)
		error("'%s' has no tracing data: the tracepoint sort keys need one (record tracepoints with 'tperf record -e SYS:NAME')",
		      r->input);
	else if (err == -EINVAL)
		error("cannot read the tracing data of '%s': it is malformed", r->input);
	if (err && err != -ENOMEM)
		return -ECANCELED;
	for (int i = 0; !err && i < r->nr_hists; i++)
		sort_trace__setup_hists(&r->trace_keys, &r->session->header->attrs[i].attr,
					&r->hists[i]);
	return err;
}

/* The hists of each event, once the attrs are known (pipe mode: after the header records). */
static int setup_hists(struct report *r)
{
	struct perf_header *h = r->session->header;
	bool has_cc = combined_sample_type(h) & PERF_SAMPLE_CALLCHAIN;
	bool children;

	if (r->hists)
		return 0;
	if (r->callchain_set && r->cc.mode != CHAIN_NONE && !has_cc && !r->session->data.is_pipe) {
		error("selected -g but the file '%s' has no callchains: record with -g",
		      r->input);
		return -EINVAL;
	}
	/* perf picks the order from --children before it knows the sample
	 * type, and in pipe mode it never enables --children */
	children = r->children < 0 ? true : r->children;
	if (children && !r->cc.order_set)
		r->cc.order = ORDER_CALLER;
	children = children && has_cc && !r->session->data.is_pipe;
	if (r->inverted)
		r->cc.order = ORDER_CALLER;
	r->nr_hists = h->nr_attrs;
	r->hists = calloc(r->nr_hists + 1, sizeof(*r->hists));
	if (!r->hists)
		return -ENOMEM;
	for (int i = 0; i < r->nr_hists; i++) {
		if (hists__init(&r->hists[i], r->keys, r->nr_keys, children, &r->cc))
			return -ENOMEM;
		r->hists[i].has_callchain = has_cc && r->cc.mode != CHAIN_NONE;
	}
	return r->trace_keys.nr ? setup_trace_keys(r) : 0;
}

static int process_sample_setup(struct perf_tool *tool, struct perf_session *s,
				const union perf_event *ev, struct perf_sample *sample,
				struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);
	int err = setup_hists(r);

	if (err)
		return err;
	if (attr && attr->idx >= r->nr_hists)
		return 0;	/* an attr that came after the first sample */
	return process_sample(tool, s, ev, sample, attr);
}

/* Pipe mode: perf report names the events by EVENT_DESC (perf evlist does not). */
static void print_sample_count(struct hists *h, const char *name)
{
	unsigned long n = h->nr_samples;
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'G';
	}
	printf("# Samples: %lu%c of event '%s'\n", n, unit, name);
	printf("# Event count (approx.): %llu\n", (unsigned long long)h->total_period);
}

/* --stats: the records by type, then the samples of each event. */
static int print_stats(struct report *r)
{
	struct perf_session *s = r->session;
	struct perf_header *hd = s->header;
	u64 total = 0;
	char buf[256];

	for (int i = 1; i < PERF_RECORD_TYPES; i++)
		total += s->stats.nr_events[i];
	printf("\nAggregated stats:%s\n", perf_header__has_feat(hd, HEADER_AUXTRACE) ?
	       " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	printf("%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (int i = 1; i < PERF_RECORD_TYPES; i++) {
		const char *name = perf_event__name(i);

		if (!name || !s->stats.nr_events[i])
			continue;
		printf("%16s events: %10llu  (%4.1f%%)\n", name,
		       (unsigned long long)s->stats.nr_events[i],
		       total ? 100.0 * s->stats.nr_events[i] / total : 0.0);
	}
	for (int i = 0; i < r->nr_hists; i++) {
		if (!r->hists[i].nr_samples)
			continue;
		printf("%s stats:\n", perf_header__event_name(hd, &hd->attrs[i], buf, sizeof(buf)));
		printf("%16s events: %10llu\n", "SAMPLE", (unsigned long long)r->hists[i].nr_samples);
	}
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

static bool sort_starts_with_sym(const char *s)
{
	return !strncmp(s, "sym", 3);
}

static int print_report(struct report *r)
{
	struct perf_header *hd = r->session->header;
	struct hists_print_opts o = {
		.show_nr_samples = r->show_nr_samples,
		.show_header = !r->quiet,
		.min_percent = r->percent_limit,
		.skip_first_frame = sort_starts_with_sym(r->sort),
	};
	char buf[256];

	if (!r->quiet) {
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)r->total_lost_samples);
	}
	for (int i = 0; i < r->nr_hists; i++) {
		struct hists *h = &r->hists[i];

		if (!h->nr_samples)
			continue;
		if (hists__output_resort(h))
			return -ENOMEM;
		if (!r->quiet)
			print_sample_count(h, perf_header__event_name(hd, &hd->attrs[i], buf, sizeof(buf)));
		if (!r->quiet)
			printf("#\n");
		if (hists__fprintf(h, &o, stdout))
			return -EIO;
		printf("\n\n");
	}
	if (!r->quiet)
		printf("#\n# (Tip: Boolean options have negative forms, e.g.: tperf report --no-children)\n#\n");
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

static bool all_exclude_kernel(struct perf_header *h)
{
	for (int i = 0; i < h->nr_attrs; i++)
		if (!h->attrs[i].attr.exclude_kernel)
			return false;
	return true;
}

static struct report *opt_rep;

static int parse_callchain_opt(const struct option *opt, const char *arg, int unset)
{
	struct report *r = opt_rep;

	(void)opt;
	r->callchain_set = true;
	if (unset) {
		r->cc.mode = CHAIN_NONE;
		return 0;
	}
	if (!arg)
		return 0;
	return callchain_param__parse(&r->cc, arg) ? -1 : 0;
}

static int parse_children(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	opt_rep->children = !unset;
	return 0;
}

static int run_report(struct report *r)
{
	struct report_tool rt = { .rep = r };
	struct machine_opts mo = { .symfs = r->symfs, .kallsyms = r->kallsyms };
	char msg[512];
	int err;

	rt.tool.sample = process_sample_setup;
	rt.tool.mmap = rt.tool.mmap2 = rt.tool.comm = process_model;
	rt.tool.fork = rt.tool.exit = rt.tool.ksymbol = process_model;
	rt.tool.lost_samples = process_lost_samples;
	if (!r->stats)	/* perf --stats keeps the names it derives */
		rt.tool.feature = perf_session__name_events;
	rt.tool.ordered_events = true;
	r->session = perf_session__new(r->input, &err, msg, sizeof(msg));
	if (!r->session) {
		error("%s", msg);
		return 1;
	}
	err = machine__init(&r->machine, &mo, &r->session->header->env);
	if (!err && !r->session->data.is_pipe)
		err = setup_hists(r);
	if (!err && !r->quiet && !r->stats)	/* perf prints it before it reads the events */
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!err)
		err = perf_session__process_events(r->session, &rt.tool);
	if (err == -ENOMEM)
		error("out of memory reading '%s'", r->input);
	else if (err == -ECANCELED)
		;	/* said */
	else if (err < 0 && err != -EINVAL)
		error("%s", r->session->errmsg);
	else if (err == -EINVAL && r->session->errmsg[0])
		error("%s", r->session->errmsg);
	if (!err && r->session->warnmsg[0])
		warning("%s", r->session->warnmsg);
	if (!err && !r->hists)
		err = setup_hists(r);
	if (!err && !r->quiet && !r->machine.kernel_map && !all_exclude_kernel(r->session->header))
		warning("'%s' has no kernel map (kernel.kptr_restrict was set when it was recorded?): kernel samples cannot be resolved",
			r->input);
	if (!err && r->stats) {
		err = print_stats(r);
		if (err)
			error("cannot write the statistics: %s", strerror(-err));
	} else if (!err) {
		err = print_report(r);
		if (err)
			error("cannot write the report: %s", strerror(-err));
	}
	for (int i = 0; i < r->nr_hists; i++)
		hists__exit(&r->hists[i]);
	free(r->hists);
	sort_trace__exit(&r->trace_keys);
	free(r->frames);
	free(r->levels);
	machine__exit(&r->machine);
	perf_session__delete(r->session);
	return r->bad_sort_key ? 129 : err ? 1 : 0;
}

/* --sort: perf's keys, then tracepoint keys (trace, [sys:event.]field). */
static int parse_sort_keys(struct report *r)
{
	char *copy = strdup(r->sort), *tok, *save = NULL;
	int nr = 0, k;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (nr == SORT_NR_KEYS)
			break;
		if (sort_key__parse(tok, &r->keys[nr], 1) == 1) {
			nr++;
			continue;
		}
		k = sort_trace__add_key(&r->trace_keys, tok);
		if (k < 0)
			break;
		r->keys[nr++] = (enum sort_key_id)k;
	}
	free(copy);
	return tok || !nr ? -EINVAL : nr;
}

int cmd_report(int argc, const char **argv)
{
	struct report r = {
		.children = -1,
		.sort = "comm,dso,sym",
		.cc = { .mode = CHAIN_GRAPH_ABS, .min_percent = 0.5, .order = ORDER_CALLEE,
			.max_stack = 127 },
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &r.input, "file", "input file name"),
		OPT_BOOLEAN(0, "stdio", &r.stdio, "use the stdio interface"),
		OPT_STRING('s', "sort", &r.sort, "key[,key2...]",
			   "sort by key(s): comm, dso, sym, pid, cpu, trace, [sys:event.]field"),
		OPT_CALLBACK_NOOPT(0, "children", NULL, NULL,
				   "accumulate callchains of children and show total overhead as well",
				   parse_children),
		OPT_CALLBACK_DEFAULT('g', "call-graph", NULL,
				     "print_type,threshold,order,sort_key,value",
				     "callchain output: graph, fractal or none; threshold; caller or callee; function or address; percent, period or count (default: graph,0.5,caller,function,percent)",
				     parse_callchain_opt),
		OPT_BOOLEAN('G', "inverted", &r.inverted, "alias for inverted call graph"),
		OPT_INTEGER(0, "max-stack", &r.cc.max_stack,
			    "set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_DOUBLE(0, "percent-limit", &r.percent_limit,
			   "don't show entries under that percent"),
		OPT_BOOLEAN('n', "show-nr-samples", &r.show_nr_samples, "show a column with the number of samples"),
		OPT_BOOLEAN('q', "quiet", &r.quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN(0, "stats", &r.stats, "display event stats"),
		OPT_STRING(0, "symfs", &r.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &r.kallsyms, "file", "kallsyms pathname"),
		OPT_END()
	};
	const char *const usage[] = { "tperf report [<options>]", NULL };
	int rc;

	opt_rep = &r;
	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	r.nr_keys = parse_sort_keys(&r);
	if (r.nr_keys < 0)
		usage_with_options_msg(usage, options, "unknown sort key in '%s'", r.sort);
	if (r.percent_limit > 0)
		r.cc.min_percent = r.percent_limit;
	if (!r.input || !*r.input)
		r.input = perf_data__default_input();
	rc = run_report(&r);
	if (rc == 129)	/* a field key no recorded tracepoint has */
		usage_with_options_msg(usage, options, "unknown sort key in '%s'", r.sort);
	return rc;
}
