// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf report: read a perf.data and print the profile as perf 6.1's
 * `report --stdio` does.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/lib/batch-pipe.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/perf-data/header-print.h"
#include "util/report/hist.h"
#include "util/report/reader.h"
#include "util/report/report-pipeline.h"
#include "util/lib/pager.h"
#include "util/lib/parse-options.h"
#include "util/report/sample-filter.h"
#include "util/perf-data/session.h"
#include "util/symbol/srcline.h"
#include "util/unwind/unwind.h"
#include "util/report/sort-trace.h"
#include "util/report/branch-hist.h"

struct report {
	const char *input, *sort, *symfs, *kallsyms, *unwinder;
	bool inline_frames;
	const char *fields, *parent;	/* -F, -p (NULL: perf's default pattern) */
	bool show_total_period;
	bool header, header_only;	/* --header, --header-only */
	int verbose;			/* -v */
	int group;			/* --group: -1 default (on when the file has groups) */
	bool forced_group;		/* --group on a file without groups: all in one */
	bool relative;			/* --percentage relative */
	bool cpu_util;			/* --show-cpu-utilization */
	int color_mode;			/* --stdio-color: 1 always, -1 never, 0 auto */
	const char *symbol_filter;	/* --symbol-filter */
	struct hists ***members;	/* --group: each leader's members */
	struct hist_format fmt;
	bool has_parent_re;
	char errbuf[512];
	const char *time_str;
	int children;			/* -1: default (on when the file has callchains) */
	bool inverted, show_nr_samples, quiet, stdio, stats;
	bool callchain_set, no_callchain;
	double percent_limit;
	u64 total_lost_samples;
	bool bad_sort_key;		/* a field key that no event has: usage error */
	char *dyn_names[SORT_DYN_MAX];	/* the --sort names of those keys, by slot */
	struct report_pipeline pl;	/* the samples into the hists */
	int branch_mode;		/* -b/--branch-stack: -1 default (the file's) */
	bool branch_sort_ok;		/* --sort is valid in branch mode */
	struct branch_hists *bh;	/* branch mode: one per attr, else NULL */
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

static int process_model(struct perf_tool *tool, struct perf_session *s,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(&rep_of(tool)->pl.machine, ev, sample);
}

static int process_lost_samples(struct perf_tool *tool, struct perf_session *s,
				const union perf_event *ev, struct perf_sample *sample,
				struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);

	(void)s;
	(void)sample;
	if (ev->header.size < sizeof(ev->lost_samples))
		return 0;
	r->total_lost_samples += ev->lost_samples.lost;
	/* --stats: per event, by the record's id (perf: the first event for id 0) */
	if (attr && attr->idx < r->pl.nr_hists)
		r->pl.hists[attr->idx].nr_lost_samples += ev->lost_samples.lost;
	return 0;
}

static u64 combined_sample_type(struct perf_header *h)
{
	u64 t = 0;

	for (int i = 0; i < h->nr_attrs; i++)
		t |= h->attrs[i].attr.sample_type;
	return t;
}

static bool fmt_has(const struct hist_format *f, enum sort_key_id k)
{
	for (int i = 0; i < f->nr_keys; i++)
		if (f->keys[i] == k)
			return true;
	return false;
}

/*
 * perf's default sort keys of the file (get_default_sort_order()): of a
 * file whose events are all tracepoints, their payloads ("trace"; with
 * --raw-trace, every field: "trace_fields"); else comm,dso,sym.  Before the
 * file is read (checking the options), the usual ones; so in pipe mode,
 * where perf chooses before the events are known.
 */
static const char *default_sort(const struct report *r)
{
	const struct perf_header *h = r->pl.session && !r->pl.session->data.is_pipe ?
				      r->pl.session->header : NULL;
	bool trace = h && h->nr_attrs > 0;

	for (int i = 0; h && i < h->nr_attrs; i++)
		trace &= h->attrs[i].attr.type == PERF_TYPE_TRACEPOINT;
	if (trace)
		return r->pl.trace_keys.raw_trace ? "trace_fields" : "trace";
	return "comm,dso,sym";
}

/*
 * --sort, with the file's default keys before a "+key" list and where
 * none is given (NULL: no sort keys, -F only), and -p's parent key at the
 * end, as perf adds them.
 */
static const char *sort_order(struct report *r, char *buf, size_t size)
{
	const char *sort = r->sort;

	if (sort && *sort == '+') {
		snprintf(buf, size, "%s,%s", default_sort(r), sort + 1);
		sort = buf;
	} else if (!sort && (!r->fields || *r->fields == '+')) {
		sort = default_sort(r);
	}
	if (!r->parent)
		return sort;
	if (!sort)
		return "parent";
	if (sort != buf)
		snprintf(buf, size, "%s,parent", sort);
	else
		snprintf(buf + strlen(buf), size - strlen(buf), ",parent");
	return buf;
}

/* The columns and the output order; the per-sample work the keys need. */
static int setup_format(struct report *r, bool children)
{
	char bad[256], buf[4096], *expanded = NULL;
	const char *sort = sort_order(r, buf, sizeof(buf)), *badkey;
	int err;

	if (sort) {	/* trace_fields, EVENT.*: the fields of the file's events */
		err = sort_trace__expand(&r->pl.trace_keys, r->pl.session->header, sort, &expanded,
					 &badkey);
		if (err == -ENOENT) {
			r->bad_sort_key = true;
			snprintf(r->errbuf, sizeof(r->errbuf), "%s", badkey);
			return -ECANCELED;
		}
		if (err == -EINVAL)
			ui__error("cannot read the tracing data of '%s': it is malformed", r->input);
		if (err)
			return err == -EINVAL ? -ECANCELED : err;
		if (expanded)
			sort = expanded;
	}
	err = hist_format__setup(&r->fmt, sort, r->fields, children,
				 (r->show_nr_samples ? HIST_FMT_SAMPLES : 0) |
				 (r->show_total_period ? HIST_FMT_PERIOD : 0) |
				 (r->cpu_util ? HIST_FMT_CPU_UTIL : 0), bad, sizeof(bad));
	free(expanded);
	if (err == -E2BIG) {
		ui__error("too many sort keys and fields: at most %d", HIST_MAX_COLS);
		return -ECANCELED;
	}
	if (err)
		return -EINVAL;
	r->pl.need_parent = fmt_has(&r->fmt, SORT_PARENT);
	r->pl.need_srcline = fmt_has(&r->fmt, SORT_SRCLINE);
	r->pl.need_srcfile = fmt_has(&r->fmt, SORT_SRCFILE);
	return 0;
}

/* The tracepoint keys, once the tracing data is known. */
static int setup_trace_keys(struct report *r)
{
	const char *bad;
	int err = sort_trace__load(&r->pl.trace_keys, r->pl.session->header, &r->pl.machine, &bad);

	if (err == -ENOENT) {
		r->bad_sort_key = true;	/* perf: "Unknown --sort key" */
		snprintf(r->errbuf, sizeof(r->errbuf), "%s", bad);
	} else if (err == -EINVAL)
		ui__error("cannot read the tracing data of '%s': it is malformed", r->input);
	if (err && err != -ENOMEM)
		return -ECANCELED;
	for (int i = 0; !err && i < r->pl.nr_hists; i++)
		sort_trace__setup_hists(&r->pl.trace_keys, &r->pl.session->header->attrs[i].attr,
					&r->pl.hists[i]);
	return err;
}

/* The hists of each event, once the attrs are known (pipe mode: after the header records). */
static int setup_hists(struct report *r)
{
	struct perf_header *h = r->pl.session->header;
	bool has_cc = combined_sample_type(h) & PERF_SAMPLE_CALLCHAIN;
	bool children;
	int err;

	if (r->pl.hists)
		return 0;
	if (r->callchain_set && r->pl.cc.mode != CHAIN_NONE && !has_cc && !r->pl.session->data.is_pipe) {
		ui__error("selected -g but the file '%s' has no callchains: record with -g",
		      r->input);
		return -EINVAL;
	}
	/* perf picks the order from --children before it knows the sample
	 * type, and in pipe mode it never enables --children */
	children = r->children < 0 ? true : r->children;
	if (children && !r->pl.cc.order_set)
		r->pl.cc.order = ORDER_CALLER;
	children = children && has_cc && !r->pl.session->data.is_pipe;
	if (r->inverted)
		r->pl.cc.order = ORDER_CALLER;
	err = setup_format(r, children);
	if (err)
		return err;
	if (r->pl.need_parent && !has_cc && !r->pl.session->data.is_pipe) {
		ui__error("selected --sort parent but the file '%s' has no callchains: record with -g",
		      r->input);
		return -EINVAL;
	}
	r->pl.nr_hists = h->nr_attrs;
	r->pl.hists = calloc(r->pl.nr_hists + 1, sizeof(*r->pl.hists));
	if (!r->pl.hists)
		return -ENOMEM;
	for (int i = 0; i < r->pl.nr_hists; i++) {
		if (hists__init(&r->pl.hists[i], r->fmt.keys, r->fmt.nr_keys, children, &r->pl.cc))
			return -ENOMEM;
		r->pl.hists[i].has_callchain = has_cc && r->pl.cc.mode != CHAIN_NONE;
		hists__set_format(&r->pl.hists[i], &r->fmt);
		r->pl.hists[i].long_dso = tperf_config.verbose > 0;
		r->pl.hists[i].relative = r->relative;
		/* perf gives the first event's hists the symbol filter, only */
		r->pl.hists[i].symbol_filter = i ? NULL : r->symbol_filter;
	}
	return r->pl.trace_keys.nr ? setup_trace_keys(r) : 0;
}

static int process_sample_setup(struct perf_tool *tool, struct perf_session *s,
				const union perf_event *ev, struct perf_sample *sample,
				struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);
	int err = setup_hists(r);

	if (err)
		return err;
	if (attr && attr->idx >= r->pl.nr_hists)
		return 0;	/* an attr that came after the first sample */
	report_pipeline__start(&r->pl);
	(void)s;
	(void)ev;
	return report_pipeline__add_sample(&r->pl, sample, attr);
}

/* Pipe mode: perf report names the events by EVENT_DESC (perf evlist does not). */
static void print_sample_count_of(struct report *r, unsigned long n, u64 total, const char *name,
				  bool plural);

static void print_sample_count(struct report *r, struct hists *h, const char *name, bool plural)
{
	/*
	 * --percentage relative: the samples the sample filters let through
	 * (perf's non-filtered stats; --symbol-filter takes only periods off)
	 */
	unsigned long n = h->nr_samples - (h->relative ? h->hidden_samples : 0);
	u64 total = h->total_period;

	for (int m = 0; m < h->nr_members; m++) {	/* --group: the members' too */
		n += h->members[m]->nr_samples -
		     (h->relative ? h->members[m]->hidden_samples : 0);
		total += h->members[m]->total_period;
	}
	print_sample_count_of(r, n, total, name, plural);
}

/* "# Samples: 416  of event 'cycles'" (K, M, G past a thousand), "# Event count" */
static void print_sample_count_of(struct report *r, unsigned long n, u64 total, const char *name,
				  bool plural)
{
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
	printf("# Samples: %lu%c of event%s '%s'", n, unit, plural ? "s" : "", name);
	if (r->time_str)
		printf(" (time slices: %s)", r->time_str);
	printf("\n");
	printf("# Event count (approx.): %llu\n", (unsigned long long)total);
}

/* --stats of a DWARF recording: the chains unwound, cut short, stopped. */
static void print_unwind_stats(struct report *r)
{
	const struct unwind_stats *st;

	/* nothing when no chain could be unwound (perf's output, e.g. no binaries) */
	if (!r->pl.machine.unwinder || !(st = unwinder__stats(r->pl.machine.unwinder))->unwound)
		return;
	printf("DWARF unwind stats:\n");
	printf("%16s chains: %10llu\n", "UNWOUND", (unsigned long long)st->unwound);
	printf("%16s chains: %10llu  (%4.1f%%)\n", "TRUNCATED", (unsigned long long)st->truncated,
	       100.0 * st->truncated / st->unwound);
	printf("%16s chains: %10llu  (%4.1f%%)\n", "FAILED", (unsigned long long)st->failed,
	       100.0 * st->failed / st->unwound);
}

/* A hint when many DWARF chains ran past the end of their stack copy. */
static void unwind_hint(struct report *r)
{
	char buf[256];

	if (!r->quiet && r->pl.machine.unwinder &&
	    unwinder__hint(r->pl.machine.unwinder, buf, sizeof(buf)))
		ui__note("%s", buf);
}

/* --stats: the records by type, then the samples of each event. */
static int print_stats(struct report *r)
{
	struct perf_session *s = r->pl.session;
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
	for (int i = 0; i < r->pl.nr_hists; i++) {
		const struct hists *h = &r->pl.hists[i];

		if (!h->nr_samples && !h->nr_lost_samples)
			continue;
		printf("%s stats:\n", perf_header__event_name(hd, &hd->attrs[i], buf, sizeof(buf)));
		if (h->nr_samples)
			printf("%16s events: %10llu\n", "SAMPLE", (unsigned long long)h->nr_samples);
		if (h->nr_lost_samples)	/* perf sums them in a u32 */
			printf("%16s events: %10u\n", "LOST_SAMPLES", (u32)h->nr_lost_samples);
	}
	print_unwind_stats(r);
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

/* The keys a one-item --comms, --dsos or --symbols list leaves out, as perf does. */
static int elided_list(const struct report *r, enum sort_key_id k, const char *const **list)
{
	switch (k) {
	case SORT_COMM:
		*list = (const char *const *)r->pl.filter.comms;
		return r->pl.filter.nr_comms;
	case SORT_DSO:
		*list = (const char *const *)r->pl.filter.dsos;
		return r->pl.filter.nr_dsos;
	case SORT_SYM:
		*list = (const char *const *)r->pl.filter.syms;
		return r->pl.filter.nr_syms;
	default:
		return 0;
	}
}

static const char *key_list_name(enum sort_key_id k)
{
	return k == SORT_COMM ? "comm" : k == SORT_DSO ? "dso" : "symbol";
}

/* Drop the elided columns; print "# comm: NAME" for each, or none when all would go. */
static void elide_columns(struct report *r, bool print)
{
	struct hist_format *f = &r->fmt;
	const char *const *list;
	int n = 0, keys = 0, elided = 0;

	for (int i = 0; i < f->nr_fields; i++) {
		keys += !sort_key__is_value(f->fields[i]);
		elided += elided_list(r, f->fields[i], &list) == 1;
	}
	if (!elided || elided == keys)
		return;
	for (int i = 0; i < f->nr_fields; i++) {
		if (elided_list(r, f->fields[i], &list) != 1) {
			f->fields[n++] = f->fields[i];
			continue;
		}
		if (print)
			printf("# %s: %s\n", key_list_name(f->fields[i]), list[0]);
	}
	f->nr_fields = n;
}

/* --group: is attr @i a member (not the leader) of a group shown together? */
static bool is_group_member(struct report *r, int i)
{
	const struct perf_header_attr *a = &r->pl.session->header->attrs[i];

	return r->group && a->leader_idx != i && a->leader_idx >= 0 &&
	       a->leader_idx < r->pl.nr_hists && r->pl.session->header->attrs[a->leader_idx].nr_members > 1;
}

/* "anon group { a, b }" or "name { a, b }"; "a, b" for a forced group */
static const char *group_desc(struct report *r, int i, char *buf, size_t size)
{
	struct perf_header *hd = r->pl.session->header;
	struct perf_header_attr *a = &hd->attrs[i];
	char name[256];
	int n = 0;

	buf[0] = '\0';
	if (!r->forced_group)
		n = snprintf(buf, size, "%s { ", a->group_name ? a->group_name : "anon group");
	for (int k = i; k < r->pl.nr_hists && k < i + (int)a->nr_members && n < (int)size; k++)
		n += snprintf(buf + n, size - n, "%s%s", k > i ? ", " : "",
			      perf_header__event_name(hd, &hd->attrs[k], name, sizeof(name)));
	if (n < (int)size && !r->forced_group)
		snprintf(buf + n, size - n, " }");
	return buf;
}

/*
 * perf's --group on a file that has no groups: every event in one group
 * led by the first, named without "anon group { }".
 */
static void force_group(struct report *r)
{
	struct perf_header *hd = r->pl.session->header;

	if (r->group != 1 || hd->nr_attrs < 2 || r->pl.nr_hists != hd->nr_attrs)
		return;
	for (int i = 0; i < hd->nr_attrs; i++)
		if (hd->attrs[i].nr_members > 1)
			return;
	hd->attrs[0].nr_members = hd->nr_attrs;
	for (int i = 0; i < hd->nr_attrs; i++)
		hd->attrs[i].leader_idx = 0;
	r->forced_group = true;
}

/* --group: link each leader's entries with its members' (their totals first). */
static int link_groups(struct report *r)
{
	struct perf_header *hd = r->pl.session->header;

	for (int i = 0; i < r->pl.nr_hists && r->group; i++) {
		int nr = hd->attrs[i].nr_members;

		if (is_group_member(r, i) || hd->attrs[i].leader_idx != i || nr < 2 || i + nr > r->pl.nr_hists)
			continue;
		r->members[i] = calloc(nr, sizeof(struct hists *));
		if (!r->members[i])
			return -ENOMEM;
		for (int k = 1; k < nr; k++) {
			r->members[i][k - 1] = &r->pl.hists[i + k];
			if (hists__output_resort(&r->pl.hists[i + k]))
				return -ENOMEM;
		}
		if (hists__link_group(&r->pl.hists[i], r->members[i], nr - 1))
			return -ENOMEM;
	}
	return 0;
}

static u64 total_samples(const struct report *r)
{
	u64 n = 0;

	for (int i = 0; i < r->pl.nr_hists; i++)
		n += r->pl.hists[i].nr_samples;
	return n;
}

/*
 * Colour as perf: --stdio-color always or never, else (auto) when stdout
 * is a terminal (or the pager) and not a dumb one.
 */
static bool use_color(const struct report *r)
{
	const char *term = getenv("TERM");

	if (r->color_mode)
		return r->color_mode > 0;
	return (isatty(1) || pager_in_use()) && !(term && !strcmp(term, "dumb"));
}

static int print_report(struct report *r)
{
	struct perf_header *hd = r->pl.session->header;
	struct hists_print_opts o = {
		.show_nr_samples = r->show_nr_samples,
		.show_header = !r->quiet,
		.min_percent = r->percent_limit,
		/* perf looks at the --sort text, and only without -F */
		.skip_first_frame = !r->fields && r->sort && !strncmp(r->sort, "sym", 3),
		.color = use_color(r),
		.verbose = r->verbose > 0 || tperf_config.verbose > 0,
	};

	r->pl.cc.color = o.color;
	char buf[1024];

	if (!total_samples(r)) {	/* perf prints nothing more, and says so */
		ui__warning("'%s' has no samples%s", r->input,
			r->pl.filter_set ? " that pass the filters" : "");
		return fflush(stdout) || ferror(stdout) ? -EIO : 0;
	}
	elide_columns(r, !r->quiet);
	if (!r->quiet) {
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)r->total_lost_samples);
	}
	force_group(r);
	r->members = calloc(r->pl.nr_hists + 1, sizeof(*r->members));
	if (!r->members || link_groups(r))
		return -ENOMEM;
	for (int i = 0; i < r->pl.nr_hists; i++) {
		struct hists *h = &r->pl.hists[i];

		if (is_group_member(r, i))
			continue;
		if (!h->nr_samples && !h->nr_members)
			continue;
		if (hists__output_resort(h))
			return -ENOMEM;
		if (!r->quiet)
			print_sample_count(r, h, h->nr_members ? group_desc(r, i, buf, sizeof(buf)) :
					   perf_header__event_name(hd, &hd->attrs[i], buf, sizeof(buf)),
					   hd->attrs[i].nr_members > 1);
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
		r->pl.cc.mode = CHAIN_NONE;
		return 0;
	}
	if (!arg)
		return 0;
	if (callchain_param__parse(&r->pl.cc, arg)) {
		ui__error("invalid --call-graph value '%s': give print_type,threshold,order,sort_key,value",
		      arg);
		return -1;
	}
	return 0;
}

static int parse_branch_stack(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	*(int *)opt->value = !unset;
	return 0;
}

static int parse_stdio_color(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	if (unset || (arg && !strcmp(arg, "never")))
		opt_rep->color_mode = -1;
	else if (!arg || !strcmp(arg, "always"))
		opt_rep->color_mode = 1;
	else if (!strcmp(arg, "auto"))
		opt_rep->color_mode = 0;
	else	/* perf too goes on, in auto */
		ui__warning("bad config value for 'color.ui', ignoring...");
	return 0;
}

static int parse_percentage(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	if (unset || !strcmp(arg, "absolute")) {
		opt_rep->relative = false;
		return 0;
	}
	if (!strcmp(arg, "relative")) {
		opt_rep->relative = true;
		return 0;
	}
	ui__error("--percentage takes relative or absolute, not '%s'", arg);
	return -1;
}

/*
 * --percent-limit hides entries below it and, as perf's parse_percent_limit(),
 * sets the callchain threshold too, where it comes on the command line: a
 * -g threshold after it wins; zero included (every branch is then shown).
 * perf reads it with strtof(): a float.
 */
static int parse_percent_limit(const struct option *opt, const char *arg, int unset)
{
	char *end;
	float pct;

	(void)opt;
	(void)unset;
	pct = strtof(arg, &end);
	if (end == arg || *end) {
		ui__error("--percent-limit takes a number, not '%s'", arg);
		return -1;
	}
	opt_rep->percent_limit = pct;
	opt_rep->pl.cc.min_percent = pct;
	return 0;
}

static int parse_group(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	opt_rep->group = !unset;
	return 0;
}

static int parse_children(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	opt_rep->children = !unset;
	return 0;
}

typedef int (*filter_parse_fn)(struct sample_filter *f, const char *list, char *msg,
			       size_t size);

/* The filter options: each list goes to the shared sample filter. */
static int parse_filter(const struct option *opt, const char *arg, int unset)
{
	static const struct {
		const char *name;
		filter_parse_fn fn;
	} parsers[] = {
		{ "comms", sample_filter__parse_comm }, { "pid", sample_filter__parse_pid },
		{ "tid", sample_filter__parse_tid }, { "dsos", sample_filter__parse_dso },
		{ "symbols", sample_filter__parse_sym }, { "cpu", sample_filter__parse_cpu },
		{ "time", sample_filter__parse_time },
	};
	char msg[256] = "";
	int err = -EINVAL;

	if (unset)
		return 0;
	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		if (!strcmp(opt->long_name, parsers[i].name))
			err = parsers[i].fn(&opt_rep->pl.filter, arg, msg, sizeof(msg));
	if (err) {
		ui__error("%s", err == -ENOMEM ? "out of memory" : msg);
		return -1;
	}
	opt_rep->pl.filter_set = true;
	if (!strcmp(opt->long_name, "time"))
		opt_rep->time_str = arg;
	return 0;
}

/* Percent --time ranges need the file's time span; --cpu and --time the sample fields. */
static int prepare_filter(struct report *r)
{
	struct perf_header *h = r->pl.session->header;
	u64 type_and = ~0ULL;
	char msg[512];

	if (!r->pl.filter_set)
		return 0;
	for (int i = 0; i < h->nr_attrs; i++)
		type_and &= h->attrs[i].attr.sample_type;
	if (sample_filter__prepare(&r->pl.filter, type_and, h->env.first_sample_time,
				   h->env.last_sample_time, r->input, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -EINVAL;
	}
	return 0;
}

/* The file the header sections are read from (a directory's DIR/data). */
static int open_header_file(struct report *r, time_t *mtime)
{
	char path[4096];
	struct stat st;
	int fd;

	*mtime = 0;
	if (r->pl.session->data.is_pipe && (!strcmp(r->input, "-") || !*r->input))
		return fstat(0, &st) ? -1 : (*mtime = st.st_mtime, -1);
	if (stat(r->input, &st))
		return -1;
	snprintf(path, sizeof(path), S_ISDIR(st.st_mode) ? "%s/data" : "%s", r->input);
	fd = open(path, O_RDONLY);
	if (fd >= 0 && !fstat(fd, &st))
		*mtime = st.st_mtime;
	return fd;
}

/* --header, --header-only: perf's "# ========" block. */
static int print_header(struct report *r)
{
	time_t mtime;
	int fd = open_header_file(r, &mtime);
	int err = perf_header__fprintf(stdout, r->pl.session->header, fd, mtime);

	if (fd >= 0)
		close(fd);
	printf("# ========\n#\n");
	return err;
}

/* Pipe mode: the features print as their records come (--header), and name the events. */
static int process_feature(struct perf_tool *tool, struct perf_session *s,
			   const union perf_event *ev, struct perf_sample *sample,
			   struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);

	if ((r->header || r->header_only) && ev->header.size >= sizeof(ev->feat))
		perf_header__fprintf_feature(stdout, s->header, ev->feat.feat_id, ev->feat.data,
					     ev->header.size - sizeof(ev->feat));
	if (r->stats)	/* perf --stats keeps the names it derives */
		return 0;
	return perf_session__name_events(tool, s, ev, sample, attr);
}

/* --header-only: a pipe's features come as records (perf prints them from stdin only). */
static int header_only(struct report *r, struct report_tool *rt)
{
	struct perf_tool only = { .feature = process_feature };
	int err = 0;

	if (r->pl.session->data.is_pipe && !strcmp(r->pl.session->data.path, "-")) {
		rt->tool = only;
		err = perf_session__process_events(r->pl.session, &rt->tool);
	}
	if (err)
		ui__error("%s", r->pl.session->errmsg);
	perf_session__delete(r->pl.session);
	return err || fflush(stdout) || ferror(stdout) ? 1 : 0;
}

/* The tracepoint keys and their names: none */
static void drop_dyn_keys(struct report *r)
{
	sort_trace__exit(&r->pl.trace_keys);
	for (int i = 0; i < SORT_DYN_MAX; i++) {
		free(r->dyn_names[i]);
		r->dyn_names[i] = NULL;
	}
}

/*
 * What the options made (-p's regex, the filters, the tracepoint keys):
 * freed once, after run_report() however it ended.
 */
static void report_free_opts(struct report *r)
{
	if (r->has_parent_re)
		regfree(&r->pl.parent_re);
	r->has_parent_re = false;
	sample_filter__exit(&r->pl.filter);
	drop_dyn_keys(r);
}

/*
 * Branch mode, as perf decides it: -b, or by default when the file was
 * recorded with -b/-j (its BRANCH_STACK feature; not with user stack
 * copies); --no-branch-stack and --stats keep the usual report.
 */
static bool branch_mode(const struct report *r)
{
	struct perf_header *h = r->pl.session->header;

	if (r->stats || r->branch_mode == 0)
		return false;
	if (r->branch_mode == 1)
		return true;
	return perf_header__has_feat(h, HEADER_BRANCH_STACK) &&
	       !(combined_sample_type(h) & PERF_SAMPLE_STACK_USER);
}

/* The options branch mode does not apply yet: said, not ignored. */
static const char *branch_unsupported(const struct report *r)
{
	if (r->fields)
		return "-F/--fields";
	if (r->show_nr_samples)
		return "-n/--show-nr-samples";
	if (r->show_total_period)
		return "--show-total-period";
	if (r->cpu_util)
		return "--show-cpu-utilization";
	if (r->pl.filter_set)
		return "the sample filters (--comms, --pid, --tid, --dsos, --symbols, --cpu, --time)";
	if (r->symbol_filter)
		return "--symbol-filter";
	if (r->relative)
		return "--percentage relative";
	if (r->parent)
		return "-p/--parent";
	if (r->group == 1)
		return "--group";
	return NULL;
}

static int setup_branch(struct report *r)
{
	struct perf_header *h = r->pl.session->header;
	const char *opt = branch_unsupported(r);
	char bad[256];

	if (opt) {
		ui__error("%s: not supported in branch mode yet; add --no-branch-stack for the "
			  "report of the samples", opt);
		return -EINVAL;
	}
	if (!(combined_sample_type(h) & PERF_SAMPLE_BRANCH_STACK)) {
		ui__error("selected --branch-stack but the file '%s' has no branch stacks: record "
			  "with -b or -j", r->input);
		return -EINVAL;
	}
	r->bh = calloc(h->nr_attrs + 1, sizeof(*r->bh));
	if (!r->bh)
		return -ENOMEM;
	for (int i = 0; i < h->nr_attrs; i++) {
		if (branch_hists__parse_sort(&r->bh[i], r->sort, bad, sizeof(bad))) {
			snprintf(r->errbuf, sizeof(r->errbuf), "%s", bad);
			r->bad_sort_key = true;
			return -EINVAL;
		}
		branch_hists__init(&r->bh[i], &r->pl.machine, tperf_config.verbose > 0);
		r->bh[i].hide_unresolved = r->pl.hide_unresolved;
	}
	return 0;
}

/* Branch mode: every branch of a sample counts, with period 1 (samples without a stack: none). */
static int process_sample_branch(struct perf_tool *tool, struct perf_session *s,
				 const union perf_event *ev, struct perf_sample *sample,
				 struct perf_header_attr *attr)
{
	struct report *r = rep_of(tool);
	struct thread *t;

	(void)s;
	(void)ev;
	if (!attr || attr->idx >= r->pl.session->header->nr_attrs || !sample->branch_nr)
		return 0;
	t = machine__findnew_thread(&r->pl.machine, sample->pid, sample->tid);
	if (!t)
		return -ENOMEM;
	return branch_hists__add(&r->bh[attr->idx], t, sample);
}

static int print_branch_report(struct report *r)
{
	struct perf_header *hd = r->pl.session->header;
	u64 total = 0;
	char buf[1024];

	for (int i = 0; i < hd->nr_attrs; i++)
		total += r->bh[i].nr_samples;
	if (!total) {
		ui__warning("'%s' has no samples", r->input);
		return fflush(stdout) || ferror(stdout) ? -EIO : 0;
	}
	if (!r->quiet)
		printf("#\n# Total Lost Samples: %llu\n#\n",
		       (unsigned long long)r->total_lost_samples);
	for (int i = 0; i < hd->nr_attrs; i++) {
		struct branch_hists *b = &r->bh[i];

		if (!b->nr_samples)
			continue;
		if (branch_hists__resort(b))
			return -ENOMEM;
		if (!r->quiet) {
			print_sample_count_of(r, b->nr_samples, b->total_period,
					      perf_header__event_name(hd, &hd->attrs[i], buf,
								      sizeof(buf)), false);
			printf("#\n");
		}
		if (branch_hists__fprintf(b, !r->quiet, r->percent_limit, use_color(r), stdout))
			return -EIO;
		printf("\n\n");
	}
	if (!r->quiet)
		printf("#\n# (Tip: Boolean options have negative forms, e.g.: tperf report --no-children)\n#\n");
	for (int i = 0; i < hd->nr_attrs; i++)	/* perf counts the types across events */
		if (i)
			for (int k = 0; k < 16; k++) {
				r->bh[0].st.counts[k] += r->bh[i].st.counts[k];
				r->bh[0].st.new_counts[k] += r->bh[i].st.new_counts[k];
			}
	branch_hists__fprintf_stat(&r->bh[0], stdout);
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

static int run_report(struct report *r)
{
	struct report_tool rt = { .rep = r };
	const struct reader_opts ro = { .input = r->input, .symfs = r->symfs,
					.kallsyms = r->kallsyms, .unwinder = r->unwinder,
					.inline_frames = r->inline_frames };
	char msg[512];
	int err;

	rt.tool.sample = process_sample_setup;
	rt.tool.mmap = rt.tool.mmap2 = rt.tool.comm = process_model;
	rt.tool.fork = rt.tool.exit = rt.tool.ksymbol = process_model;
	rt.tool.lost_samples = process_lost_samples;
	rt.tool.feature = process_feature;
	rt.tool.ordered_events = true;
	r->pl.session = reader__open(&ro, builtin__progress(), msg, sizeof(msg));
	if (!r->pl.session) {
		ui__error("%s", msg);
		return 1;
	}
	if (r->header || r->header_only)
		err = print_header(r);
	if (r->header_only)
		return header_only(r, &rt);
	err = reader__machine(&r->pl.machine, &ro, r->pl.session,
			      !all_exclude_kernel(r->pl.session->header), builtin__say);
	if (!err)
		err = prepare_filter(r);
	if (!err && branch_mode(r)) {
		err = setup_branch(r);
		rt.tool.sample = process_sample_branch;
	}
	if (!err && !r->bh && !r->pl.session->data.is_pipe)
		err = setup_hists(r);
	if (!err && !r->header && !r->quiet && !r->stats)	/* perf: before the events */
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!err)
		err = perf_session__process_events(r->pl.session, &rt.tool);
	report_pipeline__finish(&r->pl, &err);
	if (err == -ENOMEM)
		ui__error("out of memory reading '%s'", r->input);
	else if (err == -ECANCELED)
		;	/* said */
	else if (err < 0 && err != -EINVAL)
		ui__error("%s", r->pl.session->errmsg);
	else if (err == -EINVAL && r->pl.session->errmsg[0])
		ui__error("%s", r->pl.session->errmsg);
	if (!err && r->pl.session->warnmsg[0])
		ui__warning("%s", r->pl.session->warnmsg);
	if (!err && !r->quiet && !r->stats) {	/* perf's --stats and -q say nothing */
		perf_session__lost_warnings(r->pl.session, true, msg, sizeof(msg));
		fputs(msg, stderr);
	}
	if (!err && !r->pl.hists && !r->bh)
		err = setup_hists(r);
	if (!err && !r->quiet && !r->pl.machine.kernel_map && !all_exclude_kernel(r->pl.session->header))
		ui__warning("'%s' has no kernel map (kernel.kptr_restrict was set when it was recorded?): kernel samples cannot be resolved",
			r->input);
	if (!err && r->bh) {
		err = print_branch_report(r);
		if (err)
			ui__error("cannot write the report: %s", strerror(-err));
	} else if (!err && r->stats) {
		err = print_stats(r);
		if (err)
			ui__error("cannot write the statistics: %s", strerror(-err));
	} else if (!err) {
		err = print_report(r);
		if (err)
			ui__error("cannot write the report: %s", strerror(-err));
	}
	if (!err)
		unwind_hint(r);
	if (!FREE_AT_EXIT)
		return r->bad_sort_key ? 129 : err ? 1 : 0;
	for (int i = 0; r->bh && i < r->pl.session->header->nr_attrs; i++)
		branch_hists__exit(&r->bh[i]);
	free(r->bh);
	for (int i = 0; i < r->pl.nr_hists && r->members; i++)
		free(r->members[i]);
	free(r->members);
	for (int i = 0; i < r->pl.nr_hists; i++)
		hists__exit(&r->pl.hists[i]);
	free(r->pl.hists);
	report_pipeline__exit(&r->pl);
	machine__exit(&r->pl.machine);
	perf_session__delete(r->pl.session);
	return r->bad_sort_key ? 129 : err ? 1 : 0;
}

/*
 * --sort names that are not perf's keys: tracepoint keys (trace,
 * [sys:event.]field), each given its slot once whatever the times asked.
 */
static int report_dyn_key(const char *name, void *arg)
{
	struct report *r = arg;
	int k;

	for (int i = 0; i < SORT_DYN_MAX; i++)
		if (r->dyn_names[i] && !strcmp(r->dyn_names[i], name))
			return SORT_DYN0 + i;
	k = sort_trace__add_key(&r->pl.trace_keys, name);
	if (k < SORT_DYN0 || k > SORT_DYN_LAST)
		return -EINVAL;
	r->dyn_names[k - SORT_DYN0] = strdup(name);
	return r->dyn_names[k - SORT_DYN0] ? k : -ENOMEM;
}

/* perf's -F knows the trace key (a sort dimension), not the fields' */
static int fields_dyn_key(const char *name, void *arg)
{
	return strcmp(name, "trace") ? -EINVAL : report_dyn_key(name, arg);
}

/* Bad --sort, -F or -p values are usage errors, found before reading. */
static int check_format(struct report *r)
{
	char bad[256], buf[4096];
	const char *sort = sort_order(r, buf, sizeof(buf));
	struct hist_format f;

	if (regcomp(&r->pl.parent_re, r->parent ? r->parent : "^sys_|^do_page_fault",
		    REG_EXTENDED | REG_NOSUB)) {
		snprintf(r->errbuf, sizeof(r->errbuf), "invalid --parent regex '%s'", r->parent);
		return -EINVAL;
	}
	r->has_parent_re = true;
	if (r->sort && !strcmp(r->sort, "+")) {
		snprintf(r->errbuf, sizeof(r->errbuf), "invalid --sort key: '+'");
		return -EINVAL;
	}
	sort_key__set_dynamic(report_dyn_key, r);	/* --sort only: tracepoint keys */
	if (r->sort && *r->sort != '+') {	/* branch mode's keys, checked once it is known */
		struct branch_hists bh;

		r->branch_sort_ok = !branch_hists__parse_sort(&bh, r->sort, bad, sizeof(bad));
	}
	if (sort && hist_format__setup(&f, sort, NULL, false, 0, bad, sizeof(bad)) &&
	    !r->branch_sort_ok) {
		snprintf(r->errbuf, sizeof(r->errbuf), "unknown sort key in '%s' (perf: Unknown --sort key)", bad);
		return -EINVAL;
	}
	sort_key__set_dynamic(fields_dyn_key, r);	/* -F: trace, no field */
	if (r->fields && hist_format__setup(&f, NULL, r->fields, false, 0, bad,
					    sizeof(bad))) {
		snprintf(r->errbuf, sizeof(r->errbuf), "unknown field '%s' in '--fields %s'", bad,
			 r->fields);
		return -EINVAL;
	}
	drop_dyn_keys(r);	/* made again, for the file's events, by setup_format() */
	sort_key__set_dynamic(report_dyn_key, r);
	return 0;
}

int cmd_report(int argc, const char **argv)
{
	struct report r = {
		.branch_mode = -1,
		.children = -1,
		.group = -1,
		.inline_frames = true,
		.pl.cc = { .mode = CHAIN_GRAPH_ABS, .min_percent = 0.5, .order = ORDER_CALLEE,
			   .max_stack = 127 },
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &r.input, "file", "input file name"),
		OPT_BOOLEAN(0, "stdio", &r.stdio, "use the stdio interface"),
		OPT_CALLBACK_NOOPT('b', "branch-stack", &r.branch_mode, NULL,
				   "use branch records for per branch histogram filling "
				   "(default when the file has them; --no-branch-stack: off)",
				   parse_branch_stack),
		OPT_STRING('s', "sort", &r.sort, "key[,key2...]",
			   "sort by key(s): overhead overhead_sys overhead_us overhead_guest_sys overhead_guest_us overhead_children sample period pid tid comm dso sym symoff parent cpu socket srcline srcfile local_weight weight"),
		OPT_STRING('F', "fields", &r.fields, "key[,keys...]",
			   "output field(s): overhead, overhead_sys, overhead_us, overhead_children, sample, period, and any sort key; +key adds to the default"),
		OPT_BOOLEAN(0, "show-total-period", &r.show_total_period,
			    "show a column with the sum of periods"),
		OPT_STRING('p', "parent", &r.parent, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		OPT_CALLBACK('c', "comms", NULL, "comm[,comm...]",
			     "only consider symbols in these comms", parse_filter),
		OPT_CALLBACK(0, "pid", NULL, "pid[,pid...]", "only consider symbols in these pids",
			     parse_filter),
		OPT_CALLBACK(0, "tid", NULL, "tid[,tid...]", "only consider symbols in these tids",
			     parse_filter),
		OPT_CALLBACK('d', "dsos", NULL, "dso[,dso...]",
			     "only consider symbols in these dsos", parse_filter),
		OPT_CALLBACK('S', "symbols", NULL, "symbol[,symbol...]",
			     "only consider these symbols", parse_filter),
		OPT_CALLBACK('C', "cpu", NULL, "cpu", "list of cpus to profile", parse_filter),
		OPT_CALLBACK(0, "time", NULL, "str",
			     "time to display: START,STOP (seconds), or percent ranges like 10%/2, 0%-10%",
			     parse_filter),
		OPT_BOOLEAN(0, "header", &r.header, "show data header"),
		OPT_CALLBACK_NOOPT(0, "group", NULL, NULL,
				   "show event group information together (default when the file has groups)",
				   parse_group),
		OPT_BOOLEAN(0, "header-only", &r.header_only, "show only data header"),
		OPT_CALLBACK_NOOPT(0, "children", NULL, NULL,
				   "accumulate callchains of children and show total overhead as well",
				   parse_children),
		OPT_CALLBACK_DEFAULT('g', "call-graph", NULL,
				     "print_type,threshold,order,sort_key,value",
				     "callchain output: graph, fractal, flat, folded or none; threshold; caller or callee; function, address or srcline; percent, period or count (default: graph,0.5,caller,function,percent)",
				     parse_callchain_opt),
		OPT_BOOLEAN('G', "inverted", &r.inverted, "alias for inverted call graph"),
		OPT_INTEGER(0, "max-stack", &r.pl.cc.max_stack,
			    "set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_CALLBACK(0, "percent-limit", NULL, "percent",
			     "don't show entries (and callchain branches) under that percent",
			     parse_percent_limit),
		OPT_CALLBACK(0, "percentage", NULL, "relative|absolute",
			     "percentages of what the filters show (relative) or of all (default)",
			     parse_percentage),
		OPT_STRING(0, "symbol-filter", &r.symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		OPT_BOOLEAN('U', "hide-unresolved", &r.pl.hide_unresolved,
			    "only display entries resolved to a symbol"),
		OPT_CALLBACK_DEFAULT(0, "stdio-color", NULL, "mode",
				     "'always' (default), 'never' or 'auto'", parse_stdio_color),
		OPT_BOOLEAN('n', "show-nr-samples", &r.show_nr_samples, "show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-cpu-utilization", &r.cpu_util,
			    "show sample percentage for different cpu modes"),
		OPT_INCR('v', "verbose", &r.verbose,
			 "be more verbose (show DSO paths, symbol addresses and origins, debug messages)"),
		OPT_BOOLEAN('q', "quiet", &r.quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN(0, "stats", &r.stats, "display event stats"),
		OPT_STRING(0, "symfs", &r.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &r.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "unwinder", &r.unwinder, "libdw|libunwind",
			   "unwinder of --call-graph dwarf recordings (default libdw)"),
		OPT_BOOLEAN(0, "raw-trace", &r.pl.trace_keys.raw_trace,
			    "show raw trace event output (do not use print fmt or plugins)"),
		OPT_BOOLEAN(0, "inline", &r.inline_frames,
			    "show inlined functions in DWARF callchains (default on)"),
		OPT_BOOLEAN(0, "demangle", &tperf_config.demangle,
			    "demangle C++ and Rust symbol names (default on)"),
		OPT_END()
	};
	const char *const usage[] = { "tperf report [<options>]", NULL };
	int rc;

	opt_rep = &r;
	argc = parse_options(argc, argv, options, usage, 0);
	tperf_config.verbose += r.verbose;
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (r.quiet)
		tperf_config.quiet = true;	/* ui__warning()s too, as perf's -q */
	if (check_format(&r))
		usage_with_options_msg(usage, options, "%s", r.errbuf);
	if (!r.input || !*r.input)
		r.input = perf_data__default_input();
	if (r.kallsyms && builtin__check_text_file("--kallsyms", r.kallsyms)) {
		report_free_opts(&r);
		return 234;	/* perf report's status there (-EINVAL) */
	}
	rc = run_report(&r);
	report_free_opts(&r);
	if (rc == 129)	/* a field key no recorded tracepoint has */
		usage_with_options_msg(usage, options, "unknown sort key in '%s' (perf: Unknown --sort key)",
				       r.errbuf);
	return rc;
}
