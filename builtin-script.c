// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf script: read a perf.data and print each sample as perf 6.1's
 * `perf script` does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/script-print.h"
#include "util/session.h"
#include "util/unwind.h"

struct script {
	const char *input, *fields, *symfs, *kallsyms, *unwinder;
	bool inline_frames;
	struct script_opts o;
	struct machine machine;
	struct perf_session *session;
	bool started;
};

struct script_tool {
	struct perf_tool tool;
	struct script *sc;
};

static struct script *sc_of(struct perf_tool *tool)
{
	return ((struct script_tool *)tool)->sc;
}

/* Once the events are known: the name column's width, tracepoints checked. */
static int script_start(struct script *sc)
{
	struct perf_header *h = sc->session->header;
	char buf[256];

	sc->started = true;
	for (int i = 0; i < h->nr_attrs; i++) {
		const char *name = perf_header__event_name(h, &h->attrs[i], buf, sizeof(buf));
		int len = strlen(name);

		if (len > sc->o.name_width)
			sc->o.name_width = len;
		if (h->attrs[i].attr.type == PERF_TYPE_TRACEPOINT && !sc->o.user_set) {
			error("'%s' is a tracepoint: tperf script does not decode tracepoint fields; choose the fields with -F (comm,tid,time,event...)",
			      name);
			return -EINVAL;
		}
	}
	return 0;
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
	if (!attr)
		return 0;
	return script__fprintf_sample(stdout, &sc->o, script_fields__for_attr(&sc->o, &attr->attr),
				      &sc->machine, &attr->attr,
				      perf_header__event_name(s->header, attr, buf, sizeof(buf)), sample);
}

static int process_model(struct perf_tool *tool, struct perf_session *s,
			 const union perf_event *ev, struct perf_sample *sample,
			 struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(&sc_of(tool)->machine, ev, sample);
}

static int run_script(struct script *sc)
{
	struct script_tool st = { .sc = sc };
	struct machine_opts mo = { .symfs = sc->symfs, .kallsyms = sc->kallsyms,
				   .no_inline = !sc->inline_frames };
	char msg[512];
	int err;

	if (unwinder__option(sc->unwinder, &mo.unwinder))
		return 1;
	st.tool.sample = process_sample;
	st.tool.mmap = st.tool.mmap2 = st.tool.comm = process_model;
	st.tool.fork = st.tool.exit = st.tool.ksymbol = process_model;
	st.tool.feature = perf_session__name_events;
	st.tool.ordered_events = true;
	sc->session = perf_session__new(sc->input, &err, msg, sizeof(msg));
	if (!sc->session) {
		error("%s", msg);
		return 1;
	}
	err = machine__init(&sc->machine, &mo, &sc->session->header->env);
	if (err)
		error("out of memory reading '%s'", sc->input);
	else
		err = perf_session__process_events(sc->session, &st.tool);
	if (err == -ENOMEM)
		error("out of memory reading '%s'", sc->input);
	else if (err < 0 && sc->session->errmsg[0])
		error("%s", sc->session->errmsg);
	if (!err && sc->session->warnmsg[0])
		warning("%s", sc->session->warnmsg);
	if (!err && (fflush(stdout) || ferror(stdout))) {
		error("cannot write the output: %s", strerror(errno));
		err = -EIO;
	}
	machine__exit(&sc->machine);
	perf_session__delete(sc->session);
	return err ? 1 : 0;
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { .o = { .fields = SF_DEFAULT, .max_stack = 127 }, .inline_frames = true };
	const struct option options[] = {
		OPT_STRING('i', "input", &sc.input, "file", "input file name"),
		OPT_STRING('F', "fields", &sc.fields, "str",
			   "comma separated fields: comm,tid,pid,cpu,time,period,event,ip,sym,symoff,dso; +field/-field change the default"),
		OPT_BOOLEAN(0, "ns", &sc.o.ns, "use 9 decimal places when displaying time"),
		OPT_INTEGER(0, "max-stack", &sc.o.max_stack,
			    "set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_STRING(0, "symfs", &sc.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &sc.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "unwinder", &sc.unwinder, "libdw|libunwind",
			   "unwinder of --call-graph dwarf recordings (default libdw)"),
		OPT_BOOLEAN(0, "inline", &sc.inline_frames,
			    "show inlined functions in DWARF callchains (default on)"),
		OPT_END()
	};
	const char *const usage[] = { "tperf script [<options>]", NULL };
	char buf[256];
	const char *bad = NULL;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (sc.fields && script_fields__parse(&sc.o, sc.fields, buf, sizeof(buf), &bad))
		usage_with_options_msg(usage, options, "unknown field '%s' in -F", bad);
	if (!sc.input || !*sc.input)
		sc.input = perf_data__default_input();
	return run_script(&sc);
}
