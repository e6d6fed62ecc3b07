// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf probe: define uprobes from DWARF, symbols and SDT markers, list and
 * delete them, show probe-able lines and variables (perf probe's syntax).
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/fs.h"
#include "util/lib/parse-options.h"
#include "util/symbol/probe-elf.h"
#include "util/probe/probe-event.h"
#include "util/symbol/probe-cxx.h"
#include "util/probe/probe-filter.h"
#include "util/probe/probe-finder.h"
#include "util/probe/probe-stale.h"
#include "util/probe/sdt.h"

struct probe_opts {
	struct string_list add, del, defs, filters;	/* -a, -d, -D, --filter */
	const char *exec, *list, *line, *vars, *funcs;
	bool dry_run, quiet, force, list_sdt, cleanup;
	bool print_lines;	/* -D: the uprobe_events lines on stdout, nothing written */
	struct probe_finder_opts fopts;
	bool inlines;
	bool demangle;
	const char *vmlinux;	/* -k: for kernel probes, which this kernel lacks */
	int nr_add_opts;	/* add.v[0..nr_add_opts): given with -a, not as words */
};

static void print_parse_error(const char *def, const struct probe_parse_error *err)
{
	static const char prefix[] = "tperf: probe syntax error: '";

	fprintf(stderr, "%s%s'\n", prefix, def);
	fprintf(stderr, "%*s^ %s\n", (int)(sizeof(prefix) - 1) + err->pos, "", err->msg);
}

/* Parse @str; prints the error.  0 or a negative errno (-EINVAL: syntax). */
static int parse_def(const char *str, struct probe_def *def)
{
	struct probe_parse_error err;
	int ret = probe_def__parse(str, def, &err);

	if (ret == -EINVAL)
		print_parse_error(str, &err);
	else if (ret)
		ui__error("cannot parse '%s': %s", str, strerror(-ret));
	if (ret)
		probe_def__exit(def);
	return ret;
}

/*
 * The exit status of a failure, as perf's: it exits with its negative
 * error code, so scripts see 243 for a permission (EACCES), 254 for what
 * is not found (ENOENT), 239 for an event that exists (EEXIST).
 */
static int probe_status(int err)
{
	return err < 0 ? (int)((unsigned int)err & 0xff) : 1;
}

/* The argument names of @args ("a=-4(%bp):s32 b=..." -> "a b"). */
static void arg_names(const char *args, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	while (args && *args && len + 1 < size) {
		size_t n = strcspn(args, " "), eq = strcspn(args, "=");
		int w = snprintf(buf + len, size - len, "%s%.*s", len ? " " : "",
				 (int)(eq < n ? eq : n), args);

		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
		args += n;
		args += strspn(args, " ");
	}
}

static void print_added(const struct probe_site *s, const char *point, const char *user_args)
{
	char name[160];

	snprintf(name, sizeof(name), "%s:%s", s->group, s->event);
	fprintf(stderr, "  %-20s (on %s in %s%s%s)\n", name, point, s->path,
		*user_args ? " with " : "", user_args);
}

/* The definition's point and arguments as the user wrote them. */
static void split_def(const char *str, char *point, char *args, size_t size)
{
	const char *s = str + strspn(str, " ");
	size_t n = strcspn(s, " ");
	const char *eq = memchr(s, '=', n);

	if (eq)
		n -= (size_t)(eq + 1 - s), s = eq + 1;
	snprintf(point, size, "%.*s", (int)n, s);
	s += n;
	s += strspn(s, " ");
	snprintf(args, size, "%s", s);
}

/*
 * Write @sites to uprobe_events; with @dry_run (-n) write nothing and, as
 * perf, print nothing more than a real run would ("Added new event:" and
 * the hint); -D prints the lines (@print_lines).
 */
static int create_sites(struct probe_site *sites, int nr, bool dry_run, bool print_lines)
{
	char line[8192];

	for (int i = 0; i < nr; i++) {
		int ret;

		if (probe_site__check(&sites[i]) ||
		    probe_site__line(&sites[i], line, sizeof(line)) < 0) {
			ui__error("refusing to write an unsafe probe for '%s': %s", sites[i].path,
			      "the path or the arguments hold special characters");
			return -EINVAL;
		}
		pr_debug("Writing event: %s\n", line);
		if (print_lines)
			printf("%s\n", line);
		if (dry_run)
			continue;
		ret = probe_site__create(&sites[i]);
		if (ret) {
			ui__error("cannot create the probe '%s': %s", line,
				  builtin__tracefs_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Say which uprobes killed tperfs left, and how to remove them. */
static void note_leftovers(void)
{
	struct probe_leftover *v;
	char name[160];
	int n;

	if (probe_stale__find(&v, &n))
		return;
	for (int i = 0; i < n; i++) {
		probe_leftover__name(&v[i], name, sizeof(name));
		ui__warning("the uprobe event '%s' was left by a tperf that no longer runs "
			    "(killed?): remove it with 'tperf probe --cleanup'", name);
	}
	free(v);
}

/* --cleanup: remove what killed tperfs left. */
static int cleanup(void)
{
	struct probe_leftover *v;
	bool mounted = false;
	char name[160];
	int n, ret, failed = 0;

	if (!tracefs__mount(&mounted)) {
		ui__error("tracefs is not mounted and cannot be: mount it at /sys/kernel/tracing");
		return 1;
	}
	builtin__note_tracefs(mounted);
	ret = probe_stale__find(&v, &n);
	if (ret) {
		ui__error("cannot list the uprobes: %s", builtin__tracefs_strerror(-ret));
		return probe_status(ret);
	}
	if (!n)
		printf("no uprobe event left by a tperf that no longer runs\n");
	for (int i = 0; i < n; i++) {
		probe_leftover__name(&v[i], name, sizeof(name));
		ret = probe_stale__remove(&v[i]);
		if (ret) {
			ui__error("cannot remove the uprobe event '%s': %s", name,
				  builtin__tracefs_strerror(-ret));
			failed = probe_status(ret);
		} else {
			printf("removed the uprobe event '%s' (its tperf no longer runs)\n", name);
		}
	}
	free(v);
	if (fflush(stdout) || ferror(stdout)) {
		ui__error("cannot write the output: %s", strerror(errno));
		return 1;
	}
	return failed;
}

/* Remove what this run created before a failure. */
static void rollback(struct probe_site *sites, int nr)
{
	char filter[160];

	for (int i = 0; i < nr; i++) {
		snprintf(filter, sizeof(filter), "%s:%s", sites[i].group, sites[i].event);
		probe__delete(filter, NULL);
	}
}

struct added {
	struct probe_site *sites;
	int nr;
};

/* Add the probes of @str: 0, or the exit status of its failure. */
static int add_one(const char *str, bool from_option, const struct probe_opts *o,
		   struct added *all, bool *printed)
{
	struct probe_def def;
	struct probe_site *sites = NULL;
	char msg[512], point[256], uargs[512];
	int nr = 0, ret;

	ret = parse_def(str, &def);
	if (ret)	/* perf: a usage error when -a gave it, else -EINVAL */
		return ret == -EINVAL && from_option ? PARSE_OPT_USAGE_EXIT : probe_status(ret);
	ret = probe__resolve(o->exec, &def, &o->fopts, &sites, &nr, msg, sizeof(msg));
	probe_def__exit(&def);
	if (ret) {
		ui__error("%s", msg);
		return probe_status(ret);
	}
	fputs(msg, stderr);	/* a warning, or nothing */
	split_def(str, point, uargs, sizeof(point));
	if (nr && sites[0].unchecked)
		ui__note("'%s' is not x86 code: whether '%s' is on an instruction boundary is not "
			 "checked", o->exec, point);
	ret = probe__name_sites(sites, nr, o->force);
	if (ret == -EEXIST) {
		ui__error("event '%s:%s' already exists: delete it with 'tperf probe -d %s:%s' or "
		      "add a duplicate with -f", sites[0].group, sites[0].base, sites[0].group,
		      sites[0].base);
	} else if (!ret) {
		ret = create_sites(sites, nr, o->dry_run, o->print_lines);
		if (ret && !o->dry_run)
			rollback(sites, nr);
	}
	if (ret) {
		probe_sites__free(sites, nr);
		return probe_status(ret);
	}
	for (int i = 0; i < nr && !o->quiet && !o->print_lines; i++) {
		char names[512];

		if (!*printed)
			fprintf(stderr, "Added new event%s:\n", nr > 1 || all->nr ? "s" : "");
		*printed = true;
		arg_names(sites[i].fetchargs, names, sizeof(names));
		print_added(&sites[i], point, *uargs ? uargs : names);
	}
	all->sites = sites;	/* kept for the closing hint and rollbacks */
	all->nr = nr;
	return 0;
}

static int add_probes(const char **defs, int n, const struct probe_opts *o)
{
	struct added last = { 0 }, prev = { 0 };
	bool printed = false;

	if (!o->exec) {
		ui__error("kprobes are not available on this kernel (no kprobe_events in tracefs): "
		      "probe a user binary with -x BINARY");
		return probe_status(-ENOENT);	/* perf's status here */
	}
	if (!o->dry_run)
		note_leftovers();
	for (int i = 0; i < n; i++) {
		int status = add_one(defs[i], i < o->nr_add_opts, o, &last, &printed);

		if (status) {
			probe_sites__free(prev.sites, prev.nr);
			return status;
		}
		probe_sites__free(prev.sites, prev.nr);
		prev = last;
	}
	if (printed && prev.nr)
		fprintf(stderr, "\nYou can now use it in all tperf tools, such as:\n\n"
			"\ttperf record -e %s:%s -aR sleep 1\n\n", prev.sites[0].group,
			prev.sites[0].event);
	probe_sites__free(prev.sites, prev.nr);
	return 0;
}

/* "PATH:0xOFF[(0xREF)]" -> path and offset. */
static int split_addr(const char *addr, char *path, size_t size, uint64_t *off)
{
	const char *colon = strrchr(addr, ':');
	char *end;

	if (!colon || (size_t)(colon - addr) >= size)
		return -EINVAL;
	snprintf(path, size, "%.*s", (int)(colon - addr), addr);
	*off = strtoull(colon + 1, &end, 16);
	return end == colon + 1 ? -EINVAL : 0;
}

static int list_one(const char *group, const char *event, bool ret, const char *addr,
		    const char *args, void *arg)
{
	char name[160], path[4096], desc[512], names[512];
	uint64_t off;

	snprintf(name, sizeof(name), "%s:%s", group, event);
	if (split_addr(addr, path, sizeof(path), &off) ||
	    probe__describe(path, off, ret, desc, sizeof(desc)))
		snprintf(desc, sizeof(desc), "%s", addr);
	arg_names(args, names, sizeof(names));
	printf("  %-20s (on %s in %s%s%s)\n", name, desc, path, *names ? " with " : "", names);
	return ferror(stdout) ? -EIO : 0;
}

static int list_probes(const char *filter)
{
	bool mounted = false;
	int ret;

	if (!tracefs__mount(&mounted)) {
		ui__error("tracefs is not mounted and cannot be: mount it at /sys/kernel/tracing");
		return 1;
	}
	builtin__note_tracefs(mounted);
	note_leftovers();
	ret = probe__for_each(*filter ? filter : NULL, list_one, NULL);
	if (ret < 0 || fflush(stdout) || ferror(stdout)) {
		ui__error("cannot list the probes: %s",
			  builtin__tracefs_strerror(ret < 0 ? -ret : errno));
		return probe_status(ret < 0 ? ret : -errno);
	}
	return 0;
}

static void print_deleted(const char *group, const char *event)
{
	fprintf(stderr, "Removed event: %s:%s\n", group, event);
}

static int del_probes(const struct string_list *del, bool quiet)
{
	bool mounted = false;
	int status = 0;

	if (!tracefs__mount(&mounted)) {
		ui__error("tracefs is not mounted and cannot be: mount it at /sys/kernel/tracing");
		return 1;
	}
	builtin__note_tracefs(mounted);
	note_leftovers();
	for (int i = 0; i < del->n; i++) {
		int ret = probe__delete(del->v[i], quiet ? NULL : print_deleted);

		if (ret < 0) {
			ui__error("cannot delete '%s': %s", del->v[i], builtin__tracefs_strerror(-ret));
			status = probe_status(ret);
		} else if (!ret) {
			ui__error("'%s' does not match any probe: 'tperf probe -l' lists them",
			      del->v[i]);
			status = probe_status(-ENOENT);
		}
	}
	return status;
}

static int list_sdt(const char *path)
{
	struct probe_elf *pe;
	struct sdt_note *notes = NULL;
	const void *data;
	size_t size;
	int nr = 0, ret = probe_elf__open(path, &pe);

	if (ret) {
		ui__error(ret == -ENOEXEC ? "'%s' is not an ELF file" : "cannot open '%s': %s", path,
		      strerror(-ret));
		return 1;
	}
	data = probe_elf__section_data(pe, ".note.stapsdt", &size);
	if (data)
		ret = sdt__parse_notes(data, size, probe_elf__is64(pe), &notes, &nr);
	for (int i = 0; !ret && i < nr; i++) {
		char name[256];

		snprintf(name, sizeof(name), "sdt_%s:%s", notes[i].provider, notes[i].name);
		printf("%-30s %s%s\n", name, *notes[i].args ? notes[i].args : "(no arguments)",
		       notes[i].semaphore ? " [semaphore]" : "");
	}
	sdt__free_notes(notes, nr);
	probe_elf__close(pe);
	if (ret || fflush(stdout) || ferror(stdout)) {
		ui__error("cannot list the SDT markers of '%s': %s", path,
		      strerror(ret ? -ret : errno));
		return 1;
	}
	return 0;
}

struct names {
	char **v;
	int n;
	const struct probe_filter *filter;
	bool demangle;
	int seen;	/* symbols (not PLT entries) met, listed or not */
};


/* Add @name (a symbol, or a "NAME@plt" entry when @plt) if the filter wants it. */
static int add_name(struct names *ns, const char *name, bool plt)
{
	char **v, *dem = NULL;

	/* C++ names as perf shows them: demangled, without the parameters,
	 * "@plt" kept after a PLT entry's */
	if (ns->demangle && plt) {
		size_t n = strlen(name) - strlen("@plt");
		char *sym = strndup(name, n), *d = sym ? probe_cxx__demangle(sym, false) : NULL;

		if (d && asprintf(&dem, "%s@plt", d) < 0)
			dem = NULL;
		free(d);
		free(sym);
	} else if (ns->demangle) {
		dem = probe_cxx__demangle(name, false);
	}
	if (!probe_filter__match(ns->filter, dem ?: name)) {
		free(dem);
		return 0;
	}
	v = realloc(ns->v, (size_t)(ns->n + 1) * sizeof(*v));
	if (!v) {
		free(dem);
		return -ENOMEM;
	}
	ns->v = v;
	/* "SHOWN\tSYMBOL": sorted by the name shown, one line per symbol */
	if (asprintf(&ns->v[ns->n], "%s\t%s", dem ?: name, name) < 0)
		ns->v[ns->n] = NULL;
	free(dem);
	return ns->v[ns->n++] ? 0 : -ENOMEM;
}

static int collect_name(const char *name, uint64_t addr, void *arg)
{
	struct names *ns = arg;

	(void)addr;
	ns->seen++;
	return add_name(ns, name, false);
}

static int collect_plt(const char *name, void *arg)
{
	return add_name(arg, name, true);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_funcs(const char *path, const struct probe_filter *filter, bool demangle)
{
	struct names ns = { .filter = filter, .demangle = demangle };
	struct probe_elf *pe;
	int ret = probe_elf__open(path, &pe);

	if (ret) {
		ui__error(ret == -ENOEXEC ? "'%s' is not an ELF file" : "cannot open '%s': %s", path,
		      strerror(-ret));
		return 1;
	}
	ret = probe_elf__for_each_function(pe, true, collect_name, &ns);
	if (!ret && !ns.seen) {	/* perf loads no PLT entry then, and fails */
		char real[PATH_MAX];

		probe_elf__close(pe);
		fprintf(stderr, "Failed to load symbols in %s\n  Error: Failed to show functions.\n",
			realpath(path, real) ? real : path);
		return 1;
	}
	if (!ret)
		ret = probe_elf__for_each_plt(pe, collect_plt, &ns);
	probe_elf__close(pe);
	if (ns.n)
		qsort(ns.v, (size_t)ns.n, sizeof(*ns.v), cmp_str);
	for (int i = 0; !ret && i < ns.n; i++)
		printf("%.*s\n", (int)strcspn(ns.v[i], "\t"), ns.v[i]);
	for (int i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	if (ret || fflush(stdout) || ferror(stdout)) {
		ui__error("cannot list the functions of '%s': %s", path, strerror(ret ? -ret : errno));
		return 1;
	}
	return 0;
}

/* "FUNC[@SRC][:RLN[+NUM|-RLN2]]" or "SRC:ALN[+NUM|-ALN2]". */
/* The length of FUNC or SRC at @s: up to ':' or '@', C++'s "::" kept. */
static size_t name_len(const char *s)
{
	size_t n = 0;

	for (;;) {
		n += strcspn(s + n, ":@");
		if (s[n] != ':' || s[n + 1] != ':')
			return n;
		n += 2;
	}
}

static int parse_range(const char *s, char *func, char *file, size_t size, int *start,
		       int *end, bool *relative)
{
	size_t n = name_len(s);
	const char *p = s + n;
	char *e;

	func[0] = file[0] = '\0';
	*start = 0, *end = 0;
	if (!n || n >= size)
		return -EINVAL;
	if (memchr(s, '.', n) || memchr(s, '/', n)) {
		snprintf(file, size, "%.*s", (int)n, s);
		*relative = false;
	} else {
		snprintf(func, size, "%.*s", (int)n, s);
		*relative = true;
		if (*p == '@') {
			size_t m = strcspn(p + 1, ":");

			if (!m || m >= size)
				return -EINVAL;
			snprintf(file, size, "%.*s", (int)m, p + 1);
			p += m + 1;
		}
	}
	if (!*p)
		return *relative ? 0 : -EINVAL;
	if (*p != ':')
		return -EINVAL;
	*start = (int)strtol(p + 1, &e, 10);
	if (e == p + 1 || *start < 0 || *start > 10000000)
		return -EINVAL;
	if (*e == '+' || *e == '-') {
		char op = *e;
		long v = strtol(e + 1, &e, 10);

		if (v < 0 || v > 10000000)
			return -EINVAL;
		*end = op == '+' ? *start + (int)v - 1 : (int)v;
		if (*end < *start)
			return -EINVAL;
	}
	return *e ? -EINVAL : 0;
}

static int open_target(const char *path, struct probe_elf **pe)
{
	int ret = probe_elf__open(path, pe);

	if (ret)
		ui__error(ret == -ENOEXEC ? "'%s' is not an ELF file" : "cannot open '%s': %s", path,
		      strerror(-ret));
	else if (!probe_finder__has_dwarf(*pe)) {
		ui__error("'%s' has no debug information (DWARF): rebuild it with -g", path);
		probe_elf__close(*pe);
		ret = -ENODATA;
	}
	return ret;
}

static int show_line(const char *path, const char *range, const char *source)
{
	char func[256], file[256], msg[512];
	int start, end, ret;
	bool relative;
	struct probe_elf *pe;

	if (parse_range(range, func, file, sizeof(func), &start, &end, &relative)) {
		ui__error("invalid line range '%s': use FUNC[:RLN[+NUM|-RLN2]] or "
		      "SRC:ALN[+NUM|-ALN2]", range);
		return 1;
	}
	if (open_target(path, &pe))
		return 1;
	ret = probe_finder__show_lines(pe, *func ? func : NULL, *file ? file : NULL, start, end,
				       relative, source, stdout, msg, sizeof(msg));
	probe_elf__close(pe);
	if (ret || fflush(stdout) || ferror(stdout)) {
		ui__error("%s", ret ? msg : strerror(errno));
		return 1;
	}
	return 0;
}

static int show_vars(const char *path, const char *str, const struct probe_opts *o)
{
	struct probe_def def;
	struct probe_elf *pe;
	char msg[512];
	int ret;

	if (parse_def(str, &def))
		return 1;
	if (def.sdt || def.nr_args) {
		ui__error("-V takes a probe point without arguments: '%s'", str);
		probe_def__exit(&def);
		return 1;
	}
	if (open_target(path, &pe)) {
		probe_def__exit(&def);
		return 1;
	}
	ret = probe_finder__show_vars(pe, &def, &o->fopts, str, stdout, msg, sizeof(msg));
	if (ret == -ESRCH) {	/* perf's second try: by the symbol's address */
		struct probe_def alt;
		bool ifunc;

		if (!probe__alternative(pe, &def, &alt, &ifunc)) {
			if (ifunc) {
				char warn[512];

				probe__ifunc_warning(def.func, warn, sizeof(warn));
				fputs(warn, stderr);
			}
			ret = probe_finder__show_vars(pe, &alt, &o->fopts, str, stdout, msg,
						      sizeof(msg));
			probe__alternative_exit(&alt);
		}
	}
	probe_elf__close(pe);
	probe_def__exit(&def);
	if (ret || fflush(stdout) || ferror(stdout)) {
		ui__error("%s", ret ? msg : strerror(errno));
		return 1;
	}
	return 0;
}

/* The words of a definition given as separate arguments, joined. */
static char *join_words(int argc, const char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (int i = 0; s && i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int need_exec(const struct probe_opts *o, const char *what)
{
	if (o->exec)
		return 0;
	ui__error("%s needs the binary: give it with -x BINARY", what);
	return -1;
}

static void print_filter_error(const char *expr, int pos)
{
	static const char prefix[] = "tperf: filter syntax error: '";

	fprintf(stderr, "%s%s'\n", prefix, expr);
	fprintf(stderr, "%*s^ expected a glob, '!' or '(' here, names joined by '&' or '|'\n",
		(int)(sizeof(prefix) - 1) + pos, "");
}

/*
 * The filter of -F or -V, as perf makes it: the --filter expressions and
 * -F's own, or-ed; -F without one (or nothing given) brings @def in.
 */
static int make_filter(const struct probe_opts *o, const char *own, const char *def,
		       struct probe_filter **f)
{
	const char *exprs[64];
	int n = 0, pos, ret;

	if (own)
		exprs[n++] = *own ? own : def;
	for (int i = 0; i < o->filters.n && n < 63; i++)
		exprs[n++] = o->filters.v[i];
	if (!n)
		exprs[n++] = def;
	*f = NULL;
	for (int i = 0; i < n; i++) {
		ret = probe_filter__add(f, exprs[i], &pos);
		if (ret == -EINVAL) {
			print_filter_error(exprs[i], pos);
			probe_filter__delete(*f);
			return -1;
		}
		if (ret) {
			ui__error("out of memory");
			return -1;
		}
	}
	return 0;
}

static int funcs_mode(int argc, const char **argv, const struct probe_opts *o)
{
	struct probe_filter *f;
	int ret;

	if (need_exec(o, "--funcs"))
		return 1;
	/* perf's default: no name starting with '_', no PLT entry */
	if (make_filter(o, *o->funcs ? o->funcs : argc ? argv[0] : "", "!_* & !*@plt", &f))
		return 1;
	ret = list_funcs(o->exec, f, o->demangle);
	probe_filter__delete(f);
	return ret;
}

static int vars_mode(struct probe_opts *o)
{
	struct probe_filter *f;
	int ret;

	if (need_exec(o, "--vars"))
		return 1;
	/* perf's default leaves out the kernel's symbol tables and CRCs */
	if (make_filter(o, NULL, "!__k???tab_* & !__crc_*", &f))
		return 1;
	o->fopts.var_filter = f;
	ret = show_vars(o->exec, o->vars, o);
	o->fopts.var_filter = NULL;
	probe_filter__delete(f);
	return ret;
}

static int run_mode(int argc, const char **argv, struct probe_opts *o)
{
	const char *filter = argc ? argv[0] : "";

	if (o->cleanup) {
		if (argc || o->exec || o->add.n || o->del.n || o->defs.n || o->list) {
			ui__error("--cleanup takes no other action or argument");
			return 129;
		}
		return cleanup();
	}
	if (o->list)
		return list_probes(*o->list ? o->list : filter);
	if (o->del.n)
		return del_probes(&o->del, o->quiet);
	if (o->list_sdt)
		return need_exec(o, "--list-sdt") ? 1 : list_sdt(o->exec);
	if (o->funcs)
		return funcs_mode(argc, argv, o);
	if (o->line)
		return need_exec(o, "--line") ? 1 : show_line(o->exec, o->line,
								   o->fopts.source_prefix);
	if (o->vars)
		return vars_mode(o);
	return -1;
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts o = { .fopts = { .max_probes = 128 }, .inlines = true,
				  .demangle = true };
	const struct option options[] = {
		OPT_CALLBACK('a', "add", &o.add, "[EVENT=]FUNC[@SRC][+OFF|%return|:RL]|SRC:AL [ARG ...]",
			     "probe point definition", parse_opt_string_list),
		OPT_CALLBACK('d', "del", &o.del, "[GROUP:]EVENT", "delete probe events (globs)",
			     parse_opt_string_list),
		OPT_CALLBACK('D', "definition", &o.defs,
			     "[EVENT=]FUNC[@SRC][+OFF|%return|:RL]|SRC:AL [ARG ...]",
			     "show the uprobe_events line of a definition (as -n)",
			     parse_opt_string_list),
		OPT_STRING_OPTARG('l', "list", &o.list, "[GROUP:]EVENT", "list up probe events", ""),
		OPT_STRING('x', "exec", &o.exec, "executable|path", "target executable or library"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run, "print the uprobe lines, write nothing"),
		OPT_INCR('v', "verbose", &tperf_config.verbose,
			 "be more verbose (the uprobe lines as they are written)"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "print no messages on success"),
		OPT_BOOLEAN('f', "force", &o.force, "add events with an existing name (suffixed _N)"),
		OPT_STRING('L', "line", &o.line, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "show the source lines, probe-able ones numbered"),
		OPT_STRING('V', "vars", &o.vars, "FUNC[@SRC][+OFF|%return|:RL]|SRC:AL",
			   "show the variables available at the probe point"),
		OPT_STRING_OPTARG('F', "funcs", &o.funcs, "[!]FILTER", "show the probe-able functions", ""),
		OPT_CALLBACK(0, "filter", &o.filters, "[!]FILTER",
			     "a filter of names (with --vars/--funcs): globs, '!', '&', '|', ()",
			     parse_opt_string_list),
		OPT_STRING('s', "source", &o.fopts.source_prefix, "directory",
			   "the folder the sources are in (-L, ;PTN), as perf's"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file",
			   "vmlinux pathname (kernel probes: not available on this kernel)"),
		OPT_BOOLEAN(0, "externs", &o.fopts.externs, "show global variables too (with --vars)"),
		OPT_BOOLEAN(0, "range", &o.fopts.range,
			    "show the variables' location ranges (with --vars)"),
		OPT_BOOLEAN(0, "demangle", &o.demangle,
			    "show C++ names demangled with --funcs (default; --no-demangle: don't)"),
		OPT_BOOLEAN(0, "inlines", &o.inlines, "probe inlined instances (--no-inlines: don't)"),
		OPT_INTEGER(0, "max-probes", &o.fopts.max_probes, "at most this many probe points per event"),
		OPT_BOOLEAN(0, "list-sdt", &o.list_sdt, "list the SDT markers of the -x binary"),
		OPT_BOOLEAN(0, "cleanup", &o.cleanup,
			    "remove the uprobes of tperfs that no longer run (killed)"),
		OPT_END()
	};
	const char *const usage[] = {
		"tperf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
		"tperf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
		"tperf probe [<options>] --del '[GROUP:]EVENT' ...",
		"tperf probe --list [GROUP:]EVENT ...",
		"tperf probe [<options>] --line 'LINEDESC'",
		"tperf probe [<options>] --vars 'PROBEPOINT'",
		"tperf probe [<options>] --funcs",
		"tperf probe --list-sdt -x BINARY",
		"tperf probe --cleanup",
		NULL
	};
	char *joined = NULL;
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	probe__tracefs_dir();
	o.fopts.no_inlines = !o.inlines;
	if (o.fopts.max_probes <= 0)
		usage_with_options_msg(usage, options, "--max-probes must be positive");
	ret = run_mode(argc, argv, &o);
	free(o.del.v);
	free(o.filters.v);
	if (ret >= 0) {
		free(o.add.v);
		return ret;
	}
	o.nr_add_opts = o.add.n;
	if (argc) {
		joined = join_words(argc, argv);
		if (!joined || parse_opt_string_list(&options[0], joined, 0)) {
			ui__error("out of memory");
			return 1;
		}
	}
	for (int i = 0; i < o.defs.n; i++) {	/* -D DEF: the line of DEF, written nowhere */
		if (parse_opt_string_list(&options[0], o.defs.v[i], 0)) {
			ui__error("out of memory");
			return 1;
		}
		o.dry_run = o.print_lines = true;
	}
	free(o.defs.v);
	if (!o.add.n)
		usage_with_options_msg(usage, options, "no probe definition given");
	ret = add_probes(o.add.v, o.add.n, &o);
	free(o.add.v);
	free(joined);
	return ret;
}
