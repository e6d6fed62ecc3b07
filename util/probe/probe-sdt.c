// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Uprobes from SDT markers for the length of a run (see probe-sdt.h).
 */
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/symbol/probe-elf.h"
#include "util/probe/probe-event.h"
#include "util/probe/probe-finder.h"
#include "util/probe/probe-sdt.h"
#include "util/probe/probe-stale.h"

struct probe_sdt {
	char workload[PATH_MAX];
	const char *workload_arg;	/* the word after "--", found or not */
	const char *command;		/* for messages: the tperf command */
	char made[64][128];		/* "GROUP:EVENT" created for this run, each
					 * probe after its marker (probe-stale.h) */
	int nr_made;
	say_fn **say;			/* the evlist's hook, for leftovers (used
					 * while -e is parsed only) */
	bool leftovers_said;
};

/*
 * The run's SDT state once it has made a probe: the atexit() and fatal
 * signal handlers, which have no argument, delete its probes.
 */
static struct probe_sdt *active;

/* @cmd as execvp() finds it. */
static int find_in_path(const char *cmd, char *out, size_t size)
{
	const char *path = getenv("PATH") ?: "/usr/bin:/bin";

	if (strchr(cmd, '/'))
		return realpath(cmd, out) ? 0 : -errno;
	while (*path) {
		size_t n = strcspn(path, ":");
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%.*s/%s", (int)n, n ? path : ".", cmd);
		if (!access(p, X_OK) && realpath(p, out))
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

static int probe_sdt__create(void *ctx, const char *sys, const char *name, char *msg,
			     size_t size);

struct probe_sdt *probe_sdt__attach(struct evlist *evlist, int argc, const char **argv)
{
	struct probe_sdt *sdt = calloc(1, sizeof(*sdt));

	if (!sdt)
		return NULL;
	probe__tracefs_dir();	/* before the SDT hook's first probe__*() */
	sdt->command = argc > 0 && argv[0] ? argv[0] : "stat";
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sdt->workload_arg = argv[i + 1];
			if (find_in_path(argv[i + 1], sdt->workload, sizeof(sdt->workload)))
				sdt->workload[0] = '\0';
			break;
		}
	evlist->parse.sdt_create = probe_sdt__create;
	evlist->parse.sdt_ctx = sdt;
	sdt->say = &evlist->say;	/* (set by the command after this call) */
	return sdt;
}

void probe_sdt__delete(struct probe_sdt *sdt)
{
	if (!sdt)
		return;
	if (active == sdt) {
		probe_sdt__cleanup();
		active = NULL;
	}
	free(sdt);
}

/* The DT_NEEDED libraries of @pe, each passed to @fn with its full path. */
static int for_each_needed(struct probe_elf *pe, const char *origin,
			   int (*fn)(const char *path, void *arg), void *arg)
{
	static const char *const sys[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					   "/lib64", "/usr/lib64", "/lib", "/usr/lib" };
	Elf *elf = probe_elf__elf(pe);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
			break;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	const char *runpath = NULL;
	size_t n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	GElf_Dyn dyn;

	for (size_t i = 0; i < n; i++)
		if (gelf_getdyn(data, (int)i, &dyn) &&
		    (dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH))
			runpath = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
	for (size_t i = 0; i < n; i++) {
		const char *lib;
		char dirs[2048], p[PATH_MAX + 256];
		int ret;

		if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED ||
		    !(lib = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)))
			continue;
		snprintf(dirs, sizeof(dirs), "%s", runpath ?: "");
		for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
			if (!strncmp(d, "$ORIGIN", 7))
				snprintf(p, sizeof(p), "%s%s/%s", origin, d + 7, lib);
			else
				snprintf(p, sizeof(p), "%s/%s", d, lib);
			if (!access(p, R_OK))
				goto found;
		}
		for (size_t k = 0; k < sizeof(sys) / sizeof(sys[0]); k++) {
			snprintf(p, sizeof(p), "%s/%s", sys[k], lib);
			if (!access(p, R_OK))
				goto found;
		}
		continue;
found:
		ret = fn(p, arg);
		if (ret)
			return ret;
	}
	return 0;
}

struct sdt_req {
	struct probe_sdt *sdt;
	struct probe_def def;
	int found;
	char *msg;
	size_t size;
};

/* Remember @s's event, once, to delete it at the end of the run. */
static void add_made(struct probe_sdt *sdt, const struct probe_site *s)
{
	char name[128];

	snprintf(name, sizeof(name), "%s:%s", s->group, s->event);
	for (int i = 0; i < sdt->nr_made; i++)
		if (!strcmp(sdt->made[i], name))
			return;
	snprintf(sdt->made[sdt->nr_made++], sizeof(sdt->made[0]), "%s", name);
}

/* Say once which probes dead tperfs left, and how to remove them. */
static void say_leftovers(struct probe_sdt *sdt)
{
	struct probe_leftover *v;
	char name[160];
	int n;

	if (sdt->leftovers_said || !*sdt->say || probe_stale__find(&v, &n))
		return;
	sdt->leftovers_said = true;
	for (int i = 0; i < n; i++) {
		probe_leftover__name(&v[i], name, sizeof(name));
		say(*sdt->say, SAY_WARNING, "the uprobe event '%s' was left by a tperf that no "
		    "longer runs (killed?): remove it with 'tperf probe --cleanup'", name);
	}
	free(v);
}

/* Make the uprobes of the markers of @path matching the request. */
static int create_in(const char *path, void *arg)
{
	struct sdt_req *r = arg;
	struct probe_sdt *sdt = r->sdt;
	struct probe_finder_opts o = { .max_probes = 128 };
	struct probe_site *sites = NULL;
	char msg[512];
	int nr = 0, ret;

	if (probe__resolve(path, &r->def, &o, &sites, &nr, msg, sizeof(msg)))
		return 0;	/* no such marker there */
	ret = probe__name_sites(sites, nr, false);
	for (int i = 0; !ret && i < nr; i++) {
		struct probe_site marker = sites[i];
		char none[1] = "";

		if (sdt->nr_made + 2 > (int)(sizeof(sdt->made) / sizeof(sdt->made[0]))) {
			ret = -E2BIG;
			break;
		}
		/* the marker first: a tperf killed between the two leaves a
		 * marker, never a probe that --cleanup cannot tell from one
		 * made to stay */
		probe_stale__marker_group(sites[i].group, marker.group, sizeof(marker.group));
		marker.fetchargs = none;
		ret = probe_site__create(&marker);
		if (!ret)
			add_made(sdt, &marker);
		if (!ret)
			ret = probe_site__create(&sites[i]);
		if (!ret)
			add_made(sdt, &sites[i]);
	}
	if (ret)
		snprintf(r->msg, r->size, "cannot create the uprobe of SDT marker in '%s': %s",
			 path, strerror(-ret));
	r->found += nr;
	probe_sites__free(sites, nr);
	return ret;
}

/*
 * A signal that would end tperf: delete the probes, then die of it.  (stat
 * replaces the INT and TERM handlers while the workload runs, and calls
 * probe_sdt__cleanup() itself before dying of those.)
 */
static void on_fatal_signal(int sig)
{
	struct probe_sdt *sdt = active;
	pid_t parent = getpid();

	/* The probes cannot go while tperf's counters hold them open: a child
	 * (without tperf's files) deletes them once tperf has died of @sig. */
	if (sdt && sdt->nr_made && fork() == 0) {
		close_range(3, ~0U, 0);
		for (int i = 0; i < 500 && getppid() == parent; i++)
			usleep(10000);
		/* the workload may live on with the inherited counters: wait
		 * for it to end (an hour at most) */
		for (int i = 0; i < 36000 && sdt->nr_made; i++) {
			if (probe__delete(sdt->made[sdt->nr_made - 1], NULL) != -EBUSY)
				sdt->nr_made--;
			else
				usleep(100000);
		}
		_exit(0);
	}
	if (sdt)
		sdt->nr_made = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_paths(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM,
				    SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = on_fatal_signal }, old;

	atexit(probe_sdt__cleanup);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

/* The parser's hook (struct parse_events_opts' sdt_create); @ctx is the probe_sdt. */
static int probe_sdt__create(void *ctx, const char *sys, const char *name, char *msg,
			     size_t size)
{
	struct probe_sdt *sdt = ctx;
	struct sdt_req r = { .sdt = sdt, .msg = msg, .size = size };
	struct probe_parse_error err;
	struct probe_elf *pe;
	char def[256], origin[PATH_MAX];
	int ret;

	if (!strpbrk(sys, "*?[") && !strpbrk(name, "*?[") && probe__exists(sys, name))
		return 0;	/* made by the user: used as it is */
	if (!sdt->workload[0] && sdt->workload_arg) {
		snprintf(msg, size, "'%s:%s': cannot find the workload '%s' to look for the "
			 "SDT marker in: give its path", sys, name, sdt->workload_arg);
		return -ENOENT;
	}
	if (!sdt->workload[0]) {
		snprintf(msg, size, "'%s:%s': SDT events need the workload after '--' "
			 "(tperf %s -e %s:%s -- ./prog), or the event made first with "
			 "'tperf probe -x BINARY %s:%s'", sys, name, sdt->command, sys, name, sys,
			 name);
		return -EINVAL;
	}
	snprintf(def, sizeof(def), "%s:%s", sys, name);
	if (probe_def__parse(def, &r.def, &err)) {
		snprintf(msg, size, "'%s' is not an SDT marker name: %s", def, err.msg);
		return -EINVAL;
	}
	if (!active) {
		active = sdt;
		on_exit_paths();
	}
	say_leftovers(sdt);
	ret = create_in(sdt->workload, &r);
	if (!ret && !probe_elf__open(sdt->workload, &pe)) {
		snprintf(origin, sizeof(origin), "%s", sdt->workload);
		*strrchr(origin, '/') = '\0';
		ret = for_each_needed(pe, origin, create_in, &r);
		probe_elf__close(pe);
	}
	probe_def__exit(&r.def);
	if (!ret && !r.found) {
		snprintf(msg, size, "no SDT marker '%s' in '%s' or its libraries: "
			 "'tperf probe --list-sdt -x %s' lists them", def, sdt->workload,
			 sdt->workload);
		ret = -ENOENT;
	}
	return ret;
}

void probe_sdt__cleanup(void)
{
	while (active && active->nr_made > 0)
		probe__delete(active->made[--active->nr_made], NULL);
}
