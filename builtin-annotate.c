// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf annotate: read a perf.data and print, for one symbol or for every
 * symbol with samples, its disassembly with the share of samples of each
 * instruction, as perf 6.1's `perf annotate --stdio` does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/batch-pipe.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/pager.h"
#include "util/lib/parse-options.h"
#include "util/perf-data/session.h"
#include "util/report/annotate-stdio.h"
#include "util/report/annotate.h"
#include "util/report/hist.h"
#include "util/report/reader.h"
#include "util/report/report-pipeline.h"

struct annotate {
	const char *input, *symfs, *dsos_arg;
	struct annotate_filter filter;
	struct annotate_objdump objdump;
	enum annotate_percent percent_type;
	bool print_line, full_paths, show_nr_samples, skip_missing, stdio;
	int color_mode;			/* --stdio-color: 1 always, -1 never, 0 auto */
	bool color;
	struct annotate_hists *ah;	/* one per attr */
	struct report_pipeline pl;
	const char *prev_path;		/* -l: the last source line named */
	char **dsos, *dsos_copy;	/* -d, split */
	int nr_found;			/* symbols with samples, annotated or not */
};

struct annotate_tool {
	struct perf_tool tool;
	struct annotate *ann;
};

static struct annotate *ann_of(struct perf_tool *tool)
{
	return ((struct annotate_tool *)tool)->ann;
}

static const enum sort_key_id annotate_keys[] = { SORT_DSO, SORT_SYM };

/* perf annotate drops a sample the symbol or DSO filter does not keep, and counts the others per address */
static int count_sample(void *arg, int idx, const struct hist_entry *tmpl, u64 period)
{
	struct annotate *a = arg;

	if (!annotate_filter__keep(&a->filter, tmpl->dso, tmpl->sym))
		return 1;
	if (!tmpl->sym)
		return 0;
	return annotate_hists__add(&a->ah[idx], tmpl->dso, tmpl->sym, tmpl->ip, period);
}

static int setup_hists(struct annotate *a, struct perf_header *h)
{
	a->pl.nr_hists = h->nr_attrs;
	a->pl.hists = calloc(a->pl.nr_hists + 1, sizeof(*a->pl.hists));
	a->ah = calloc(a->pl.nr_hists + 1, sizeof(*a->ah));
	if (!a->pl.hists || !a->ah)
		return -ENOMEM;
	for (int i = 0; i < a->pl.nr_hists; i++)
		if (hists__init(&a->pl.hists[i], annotate_keys, 2, false, &a->pl.cc))
			return -ENOMEM;
	a->pl.sample_hook = count_sample;
	a->pl.hook_arg = a;
	return 0;
}

static int process_model(struct perf_tool *tool, struct perf_session *s,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(&ann_of(tool)->pl.machine, ev, sample);
}

static int process_sample(struct perf_tool *tool, struct perf_session *s,
			  const union perf_event *ev, struct perf_sample *sample,
			  struct perf_header_attr *attr)
{
	struct annotate *a = ann_of(tool);

	(void)ev;
	if (!a->pl.hists && setup_hists(a, s->header))
		return -ENOMEM;
	if (attr && attr->idx >= a->pl.nr_hists)
		return 0;	/* an attr that came after the first sample */
	report_pipeline__start(&a->pl);
	return report_pipeline__add_sample(&a->pl, sample, attr);
}

static int process_feature(struct perf_tool *tool, struct perf_session *s,
			   const union perf_event *ev, struct perf_sample *sample,
			   struct perf_header_attr *attr)
{
	(void)tool;
	return perf_session__name_events(tool, s, ev, sample, attr);
}

/* DSOs said once: perf's annotate_warned */
struct warned {
	struct dso *dso[64];
	size_t nr;
};

static bool warned_has(const struct warned *w, const struct dso *dso)
{
	for (size_t i = 0; i < w->nr; i++)
		if (w->dso[i] == dso)
			return true;
	return false;
}

static void warned_add(struct warned *w, struct dso *dso)
{
	if (w->nr < sizeof(w->dso) / sizeof(w->dso[0]))
		w->dso[w->nr++] = dso;
}

/*
 * The file objdump reads for @dso: the one its symbols were read from (the
 * file recorded: at its path, or the build-id cache's copy when the path
 * holds another build), else its path or cached copy; or an error said
 * once per DSO.
 */
static int dso_file(struct annotate *a, struct dso *dso, const struct symbol *sym, char *buf,
		    size_t size, struct warned *w)
{
	const char *why = NULL;

	if (warned_has(w, dso))
		return -1;
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_MODULE || dso->kind == DSO_BPF)
		why = "no vmlinux or module file to disassemble the kernel's code from";
	else if (dso->kind == DSO_JIT || dso->kind == DSO_NONE)
		why = "it has no file to disassemble";
	else if (dso->kind == DSO_USER && dso->bin_path)	/* the file its symbols came from */
		snprintf(buf, size, "%s", dso->bin_path);
	else if (machine__dso_path(&a->pl.machine, dso, buf, size))
		why = "its file is not there (use --symfs, or record with the build-id cache)";
	if (!why)
		return 0;
	if (!a->skip_missing)
		ui__error("cannot annotate '%s' of '%s': %s", sym->name, dso->long_name, why);
	warned_add(w, dso);
	return -1;
}

/* A symbol to annotate, and its objdump once started. */
struct pending {
	struct hist_entry *e;
	struct annotate_events ev;
	struct objdump_job job;
	int state;			/* 0 not started, 1 running, -1 skipped */
};

static void start_one(struct annotate *a, struct pending *p, struct warned *w)
{
	char path[4096], msg[512];

	p->state = -1;
	if (dso_file(a, p->e->dso, p->e->sym, path, sizeof(path), w))
		return;
	if (annotation__objdump_start(&p->job, path, p->e->sym, &a->objdump, msg, sizeof(msg))) {
		if (!a->skip_missing)
			ui__error("cannot annotate '%s': %s", p->e->sym->name, msg);
		warned_add(w, p->e->dso);
		return;
	}
	p->state = 1;
}

static int print_one(struct annotate *a, struct pending *p, const char *event, struct warned *w)
{
	struct annotation_src *src = NULL;
	struct annotation an;
	size_t nr_src = 0;
	char msg[512];
	int err;

	if (p->state != 1)
		return 0;
	p->state = -1;
	if (warned_has(w, p->e->dso)) {	/* an earlier symbol of its DSO failed */
		annotation__objdump_abort(&p->job);
		return 0;
	}
	if (annotation__objdump_finish(&p->job, &an, msg, sizeof(msg))) {
		if (!a->skip_missing)
			ui__error("cannot annotate '%s': %s", p->e->sym->name, msg);
		warned_add(w, p->e->dso);
		return 0;
	}
	const struct annotate_stdio ps = {
		.ev = &p->ev, .dso_name = p->e->dso->long_name, .event = event,
		.type = a->percent_type, .show_nr_samples = a->show_nr_samples,
		.print_line = a->print_line, .full_paths = a->full_paths, .color = a->color,
	};
	err = annotation__count(&an, &p->ev);
	if (!err && a->print_line)
		err = annotation__source_lines(&an, p->e->dso, p->e->sym, a->percent_type, &p->ev,
					       a->full_paths, &src, &nr_src);
	if (!err)
		err = annotation__fprintf(&an, &ps, src, nr_src, &a->prev_path, stdout);
	free(src);
	annotation__exit(&an);
	return err;
}

/*
 * The symbols of event @idx (and its group's @nr - 1 members after it)
 * with samples, in perf's order; objdump runs for as many of them ahead
 * as there are CPUs to use, and they are printed in order.
 */
static int annotate_event(struct annotate *a, int idx, int nr, const char *event, struct warned *w)
{
	struct hists *h = &a->pl.hists[idx];
	int ahead = batch_pipe__usable_cpus() + 1;
	struct pending *v = calloc(h->nr_sorted + 1, sizeof(*v));
	size_t n = 0, next = 0;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_sorted; i++) {
		struct hist_entry *e = h->sorted[i];
		struct pending *p = &v[n];

		if (!e->sym || !e->dso)
			continue;
		p->e = e;
		p->ev.nr = nr;
		for (int k = 0; k < nr; k++) {
			p->ev.h[k] = annotate_hists__find(&a->ah[idx + k], e->dso, e->sym);
			p->ev.hists[k] = &a->pl.hists[idx + k];
		}
		if (p->ev.h[0] && p->ev.h[0]->nr_samples)
			n++;
	}
	a->nr_found += n;
	for (size_t i = 0; i < n; i++) {
		for (; !err && next < n && next < i + ahead; next++)
			start_one(a, &v[next], w);
		if (!err)
			err = print_one(a, &v[i], event, w);
		else if (v[i].state == 1)
			annotation__objdump_abort(&v[i].job);
	}
	free(v);
	return err;
}

/* "anon group { a, b }" or "name { a, b }": the group led by attr @i */
static const char *group_desc(struct perf_header *hd, int i, char *buf, size_t size)
{
	struct perf_header_attr *a = &hd->attrs[i];
	char name[256];
	int n = snprintf(buf, size, "%s { ", a->group_name ? a->group_name : "anon group");

	for (int k = i; k < i + (int)a->nr_members && n < (int)size; k++)
		n += snprintf(buf + n, size - n, "%s%s", k > i ? ", " : "",
			      perf_header__event_name(hd, &hd->attrs[k], name, sizeof(name)));
	if (n < (int)size)
		snprintf(buf + n, size - n, " }");
	return buf;
}

/*
 * Each event in turn; an event group recorded as one ({a,b}) is shown as
 * perf shows it by default: its leader's symbols, a column for each event.
 */
static int print_annotations(struct annotate *a, struct perf_session *s)
{
	struct perf_header *hd = s->header;
	struct warned w = { .nr = 0 };
	char buf[1024];

	for (int i = 0; i < a->pl.nr_hists; i++) {
		struct perf_header_attr *at = &hd->attrs[i];
		struct hists *h = &a->pl.hists[i];
		int nr = 1, err;
		const char *event;

		if (at->leader_idx >= 0 && at->leader_idx != i && at->leader_idx < a->pl.nr_hists &&
		    hd->attrs[at->leader_idx].nr_members > 1)
			continue;	/* a member: shown with its leader */
		if (at->leader_idx == i && at->nr_members > 1 &&
		    i + (int)at->nr_members <= a->pl.nr_hists && at->nr_members <= ANNOTATE_MAX_EVENTS)
			nr = at->nr_members;
		if (!h->nr_samples)
			continue;
		if (hists__output_resort(h))
			return -ENOMEM;
		event = nr > 1 ? group_desc(hd, i, buf, sizeof(buf))
			       : perf_header__event_name(hd, at, buf, sizeof(buf));
		err = annotate_event(a, i, nr, event, &w);
		if (err)
			return err;
	}
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}

static int run_annotate(struct annotate *a)
{
	struct annotate_tool at = { .ann = a };
	const struct reader_opts ro = { .input = a->input, .symfs = a->symfs,
					.inline_frames = false };
	struct perf_session *s;
	char msg[512];
	int err;

	at.tool.sample = process_sample;
	at.tool.mmap = at.tool.mmap2 = at.tool.comm = process_model;
	at.tool.fork = at.tool.exit = at.tool.ksymbol = process_model;
	at.tool.feature = process_feature;
	at.tool.ordered_events = true;
	s = reader__open(&ro, builtin__progress(), msg, sizeof(msg));
	if (!s) {
		ui__error("%s", msg);
		return 1;
	}
	a->pl.session = s;
	err = reader__machine(&a->pl.machine, &ro, s, true, builtin__say);
	if (!err && !s->data.is_pipe)
		err = setup_hists(a, s->header);
	if (!err)
		err = perf_session__process_events(s, &at.tool);
	report_pipeline__finish(&a->pl, &err);
	if (err == -ENOMEM)
		ui__error("out of memory reading '%s'", a->input);
	else if (err < 0 && err != -ECANCELED)
		ui__error("%s", s->errmsg);
	if (!err && !a->pl.hists)
		err = setup_hists(a, s->header);
	if (!err) {
		err = print_annotations(a, s);
		if (err)
			ui__error("cannot write the annotation: %s", strerror(-err));
	}
	if (!err && a->filter.symbol && !a->nr_found && !a->skip_missing)
		ui__warning("no samples of '%s' in '%s' to annotate", a->filter.symbol, a->input);
	if (!FREE_AT_EXIT)
		return err ? 1 : 0;
	for (int i = 0; i < a->pl.nr_hists; i++) {
		hists__exit(&a->pl.hists[i]);
		annotate_hists__exit(&a->ah[i]);
	}
	free(a->pl.hists);
	free(a->ah);
	report_pipeline__exit(&a->pl);
	machine__exit(&a->pl.machine);
	perf_session__delete(s);
	return err ? 1 : 0;
}

static int parse_stdio_color(const struct option *opt, const char *arg, int unset)
{
	int *mode = opt->value;

	if (unset || (arg && !strcmp(arg, "never")))
		*mode = -1;
	else if (!arg || !strcmp(arg, "always"))
		*mode = 1;
	else if (!strcmp(arg, "auto"))
		*mode = 0;
	else	/* perf too goes on, in auto */
		ui__warning("bad config value for 'color.ui', ignoring...");
	return 0;
}

/* Colours on a terminal or the pager (TERM not dumb), unless --stdio-color says */
static bool use_color(const struct annotate *a)
{
	const char *term = getenv("TERM");

	if (a->color_mode)
		return a->color_mode > 0;
	return (isatty(1) || pager_in_use()) && !(term && !strcmp(term, "dumb"));
}

static int parse_percent_type(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	if (annotate_percent__parse(arg, opt->value)) {
		ui__error("invalid --percent-type '%s': use local-period, global-period, local-hits or global-hits",
			  arg);
		return -1;
	}
	return 0;
}

/* -d's list, split at commas (empty names dropped) in the copy *@copy, NULL-terminated */
static char **split_dsos(const char *arg, char **copy)
{
	size_t n = 2;
	char **v, *s, *tok, *save;
	int i = 0;

	for (const char *p = arg; *p; p++)
		n += *p == ',';
	v = calloc(n, sizeof(*v));
	s = strdup(arg);
	if (!v || !s) {
		free(v);
		free(s);
		return NULL;
	}
	*copy = s;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		v[i++] = tok;
	return v;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate a = {
		.objdump = { .source = true },
		.percent_type = ANNOTATE_LOCAL_PERIOD,
	};
	const char *symbol = NULL;
	const struct option options[] = {
		OPT_STRING('i', "input", &a.input, "file", "input file name"),
		OPT_STRING('s', "symbol", &symbol, "symbol", "symbol to annotate"),
		OPT_STRING('d', "dsos", &a.dsos_arg, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_BOOLEAN(0, "stdio", &a.stdio, "use the stdio interface (the only one)"),
		OPT_BOOLEAN('l', "print-line", &a.print_line,
			    "print matching source lines (may be slow)"),
		OPT_BOOLEAN('P', "full-paths", &a.full_paths, "don't shorten the displayed pathnames"),
		OPT_BOOLEAN(0, "source", &a.objdump.source,
			    "interleave source code with assembly code (default)"),
		OPT_BOOLEAN(0, "asm-raw", &a.objdump.asm_raw,
			    "display raw encoding of assembly instructions"),
		OPT_STRING('M', "disassembler-style", &a.objdump.style, "disassembler style",
			   "specify disassembler style (e.g. -M intel for intel syntax)"),
		OPT_STRING(0, "objdump", &a.objdump.path, "path",
			   "objdump binary to use for disassembly and annotations"),
		OPT_CALLBACK(0, "percent-type", &a.percent_type, "local-period",
			     "set percent type local/global-period/hits", parse_percent_type),
		OPT_BOOLEAN('n', "show-nr-samples", &a.show_nr_samples,
			    "show a column with the number of samples"),
		OPT_BOOLEAN(0, "skip-missing", &a.skip_missing,
			    "skip symbols that cannot be annotated without a message"),
		OPT_CALLBACK_DEFAULT(0, "stdio-color", &a.color_mode, "mode",
				     "'always' (default), 'never' or 'auto'", parse_stdio_color),
		OPT_STRING(0, "symfs", &a.symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_END()
	};
	const char *const usage[] = { "tperf annotate [<options>] [<symbol>]", NULL };
	int rc;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc > 1)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[1]);
	if (argc == 1)
		symbol = argv[0];	/* perf: the argument wins over -s */
	a.filter.symbol = symbol;
	if (a.dsos_arg) {
		a.dsos = split_dsos(a.dsos_arg, &a.dsos_copy);
		if (!a.dsos) {
			ui__error("out of memory");
			return 1;
		}
		a.filter.dsos = (const char *const *)a.dsos;
	}
	if (!a.input || !*a.input)
		a.input = perf_data__default_input();
	a.color = use_color(&a);
	rc = run_annotate(&a);
	free(a.dsos_copy);
	free(a.dsos);
	return rc;
}
