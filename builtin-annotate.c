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

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
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

/* The file objdump reads for @dso, or an error said once per DSO (perf's annotate_warned). */
static int dso_file(struct annotate *a, struct dso *dso, const struct symbol *sym, char *buf,
		    size_t size, struct dso **warned, size_t *nr_warned)
{
	const char *why = NULL;

	for (size_t i = 0; i < *nr_warned; i++)
		if (warned[i] == dso)
			return -1;
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_MODULE || dso->kind == DSO_BPF)
		why = "no vmlinux or module file to disassemble the kernel's code from";
	else if (dso->kind == DSO_JIT || dso->kind == DSO_NONE)
		why = "it has no file to disassemble";
	else if (machine__dso_path(&a->pl.machine, dso, buf, size))
		why = "its file is not there (use --symfs, or record with the build-id cache)";
	if (!why)
		return 0;
	if (!a->skip_missing)
		ui__error("cannot annotate '%s' of '%s': %s", sym->name, dso->long_name, why);
	if (*nr_warned < 64)
		warned[(*nr_warned)++] = dso;
	return -1;
}

static int annotate_entry(struct annotate *a, int idx, struct hist_entry *e, const char *event,
			  struct dso **warned, size_t *nr_warned)
{
	struct sym_hist *h = annotate_hists__find(&a->ah[idx], e->dso, e->sym);
	struct annotation an;
	struct annotation_src *src = NULL;
	size_t nr_src = 0;
	char path[4096], msg[512];
	int err;

	if (!h || !h->nr_samples)
		return 0;
	a->nr_found++;
	if (dso_file(a, e->dso, e->sym, path, sizeof(path), warned, nr_warned))
		return 0;
	err = annotation__disassemble(&an, path, e->sym, &a->objdump, msg, sizeof(msg));
	if (err) {
		if (!a->skip_missing)
			ui__error("cannot annotate '%s': %s", e->sym->name, msg);
		if (*nr_warned < 64)
			warned[(*nr_warned)++] = e->dso;
		return 0;
	}
	annotation__count(&an, h);
	const struct annotate_stdio p = {
		.h = h, .hists = &a->pl.hists[idx], .dso_name = e->dso->long_name, .event = event,
		.type = a->percent_type, .show_nr_samples = a->show_nr_samples,
		.print_line = a->print_line, .full_paths = a->full_paths,
	};
	if (a->print_line)
		err = annotation__source_lines(&an, e->dso, e->sym, a->percent_type, h, p.hists,
					       a->full_paths, &src, &nr_src);
	if (!err)
		err = annotation__fprintf(&an, &p, src, nr_src, &a->prev_path, stdout);
	free(src);
	annotation__exit(&an);
	return err;
}

static int print_annotations(struct annotate *a, struct perf_session *s)
{
	struct perf_header *hd = s->header;
	struct dso *warned[64];
	size_t nr_warned = 0;
	char buf[1024];

	for (int i = 0; i < a->pl.nr_hists; i++) {
		struct hists *h = &a->pl.hists[i];
		const char *event;

		if (!h->nr_samples)
			continue;
		if (hists__output_resort(h))
			return -ENOMEM;
		event = perf_header__event_name(hd, &hd->attrs[i], buf, sizeof(buf));
		for (size_t n = 0; n < h->nr_sorted; n++) {
			struct hist_entry *e = h->sorted[n];
			int err;

			if (!e->sym || !e->dso)
				continue;
			err = annotate_entry(a, i, e, event, warned, &nr_warned);
			if (err)
				return err;
		}
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
	rc = run_annotate(&a);
	free(a.dsos_copy);
	free(a.dsos);
	return rc;
}
