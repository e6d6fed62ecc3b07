// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What tperf ftrace writes into its tracefs instance before tracing starts
 * (ftrace-setup.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/trace/ftrace-setup.h"
#include "util/trace/tracefs-instance.h"

/* Enable "sys/name" (with its filter); add it to @names. */
static int enable_one(const char *name, const char *filter, struct string_list *names,
		      char *msg, size_t size)
{
	char file[600];
	int ret;

	if (filter) {
		snprintf(file, sizeof(file), "events/%s/filter", name);
		ret = tracefs_instance__write(file, filter);
		if (ret) {
			snprintf(msg, size, "invalid filter '%s' for '%s': %s", filter, name, strerror(-ret));
			return ret;
		}
	}
	snprintf(file, sizeof(file), "events/%s/enable", name);
	ret = tracefs_instance__write(file, "1");
	if (ret) {
		snprintf(msg, size, "cannot enable '%s': %s", name, strerror(-ret));
		return ret;
	}
	return parse_opt_string_list(&(struct option){ .value = names }, name, 0) ? -ENOMEM : 0;
}

/* Enable the events of system @sys matching @evglob; *@matched counts them. */
static int enable_system(const char *mnt, const char *sys, const char *evglob,
			 const char *filter, struct string_list *names, int *matched,
			 char *msg, size_t size)
{
	char path[1024];
	struct dirent **ev;
	int nev, ret = 0;

	snprintf(path, sizeof(path), "%s/events/%s", mnt, sys);
	nev = scandir(path, &ev, NULL, alphasort);
	for (int j = 0; j < nev; j++) {
		char file[1400], *name;
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s/format", path, ev[j]->d_name);
		if (!ret && ev[j]->d_name[0] != '.' && !fnmatch(evglob, ev[j]->d_name, 0) &&
		    !stat(file, &st) && asprintf(&name, "%s/%s", sys, ev[j]->d_name) > 0) {
			ret = enable_one(name, filter, names, msg, size);
			if (ret)
				free(name);
			else
				(*matched)++;
		}
		free(ev[j]);
	}
	if (nev >= 0)
		free(ev);
	return ret;
}

/* Enable every event matching @spec; add them to @names. */
static int enable_events(const char *mnt, const char *spec, const char *filter,
			 struct string_list *names, char *msg, size_t size)
{
	char sysglob[256], evglob[256], path[1024];
	const char *colon = strchr(spec, ':');
	struct dirent **sys;
	int nsys, matched = 0, ret = 0;

	if (!colon)
		colon = strchr(spec, '/');
	snprintf(sysglob, sizeof(sysglob), "%.*s", colon ? (int)(colon - spec) : 1,
		 colon ? spec : "*");
	snprintf(evglob, sizeof(evglob), "%s", colon ? colon + 1 : spec);
	snprintf(path, sizeof(path), "%s/events", mnt);
	nsys = scandir(path, &sys, NULL, alphasort);
	for (int i = 0; i < nsys; i++) {
		if (!ret && sys[i]->d_name[0] != '.' && strcmp(sys[i]->d_name, "ftrace") &&
		    !fnmatch(sysglob, sys[i]->d_name, 0))
			ret = enable_system(mnt, sys[i]->d_name, evglob, filter, names, &matched,
					    msg, size);
		free(sys[i]);
	}
	if (nsys >= 0)
		free(sys);
	if (!ret && !matched) {
		snprintf(msg, size, "no event matches '%s': list them with 'tperf list tracepoint'", spec);
		return -ENOENT;
	}
	return ret;
}

static int write_list(const char *file, const struct string_list *l, char *msg, size_t size)
{
	for (int i = 0; i < l->n; i++) {
		int ret = i ? tracefs_instance__append(file, l->v[i])
			    : tracefs_instance__write(file, l->v[i]);

		if (ret) {
			snprintf(msg, size, "cannot write '%s' to '%s': %s", l->v[i], file, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int set_tracer(const struct ftrace_setup *o, char *msg, size_t size)
{
	char avail[4096];
	int ret;

	if (!strcmp(o->tracer, "nop"))
		return 0;
	if (strcmp(o->tracer, "function") && strcmp(o->tracer, "function_graph")) {
		snprintf(msg, size, "unknown tracer '%s': use function, function_graph or nop", o->tracer);
		return -EINVAL;
	}
	if (tracefs_instance__read("available_tracers", avail, sizeof(avail)) < 0 ||
	    !strstr(avail, o->tracer)) {
		snprintf(msg, size, "the '%s' tracer is not available in this kernel: trace events instead (-e SYS:NAME)",
		      o->tracer);
		return -ENOENT;
	}
	if ((ret = write_list("set_ftrace_filter", o->funcs, msg, size)) ||
	    (ret = write_list("set_ftrace_notrace", o->nofuncs, msg, size)) ||
	    (ret = write_list("set_graph_function", o->gfuncs, msg, size)) ||
	    (ret = write_list("set_graph_notrace", o->nogfuncs, msg, size)))
		return ret;
	ret = tracefs_instance__write("current_tracer", o->tracer);
	if (ret) {
		snprintf(msg, size, "the kernel refuses the '%s' tracer: %s; trace events instead (-e SYS:NAME)",
		      o->tracer, strerror(-ret));
		return ret;
	}
	return 0;
}

/* perf's --func-opts / --graph-opts names -> the instance's option files. */
static const struct { int graph; const char *name, *file, *val; } opt_map[] = {
	{ 0, "call-graph", "options/func_stack_trace", "1" },
	{ 0, "irq-info", "options/irq-info", "1" },
	{ 1, "nosleep-time", "options/sleep-time", "0" },
	{ 1, "noirqs", "options/funcgraph-irqs", "0" },
	{ 1, "verbose", "options/funcgraph-proc", "1" },
};

static int set_options(const char *list, int graph, char *msg, size_t size)
{
	char *dup = strdup(list), *save = NULL;
	int ret = 0;

	for (char *t = strtok_r(dup, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(opt_map) / sizeof(opt_map[0]); i++)
			if (opt_map[i].graph == graph && !strcmp(opt_map[i].name, t))
				break;
		if (i == sizeof(opt_map) / sizeof(opt_map[0])) {
			snprintf(msg, size, "unknown %s option '%s'", graph ? "--graph-opts" : "--func-opts", t);
			ret = -EINVAL;
			break;
		}
		ret = tracefs_instance__write(opt_map[i].file, opt_map[i].val);
		if (ret)
			snprintf(msg, size, "cannot set '%s': %s", opt_map[i].file, strerror(-ret));
	}
	free(dup);
	return ret;
}

int ftrace_setup__apply(const struct ftrace_setup *o, const char *mnt, struct string_list *names,
			char *msg, size_t size)
{
	pid_t pid = o->pid;
	const int *cpus = o->cpus;
	int ncpus = o->ncpus;
	char buf[64];
	int ret;

	if ((ret = tracefs_instance__write("tracing_on", "0")) || (ret = set_tracer(o, msg, size)))
		return ret;
	if (!strcmp(o->tracer, "function") && o->func_opts && (ret = set_options(o->func_opts, 0, msg, size)))
		return ret;
	if (!strcmp(o->tracer, "function_graph") && o->graph_opts &&
	    (ret = set_options(o->graph_opts, 1, msg, size)))
		return ret;
	for (int i = 0; i < o->events->n; i++) {
		const char *filter = i < o->filters->n ? o->filters->v[i] : NULL;

		if ((ret = enable_events(mnt, o->events->v[i], filter, names, msg, size)))
			return ret;
	}
	if (o->buffer_kb > 0) {
		snprintf(buf, sizeof(buf), "%d", o->buffer_kb);
		if ((ret = tracefs_instance__write("buffer_size_kb", buf))) {
			snprintf(msg, size, "cannot set the buffer size to %d KiB: %s", o->buffer_kb,
			      strerror(-ret));
			return ret;
		}
	}
	if (o->clock && (ret = tracefs_instance__write("trace_clock", o->clock))) {
		snprintf(msg, size, "unknown trace clock '%s': see %s/trace_clock", o->clock, mnt);
		return ret;
	}
	if (ncpus > 0) {
		unsigned long long mask = 0;

		for (int i = 0; i < ncpus; i++)
			mask |= 1ULL << (cpus[i] & 63);
		snprintf(buf, sizeof(buf), "%llx", mask);
		if ((ret = tracefs_instance__write("tracing_cpumask", buf)))
			return ret;
	}
	if (pid > 0) {
		snprintf(buf, sizeof(buf), "%d", pid);
		if ((ret = tracefs_instance__write("set_event_pid", buf)))
			return ret;
		if (strcmp(o->tracer, "nop") && (ret = tracefs_instance__write("set_ftrace_pid", buf)))
			return ret;
		if (o->inherit) {
			tracefs_instance__write("options/event-fork", "1");
			if (strcmp(o->tracer, "nop"))
				tracefs_instance__write("options/function-fork", "1");
		}
	}
	return 0;
}
