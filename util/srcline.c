// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines from libdw: the DSO's debug file (or the DSO itself) is
 * opened once; a DSO-relative address (a file offset) becomes the ELF
 * virtual address through the PT_LOAD headers, then the CU's line table
 * gives the innermost file:line, as addr2line does.  Answers are cached per
 * DSO in an open hash by address.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "srcline.h"

struct sl_load {
	u64 off, filesz, vaddr;
};

struct sl_ent {
	u64 addr;
	char *line;			/* dso__srcline's answer, or NULL */
	char *file;			/* dso__srcfile's answer, or NULL */
	char **frames;			/* srcline__frame()'s answers */
	int nr_frames;			/* -1: not looked up yet */
	struct sl_ent *next;
};

struct srcline_dso {
	int fd;
	Dwarf *dw;
	struct sl_load *loads;
	int nr_loads;
	struct sl_ent **tab;
	size_t nr, size;
};

static int read_loads(struct srcline_dso *s, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	size_t n;

	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getphdrnum(elf, &n)) {
		s->loads = calloc(n + 1, sizeof(*s->loads));
		for (size_t i = 0; s->loads && i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
				s->loads[s->nr_loads++] = (struct sl_load){ ph.p_offset, ph.p_filesz,
									    ph.p_vaddr };
		}
	}
	elf_end(elf);
	close(fd);
	return 0;
}

static Dwarf *open_dwarf(const char *path, int *fdp)
{
	int fd = path ? open(path, O_RDONLY) : -1;
	Dwarf *dw;

	if (fd < 0)
		return NULL;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return dw;
}

/* The DSO's line-table state, opened on first use (NULL: none, or ENOMEM). */
static struct srcline_dso *sl_of(struct dso *dso)
{
	struct srcline_dso *s = dso->srcline;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->fd = -1;
	elf_version(EV_CURRENT);
	if (dso->kind == DSO_USER && dso->bin_path) {
		read_loads(s, dso->bin_path);
		s->dw = open_dwarf(dso->debug_path, &s->fd);
		if (!s->dw)
			s->dw = open_dwarf(dso->bin_path, &s->fd);
	}
	dso->srcline = s;
	return s;
}

/* The ELF virtual address of file offset @addr (itself when unknown). */
static u64 sl_vaddr(const struct srcline_dso *s, u64 addr)
{
	for (int i = 0; i < s->nr_loads; i++)
		if (addr >= s->loads[i].off && addr < s->loads[i].off + s->loads[i].filesz)
			return addr - s->loads[i].off + s->loads[i].vaddr;
	return addr;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static int lookup(struct srcline_dso *s, u64 addr, const char **file, unsigned int *line,
		  bool full)
{
	Dwarf_Addr va = sl_vaddr(s, addr);
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *f;
	int ln = 0;

	if (!s->dw || !dwarf_addrdie(s->dw, va, &cu))
		return -ENOENT;
	l = dwarf_getsrc_die(&cu, va);
	f = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!f || dwarf_lineno(l, &ln))
		return -ENOENT;
	*file = full ? f : base_name(f);
	*line = ln;
	return 0;
}

bool srcline__has_dwarf(struct dso *dso)
{
	struct srcline_dso *s = sl_of(dso);

	return s && s->dw;
}

int srcline__find(struct dso *dso, u64 addr, const char **file, unsigned int *line)
{
	struct srcline_dso *s = sl_of(dso);

	return s ? lookup(s, addr, file, line, false) : -ENOENT;
}

int srcline__find_path(struct dso *dso, u64 addr, const char **path, unsigned int *line)
{
	struct srcline_dso *s = sl_of(dso);

	return s ? lookup(s, addr, path, line, true) : -ENOENT;
}

static int grow(struct srcline_dso *s)
{
	size_t size = s->size ? s->size * 2 : 256;
	struct sl_ent **t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < s->size; i++) {
		for (struct sl_ent *e = s->tab[i], *next; e; e = next) {
			size_t h = (e->addr * 0x9e3779b97f4a7c15ull) >> 20 & (size - 1);

			next = e->next;
			e->next = t[h];
			t[h] = e;
		}
	}
	free(s->tab);
	s->tab = t;
	s->size = size;
	return 0;
}

/* The cache entry of @addr, made empty on first use (NULL on ENOMEM). */
static struct sl_ent *ent_of(struct srcline_dso *s, u64 addr)
{
	struct sl_ent *e;
	size_t h;

	if (s->nr >= s->size && grow(s))
		return NULL;
	h = (addr * 0x9e3779b97f4a7c15ull) >> 20 & (s->size - 1);
	for (e = s->tab[h]; e; e = e->next)
		if (e->addr == addr)
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->addr = addr;
	e->nr_frames = -1;
	e->next = s->tab[h];
	s->tab[h] = e;
	s->nr++;
	return e;
}

const char *dso__srcline(struct dso *dso, u64 addr, const struct symbol *sym)
{
	struct srcline_dso *s = sl_of(dso);
	struct sl_ent *e = s ? ent_of(s, addr) : NULL;
	const char *file;
	unsigned int line;
	int n;

	if (!e)
		return SRCLINE_UNKNOWN;
	if (e->line)
		return e->line;
	if (!lookup(s, addr, &file, &line, false))
		n = asprintf(&e->line, "%s:%u", file, line);
	else if (sym)
		n = asprintf(&e->line, "%s+%" PRIu64, sym->name, addr - sym->start);
	else
		n = asprintf(&e->line, "%s[%" PRIx64 "]", dso->short_name, sl_vaddr(s, addr));
	if (n < 0) {
		e->line = NULL;
		return SRCLINE_UNKNOWN;
	}
	return e->line;
}

const char *dso__srcfile(struct dso *dso, u64 addr)
{
	struct srcline_dso *s = sl_of(dso);
	struct sl_ent *e = s ? ent_of(s, addr) : NULL;
	const char *file;
	unsigned int line;

	if (!e)
		return "";
	if (!e->file && !lookup(s, addr, &file, &line, false))
		e->file = strdup(file);
	return e->file ? e->file : "";
}

static int call_site(Dwarf_Die *die, const char **file, unsigned int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word f = 0, l = 0;
	Dwarf_Files *files;
	Dwarf_Die cu;
	const char *name;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &f) ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &l) ||
	    !dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, NULL))
		return -ENOENT;
	name = dwarf_filesrc(files, f, NULL, NULL);
	if (!name)
		return -ENOENT;
	*file = base_name(name);
	*line = l;
	return 0;
}

/* The name of function DIE @d (its abstract origin's for an inline instance) */
static const char *func_name(Dwarf_Die *d)
{
	const char *name = dwarf_diename(d);
	Dwarf_Attribute a;
	Dwarf_Die origin;

	if (!name && dwarf_formref_die(dwarf_attr(d, DW_AT_abstract_origin, &a), &origin))
		name = dwarf_diename(&origin);
	return name ? name : "??";
}

/*
 * The innermost function at @addr, then the DIEs containing it in the
 * concrete tree (dwarf_getscopes() goes on into an inline instance's
 * abstract origin instead, where its callers are not).
 */
int srcline__for_each_inline(struct dso *dso, u64 addr, srcline_inline_fn fn, void *arg)
{
	struct srcline_dso *s = sl_of(dso);
	Dwarf_Die cu, *scopes = NULL, *chain = NULL;
	const char *file;
	unsigned int line;
	int n, found = -1, err = 0;

	if (!s || lookup(s, addr, &file, &line, false) || !dwarf_addrdie(s->dw, sl_vaddr(s, addr), &cu))
		return -ENOENT;
	n = dwarf_getscopes(&cu, sl_vaddr(s, addr), &scopes);
	for (int i = 0; i < n && found < 0; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine ||
		    dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			found = i;
	n = found < 0 ? 0 : dwarf_getscopes_die(&scopes[found], &chain);
	for (int i = 0; i < n && !err; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		err = fn(func_name(&chain[i]), file, line, arg);
		if (tag == DW_TAG_subprogram || call_site(&chain[i], &file, &line))
			break;
	}
	free(chain);
	free(scopes);
	return err;
}

static int add_frame(const char *func, const char *file, unsigned int line, void *arg)
{
	struct sl_ent *e = arg;
	char **v = realloc(e->frames, (e->nr_frames + 1) * sizeof(*v));

	(void)func;
	if (!v)
		return -ENOMEM;
	e->frames = v;
	if (asprintf(&v[e->nr_frames], "%s:%u", file, line) < 0)
		return -ENOMEM;
	e->nr_frames++;
	return 0;
}

const char *srcline__frame(struct dso *dso, u64 addr, unsigned int inl)
{
	struct srcline_dso *s = sl_of(dso);
	struct sl_ent *e = s ? ent_of(s, addr) : NULL;
	const char *file;
	unsigned int line;
	Dwarf_Die cu;

	if (!e)
		return NULL;
	if (e->nr_frames < 0) {
		e->nr_frames = 0;
		srcline__for_each_inline(dso, addr, add_frame, e);
		if (!e->nr_frames && !lookup(s, addr, &file, &line, false))
			add_frame(NULL, file, line, e);
		else if (!e->nr_frames && s->dw && dwarf_addrdie(s->dw, sl_vaddr(s, addr), &cu) &&
			 (e->frames = malloc(sizeof(*e->frames))) && (e->frames[0] = strdup(":0")))
			e->nr_frames = 1;
	}
	if (!e->nr_frames)
		return NULL;
	return e->frames[inl < (unsigned int)e->nr_frames ? inl : (unsigned int)e->nr_frames - 1];
}

void srcline__dso_exit(struct dso *dso)
{
	struct srcline_dso *s = dso->srcline;

	if (!s)
		return;
	for (size_t i = 0; i < s->size; i++) {
		for (struct sl_ent *e = s->tab[i], *next; e; e = next) {
			next = e->next;
			free(e->line);
			free(e->file);
			for (int k = 0; k < e->nr_frames; k++)
				free(e->frames[k]);
			free(e->frames);
			free(e);
		}
	}
	free(s->tab);
	free(s->loads);
	if (s->dw)
		dwarf_end(s->dw);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	dso->srcline = NULL;
}
