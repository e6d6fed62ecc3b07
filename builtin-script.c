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
#include "util/script-trace.h"
#include "util/session.h"

struct script {
	const char *input, *fields, *symfs, *kallsyms;
	struct script_opts o;
	struct machine machine;
	struct perf_session *session;
	bool started;
	const char *list_fields;	/* --list-fields[=EVENT] ("" for all) */
	struct script_trace trace;
	char **names;			/* each attr's name, once (tracepoint names
					 * cost a walk of the tracing data) */
	int nr_names;
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
		warning("'%s' has no tracing data: tracepoint samples are printed without their fields",
			sc->input);
	else if (err)
		warning("cannot read the tracing data of '%s' (malformed): tracepoint samples are printed without their fields",
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
	char buf[256];

	sc->started = true;
	sc->names = calloc(h->nr_attrs + 1, sizeof(*sc->names));
	if (!sc->names)
		return -ENOMEM;
	sc->nr_names = h->nr_attrs;
	for (int i = 0; i < h->nr_attrs; i++) {
		const char *name = perf_header__event_name(h, &h->attrs[i], buf, sizeof(buf));
		int len = strlen(name);

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
		warning("cannot parse the format of '%s' in '%s': its samples are printed with their raw fields",
			name, sc->input);
	else
		warning("'%s' has no format for some tracepoint samples: they are printed as raw bytes",
			sc->input);
	sc->trace.warn = NULL;
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
		error("no tracepoint '%s' in '%s': list them all with --list-fields", ev, sc->input);
	else if (err == -ENOENT)
		error("'%s' has no tracepoint event with a format", sc->input);
	else if (err == -EINVAL)
		error("cannot read the tracing data of '%s': it is malformed", sc->input);
	else if (err == -ENOMEM)
		error("out of memory reading '%s'", sc->input);
	return err ? 1 : 0;
}

static int run_script(struct script *sc)
{
	struct script_tool st = { .sc = sc };
	struct machine_opts mo = { .symfs = sc->symfs, .kallsyms = sc->kallsyms };
	char msg[512];
	int err;

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
	if (sc->list_fields) {
		err = list_fields(sc);
		script_trace__exit(&sc->trace);
		perf_session__delete(sc->session);
		return err;
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
	script_trace__exit(&sc->trace);
	for (int i = 0; i < sc->nr_names; i++)
		free(sc->names[i]);
	free(sc->names);
	perf_session__delete(sc->session);
	return err ? 1 : 0;
}

/* Lines are small and many: one large stdout buffer (static: lives until exit). */
static void script_stdout_buffer(void)
{
	static char buf[1 << 18];

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { .o = { .fields = SF_DEFAULT, .max_stack = 127 } };
	const struct option options[] = {
		OPT_STRING('i', "input", &sc.input, "file", "input file name"),
		OPT_STRING('F', "fields", &sc.fields, "str",
			   "comma separated fields: comm,tid,pid,cpu,time,period,event,trace,ip,sym,symoff,dso; +field/-field change the default"),
		OPT_BOOLEAN(0, "ns", &sc.o.ns, "use 9 decimal places when displaying time"),
		OPT_INTEGER(0, "max-stack", &sc.o.max_stack,
			    "set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_STRING(0, "symfs", &sc.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &sc.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING_OPTARG(0, "list-fields", &sc.list_fields, "event",
				  "list the fields of the file's tracepoints (or of one) and exit", ""),
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
	script_stdout_buffer();
	return run_script(&sc);
}
