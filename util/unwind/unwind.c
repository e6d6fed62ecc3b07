// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The common part of DWARF unwinding: per-process backend state cached by
 * pid (rebuilt when the process' maps are replaced, e.g. by exec), the
 * sample's registers and stack copy, memory reads, the mapped files (one
 * mmap per DSO), symbol resolution of the frames and their expansion into
 * inline frames (libdw scopes, cached per DSO and address).
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/lib/debug.h"
#include "util/symbol/dwarf-preload.h"
#include "util/symbol/probe-elf.h"
#include "util/symbol/symbol.h"
#include "util/unwind/unwind-internal.h"

struct proc_slot {
	int pid;
	struct maps *maps;
	void *priv;
};

struct file_slot {
	struct dso *dso;
	struct unwind_file *f;
	Dwfl *dwfl;			/* offline, for CFI */
	Dwfl_Module *mod;
	bool dw_tried;
	struct probe_elf *pe;		/* the file and its debug file */
	Dwarf *dw;			/* for inline scopes: inflated */
	bool elf_tried, scopes_tried;
	bool frame_tried, debug_frame;	/* either file has .debug_frame */
	struct die_seen *seen;		/* addr2line's state per function DIE */
	size_t nr_seen, alloc_seen;
	struct cu_range *cus;		/* every unit's address ranges, by start */
	size_t nr_cus;
	bool cus_built;
};

/* An address range of a compilation unit. */
struct cu_range {
	u64 lo, hi;
	Dwarf_Off off;			/* the unit's DIE */
};

/* A function DIE addr2line has named as the innermost one of an address. */
struct die_seen {
	Dwarf_Off off;			/* 0: free slot */
	const char *rename;		/* the ELF symbol's name it took for good */
};

/* The inline expansion of one address of a DSO. */
struct inl_slot {
	struct dso *dso;
	u64 off;
	struct symbol *base;
	struct symbol **syms;		/* innermost first; NULL: no expansion */
	u32 nr;
	bool used;
};

/* unwind_pc slots: a power of two */

struct unwinder {
	struct machine *m;
	const struct unwind_backend *b;
	bool inline_frames;
	struct proc_slot *procs;
	size_t nr_procs, alloc_procs, last;
	struct file_slot *files;
	size_t nr_files, alloc_files;
	struct inl_slot *inl;
	size_t nr_inl, alloc_inl;	/* open hash, power of two */
	struct symbol **isyms;		/* the inline symbols made, to free */
	size_t nr_isyms, alloc_isyms;
	struct unwind_entry *entries;	/* resolve()'s, out_alloc of them */
	size_t alloc_entries, out_alloc;	/* alloc_entries: of pcs, act, slots */
	u64 *pcs;
	bool *act;
	struct unwind_pc **slots;
	size_t alloc_pcs;
	struct unwind_stats stats;
	void *shared;			/* the backend's, for all processes */
	u64 max_stack_size;		/* the largest copy asked for (the attr's size) */
	struct unwind_pc *pcs_cache;	/* NR_PC_SLOTS of them */
};

/** unwinder__parse - "libdw" or "libunwind" to @kind.  Return: 0 or -EINVAL */
static int unwinder__parse(const char *name, enum unwinder_kind *kind)
{
	if (!strcmp(name, "libdw"))
		*kind = UNWINDER_LIBDW;
	else if (!strcmp(name, "libunwind"))
		*kind = UNWINDER_LIBUNWIND;
	else
		return -EINVAL;
	return 0;
}

int unwinder__option(const char *name, int *kind, char *msg, size_t size)
{
	enum unwinder_kind k = UNWINDER_LIBDW;

	if (name && unwinder__parse(name, &k)) {
		snprintf(msg, size, "unknown unwinder '%s': use libdw or libunwind", name);
		return -EINVAL;
	}
	if (!unwinder__available(k)) {
		snprintf(msg, size, "tperf was built without the '%s' unwinder: use --unwinder=libdw",
			 name);
		return -EINVAL;
	}
	*kind = k;
	return 0;
}

bool unwinder__available(enum unwinder_kind kind)
{
#ifdef HAVE_LIBUNWIND
	return kind == UNWINDER_LIBDW || kind == UNWINDER_LIBUNWIND;
#else
	return kind == UNWINDER_LIBDW;
#endif
}

struct unwinder *unwinder__new(struct machine *m, enum unwinder_kind kind, bool inline_frames)
{
	struct unwinder *u;

	if (!unwinder__available(kind))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->pcs_cache = calloc(NR_PC_SLOTS, sizeof(*u->pcs_cache));
	if (!u->pcs_cache) {
		free(u);
		return NULL;
	}
	u->m = m;
	u->inline_frames = inline_frames;
	u->b = &unwind_libdw_backend;
#ifdef HAVE_LIBUNWIND
	if (kind == UNWINDER_LIBUNWIND)
		u->b = &unwind_libunwind_backend;
#endif
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].priv)
			u->b->proc_delete(u->procs[i].priv);
	free(u->procs);
	if (u->shared && u->b->shared_delete)
		u->b->shared_delete(u->shared);
	for (size_t i = 0; i < u->nr_files; i++) {
		struct unwind_file *f = u->files[i].f;

		if (u->files[i].dwfl)
			dwfl_end(u->files[i].dwfl);
		dwarf_end(u->files[i].dw);
		free(u->files[i].seen);
		free(u->files[i].cus);
		if (u->files[i].pe)
			probe_elf__close(u->files[i].pe);
		if (f && f->data)
			munmap((void *)f->data, f->size);
		if (f)
			free((char *)f->path);
		free(f);
	}
	free(u->files);
	for (size_t i = 0; i < u->alloc_inl; i++)
		free(u->inl[i].syms);
	free(u->inl);
	for (size_t i = 0; i < u->nr_isyms; i++)
		free(u->isyms[i]);
	free(u->isyms);
	free(u->entries);
	free(u->pcs);
	free(u->act);
	free(u->slots);
	free(u->pcs_cache);
	free(u);
}

void **unwind__shared(struct unwinder *u)
{
	return &u->shared;
}

const struct unwind_stats *unwinder__stats(const struct unwinder *u)
{
	return &u->stats;
}

bool unwinder__hint(const struct unwinder *u, char *buf, size_t size)
{
	const struct unwind_stats *st = &u->stats;

	if (!st->unwound || st->truncated * 20 <= st->unwound)
		return false;
	snprintf(buf, size, "%llu of %llu DWARF callchains (%.1f%%) were cut short at the end of "
		 "the stack copy: record with a larger size, e.g. --call-graph dwarf,%u",
		 (unsigned long long)st->truncated, (unsigned long long)st->unwound,
		 100.0 * st->truncated / st->unwound, u->max_stack_size >= 32768 ? 65528 :
		 (unsigned)(u->max_stack_size ? u->max_stack_size * 2 : 16384));
	return true;
}

bool unwinder__has_stack(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	       (attr->sample_type & PERF_SAMPLE_STACK_USER);
}

/* Registers, stack, frames */

struct map *unwind__find_map(struct unwind_ctx *c, u64 addr)
{
	return c->thread->maps ? maps__find(c->thread->maps, addr) : NULL;
}

struct unwind_pc *unwind__pc_fill(struct unwind_ctx *c, struct unwind_pc *pc, u64 addr)
{
	struct maps *maps = c->thread->maps;

	*pc = (struct unwind_pc){ .gen = maps->gen, .addr = addr, .map = maps__find(maps, addr) };
	return pc;
}

int unwind_ctx__read_file(struct unwind_ctx *c, u64 addr, u64 *val)
{
	struct unwind_file *f;
	struct map *map;
	u64 off = addr - c->sp;

	if (c->stack_size >= 8 && off == c->stack_size - 8) {
		memcpy(val, c->stack + off, 8);
		c->last_word = true;
		return 0;
	}
	map = unwind__find_map(c, addr);
	if (map && !map->identity && (f = unwind__file(c->u, map->dso)) && f->data) {
		off = addr - map->start + map->pgoff;
		if (off < f->size && f->size - off >= 8) {
			memcpy(val, f->data + off, 8);
			return 0;
		}
	}
	c->truncated = true;
	return -EFAULT;
}

/* Files */

static int load_phdrs(struct unwind_file *f)
{
	Elf *elf = elf_memory((char *)f->data, f->size);
	GElf_Ehdr eh;
	size_t n;
	int err = -EINVAL;

	if (!elf)
		return -EINVAL;
	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		goto out;
	f->is_exec = eh.e_type == ET_EXEC;
	for (size_t i = 0; i < n && f->nr_seg < 16; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->seg[f->nr_seg].off = ph.p_offset;
		f->seg[f->nr_seg].vaddr = ph.p_vaddr;
		f->seg[f->nr_seg].filesz = ph.p_filesz;
		f->nr_seg++;
	}
	err = f->nr_seg ? 0 : -EINVAL;
out:
	elf_end(elf);
	return err;
}

bool unwind_file__vaddr(const struct unwind_file *f, u64 off, u64 *vaddr)
{
	for (int i = 0; i < f->nr_seg; i++)
		if (off >= f->seg[i].off && off - f->seg[i].off < f->seg[i].filesz) {
			*vaddr = f->seg[i].vaddr + (off - f->seg[i].off);
			return true;
		}
	return false;
}

int unwind__room(void *arr, size_t *alloc, size_t nr, size_t size, size_t first)
{
	void **p = arr;
	size_t n = *alloc ? 2 * *alloc : first;
	void *a;

	if (nr < *alloc)
		return 0;
	a = realloc(*p, n * size);
	if (!a)
		return -ENOMEM;
	*p = a;
	*alloc = n;
	return 0;
}

static struct file_slot *file_slot(struct unwinder *u, struct dso *dso)
{
	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i].dso == dso)
			return &u->files[i];
	if (unwind__room(&u->files, &u->alloc_files, u->nr_files, sizeof(*u->files), 16))
		return NULL;
	memset(&u->files[u->nr_files], 0, sizeof(u->files[0]));
	u->files[u->nr_files].dso = dso;
	return &u->files[u->nr_files++];
}

static struct unwind_file *file_open(struct unwinder *u, struct dso *dso)
{
	struct unwind_file *f = calloc(1, sizeof(*f));
	char path[4096];
	struct stat st;
	void *p;
	int fd;

	if (!f)
		return NULL;
	f->failed = true;
	if (machine__dso_path(u->m, dso, path, sizeof(path)))
		return f;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return f;
	if (fstat(fd, &st) || st.st_size < 64) {
		close(fd);
		return f;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return f;
	f->data = p;
	f->size = st.st_size;
	f->path = strdup(path);
	if (!f->path || load_phdrs(f)) {
		munmap(p, f->size);
		f->data = NULL;
		return f;
	}
	f->failed = false;
	return f;
}

struct unwind_file *unwind__file(struct unwinder *u, struct dso *dso)
{
	struct file_slot *s = file_slot(u, dso);

	if (!s)
		return NULL;
	if (!s->f)
		s->f = file_open(u, dso);
	return s->f && !s->f->failed ? s->f : NULL;
}

bool unwind__map_bias(struct unwinder *u, struct map *map, u64 *bias)
{
	struct unwind_file *f = unwind__file(u, map->dso);
	u64 vaddr;

	if (!f)
		return false;
	if (f->is_exec) {
		*bias = 0;
		return true;
	}
	if (!unwind_file__vaddr(f, map->pgoff, &vaddr)) {
		/* a map starting in a segment's page-aligned head */
		for (int i = 0; i < f->nr_seg; i++)
			if (map->pgoff <= f->seg[i].off && f->seg[i].off - map->pgoff < 4096) {
				*bias = map->start + (f->seg[i].off - map->pgoff) - f->seg[i].vaddr;
				return true;
			}
		return false;
	}
	*bias = map->start - vaddr;
	return true;
}

/*
 * perf 6.1 (unwind-libunwind-local.c) bases a file's .eh_frame_hdr on the
 * lowest map of its DSO in the thread.  A fork copies the parent's maps and
 * an exec drops none (perf's and tperf's model alike), so a child that maps
 * the parent's libc or ld.so again, above where the parent had it, gets
 * the parent's address: its table is then searched at the wrong place.
 */
bool unwind__perf_bias(struct unwind_ctx *c, struct map *map, u64 *bias)
{
	struct unwind_file *f = unwind__file(c->u, map->dso);
	const struct maps *ms = c->thread->maps;
	u64 lo = map->start;

	if (!f || !f->nr_seg || !ms)
		return false;
	for (size_t i = 0; i < ms->nr && ms->m[i]->start < lo; i++)	/* by start */
		if (ms->m[i]->dso == map->dso)
			lo = ms->m[i]->start;
	*bias = lo - (f->seg[0].vaddr & ~4095ULL);
	return true;
}

bool unwind__perf_misbased(struct unwind_ctx *c, struct unwind_pc *pc)
{
	u64 own, perf;

	if (!pc->perf_base) {
		pc->perf_base = 1;
		if (pc->map && !pc->map->identity && unwind__map_bias(c->u, pc->map, &own) &&
		    unwind__perf_bias(c, pc->map, &perf) && own != perf)
			pc->perf_base = 2;
	}
	return pc->perf_base == 2;
}

/* Inline frames */

static const Dwfl_Callbacks offline_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

Dwfl_Module *unwind__dso_module(struct unwinder *u, struct dso *dso)
{
	struct file_slot *s = file_slot(u, dso);

	if (!s)
		return NULL;
	if (!s->dw_tried) {
		s->dw_tried = true;
		if (!unwind__file(u, dso))
			return NULL;
		s = file_slot(u, dso);
		s->dwfl = dwfl_begin(&offline_cb);
		if (!s->dwfl)
			return NULL;
		dwfl_report_begin(s->dwfl);
		s->mod = dwfl_report_elf(s->dwfl, dso->short_name, s->f->path, -1, 0, false);
		dwfl_report_end(s->dwfl, NULL, NULL);
	}
	return s->mod;
}

/* A function's name as addr2line gives it: the linkage name first (glibc's
 * __GI_* redirections), else DW_AT_name, through abstract origins. */
static const char *die_func_name(Dwarf_Die *die)
{
	static const int attrs[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute a;
	const char *n;

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (dwarf_attr_integrate(die, attrs[i], &a) && (n = dwarf_formstring(&a)))
			return n;
	return NULL;
}

static struct symbol *inline_sym(struct unwinder *u, struct symbol *base, const char *name)
{
	struct symbol *s;

	if (!strcmp(base->name, name))
		return base;
	for (size_t i = u->nr_isyms; i-- > 0;)
		if (u->isyms[i]->start == base->start && u->isyms[i]->end == base->end &&
		    !strcmp(u->isyms[i]->name, name))
			return u->isyms[i];
	if (unwind__room(&u->isyms, &u->alloc_isyms, u->nr_isyms, sizeof(*u->isyms), 64))
		return NULL;
	s = symbol__new(base->start, base->end - base->start, base->binding, base->type, name);
	if (!s)
		return NULL;
	s->inlined = 1;
	u->isyms[u->nr_isyms++] = s;
	return s;
}

/*
 * The function names at @vaddr, innermost first (addr2line -i): from the
 * innermost function scope, its physical nesting (dwarf_getscopes_die),
 * not the scopes of its abstract definition.
 */
/*
 * The assembler (GNU as 2.40) gives each alias of a function its own
 * DW_TAG_subprogram over the same range (__clone3, __GI___clone3, clone3);
 * addr2line names the last one of the smallest range, and so does this:
 * @die moves to the last of the subprograms right after it that cover
 * @pc with no larger range.
 */
static void last_alias(Dwarf_Die *die, u64 pc)
{
	Dwarf_Addr lo, hi, l2, h2;
	Dwarf_Die sib = *die;

	if (dwarf_lowpc(die, &lo) || dwarf_highpc(die, &hi))
		return;
	while (!dwarf_siblingof(&sib, &sib) && dwarf_tag(&sib) == DW_TAG_subprogram &&
	       !dwarf_lowpc(&sib, &l2) && !dwarf_highpc(&sib, &h2) && l2 <= pc && pc < h2 &&
	       h2 - l2 <= hi - lo) {
		*die = sib;
		lo = l2;
		hi = h2;
	}
}

/*
 * The innermost function (subprogram or inlined call) at @pc under @die,
 * through the scopes that contain it and the namespaces and types that may
 * hold functions: libdw's dwarf_getscopes() finds nothing in some units
 * (rustc's) that addr2line walks.  *@out is set when found.
 */
static bool innermost_function(Dwarf_Die *die, u64 pc, Dwarf_Die *out)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c))
		return false;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			if (dwarf_haspc(&c, pc) <= 0)
				break;
			*out = c;
			innermost_function(&c, pc, out);
			return true;
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haspc(&c, pc) > 0)
				return innermost_function(&c, pc, out);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (innermost_function(&c, pc, out))
				return true;
			break;
		default:
			break;
		}
	} while (!dwarf_siblingof(&c, &c));
	return false;
}

/*
 * A subprogram anywhere under @die whose range has @pc, depth first: GCC's
 * nested functions lie outside their parent's range, where the scope walk
 * does not look; addr2line lists every function of the unit.
 */
static bool find_subprogram(Dwarf_Die *die, u64 pc, Dwarf_Die *out)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c))
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_haspc(&c, pc) > 0) {
			*out = c;
			return true;
		}
		if (dwarf_haschildren(&c) && find_subprogram(&c, pc, out))
			return true;
	} while (!dwarf_siblingof(&c, &c));
	return false;
}

/* The slot of @off in @fs's table (found or free); NULL without memory. */
static struct die_seen *die_seen(struct file_slot *fs, Dwarf_Off off)
{
	size_t k;

	if ((fs->nr_seen + 1) * 2 > fs->alloc_seen) {
		size_t n = fs->alloc_seen ? 2 * fs->alloc_seen : 64;
		struct die_seen *a = calloc(n, sizeof(*a));

		if (!a)
			return NULL;
		for (size_t i = 0; i < fs->alloc_seen; i++) {
			if (!fs->seen[i].off)
				continue;
			for (k = fs->seen[i].off * 0x9e3779b97f4a7c15ULL >> 20 & (n - 1); a[k].off;
			     k = (k + 1) & (n - 1))
				;
			a[k] = fs->seen[i];
		}
		free(fs->seen);
		fs->seen = a;
		fs->alloc_seen = n;
	}
	for (k = off * 0x9e3779b97f4a7c15ULL >> 20 & (fs->alloc_seen - 1); fs->seen[k].off;
	     k = (k + 1) & (fs->alloc_seen - 1))
		if (fs->seen[k].off == off)
			return &fs->seen[k];
	return &fs->seen[k];
}

/* Languages whose DW_AT_name binutils takes as the linkage name (non_mangled()). */
static bool lang_not_mangled(int lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Ada83: case DW_LANG_Cobol74:
	case DW_LANG_Cobol85: case DW_LANG_Fortran77: case DW_LANG_Pascal83:
	case DW_LANG_C99: case DW_LANG_Ada95: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_C11: case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/*
 * The name binutils' addr2line (which perf runs) gives function @die of
 * @fs's file: its linkage name, else its DW_AT_name; a name taken from the
 * ELF symbol table once is kept.
 */
static const char *a2l_name(struct file_slot *fs, Dwarf_Die *die)
{
	struct die_seen *ds = fs ? die_seen(fs, dwarf_dieoffset(die)) : NULL;

	if (ds && ds->off && ds->rename)
		return ds->rename;
	return die_func_name(die);
}

/*
 * The innermost function of an address, as addr2line names it: where
 * neither the DIE nor its abstract origin has a linkage name and the unit
 * is in a language with mangled names (C++), addr2line takes the ELF
 * symbol at the address (@base, perf's own) the first time it meets the
 * DIE, and its DW_AT_name after that; the DIE keeps the symbol's name for
 * good when the symbol starts where it does.
 */
static const char *a2l_innermost(struct file_slot *fs, Dwarf_Die *cu, Dwarf_Die *die,
				 const struct symbol *base, u64 base_vaddr)
{
	Dwarf_Attribute a;
	struct die_seen *ds;
	Dwarf_Addr lo;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a) ||
	    lang_not_mangled(dwarf_srclang(cu)) || !base || !fs ||
	    !(ds = die_seen(fs, dwarf_dieoffset(die))))
		return a2l_name(fs, die);
	if (ds->off)
		return ds->rename ? ds->rename : die_func_name(die);
	ds->off = dwarf_dieoffset(die);
	fs->nr_seen++;
	if (!dwarf_lowpc(die, &lo) && lo == base_vaddr)
		ds->rename = base->name;
	return base->name;
}

static int cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges of @fs's DWARF, once (see unit_of()). */
static void build_cu_ranges(struct file_slot *fs, Dwarf *dw)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die die;
	size_t alloc = 0;

	fs->cus_built = true;
	while (!dwarf_get_units(dw, cu, &next, NULL, NULL, &die, NULL)) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		cu = next;
		while ((it = dwarf_ranges(&die, it, &base, &lo, &hi)) > 0) {
			if (unwind__room(&fs->cus, &alloc, fs->nr_cus, sizeof(*fs->cus), 64))
				return;
			fs->cus[fs->nr_cus++] = (struct cu_range){ lo, hi, dwarf_dieoffset(&die) };
		}
	}
	qsort(fs->cus, fs->nr_cus, sizeof(*fs->cus), cu_range_cmp);
}

/*
 * The unit of @pc: by .debug_aranges, else by the units' own ranges, as
 * libdwfl and addr2line find it where .debug_aranges leaves units out
 * (Rust's standard library, clang builds).
 */
static bool unit_of(struct file_slot *fs, Dwarf *dw, u64 pc, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (dwarf_addrdie(dw, pc, cu))
		return true;
	if (!fs)
		return false;
	if (!fs->cus_built)
		build_cu_ranges(fs, dw);
	hi = fs->nr_cus;
	while (lo < hi) {		/* the first range starting after pc */
		size_t mid = (lo + hi) / 2;

		if (fs->cus[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= 64;)	/* ranges may nest: look back a little */
		if (pc < fs->cus[i].hi)
			return dwarf_offdie(dw, fs->cus[i].off, cu) != NULL;
	return false;
}

static int scope_names(Dwarf *dw, u64 vaddr, const char **names, int max,
		       struct file_slot *fs, const struct symbol *base, u64 base_vaddr)
{
	Dwarf_Die cu, fn, *chain = NULL;
	int n, k = 0;

	if (!unit_of(fs, dw, vaddr, &cu))
		return 0;
	/*
	 * The innermost function by a walk of the unit's scopes (libdw's
	 * dwarf_getscopes() finds nothing in rustc's units, and leaks then),
	 * else by libdw's, else any subprogram of the unit with the address.
	 */
	if (!innermost_function(&cu, vaddr, &fn)) {
		Dwarf_Die *scopes = NULL;
		int found = -1;

		n = dwarf_getscopes(&cu, vaddr, &scopes);
		for (int i = 0; i < n && found < 0; i++)
			if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine ||
			    dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
				found = i;
		if (found >= 0)
			fn = scopes[found];
		free(scopes);
		if (found < 0 && !find_subprogram(&cu, vaddr, &fn))
			return 0;
	}
	if (dwarf_tag(&fn) == DW_TAG_subprogram)
		last_alias(&fn, vaddr);
	n = dwarf_getscopes_die(&fn, &chain);
	for (int i = 0; i < n && k < max; i++) {
		int tag = dwarf_tag(&chain[i]);
		const char *name;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = k ? a2l_name(fs, &chain[i]) : a2l_innermost(fs, &cu, &chain[i], base, base_vaddr);
		if (!name)
			break;
		names[k++] = name;
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(chain);
	return k;
}

static size_t inl_hash(const struct dso *dso, u64 off)
{
	u64 h = (u64)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL ^ off * 0xff51afd7ed558ccdULL;

	return (size_t)(h ^ (h >> 29));
}

static int inl_grow(struct unwinder *u)
{
	size_t n = u->alloc_inl ? 2 * u->alloc_inl : 1024;
	struct inl_slot *a = calloc(n, sizeof(*a));

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < u->alloc_inl; i++) {
		struct inl_slot *s = &u->inl[i];
		size_t k;

		if (!s->used)
			continue;
		for (k = inl_hash(s->dso, s->off) & (n - 1); a[k].used; k = (k + 1) & (n - 1))
			;
		a[k] = *s;
	}
	free(u->inl);
	u->inl = a;
	u->alloc_inl = n;
	return 0;
}

/*
 * @dso's DWARF for inline scopes, opened once: the file's own or its debug
 * file's (by build-id or debuglink), with compressed sections inflated
 * ahead of libdw (util/symbol/elf-inflate.c: libdeflate, two threads), which
 * would otherwise inflate them with zlib, the larger part of reading a
 * distribution library's debug file.  Its addresses are the file's.
 */
static struct probe_elf *dso_elf(struct unwinder *u, struct dso *dso)
{
	struct file_slot *s = file_slot(u, dso);
	struct unwind_file *f;
	void *dw;

	if (!s || s->elf_tried)
		return s ? s->pe : NULL;
	s->elf_tried = true;
	f = unwind__file(u, dso);
	s = file_slot(u, dso);
	if (f && s && dwarf_preload__take(u->m->dwarf_preload, f->path, &s->pe, &dw)) {
		s->dw = dw;		/* dso_dwarf()'s, done ahead */
		s->scopes_tried = true;
	} else if (f && s && probe_elf__open(f->path, &s->pe)) {
		s->pe = NULL;
	}
	return s ? s->pe : NULL;
}

static Dwarf *dso_dwarf(struct unwinder *u, struct dso *dso)
{
	struct probe_elf *pe = dso_elf(u, dso);
	struct file_slot *s = file_slot(u, dso);

	if (!s || !pe || s->scopes_tried)
		return s ? s->dw : NULL;
	s->scopes_tried = true;
	s->dw = dwarf_begin_elf(probe_elf__scopes_elf(pe), DWARF_C_READ, NULL);
	return s->dw;
}

bool unwind__dso_has_debug_frame(struct unwinder *u, struct dso *dso)
{
	struct file_slot *s = file_slot(u, dso);
	struct unwind_file *f;
	struct probe_elf *pe;

	if (s && s->frame_tried)
		return s->debug_frame;
	/* the preload's answer: its thread may still be inflating the file */
	f = s && !s->elf_tried ? unwind__file(u, dso) : NULL;
	s = file_slot(u, dso);
	if (f && s && dwarf_preload__debug_frame(u->m->dwarf_preload, f->path, &s->debug_frame)) {
		s->frame_tried = true;
		return s->debug_frame;
	}
	pe = dso_elf(u, dso);
	s = file_slot(u, dso);
	if (!s || !pe)
		return false;
	s->frame_tried = true;
	s->debug_frame = probe_elf__has_debug_frame(pe);
	return s->debug_frame;
}

/* The inline expansion of @off in @map's DSO with symbol @base (cached). */
static struct inl_slot *inlines(struct unwinder *u, struct map *map, struct symbol *base, u64 off)
{
	const char *names[64];
	struct inl_slot *s;
	Dwarf *dw;
	u64 vaddr;
	size_t k;
	int n = 0;

	if ((u->nr_inl + 1) * 2 > u->alloc_inl && inl_grow(u))
		return NULL;
	for (k = inl_hash(map->dso, off) & (u->alloc_inl - 1); u->inl[k].used;
	     k = (k + 1) & (u->alloc_inl - 1))
		if (u->inl[k].dso == map->dso && u->inl[k].off == off && u->inl[k].base == base)
			return &u->inl[k];
	s = &u->inl[k];
	s->used = true;
	s->dso = map->dso;
	s->off = off;
	s->base = base;
	u->nr_inl++;
	dw = dso_dwarf(u, map->dso);
	if (dw && unwind_file__vaddr(unwind__file(u, map->dso), off, &vaddr)) {
		u64 base_vaddr = 0;

		if (!base || !unwind_file__vaddr(unwind__file(u, map->dso), base->start, &base_vaddr))
			base_vaddr = ~0ULL;
		n = scope_names(dw, vaddr, names, 64, file_slot(u, map->dso), base, base_vaddr);
	}
	if (n <= 0 || !(s->syms = calloc(n, sizeof(*s->syms))))
		return s;
	for (int i = 0; i < n; i++) {
		/* demangled as the ELF symbols are (perf: dso__demangle_sym) */
		char *dem = symbol__demangle(names[i]);

		s->syms[i] = inline_sym(u, base, dem ? dem : names[i]);
		free(dem);
		if (!s->syms[i]) {
			free(s->syms);
			s->syms = NULL;
			return s;
		}
	}
	s->nr = n;
	return s;
}

/* Sample */

static int reserve(struct unwinder *u, size_t n)
{
	if (n <= u->alloc_entries)
		return 0;
	free(u->pcs);
	free(u->act);
	free(u->slots);
	u->pcs = malloc(n * sizeof(*u->pcs));
	u->act = malloc(n * sizeof(*u->act));
	u->slots = malloc(n * sizeof(*u->slots));
	if (!u->pcs || !u->act || !u->slots) {
		u->alloc_entries = 0;
		return -ENOMEM;
	}
	u->alloc_entries = n;
	return 0;
}

static void *proc_of(struct unwinder *u, struct thread *t)
{
	struct proc_slot *p = NULL;

	if (u->last < u->nr_procs && u->procs[u->last].pid == t->pid)
		p = &u->procs[u->last];	/* samples come in runs of one process */
	for (size_t i = 0; !p && i < u->nr_procs; i++)
		if (u->procs[i].pid == t->pid) {
			p = &u->procs[i];
			u->last = i;
		}
	if (p && p->maps != t->maps) {	/* exec: a new address space */
		u->b->proc_delete(p->priv);
		p->priv = NULL;
	}
	if (!p) {
		if (unwind__room(&u->procs, &u->alloc_procs, u->nr_procs, sizeof(*u->procs), 16))
			return NULL;
		u->last = u->nr_procs;
		p = &u->procs[u->nr_procs++];
		p->priv = NULL;
		p->pid = t->pid;
	}
	p->maps = t->maps;
	if (!p->priv)
		p->priv = u->b->proc_new(u, t->pid);
	return p->priv;
}

/* The sample's registers into @c: the ones below UREG_NR come first in it. */
static void ctx_regs(struct unwind_ctx *c, const struct perf_event_attr *attr,
		     const struct perf_sample *s)
{
	u64 m = attr->sample_regs_user & ((1ULL << UREG_NR) - 1);
	const u64 *regs = s->user_regs.regs;
	unsigned int k = 0;

	if (s->user_regs.mask == attr->sample_regs_user &&
	    (unsigned int)__builtin_popcountll(m) <= s->user_regs.nr) {
		c->have = (u32)m;
		while (m) {	/* a run of set bits at a time */
			int lo = __builtin_ctzll(m), len = __builtin_ctzll(~(m >> lo));

			memcpy(&c->regs[lo], regs + k, 8 * (size_t)len);
			k += len;
			m &= ~(((1ULL << len) - 1) << lo);
		}
		return;
	}
	for (int bit = 0; bit < 64 && k < s->user_regs.nr; bit++) {
		if (!(attr->sample_regs_user & (1ULL << bit)))
			continue;
		if (bit < UREG_NR) {
			c->regs[bit] = regs[k];
			c->have |= 1U << bit;
		}
		k++;
	}
}

static bool ctx_init(struct unwind_ctx *c, const struct perf_event_attr *attr,
		     const struct perf_sample *s)
{
	/* nothing copied (dyn_size 0: perf's size of the copy): no frame, as perf */
	if (!s->user_regs.abi || !s->user_regs.regs || !s->user_stack.size || !s->user_stack.dyn_size)
		return false;
	ctx_regs(c, attr, s);
	if (!unwind_ctx__reg(c, UREG_SP, &c->sp) || !(c->have & (1U << UREG_IP)))
		return false;
	c->stack = s->user_stack.data;
	c->stack_size = s->user_stack.dyn_size < s->user_stack.size ? s->user_stack.dyn_size
								   : s->user_stack.size;
	/* the last 8 bytes go through unwind_ctx__read_file(), which notes them */
	c->stack_end = c->stack_size >= 8 ? c->stack_size - 8 : 0;
	return true;
}

/* The symbol and inline frames of @pc's address (@c's thread, user mode), once. */
static void pc_resolve(struct unwinder *u, struct unwind_ctx *c, struct unwind_pc *pc)
{
	struct addr_location al;
	struct inl_slot *in = NULL;

	machine__resolve_addr(u->m, c->thread, PERF_RECORD_MISC_USER, pc->addr, &al);
	pc->map = al.map;
	pc->sym = al.sym;
	if (u->inline_frames && al.map && al.sym && !al.map->identity)
		in = inlines(u, al.map, al.sym, al.addr);
	if (in && in->nr) {
		pc->isyms = in->syms;
		pc->nr_isyms = in->nr;
	}
	pc->resolved = true;
}

/* Room for @n entries in u->entries.  Return: 0 or -ENOMEM. */
static int out_reserve(struct unwinder *u, size_t n)
{
	struct unwind_entry *e;
	size_t alloc = u->out_alloc ? u->out_alloc : 128;

	if (n <= u->out_alloc)
		return 0;
	while (alloc < n)
		alloc *= 2;
	e = realloc(u->entries, alloc * sizeof(*e));
	if (!e)
		return -ENOMEM;
	u->entries = e;
	u->out_alloc = alloc;
	return 0;
}

/*
 * Frames to entries: map, symbol, inline expansion.  As perf's glue, a
 * frame whose address (one byte back for a return address) is 0 gives no
 * entry, wherever it is in the chain, but it took its place among the
 * --max-stack frames (c->max: the backends count frames, not inline ones).
 * Return: the number of entries, or -ENOMEM.
 */
static ssize_t resolve(struct unwinder *u, struct unwind_ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++) {
		u64 ip = c->act[i] ? c->pcs[i] : c->pcs[i] - 1;
		struct unwind_pc *pc = c->slots[i];

		if (!ip)
			continue;
		if (!pc || pc->addr != ip || pc->gen != c->thread->maps->gen)
			pc = unwind__pc(c, ip);
		if (pc && !pc->resolved)
			pc_resolve(u, c, pc);
		if (out_reserve(u, n + (pc && pc->nr_isyms ? pc->nr_isyms : 1)))
			return -ENOMEM;
		if (!pc) {	/* no maps: no map, no symbol */
			u->entries[n++] = (struct unwind_entry){ ip, NULL, NULL };
			continue;
		}
		if (pc->nr_isyms) {
			for (u32 k = 0; k < pc->nr_isyms; k++)
				u->entries[n++] = (struct unwind_entry){ ip, pc->map, pc->isyms[k],
									 k < 255 ? k : 255 };
			continue;
		}
		u->entries[n++] = (struct unwind_entry){ ip, pc->map, pc->sym };
	}
	return (ssize_t)n;
}

int unwinder__sample(struct unwinder *u, struct thread *t, const struct perf_event_attr *attr,
		     const struct perf_sample *s, int max_stack,
		     const struct unwind_entry **entries, size_t *nr)
{
	struct unwind_ctx c = { .u = u, .thread = t, .pc_cache = u->pcs_cache };
	/* a stack copy has at most 65528 bytes: no more frames than that */
	size_t max = max_stack <= 0 ? 127 : max_stack < 65536 ? (size_t)max_stack : 65536;
	void *proc;
	ssize_t n;
	int err;

	*nr = 0;
	*entries = NULL;
	if (!unwinder__has_stack(attr) || !ctx_init(&c, attr, s))
		return 0;
	if (reserve(u, max))
		return -ENOMEM;
	u->stats.samples++;
	if (attr->sample_stack_user > u->max_stack_size)
		u->max_stack_size = attr->sample_stack_user;
	proc = proc_of(u, t);
	if (!proc)
		return -ENOMEM;
	c.pcs = u->pcs;
	c.act = u->act;
	c.slots = u->slots;
	c.max = max;
	err = u->b->unwind(proc, &c);
	/* libdw ends a chain without an error when the return address cannot be read */
	if (c.truncated)
		u->stats.truncated++;
	else if (err < 0)
		u->stats.failed++;
	n = resolve(u, &c);
	if (n < 0)
		return -ENOMEM;
	*nr = (size_t)n;
	*entries = u->entries;
	if (*nr)
		u->stats.unwound++;
	return 0;
}

int machine__unwind(struct machine *m, struct thread *t, const struct perf_event_attr *attr,
		    const struct perf_sample *s, int max_stack,
		    const struct unwind_entry **entries, size_t *nr)
{
	*nr = 0;
	if (!m->unwinder) {
		m->unwinder = unwinder__new(m, (enum unwinder_kind)m->o.unwinder, !m->o.no_inline);
		m->unwinder_free = unwinder__delete;
	}
	if (!m->unwinder)
		return -ENOMEM;
	return unwinder__sample(m->unwinder, t, attr, s, max_stack, entries, nr);
}
