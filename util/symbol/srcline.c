// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines from libdw: the DSO's debug file (or the DSO itself) is
 * opened once; a DSO-relative address (a file offset) becomes the ELF
 * virtual address through the PT_LOAD headers, then the CU's line table
 * gives the innermost file:line.  The answers are binutils' addr2line's
 * (perf 6.1 runs it): its file for the first rows of a DWARF 5 sequence,
 * and its symbol-table answer where no line table has the address.
 * Answers are cached per DSO in an open hash by address.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "util/symbol/srcline.h"
#include "util/symbol/symbol.h"

struct sl_load {
	u64 off, filesz, vaddr;
};

/* A sequence of a unit's line table: [lo, hi) */
struct sl_seq {
	u64 lo, hi;
	Dwarf_Off cu;
};

struct sl_ent {
	u64 addr;
	char *line;			/* dso__srcline's answer, or NULL */
	char *file;			/* dso__srcfile's answer, or NULL */
	char **frames;			/* srcline__frame()'s answers */
	int nr_frames;			/* -1: not looked up yet */
	struct sl_ent *next;
};

#define A2L_NO_FILE UINT32_MAX

/* A function symbol as addr2line's ELF fallback weighs it */
struct a2l_sym {
	u64 value, size;
	u32 shndx, order;
	u32 file;			/* its STT_FILE name in the table's names, or A2L_NO_FILE */
};

struct a2l_sec {
	u64 addr, size;
	u32 idx;
};

/* addr2line's view of a DSO's symbol table, for addresses DWARF misses */
struct a2l_symtab {
	struct a2l_sym *syms;		/* by section, value, size (larger first), order */
	size_t nr_syms;
	struct a2l_sec *secs;		/* the SHF_ALLOC sections, in header order */
	size_t nr_secs;
	char *names;			/* the STT_FILE names, back to back */
};

struct srcline_dso {
	int fd;
	Dwarf *dw;
	struct sl_load *loads;
	int nr_loads;
	struct sl_ent **tab;
	size_t nr, size;
	struct a2l_symtab *a2l;		/* loaded on first use */
	bool a2l_tried;
	struct sl_seq *seqs;		/* every unit's line sequences, by address */
	size_t nr_seqs;
	bool seqs_tried;
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

/* The index of row @l in @lines (@n when it is not there). */
static size_t row_index(Dwarf_Lines *lines, size_t n, Dwarf_Line *l)
{
	Dwarf_Addr a, x;
	size_t lo = 0, hi = n;

	if (dwarf_lineaddr(l, &a))
		return n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &x) || x < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++) {
		Dwarf_Line *r = dwarf_onesrcline(lines, lo);

		if (r == l)
			return lo;
		if (dwarf_lineaddr(r, &x) || x != a)
			break;
	}
	return n;
}

/*
 * perf 6.1 takes source lines from binutils' addr2line, and binutils 2.40
 * (Debian 12's) starts each sequence of a DWARF 5 line table with file
 * entry 0, not entry 1 as the standard says: rows before the sequence's
 * first DW_LNS_set_file name the CU's primary file.  Entry 1 is usually
 * that file again, but not when the sequence starts in a function the
 * primary file #includes (glibc's dl-cacheinfo.h, strcspn.c...).  So: for
 * a row of file 1 in such a CU, look back through its sequence (from
 * @start on, or the start of the unit's range holding @va) for a row of
 * another file; there is none when the file register was never set.
 */
#define NO_START ((Dwarf_Addr)-1)

static const char *addr2line_file(Dwarf_Die *cu, Dwarf_Line *l, Dwarf_Addr va, Dwarf_Addr start,
				  const char *f)
{
	Dwarf_Addr base, lo, hi, x;
	Dwarf_Half version;
	Dwarf_Files *files;
	Dwarf_Lines *lines;
	const char *f0;
	size_t idx, nf, n, i;
	ptrdiff_t off = 0;

	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) || version < 5 ||
	    dwarf_line_file(l, &files, &idx) || idx != 1 ||
	    dwarf_getsrcfiles(cu, &files, &nf) || nf < 2 ||
	    !(f0 = dwarf_filesrc(files, 0, NULL, NULL)) || !strcmp(f0, f) ||
	    dwarf_getsrclines(cu, &lines, &n))
		return f;
	i = row_index(lines, n, l);
	if (i == n)
		return f;
	while (start == NO_START && (off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0)
		if (va >= lo && va < hi)
			start = lo;
	if (start == NO_START)
		start = 0;
	while (i-- > 0) {
		Dwarf_Line *r = dwarf_onesrcline(lines, i);
		bool end = false;

		if (dwarf_lineendsequence(r, &end) || end || dwarf_lineaddr(r, &x) || x < start)
			break;
		if (dwarf_line_file(r, &files, &idx) || idx != 1)
			return f;
	}
	return f0;
}

static int seq_cmp(const void *a, const void *b)
{
	const struct sl_seq *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's line sequences, from the rows libdw sorts by address */
static void read_seqs(struct srcline_dso *s)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	while (!dwarf_nextcu(s->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Lines *lines;
		Dwarf_Die cu;
		size_t n;
		bool open = false;
		u64 lo = 0, last_end = 0;

		if (dwarf_offdie(s->dw, off + hsize, &cu) && !dwarf_getsrclines(&cu, &lines, &n)) {
			for (size_t i = 0; i < n; i++) {
				Dwarf_Line *r = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				bool end;

				if (dwarf_lineaddr(r, &a) || dwarf_lineendsequence(r, &end))
					continue;
				if (!end) {
					/*
					 * libdw sorts a row at a sequence's end
					 * address after its end: not a new start
					 */
					if (!open && (a != last_end || !i)) {
						lo = a;
						open = true;
					}
					continue;
				}
				last_end = a;
				if (!open || a <= lo)
					continue;
				open = false;
				if (s->nr_seqs == cap) {
					struct sl_seq *v = realloc(s->seqs, (cap ? cap * 2 : 64) *
								   sizeof(*v));

					if (!v)
						return;
					s->seqs = v;
					cap = cap ? cap * 2 : 64;
				}
				s->seqs[s->nr_seqs++] = (struct sl_seq){ lo, a, off + hsize };
			}
		}
		off = next;
	}
	qsort(s->seqs, s->nr_seqs, sizeof(*s->seqs), seq_cmp);
}

/*
 * The unit whose range holds @va; of several (a function whose copies the
 * link merged keeps each unit's range), the first in .debug_info, which
 * addr2line reads first -- libdw's dwarf_addrdie() may give another.
 */
static bool first_unit(Dwarf *dw, Dwarf_Addr va, Dwarf_Die *cu)
{
	Dwarf_Aranges *ar;
	Dwarf_Addr st, at;
	Dwarf_Word len;
	Dwarf_Off off, best = (Dwarf_Off)-1;
	size_t n, lo = 0, hi;

	if (dwarf_getaranges(dw, &ar, &n) || !n)
		return dwarf_addrdie(dw, va, cu) != NULL;
	hi = n;
	while (lo < hi) {	/* past the last range starting at or below va */
		size_t mid = lo + (hi - lo) / 2;

		if (!dwarf_getarangeinfo(dwarf_onearange(ar, mid), &st, NULL, NULL) && st <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || dwarf_getarangeinfo(dwarf_onearange(ar, lo - 1), &st, NULL, NULL))
		return dwarf_addrdie(dw, va, cu) != NULL;
	for (size_t i = lo; i-- > 0;) {
		if (dwarf_getarangeinfo(dwarf_onearange(ar, i), &at, &len, &off) || at != st)
			break;
		if (va - at < len && off < best)
			best = off;
	}
	if (best == (Dwarf_Off)-1)
		return dwarf_addrdie(dw, va, cu) != NULL;
	return dwarf_offdie(dw, best, cu) != NULL;
}

/*
 * The unit whose line table covers @va, and where that part of it starts:
 * the unit's address range (NO_START: the range of @va, looked up when
 * needed), else (addr2line takes a unit's sequences for its range too) the
 * sequence, found in an index built on first need.
 */
static bool unit_of(struct srcline_dso *s, Dwarf_Addr va, Dwarf_Die *cu, Dwarf_Addr *start)
{
	size_t l = 0, h;

	if (first_unit(s->dw, va, cu)) {
		*start = NO_START;
		return true;
	}
	if (!s->seqs_tried) {
		s->seqs_tried = true;
		read_seqs(s);
	}
	h = s->nr_seqs;
	while (l < h) {		/* past the last sequence starting at or below va */
		size_t mid = l + (h - l) / 2;

		if (s->seqs[mid].lo <= va)
			l = mid + 1;
		else
			h = mid;
	}
	if (!l || va >= s->seqs[l - 1].hi || !dwarf_offdie(s->dw, s->seqs[l - 1].cu, cu))
		return false;
	*start = s->seqs[l - 1].lo;
	return true;
}

/* The file and line of @addr; with @cup, the unit they come from too. */
static int lookup_unit(struct srcline_dso *s, u64 addr, const char **file, unsigned int *line,
		       bool full, Dwarf_Die *cup)
{
	Dwarf_Addr va = sl_vaddr(s, addr), start;
	Dwarf_Die unit, *cu = cup ? cup : &unit;
	Dwarf_Line *l;
	const char *f;
	int ln = 0;

	if (!s->dw || !unit_of(s, va, cu, &start))
		return -ENOENT;
	l = dwarf_getsrc_die(cu, va);
	f = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!f || dwarf_lineno(l, &ln))
		return -ENOENT;
	f = addr2line_file(cu, l, va, start, f);
	*file = full ? f : base_name(f);
	*line = ln;
	return 0;
}

static int lookup(struct srcline_dso *s, u64 addr, const char **file, unsigned int *line,
		  bool full)
{
	return lookup_unit(s, addr, file, line, full, NULL);
}

/*
 * Where DWARF has no line for an address, binutils' addr2line (perf 6.1's
 * source of lines) falls back on the symbol table: the function symbol
 * closest below the address in its section (of equal starts, the largest,
 * then the first), and the source file named by the STT_FILE symbol before
 * it -- for a global symbol only while no STT_FILE has followed another
 * symbol yet.  It answers "file.c:?" ("??:?" without a file), and "??:0",
 * which perf takes for no answer, without a symbol.  The symbols are those
 * of the first file perf finds a .symtab in (the DSO, else its debug file),
 * else the DSO's .dynsym.
 */
enum { A2L_NOTHING, A2L_SYMBOL, A2L_FILE_AFTER_SYMBOL };

static int a2l_sym_cmp(const void *a, const void *b)
{
	const struct a2l_sym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether bfd takes symbol @sym for a function (its maybe_function_sym) */
static bool a2l_function_sym(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_COMMON ||
	    type == STT_TLS || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	/* annobin's markers: hidden local untyped symbols of no size */
	return !(sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
		 type == STT_NOTYPE && GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN);
}

static void a2l_symtab_free(struct a2l_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->secs);
	free(t->names);
	free(t);
}

/* The sections and function symbols of @elf's table of type @type. */
static struct a2l_symtab *a2l_symtab_read(Elf *elf, Elf64_Word type)
{
	struct a2l_symtab *t = calloc(1, sizeof(*t));
	Elf_Scn *scn = NULL, *symscn = NULL;
	size_t nsec, names_len = 0, file_off = 0, nsyms;
	int state = A2L_NOTHING;
	bool have_file = false;
	GElf_Shdr sh, symsh = { 0 };
	Elf_Data *data;

	if (!t || elf_getshdrnum(elf, &nsec))
		goto fail;
	t->secs = calloc(nsec ? nsec : 1, sizeof(*t->secs));
	if (!t->secs)
		goto fail;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_flags & SHF_ALLOC)
			t->secs[t->nr_secs++] = (struct a2l_sec){ sh.sh_addr, sh.sh_size,
								  elf_ndxscn(scn) };
		if (sh.sh_type == type && !symscn) {
			symscn = scn;
			symsh = sh;
		}
	}
	if (!symscn || !symsh.sh_entsize || !(data = elf_getdata(symscn, NULL)))
		goto fail;
	nsyms = symsh.sh_size / symsh.sh_entsize;
	t->syms = calloc(nsyms ? nsyms : 1, sizeof(*t->syms));
	if (!t->syms)
		goto fail;
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			size_t len;
			char *n;

			name = elf_strptr(elf, symsh.sh_link, sym.st_name);
			if (!name)
				name = "";
			len = strlen(name) + 1;
			n = realloc(t->names, names_len + len);
			if (!n)
				goto fail;
			t->names = n;
			memcpy(n + names_len, name, len);
			file_off = names_len;
			names_len += len;
			have_file = true;
			if (state == A2L_SYMBOL)
				state = A2L_FILE_AFTER_SYMBOL;
			continue;
		}
		if (a2l_function_sym(&sym)) {
			struct a2l_sym *a = &t->syms[t->nr_syms++];
			bool credit = have_file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
						    state != A2L_FILE_AFTER_SYMBOL);

			a->value = sym.st_value;
			a->size = sym.st_size ? sym.st_size : 1;
			a->shndx = sym.st_shndx;
			a->order = i;
			a->file = credit ? file_off : A2L_NO_FILE;
		}
		if (state == A2L_NOTHING)
			state = A2L_SYMBOL;
	}
	qsort(t->syms, t->nr_syms, sizeof(*t->syms), a2l_sym_cmp);
	return t;
fail:
	a2l_symtab_free(t);
	return NULL;
}

static struct a2l_symtab *a2l_symtab_of(struct srcline_dso *s, struct dso *dso)
{
	Elf64_Word type = SHT_SYMTAB;
	const char *path;
	Elf *elf;
	int fd;

	if (s->a2l_tried)
		return s->a2l;
	s->a2l_tried = true;
	if (dso->kind != DSO_USER || !dso->bin_path)
		return NULL;
	if (elf__has_symtab(dso->bin_path)) {
		path = dso->bin_path;
	} else if (elf__has_symtab(dso->debug_path)) {
		path = dso->debug_path;
	} else {	/* perf names the DSO itself, unless it is "[vdso]" or a JIT map */
		if (dso->long_name[0] == '[' || !strncmp(dso->long_name, "/tmp/perf-", 10))
			return NULL;
		path = dso->bin_path;
		type = SHT_DYNSYM;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		s->a2l = a2l_symtab_read(elf, type);
	elf_end(elf);
	close(fd);
	return s->a2l;
}

/* The STT_FILE name addr2line gives virtual address @va (NULL: none): 0, or -ENOENT */
static int a2l_symtab_find(const struct a2l_symtab *t, u64 va, const char **file)
{
	const struct a2l_sec *sec = NULL;
	size_t lo = 0, hi = t->nr_syms, i;

	for (size_t k = 0; k < t->nr_secs && !sec; k++)
		if (va >= t->secs[k].addr && va - t->secs[k].addr < t->secs[k].size)
			sec = &t->secs[k];
	if (!sec)
		return -ENOENT;
	while (lo < hi) {	/* past the last symbol of the section at or below va */
		size_t mid = lo + (hi - lo) / 2;
		const struct a2l_sym *m = &t->syms[mid];

		if (m->shndx < sec->idx || (m->shndx == sec->idx && m->value <= va))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t->syms[lo - 1].shndx != sec->idx)
		return -ENOENT;
	for (i = lo - 1; i && t->syms[i - 1].shndx == sec->idx &&
			 t->syms[i - 1].value == t->syms[lo - 1].value; i--)
		;
	*file = t->syms[i].file == A2L_NO_FILE ? NULL : t->names + t->syms[i].file;
	return 0;
}

/*
 * addr2line's first answer for @addr as perf reads it: 0 with the file
 * (base name; NULL for its "??") and the line (0 for its "?"), or -ENOENT
 * where it answers "??:0".
 */
static int a2l_lookup(struct srcline_dso *s, struct dso *dso, u64 addr, const char **file,
		      unsigned int *line)
{
	struct a2l_symtab *t;

	if (!lookup(s, addr, file, line, false))
		return 0;
	*line = 0;
	t = a2l_symtab_of(s, dso);
	if (!t || a2l_symtab_find(t, sl_vaddr(s, addr), file))
		return -ENOENT;
	if (*file)
		*file = base_name(*file);
	return 0;
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
	if (!a2l_lookup(s, dso, addr, &file, &line))
		n = asprintf(&e->line, "%s:%u", file ? file : "??", line);
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
	/* perf cuts the file off the srcline, and has none for "??:0" */
	if (!e->file && !a2l_lookup(s, dso, addr, &file, &line))
		e->file = strdup(file ? file : "");
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
static int srcline__for_each_inline(struct dso *dso, u64 addr, srcline_inline_fn fn, void *arg)
{
	struct srcline_dso *s = sl_of(dso);
	Dwarf_Die cu, *scopes = NULL, *chain = NULL;
	const char *file;
	unsigned int line;
	int n, found = -1, err = 0;

	/* the unit the line came from, as addr2line -i takes the frames from it */
	if (!s || lookup_unit(s, addr, &file, &line, false, &cu))
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

	if (!e)
		return NULL;
	if (e->nr_frames < 0) {
		e->nr_frames = 0;
		srcline__for_each_inline(dso, addr, add_frame, e);
		if (!e->nr_frames && !a2l_lookup(s, dso, addr, &file, &line))
			add_frame(NULL, file ? file : "??", line, e);
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
	free(s->seqs);
	a2l_symtab_free(s->a2l);
	if (s->dw)
		dwarf_end(s->dw);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	dso->srcline = NULL;
}
