// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF symbols, segments and sections for `tperf probe` (libelf).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/symbol/build-id.h"
#include "util/symbol/elf-inflate.h"
#include "util/symbol/probe-cxx.h"
#include "util/symbol/probe-elf.h"
#include "util/lib/rbtree.h"

struct probe_elf {
	int fd;
	Elf *elf;
	char *path;
	int dbg_fd;		/* the separate debug file, -1 if none */
	Elf *dbg;
	bool dbg_looked;
	struct elf_inflated *inflated;	/* the DWARF Elf's inflated sections */
	bool inflate_tried;
	int syms_fd;		/* the file whose .symtab perf reads, -1: @elf */
	Elf *syms;
	bool syms_looked;
};

int probe_elf__open(const char *path, struct probe_elf **pe)
{
	struct probe_elf *p;
	int fd, err;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = calloc(1, sizeof(*p));
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	p->fd = fd;
	p->dbg_fd = -1;
	p->syms_fd = -1;
	p->path = strdup(path);
	p->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!p->path || !p->elf || elf_kind(p->elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		probe_elf__close(p);
		return err;
	}
	*pe = p;
	return 0;
}

void probe_elf__close(struct probe_elf *pe)
{
	if (!pe)
		return;
	if (pe->elf)
		elf_end(pe->elf);
	if (pe->dbg)
		elf_end(pe->dbg);
	if (pe->dbg_fd >= 0)
		close(pe->dbg_fd);
	if (pe->syms)
		elf_end(pe->syms);
	if (pe->syms_fd >= 0)
		close(pe->syms_fd);
	elf_inflated__free(pe->inflated);	/* after elf_end(): libelf points at it */
	close(pe->fd);
	free(pe->path);
	free(pe);
}

void *probe_elf__elf(struct probe_elf *pe)
{
	return pe->elf;
}

/* The section named @name of @elf, NULL if none (or without contents). */
static Elf_Scn *named_scn(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type != SHT_NOBITS &&
		    (n = elf_strptr(elf, shstrndx, sh->sh_name)) && !strcmp(n, name))
			return scn;
	return NULL;
}

/* Open @path as the debug file of @pe if it has DWARF; 0 when it does. */
static int try_debug_file(struct probe_elf *pe, const char *path)
{
	GElf_Shdr sh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !named_scn(elf, ".debug_info", &sh)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -ENODATA;
	}
	pe->dbg = elf;
	pe->dbg_fd = fd;
	return 0;
}

/* The hex build-id of @elf's NT_GNU_BUILD_ID note into @hex; 0 or -ENOENT. */
static int build_id_hex(Elf *elf, char *hex, size_t size)
{
	u8 id[64];
	int n = elf__build_id(elf, id, sizeof(id));

	if (n < 2 || n > (int)sizeof(id) || (size_t)n * 2 + 1 > size)
		return -ENOENT;
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return 0;
}

/*
 * The debug file of a binary without DWARF, where debug packages put it:
 * /usr/lib/debug/.build-id/XX/REST.debug by its build-id, then by its
 * .gnu_debuglink name next to it, in .debug/ next to it, or under
 * /usr/lib/debug/ + its folder (gdb's search).
 */
static void find_debug_file(struct probe_elf *pe)
{
	char hex[128], p[PATH_MAX * 2], dir[PATH_MAX];
	const char *link, *slash;
	Elf_Data *d;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (!build_id_hex(pe->elf, hex, sizeof(hex))) {
		snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (!try_debug_file(pe, p))
			return;
	}
	scn = named_scn(pe->elf, ".gnu_debuglink", &sh);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_size || !memchr(d->d_buf, '\0', d->d_size))
		return;
	link = d->d_buf;
	if (!realpath(pe->path, dir))
		snprintf(dir, sizeof(dir), "%s", pe->path);
	slash = strrchr(dir, '/');
	if (!slash || strchr(link, '/'))
		return;
	dir[slash - dir] = '\0';
	snprintf(p, sizeof(p), "%s/%s", dir, link);
	if (strcmp(p, pe->path) && !try_debug_file(pe, p))
		return;
	snprintf(p, sizeof(p), "%s/.debug/%s", dir, link);
	if (!try_debug_file(pe, p))
		return;
	snprintf(p, sizeof(p), "/usr/lib/debug%s/%s", dir, link);
	try_debug_file(pe, p);
}

static Elf *dwarf_elf(struct probe_elf *pe)
{
	GElf_Shdr sh;

	if (named_scn(pe->elf, ".debug_info", &sh))
		return pe->elf;
	if (!pe->dbg_looked) {
		pe->dbg_looked = true;
		find_debug_file(pe);
	}
	return pe->dbg ?: pe->elf;
}

void *probe_elf__dwarf_elf(struct probe_elf *pe)
{
	Elf *elf = dwarf_elf(pe);

	if (!pe->inflate_tried) {	/* compressed sections: faster than libdw would */
		pe->inflate_tried = true;
		elf_inflate_debug(elf, &pe->inflated);
	}
	return elf;
}

void *probe_elf__scopes_elf(struct probe_elf *pe)
{
	static const char *const unused[] = {
		".debug_line", ".debug_loc", ".debug_loclists", ".debug_macro", ".debug_macinfo",
		NULL
	};
	Elf *elf = dwarf_elf(pe);

	if (!pe->inflate_tried) {
		pe->inflate_tried = true;
		elf_inflate_debug_except(elf, unused, &pe->inflated);
	}
	return elf;
}

/* Has @elf a section named @name (with contents or not)? */
static bool has_section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;

		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

bool probe_elf__has_debug_frame(struct probe_elf *pe)
{
	return has_section(pe->elf, ".debug_frame") || has_section(dwarf_elf(pe), ".debug_frame");
}

bool probe_elf__is64(struct probe_elf *pe)
{
	return gelf_getclass(pe->elf) == ELFCLASS64;
}

typedef int (*sym_fn)(const char *name, const GElf_Sym *sym, void *arg);

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The section of type @type named @name in @elf (NULL if none). */
static Elf_Scn *typed_scn(Elf *elf, const char *name, Elf64_Word type)
{
	GElf_Shdr sh;
	Elf_Scn *scn = named_scn(elf, name, &sh);

	return scn && sh.sh_type == type ? scn : NULL;
}

/*
 * Take @path as @pe's symbol file if it is an ELF file of the same build
 * (same build-id, when @pe has one) with a .symtab; 0 when taken.
 */
static int try_syms_file(struct probe_elf *pe, const char *path, const char *hex)
{
	char other[128];
	int fd;
	Elf *elf;

	if (!is_regular(path) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -ENOENT;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && typed_scn(elf, ".symtab", SHT_SYMTAB) &&
	    (!hex || (!build_id_hex(elf, other, sizeof(other)) && !strcmp(hex, other)))) {
		pe->syms = elf;
		pe->syms_fd = fd;
		return 0;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return -ENOENT;
}

/*
 * The file perf 6.1 takes the symbols of a binary from (dso__load()): the
 * first, in this order, that is of the same build and has a .symtab: the
 * .gnu_debuglink file (the first of its four places that exists), the
 * build-id cache's copy and debug file, /usr/lib/debug/PATH.debug,
 * /usr/lib/debug/PATH, /usr/lib/debug/.build-id/xx/rest.debug, the binary.
 * None: the binary's .dynsym.
 */
static Elf *syms_elf(struct probe_elf *pe)
{
	static const char *const link_fmts[] = {
		"%.0s%s", "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s"
	};
	char hex[128], real[PATH_MAX], dir[PATH_MAX], p[PATH_MAX * 2 + 64], bdir[PATH_MAX];
	const char *h = NULL, *link, *slash;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;

	if (pe->syms_looked)
		return pe->syms ?: pe->elf;
	pe->syms_looked = true;
	if (!build_id_hex(pe->elf, hex, sizeof(hex)))
		h = hex;
	if (!realpath(pe->path, real))
		snprintf(real, sizeof(real), "%s", pe->path);
	snprintf(dir, sizeof(dir), "%s", real);
	slash = strrchr(dir, '/');
	dir[slash ? slash - dir : 0] = '\0';
	scn = named_scn(pe->elf, ".gnu_debuglink", &sh);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (d && d->d_size && memchr(d->d_buf, '\0', d->d_size) && *(link = d->d_buf)) {
		for (size_t i = 0; i < sizeof(link_fmts) / sizeof(link_fmts[0]); i++) {
			snprintf(p, sizeof(p), link_fmts[i], dir, link);
			if (is_regular(p)) {	/* perf tries the first that exists only */
				if (!try_syms_file(pe, p, h))
					return pe->syms;
				break;
			}
		}
	}
	if (h) {
		buildid_dir__get(bdir, sizeof(bdir));
		snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s", bdir, hex, hex + 2);
		if (!try_syms_file(pe, p, h))
			return pe->syms;
		snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s/elf", bdir, hex, hex + 2);
		if (!try_syms_file(pe, p, h))
			return pe->syms;
		snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s/debug", bdir, hex, hex + 2);
		if (!try_syms_file(pe, p, h))
			return pe->syms;
	}
	snprintf(p, sizeof(p), "/usr/lib/debug%s.debug", real);
	if (!try_syms_file(pe, p, h))
		return pe->syms;
	snprintf(p, sizeof(p), "/usr/lib/debug%s", real);
	if (!try_syms_file(pe, p, h))
		return pe->syms;
	if (h) {
		snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (!try_syms_file(pe, p, h))
			return pe->syms;
	}
	return pe->elf;
}

/* Labels (untyped symbols) count in a text or data section only, as perf's. */
static bool label_section(Elf *elf, const GElf_Sym *sym)
{
	Elf_Scn *scn = sym->st_shndx < SHN_LORESERVE ? elf_getscn(elf, sym->st_shndx) : NULL;
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;

	if (vis == STV_HIDDEN || vis == STV_INTERNAL || !scn || !gelf_getshdr(scn, &sh) ||
	    elf_getshdrstrndx(elf, &shstrndx) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
		return false;
	return strstr(name, "text") || strstr(name, "data");
}

static bool alloc_section(Elf *elf, size_t ndx)
{
	Elf_Scn *scn = ndx < SHN_LORESERVE ? elf_getscn(elf, ndx) : NULL;
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC);
}

/* Which symbols for_each_sym_in() passes on. */
enum sym_kinds {
	SYM_FUNCS,	/* STT_FUNC: what perf probes by name without DWARF */
	SYM_ALL,	/* what perf loads: functions, IFUNCs, data, labels */
};

static int for_each_sym_in(Elf *elf, Elf_Scn *scn, enum sym_kinds kinds, sym_fn fn, void *arg);

/*
 * The symbols of the symbol file's .symtab, or of the binary's .dynsym
 * without one; with SYM_ALL (perf's -F listing) those of the symbol
 * file's .dynsym after those of its .symtab, as perf lists both (a debug
 * file's .dynsym has no contents: none).
 */
static int for_each_sym_type(struct probe_elf *pe, enum sym_kinds kinds, sym_fn fn, void *arg)
{
	Elf *elf = syms_elf(pe);
	Elf_Scn *symtab = typed_scn(elf, ".symtab", SHT_SYMTAB);
	Elf_Scn *dynsym = typed_scn(elf, ".dynsym", SHT_DYNSYM);
	int ret = for_each_sym_in(elf, symtab ?: dynsym, kinds, fn, arg);

	if (!ret && kinds == SYM_ALL && symtab && dynsym)
		ret = for_each_sym_in(elf, dynsym, kinds, fn, arg);
	return ret;
}

static bool sym_wanted(Elf *elf, const GElf_Sym *sym, enum sym_kinds kinds)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS || !sym->st_value)
		return false;
	if (kinds == SYM_FUNCS)
		return type == STT_FUNC;
	if (!alloc_section(elf, sym->st_shndx))	/* .gnu.warning.NAME's objects */
		return false;
	if (type == STT_NOTYPE)
		return label_section(elf, sym);
	return type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
}

static int for_each_sym_in(Elf *elf, Elf_Scn *scn, enum sym_kinds kinds, sym_fn fn, void *arg)
{
	GElf_Shdr sh;
	Elf_Data *data;

	if (!scn || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		const char *name;
		int ret;

		if (!gelf_getsym(data, (int)i, &sym) || !sym_wanted(elf, &sym, kinds))
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		ret = fn(name, &sym, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static int for_each_sym(struct probe_elf *pe, sym_fn fn, void *arg)
{
	return for_each_sym_type(pe, SYM_FUNCS, fn, arg);
}

struct sym_query {
	struct probe_elf *pe;
	const char *name;
	int nth, seen;
	uint64_t addr, size;
	const char *found;
	GElf_Sym sym;		/* what match_addr() found */
	const char *unsized;	/* and the closest function without a size below */
	GElf_Sym unsized_sym;
};

struct next_query {
	uint64_t addr, next;
};

static int next_func(const char *name, const GElf_Sym *sym, void *arg)
{
	struct next_query *q = arg;

	if (sym->st_value > q->addr && sym->st_value < q->next)
		q->next = sym->st_value;
	return 0;
}

/*
 * The bytes of function symbol @sym: its size, else, as perf's
 * symbols__fixup_end() takes it, up to the next function symbol, here no
 * further than the end of its section (_init and _fini have no size).
 * 0 when unknown.
 */
static uint64_t sym_size(struct probe_elf *pe, const GElf_Sym *sym)
{
	struct next_query q = { .addr = sym->st_value };
	Elf_Scn *scn = sym->st_shndx < SHN_LORESERVE ? elf_getscn(syms_elf(pe), sym->st_shndx) :
			NULL;
	GElf_Shdr sh;

	if (sym->st_size)
		return sym->st_size;
	if (!scn || !gelf_getshdr(scn, &sh) || sym->st_value < sh.sh_addr ||
	    sym->st_value - sh.sh_addr >= sh.sh_size)
		return 0;
	q.next = sh.sh_addr + sh.sh_size;
	for_each_sym(pe, next_func, &q);
	return q.next - sym->st_value;
}

static int match_name(const char *name, const GElf_Sym *sym, void *arg)
{
	struct sym_query *q = arg;
	size_t n = strlen(q->name);

	/* "foo" matches "foo" and the versioned "foo@@GLIBC_2.2.5" */
	if (probe_cxx__qualified(q->name) ? !probe_cxx__match(q->name, name) :
	    strncmp(name, q->name, n) || (name[n] && name[n] != '@'))
		return 0;
	if (q->seen++ != q->nth)
		return 0;
	q->addr = sym->st_value;
	q->size = sym_size(q->pe, sym);
	return 1;
}

int probe_elf__find_symbol(struct probe_elf *pe, const char *name, int nth,
			   uint64_t *addr, uint64_t *size)
{
	struct sym_query q = { .pe = pe, .name = name, .nth = nth };

	if (for_each_sym(pe, match_name, &q) != 1)
		return -ENOENT;
	*addr = q.addr;
	if (size)
		*size = q.size;
	return 0;
}

struct named_sym {
	struct rb_link rb;	/* in the tree by name */
	const char *name;
	uint64_t addr;
	size_t idx;		/* load order */
	bool ifunc;
	bool owned;		/* a PLT entry's name, malloc'ed */
};

struct sym_array {
	struct named_sym *v;
	size_t n, alloc;
	uint64_t plt_addr;
};

static int collect_sym(const char *name, const GElf_Sym *sym, void *arg)
{
	struct sym_array *a = arg;

	if (a->n == a->alloc) {
		size_t alloc = a->alloc ? a->alloc * 2 : 1024;
		struct named_sym *v = realloc(a->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->alloc = alloc;
	}
	a->v[a->n] = (struct named_sym){ .name = name, .addr = sym->st_value, .idx = a->n,
					 .ifunc = GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC };
	a->n++;
	return 0;
}

int probe_elf__for_each_plt(struct probe_elf *pe, int (*fn)(const char *name, void *arg),
			    void *arg);

/* A PLT entry, where perf puts it: in .plt, 16 bytes each after the first. */
static int collect_plt_name(const char *name, void *arg)
{
	struct sym_array *a = arg;
	GElf_Sym sym = { .st_value = a->plt_addr += 16 };
	char *copy = strdup(name);
	int ret = copy ? collect_sym(copy, &sym, a) : -ENOMEM;

	if (ret)
		free(copy);
	else
		a->v[a->n - 1].owned = true;
	return ret;
}

static int cmp_sym_addr(const void *a, const void *b)
{
	const struct named_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * perf's comparison of a symbol's name with the name looked for: with
 * @tagged, "NAME@@VERSION" compares as NAME (the default version).
 */
static int cmp_lookup(const char *sym, const char *name, bool tagged)
{
	const char *at = tagged ? strstr(sym, "@@") : NULL;

	if (at) {
		size_t len = strlen(name);

		if (len < (size_t)(at - sym))
			len = (size_t)(at - sym);
		return strncmp(sym, name, len);
	}
	return strcmp(sym, name);
}

/*
 * The walk down perf's tree of symbols by name: with @tagged the tree's
 * order is not the comparison's, so it finds what its path meets (glibc's
 * "aio_cancel@@GLIBC_2.34" next to "aio_cancel@GLIBC_2.2.5" is missed, as
 * by perf); exact, the first of that name.
 */
static const struct named_sym *search_sym(struct rb_link *root, const char *name, bool tagged)
{
	const struct named_sym *s = NULL;

	for (struct rb_link *n = root; n;) {
		const struct named_sym *e = (const struct named_sym *)n;
		int c = cmp_lookup(e->name, name, tagged);

		if (c > 0) {
			n = n->l;
		} else if (c < 0) {
			n = n->r;
		} else {
			s = e;
			break;
		}
	}
	if (s && !tagged)	/* the first of that name: loaded first */
		for (struct rb_link *n = rb_first(root); n; n = rb_next(n))
			if (!strcmp(((const struct named_sym *)n)->name, name))
				return (const struct named_sym *)n;
	return s;
}

int probe_elf__first_symbol(struct probe_elf *pe, const char *name, uint64_t *addr, bool *ifunc)
{
	struct sym_array a = { 0 };
	const struct named_sym *s = NULL;
	struct rb_link *root = NULL;
	GElf_Shdr sh;
	int ret = for_each_sym_type(pe, SYM_ALL, collect_sym, &a);

	/*
	 * perf's symbols: those loaded (the PLT entries after them) in a tree
	 * by address, from which its tree by name is filled in order, so the
	 * same insertions give the same shape
	 */
	if (!ret && a.n) {
		a.plt_addr = named_scn(pe->elf, ".plt", &sh) ? sh.sh_addr : 0;
		ret = probe_elf__for_each_plt(pe, collect_plt_name, &a);
	}
	if (!ret && a.n) {
		qsort(a.v, a.n, sizeof(*a.v), cmp_sym_addr);
		for (size_t i = 0; i < a.n; i++) {
			struct rb_link **p = &root, *parent = NULL;
			bool left = false;

			while (*p) {
				parent = *p;
				left = strcmp(a.v[i].name, ((struct named_sym *)parent)->name) < 0;
				p = left ? &parent->l : &parent->r;
			}
			rb_link_leaf(&root, &a.v[i].rb, parent, left);
			rb_insert_fixup(&root, &a.v[i].rb);
		}
		s = search_sym(root, name, false) ?: search_sym(root, name, true);
	}
	if (s) {
		*addr = s->addr;
		*ifunc = s->ifunc;
	}
	for (size_t i = 0; i < a.n; i++)
		if (a.v[i].owned)
			free((char *)a.v[i].name);
	free(a.v);
	return ret ?: s ? 0 : -ENOENT;
}

int probe_elf__count_symbol(struct probe_elf *pe, const char *name)
{
	struct sym_query q = { .name = name, .nth = -1 };

	for_each_sym(pe, match_name, &q);
	return q.seen;
}

/*
 * The symbol holding q->addr: one with a size, or at the first byte of
 * one without; meanwhile the closest one without a size below q->addr.
 */
static int match_addr(const char *name, const GElf_Sym *sym, void *arg)
{
	struct sym_query *q = arg;

	if (q->addr < sym->st_value)
		return 0;
	if (sym->st_size ? q->addr - sym->st_value < sym->st_size : q->addr == sym->st_value) {
		q->found = name;
		q->sym = *sym;
		return 1;
	}
	if (!sym->st_size && (!q->unsized || sym->st_value > q->unsized_sym.st_value)) {
		q->unsized = name;
		q->unsized_sym = *sym;
	}
	return 0;
}

const char *probe_elf__symbol_at(struct probe_elf *pe, uint64_t addr, uint64_t *start,
				 uint64_t *size)
{
	struct sym_query q = { .pe = pe, .addr = addr };

	if (for_each_sym(pe, match_addr, &q) != 1) {
		/* inside the extent of the closest function without a size? */
		if (!q.unsized || addr - q.unsized_sym.st_value >= sym_size(pe, &q.unsized_sym))
			return NULL;
		q.found = q.unsized;
		q.sym = q.unsized_sym;
	}
	if (start)
		*start = q.sym.st_value;
	if (size)
		*size = sym_size(pe, &q.sym);
	return q.found;
}

struct func_iter {
	int (*fn)(const char *name, uint64_t addr, void *arg);
	void *arg;
};

static int call_func(const char *name, const GElf_Sym *sym, void *arg)
{
	struct func_iter *it = arg;

	return it->fn(name, sym->st_value, it->arg);
}

int probe_elf__for_each_function(struct probe_elf *pe, bool all,
				 int (*fn)(const char *name, uint64_t addr, void *arg),
				 void *arg)
{
	struct func_iter it = { fn, arg };

	return for_each_sym_type(pe, all ? SYM_ALL : SYM_FUNCS, call_func, &it);
}

/* The PT_LOAD segment holding virtual address (or file offset) @v. */
static int load_segment(struct probe_elf *pe, uint64_t v, bool is_vaddr, GElf_Phdr *ph)
{
	size_t n;

	if (elf_getphdrnum(pe->elf, &n))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		uint64_t start, len;

		if (!gelf_getphdr(pe->elf, (int)i, ph) || ph->p_type != PT_LOAD)
			continue;
		start = is_vaddr ? ph->p_vaddr : ph->p_offset;
		len = is_vaddr ? ph->p_memsz : ph->p_filesz;
		if (v >= start && v < start + len)
			return 0;
	}
	return -ENOENT;
}

int probe_elf__vaddr_to_offset(struct probe_elf *pe, uint64_t vaddr, uint64_t *off)
{
	GElf_Phdr ph;

	if (load_segment(pe, vaddr, true, &ph))
		return -ENOENT;
	*off = vaddr - ph.p_vaddr + ph.p_offset;
	return 0;
}

static Elf_Scn *scn_by_name(struct probe_elf *pe, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(pe->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(pe->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(pe->elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

int probe_elf__section_addr(struct probe_elf *pe, const char *name, uint64_t *addr)
{
	GElf_Shdr sh;

	if (!scn_by_name(pe, name, &sh))
		return -ENOENT;
	*addr = sh.sh_addr;
	return 0;
}

const void *probe_elf__section_data(struct probe_elf *pe, const char *name, size_t *size)
{
	GElf_Shdr sh;
	Elf_Scn *scn = scn_by_name(pe, name, &sh);
	Elf_Data *data;

	if (!scn || sh.sh_type != SHT_NOTE)
		return NULL;
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf)
		return NULL;
	*size = data->d_size;
	return data->d_buf;
}

const void *probe_elf__code(struct probe_elf *pe, uint64_t vaddr, size_t *len)
{
	size_t file_size;
	const char *file = elf_rawfile(pe->elf, &file_size);
	uint64_t off, end;
	GElf_Phdr ph;

	if (!file || load_segment(pe, vaddr, true, &ph) || vaddr - ph.p_vaddr >= ph.p_filesz)
		return NULL;	/* (in the segment's zero-filled tail: no bytes) */
	off = vaddr - ph.p_vaddr + ph.p_offset;
	end = ph.p_offset + ph.p_filesz;
	if (end > file_size || end < ph.p_offset)
		end = file_size;	/* a segment cut short: what the file has */
	if (off >= end)
		return NULL;
	*len = (size_t)(end - off);
	return file + off;
}

unsigned int probe_elf__machine(struct probe_elf *pe)
{
	GElf_Ehdr eh;

	return gelf_getehdr(pe->elf, &eh) ? eh.e_machine : EM_NONE;
}

int probe_elf__offset_to_vaddr(struct probe_elf *pe, uint64_t off, uint64_t *vaddr)
{
	GElf_Phdr ph;

	if (load_segment(pe, off, false, &ph))
		return -ENOENT;
	*vaddr = off - ph.p_offset + ph.p_vaddr;
	return 0;
}

int probe_elf__for_each_plt(struct probe_elf *pe, int (*fn)(const char *name, void *arg),
			    void *arg)
{
	Elf_Scn *scn = NULL, *dynsym;
	GElf_Shdr sh, dsh;
	size_t shstrndx;

	if (elf_getshdrstrndx(pe->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(pe->elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		    (n = elf_strptr(pe->elf, shstrndx, sh.sh_name)) &&
		    (!strcmp(n, ".rela.plt") || !strcmp(n, ".rel.plt")))
			break;
	}
	dynsym = scn ? elf_getscn(pe->elf, sh.sh_link) : NULL;
	if (!dynsym || !gelf_getshdr(dynsym, &dsh) || !sh.sh_entsize)
		return 0;
	Elf_Data *rel = elf_getdata(scn, NULL), *syms = elf_getdata(dynsym, NULL);

	for (size_t i = 0; rel && syms && i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		size_t info;
		const char *name;
		char buf[512];
		int ret;

		if (sh.sh_type == SHT_RELA ? !gelf_getrela(rel, (int)i, &ra) :
		    !gelf_getrel(rel, (int)i, &r))
			continue;
		info = sh.sh_type == SHT_RELA ? ra.r_info : r.r_info;
		/* an IRELATIVE slot names no symbol: perf lists it as "@plt" */
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym) ||
		    !(name = elf_strptr(pe->elf, dsh.sh_link, sym.st_name)))
			continue;
		snprintf(buf, sizeof(buf), "%s@plt", name);
		ret = fn(buf, arg);
		if (ret)
			return ret;
	}
	return 0;
}
