// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From a probe definition to uprobe sites: SDT markers, DWARF, or ELF
 * symbols, each address turned into the file offset uprobe_events wants.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/symbol/probe-cxx.h"
#include "util/symbol/probe-elf.h"
#include "util/probe/probe-event.h"
#include "util/probe/probe-finder.h"
#include "util/probe/probe-insn.h"
#include "util/probe/sdt.h"

static int say(char *msg, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *msg, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return err;
}

void probe_sites__free(struct probe_site *sites, int nr)
{
	for (int i = 0; i < nr; i++)
		probe_site__exit(&sites[i]);
	free(sites);
}

static struct probe_site *new_site(struct probe_site **sites, int *nr)
{
	struct probe_site *s = realloc(*sites, (size_t)(*nr + 1) * sizeof(*s));

	if (!s)
		return NULL;
	*sites = s;
	s = &s[(*nr)++];
	memset(s, 0, sizeof(*s));
	return s;
}

struct resolver {
	const char *path;	/* absolute */
	bool raw_offset;	/* add_site() gets file offsets, not addresses */
	const struct probe_def *def;
	const char *name_func;	/* names the events instead of def->func */
	bool warned;		/* msg holds a warning for a success */
	const struct probe_finder_opts *o;
	struct probe_elf *pe;
	struct probe_site *sites;
	int nr;
	char *msg;
	size_t size;
};

static int add_site(struct resolver *r, uint64_t vaddr, const char *group, const char *base,
		    const char *args, uint64_t ref)
{
	struct probe_site *s;
	uint64_t off;

	if (r->raw_offset)
		off = vaddr;
	else if (probe_elf__vaddr_to_offset(r->pe, vaddr, &off))
		return say(r->msg, r->size, -ENOENT, "address 0x%" PRIx64 " of '%s' is in no "
			   "loadable segment", vaddr, r->path);
	s = new_site(&r->sites, &r->nr);
	if (!s)
		return -ENOMEM;
	snprintf(s->group, sizeof(s->group), "%s", r->def->group ?: group);
	snprintf(s->base, sizeof(s->base), "%s", r->def->event ?: base);
	s->retprobe = r->def->retprobe;
	s->offset = off;
	s->ref_offset = ref;
	s->path = strdup(r->path);
	s->fetchargs = strdup(args ?: "");
	if (!s->path || !s->fetchargs)
		return -ENOMEM;
	if (!probe_name__valid(s->group) || !probe_name__valid(s->base))
		return say(r->msg, r->size, -EINVAL, "'%s:%s' is not a valid event name: "
			   "name it with EVENT=", s->group, s->base);
	return 0;
}

/* ---- SDT ---- */

static int sdt_site(struct resolver *r, const struct sdt_note *n, uint64_t base_addr,
		    bool has_base)
{
	char args[2048], group[64];
	uint64_t pc = n->pc, ref = 0;
	int skipped = sdt__convert_args(n->args, args, sizeof(args));

	if (skipped < 0)
		return say(r->msg, r->size, -EINVAL, "SDT marker %s:%s has malformed "
			   "arguments '%s'", n->provider, n->name, n->args);
	if (has_base)
		pc += base_addr - n->base;
	if (n->semaphore && probe_elf__vaddr_to_offset(r->pe, n->semaphore, &ref))
		return say(r->msg, r->size, -ENOENT, "the semaphore of SDT marker %s:%s is "
			   "outside the loadable segments", n->provider, n->name);
	snprintf(group, sizeof(group), "sdt_%s", n->provider);
	return add_site(r, pc, group, n->name, args, ref);
}

static int resolve_sdt(struct resolver *r)
{
	struct sdt_note *notes = NULL;
	size_t size;
	const void *data = probe_elf__section_data(r->pe, ".note.stapsdt", &size);
	uint64_t base = 0;
	bool has_base = !probe_elf__section_addr(r->pe, ".stapsdt.base", &base);
	int nr = 0, ret, matched = 0;

	if (!data)
		return say(r->msg, r->size, -ENOENT, "'%s' has no SDT markers (no "
			   ".note.stapsdt section)", r->path);
	ret = sdt__parse_notes(data, size, probe_elf__is64(r->pe), &notes, &nr);
	for (int i = 0; !ret && i < nr; i++) {
		if (fnmatch(r->def->func, notes[i].provider, 0) ||
		    fnmatch(r->def->file, notes[i].name, 0))
			continue;
		matched++;
		ret = sdt_site(r, &notes[i], base, has_base);
	}
	sdt__free_notes(notes, nr);
	if (!ret && !matched)
		ret = say(r->msg, r->size, -ENOENT, "no SDT marker %s:%s in '%s': list them "
			  "with 'tperf probe --list-sdt -x %s'", r->def->func, r->def->file,
			  r->path, r->path);
	return ret;
}

/* ---- DWARF ---- */

static void event_base(const struct probe_def *d, const char *func, char *buf, size_t size)
{
	char cxx[64];

	if (probe_cxx__qualified(func)) {	/* 'ns::Counter::add(int)': 'add' */
		probe_cxx__event_name(func, cxx, sizeof(cxx));
		func = cxx;
	}
	if (d->retprobe)
		snprintf(buf, size, "%.50s__return", func);
	else if (d->func && d->line)
		snprintf(buf, size, "%.50s_L%d", func, d->line);
	else
		snprintf(buf, size, "%.60s", func);
}

static int resolve_dwarf(struct resolver *r, char *group)
{
	struct probe_point *pts = NULL;
	int nr = 0, ret;

	ret = probe_finder__find(r->pe, r->def, r->o, &pts, &nr, r->msg, r->size);
	for (int i = 0; !ret && i < nr; i++) {
		char base[64];

		event_base(r->def, r->name_func ?: r->def->func ?: pts[i].func, base,
			   sizeof(base));
		ret = add_site(r, pts[i].addr, group, base, pts[i].fetchargs, 0);
	}
	probe_points__free(pts, nr);
	return ret;
}

int probe__alternative(struct probe_elf *pe, const struct probe_def *def, struct probe_def *alt,
		       bool *ifunc)
{
	uint64_t addr, entry;
	char *func, *file;

	if (!def->func || def->file || def->line || strpbrk(def->func, "*?[") ||
	    probe_cxx__qualified(def->func) ||
	    probe_elf__first_symbol(pe, def->func, &addr, ifunc) ||
	    probe_finder__real_func_at(pe, addr, &func, &file, &entry))
		return -ENOENT;
	/* perf's point: FUNC@FILE at an entry, else FUNC+OFFSET; the finder
	 * takes the function at that address (its name may name others) */
	free(file);
	*alt = *def;
	alt->func = func;
	alt->file = NULL;
	alt->func_at_addr = true;
	alt->func_addr = entry;
	alt->offset = def->offset + (addr - entry);
	return 0;
}

void probe__alternative_exit(struct probe_def *alt)
{
	free(alt->func);
}

void probe__ifunc_warning(const char *func, char *msg, size_t size)
{
	snprintf(msg, size, "Warning: The probe function (%s) is a GNU indirect function.\n"
		 "Consider identifying the final function used at run time and set the probe "
		 "directly on that.\n", func);
}

/*
 * perf's second try when the DWARF names no such function: the
 * alternative point above, the event named after the function given.
 */
static int resolve_alternative(struct resolver *r, char *group)
{
	const struct probe_def *d = r->def;
	struct probe_def alt;
	bool ifunc;
	int ret;

	if (probe__alternative(r->pe, d, &alt, &ifunc))
		return -ENOENT;
	r->def = &alt;
	r->name_func = d->func;
	r->msg[0] = '\0';
	ret = resolve_dwarf(r, group);
	r->def = d;
	r->name_func = NULL;
	probe__alternative_exit(&alt);
	if (!ret && ifunc) {
		probe__ifunc_warning(d->func, r->msg, r->size);
		r->warned = true;
	}
	return ret;
}

/* ---- ELF symbols ---- */

/* Can @def be placed without DWARF? */
static bool needs_dwarf(const struct probe_def *d)
{
	if (d->line || d->file || d->lazy)
		return true;
	for (int i = 0; i < d->nr_args; i++)
		if (d->args[i].kind == PROBE_ARG_VAR || d->args[i].kind == PROBE_ARG_PARAMS ||
		    d->args[i].kind == PROBE_ARG_VARS)
			return true;
	return false;
}

static int symbol_args(struct resolver *r, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->def->nr_args; i++) {
		const struct probe_arg *a = &r->def->args[i];
		int n;

		if (a->kind == PROBE_ARG_RETVAL && !r->def->retprobe)
			return say(r->msg, r->size, -EINVAL, "$retval is only available at "
				   "'%%return' probes");
		n = snprintf(buf + len, size - len, "%s%s%s%s%s%s", len ? " " : "",
			     a->name ?: "", a->name ? "=" : "", a->var,
			     a->type ? ":" : "", a->type ?: "");
		if (n < 0 || (size_t)n >= size - len)
			return say(r->msg, r->size, -ENOSPC, "the arguments are too long");
		len += (size_t)n;
	}
	return 0;
}

static int resolve_symbol(struct resolver *r, const char *group)
{
	const struct probe_def *d = r->def;
	int n = probe_elf__count_symbol(r->pe, d->func), ret;
	char args[2048], base[64];

	if (!n)
		return say(r->msg, r->size, -ENOENT, "no function '%s' in '%s'", d->func,
			   r->path);
	if (n > r->o->max_probes)
		return say(r->msg, r->size, -E2BIG, "'%s' has more than %d probe points: raise "
			   "--max-probes", d->func, r->o->max_probes);
	ret = symbol_args(r, args, sizeof(args));
	event_base(d, d->func, base, sizeof(base));
	for (int i = 0; !ret && i < n; i++) {
		uint64_t addr, size;

		probe_elf__find_symbol(r->pe, d->func, i, &addr, &size);
		if (size && d->offset >= size)
			return say(r->msg, r->size, -ENOENT, "offset %" PRIu64 " is beyond "
				   "function '%s' (%" PRIu64 " bytes)", d->offset, d->func, size);
		if (d->offset)
			ret = probe_insn__check(r->pe, d->func, addr, addr, size ? addr + size : 0,
						addr + d->offset, 0, r->msg, r->size);
		if (!ret)
			ret = add_site(r, addr + d->offset, group, base, args, 0);
	}
	return ret;
}

/*
 * "0xADDR[+OFFS][%return]": the uprobe at file offset ADDR + OFFS (perf
 * writes ADDR as the offset), named abs_ADDR; registers and $comm only.
 */
static int resolve_abs(struct resolver *r, const char *group)
{
	const struct probe_def *d = r->def;
	uint64_t off = d->addr + d->offset, vaddr, func, size;
	char args[2048], base[64];
	const char *name;
	int ret;

	if (needs_dwarf(d))
		return say(r->msg, r->size, -EINVAL, "a probe on an address takes registers, "
			   "$comm and $retval only: variables need a function or a line");
	if (probe_elf__offset_to_vaddr(r->pe, off, &vaddr))
		return say(r->msg, r->size, -ENOENT, "offset 0x%" PRIx64 " is in no loadable "
			   "segment of '%s'", off, r->path);
	/* inside a function: on one of its instructions' first byte */
	name = probe_elf__symbol_at(r->pe, vaddr, &func, &size);
	ret = name ? probe_insn__check(r->pe, name, func, func, func + size, vaddr, off, r->msg,
				       r->size) : 0;
	if (!ret)
		ret = symbol_args(r, args, sizeof(args));
	if (ret)
		return ret;
	snprintf(base, sizeof(base), "abs_%" PRIx64 "%s", d->addr, d->retprobe ? "__return" : "");
	r->raw_offset = true;
	return add_site(r, off, group, base, args, 0);
}

static int resolve_code(struct resolver *r)
{
	char group[64];
	int ret;

	probe__default_group(r->path, group, sizeof(group));
	if (r->def->abs)
		return resolve_abs(r, group);
	if (probe_finder__has_dwarf(r->pe)) {
		ret = resolve_dwarf(r, group);
		if ((ret != -ENOENT && ret != -ESRCH) || r->nr || !r->def->func || r->def->file ||
		    probe_cxx__qualified(r->def->func))
			return ret;
		/*
		 * A function the DWARF does not name (an alias such as glibc's
		 * malloc of __libc_malloc, an IFUNC, code without debug
		 * information), as perf 6.1 goes on: a plain point takes the
		 * DWARF function at the symbol's address; with arguments or
		 * %return, only those that need no DWARF, on the function
		 * symbols.
		 */
		if (!r->def->nr_args && !r->def->retprobe) {
			int alt = resolve_alternative(r, group);

			if (!alt)
				return 0;
			if (alt != -ENOENT && alt != -ESRCH)
				return alt;	/* found, and refused: its message, its error */
		}
		/* (and where libdw fails on a function it has: LTO's) */
		if ((ret == -ENOENT || r->def->nr_args || r->def->retprobe) &&
		    !needs_dwarf(r->def) && probe_elf__count_symbol(r->pe, r->def->func))
			return resolve_symbol(r, group);
		return ret == -ESRCH ? -ENOENT : ret;	/* found nowhere */
	}
	if (needs_dwarf(r->def))
		return say(r->msg, r->size, -ENODATA, "'%s' has no debug information (DWARF): "
			   "lines, source files and variables need it (rebuild with -g or "
			   "install its debug symbols); functions with $comm, $retval or "
			   "%%REG arguments and SDT markers work without", r->path);
	return resolve_symbol(r, group);
}

int probe__resolve(const char *path, const struct probe_def *def,
		   const struct probe_finder_opts *o, struct probe_site **sites, int *nr,
		   char *msg, size_t size)
{
	struct resolver r = { .def = def, .o = o, .msg = msg, .size = size };
	char abs[PATH_MAX];
	bool decoded;
	int ret;

	msg[0] = '\0';
	if (!realpath(path, abs))
		return say(msg, size, -errno, "cannot open '%s': %s", path, strerror(errno));
	r.path = abs;
	ret = probe_elf__open(abs, &r.pe);
	if (ret)
		return say(msg, size, ret, ret == -ENOEXEC ? "'%s' is not an ELF file" :
			   "cannot open '%s': %s", path, strerror(-ret));
	ret = def->sdt ? resolve_sdt(&r) : resolve_code(&r);
	decoded = probe_insn__checks(r.pe);
	probe_elf__close(r.pe);
	if (ret) {
		if (!msg[0])
			say(msg, size, ret, "cannot probe '%s': %s", path, strerror(-ret));
		probe_sites__free(r.sites, r.nr);
		return ret;
	}
	if (!r.warned)
		msg[0] = '\0';
	for (int i = 0; i < r.nr && (def->offset || def->abs); i++)
		r.sites[i].unchecked = !decoded;
	*sites = r.sites;
	*nr = r.nr;
	return 0;
}

static void describe_symbol(struct probe_elf *pe, uint64_t vaddr, char *buf, size_t size)
{
	uint64_t start;
	const char *name = probe_elf__symbol_at(pe, vaddr, &start, NULL);

	if (!name)
		snprintf(buf, size, "0x%" PRIx64, vaddr);
	else if (vaddr == start)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s+%" PRIu64, name, vaddr - start);
}

int probe__describe(const char *path, uint64_t offset, bool ret, char *buf, size_t size)
{
	struct probe_elf *pe;
	uint64_t vaddr, foff;
	char *func, *file;
	int line, err = probe_elf__open(path, &pe);

	if (err)
		return err;
	err = probe_elf__offset_to_vaddr(pe, offset, &vaddr);
	if (!err && probe_finder__addr_info(pe, vaddr, &func, &foff, &file, &line) == 0) {
		if (ret)
			snprintf(buf, size, "%s%%return@%s", func, file);
		else if (line)
			snprintf(buf, size, "%s:%d@%s", func, line, file);
		else if (foff)	/* no line starts there: an offset, as perf */
			snprintf(buf, size, "%s+%" PRIu64 "@%s", func, foff, file);
		else
			snprintf(buf, size, "%s@%s", func, file);
		free(func);
		free(file);
	} else if (!err) {
		describe_symbol(pe, vaddr, buf, size);
		if (ret && strlen(buf) + 8 < size)
			strcat(buf, "%return");
	}
	probe_elf__close(pe);
	return err;
}
