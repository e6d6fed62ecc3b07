// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol tables: ELF (libelf) and kallsyms loaders, perf's fix-ups.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build-id.h"
#include "symbol.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

/**
 * symbol__demangle - a C++ or Rust (legacy and v0) name as perf shows it by
 * default: demangled, without parameters, a Rust legacy hash removed
 * Return: a malloc()ed string, or NULL when @name is not mangled (or no
 * libiberty).
 */
char *symbol__demangle(const char *name)
{
#ifdef HAVE_LIBIBERTY
	return cplus_demangle(name, DMGL_NO_OPTS);
#else
	(void)name;
	return NULL;
#endif
}

struct symbol *symbol__new(u64 start, u64 len, u8 binding, u8 type, const char *name)
{
	size_t n = strlen(name);
	struct symbol *s = malloc(sizeof(*s) + n + 1);

	if (!s)
		return NULL;
	s->start = start;
	s->end = start + len;
	s->binding = binding;
	s->type = type;
	s->namelen = n > 0xffff ? 0xffff : n;
	s->inlined = 0;
	memcpy(s->name, name, n + 1);
	return s;
}

int symtab__add(struct symtab *t, struct symbol *sym)
{
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 256;
		struct symbol **p = realloc(t->syms, n * sizeof(*p));

		if (!p) {
			free(sym);
			return -ENOMEM;
		}
		t->syms = p;
		t->alloc = n;
	}
	t->syms[t->nr++] = sym;
	t->sorted = false;
	return 0;
}

/* A stable merge sort by start: equal starts keep their table order. */
static void msort(struct symbol **a, struct symbol **tmp, size_t n)
{
	size_t m = n / 2, i = 0, j = m, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, m);
	msort(a + m, tmp, n - m);
	while (i < m && j < n)
		tmp[k++] = a[j]->start < a[i]->start ? a[j++] : a[i++];
	while (i < m)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

static int symtab__sort(struct symtab *t)
{
	struct symbol **tmp;
	size_t n;

	if (t->sorted)
		return 0;
	for (n = 1; n < t->nr && t->syms[n - 1]->start <= t->syms[n]->start; n++)
		;
	if (n >= t->nr) {		/* kallsyms and most symtabs come sorted */
		t->sorted = true;
		return 0;
	}
	tmp = malloc((t->nr + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	msort(t->syms, tmp, t->nr);
	free(tmp);
	t->sorted = true;
	return 0;
}

void symtab__sort_only(struct symtab *t)
{
	symtab__sort(t);
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's preference among symbols at one address: true keeps @a. */
static bool prefer_first(const struct symbol *a, const struct symbol *b)
{
	u64 la = a->end - a->start, lb = b->end - b->start;
	int ua, ub;

	if (!lb && la)
		return true;
	if (!la && lb)
		return false;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	ua = leading_underscores(a->name);
	ub = leading_underscores(b->name);
	if (ua != ub)
		return ua < ub;
	return a->namelen >= b->namelen;
}

static void fixup_duplicates(struct symtab *t)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++) {
		struct symbol *s = t->syms[i];

		if (out && t->syms[out - 1]->start == s->start) {
			if (prefer_first(t->syms[out - 1], s)) {
				free(s);
			} else {
				free(t->syms[out - 1]);
				t->syms[out - 1] = s;
			}
			continue;
		}
		t->syms[out++] = s;
	}
	t->nr = out;
}

static void fixup_end(struct symtab *t, bool kallsyms)
{
	for (size_t i = 1; i < t->nr; i++) {
		struct symbol *prev = t->syms[i - 1], *curr = t->syms[i];

		if (prev->end != prev->start)
			continue;
		if (kallsyms && !strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = ((prev->end + 4096) + 4095) / 4096 * 4096;
		else
			prev->end = curr->start;
	}
	if (t->nr) {
		struct symbol *last = t->syms[t->nr - 1];

		if (last->end == last->start)
			last->end = (last->start + 4095) / 4096 * 4096 + 4096;
	}
}

void symtab__fixup(struct symtab *t, bool kallsyms)
{
	if (symtab__sort(t))
		return;
	if (kallsyms) {
		fixup_end(t, true);
		fixup_duplicates(t);
	} else {
		fixup_duplicates(t);
		fixup_end(t, false);
	}
}

struct symbol *symtab__find(struct symtab *t, u64 addr)
{
	size_t lo = 0, hi = t->nr;

	if (!t->sorted && symtab__sort(t))
		return NULL;
	while (lo < hi) {		/* the first symbol starting after addr */
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->syms[lo - 1]->end)
		return NULL;
	return t->syms[lo - 1];
}

void symtab__exit(struct symtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->syms[i]);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}

static bool kallsyms_type_wanted(char c)
{
	c = toupper((unsigned char)c);
	return c == 'T' || c == 'W' || c == 'D' || c == 'B';
}

/*
 * The whole file in one buffer, NUL-terminated.  /proc/kallsyms has no size
 * and the kernel formats it a read at a time: large reads cost it least.
 */
static char *read_whole(const char *path, size_t *len)
{
	size_t cap = 4 << 20, n = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;

		if (!buf || cap - n < (1 << 20) + 1) {
			char *nb = realloc(buf, buf ? (cap *= 2) : cap);

			if (!nb)
				goto fail;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "ADDR T name[\t[module]]" lines; others are skipped. */
int symtab__load_kallsyms_ref(struct symtab *t, const char *path, const char *ref, u64 *ref_addr)
{
	bool ref_seen = !ref;
	size_t len;
	char *buf = read_whole(path, &len), *p, *end;
	int nr = 0, err = 0;

	if (!buf)
		return errno ? -errno : -ENOMEM;
	for (p = buf; p < buf + len; p = end + 1) {
		unsigned long long addr = 0;
		char type, *name, *q = p;
		struct symbol *s;
		int d, digits = 0;

		end = memchr(p, '\n', buf + len - p);
		if (!end)
			end = buf + len;
		*end = '\0';
		while ((d = hex_digit(*q)) >= 0 && digits < 17) {
			addr = addr << 4 | d;
			q++;
			digits++;
		}
		if (!digits || digits > 16 || *q != ' ' || !q[1] || q[2] != ' ')
			continue;
		type = q[1];
		name = q + 3;
		if (!ref_seen && !strcmp(name, ref)) {
			*ref_addr = addr;
			ref_seen = true;
		}
		if (!kallsyms_type_wanted(type) || name[0] == '$' || !*name)
			continue;
		s = symbol__new(addr, 0, type == 'W' || type == 'w' ? STB_WEAK :
				isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL,
				toupper((unsigned char)type) == 'T' ||
				toupper((unsigned char)type) == 'W' ? STT_FUNC : STT_OBJECT, name);
		if (!s || symtab__add(t, s)) {
			err = -ENOMEM;
			break;
		}
		nr++;
	}
	free(buf);
	if (!err && !ref_seen)
		err = -ENOENT;
	if (err) {
		symtab__exit(t);
		return err;
	}
	symtab__fixup(t, true);
	return nr;
}

int symtab__load_kallsyms(struct symtab *t, const char *path)
{
	return symtab__load_kallsyms_ref(t, path, NULL, NULL);
}

/* An open ELF file. */
struct elf_file {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t shstrndx;
};

static int elf_file__open(struct elf_file *ef, const char *path)
{
	memset(ef, 0, sizeof(*ef));
	elf_version(EV_CURRENT);
	ef->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ef->fd < 0)
		return -errno;
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF || !gelf_getehdr(ef->elf, &ef->ehdr) ||
	    elf_getshdrstrndx(ef->elf, &ef->shstrndx)) {
		if (ef->elf)
			elf_end(ef->elf);
		close(ef->fd);
		return -EINVAL;
	}
	return 0;
}

static void elf_file__close(struct elf_file *ef)
{
	elf_end(ef->elf);
	close(ef->fd);
}

static Elf_Scn *elf_file__section(struct elf_file *ef, const char *name, GElf_Shdr *shdr,
				  size_t *idx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ef->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(ef->elf, ef->shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

int elf__debuglink(const char *path, char *buf, size_t size)
{
	struct elf_file ef;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *d;
	int err = elf_file__open(&ef, path);

	if (err)
		return err;
	err = -ENOENT;
	scn = elf_file__section(&ef, ".gnu_debuglink", &shdr, NULL);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (d && d->d_size > 4 && memchr(d->d_buf, '\0', d->d_size)) {
		snprintf(buf, size, "%s", (const char *)d->d_buf);
		err = 0;
	}
	elf_file__close(&ef);
	return err;
}

static bool build_id_matches(struct elf_file *ef, const struct elf_syms_opts *o)
{
	u8 bid[PERF_BUILD_ID_SIZE];
	int n;

	if (!o || !o->build_id || !o->build_id_size)
		return true;
	n = elf__build_id(ef->elf, bid, sizeof(bid));
	if (n < 0)
		return true;	/* nothing to compare with */
	return (size_t)n == o->build_id_size && !memcmp(bid, o->build_id, n);
}

/* The file offset of virtual address @v in the loaded image (PT_LOAD). */
static u64 vaddr_to_offset(struct elf_file *ef, u64 v)
{
	size_t n;

	if (elf_getphdrnum(ef->elf, &n))
		return v;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ef->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (v >= ph.p_vaddr && v < ph.p_vaddr + ph.p_memsz)
			return v - ph.p_vaddr + ph.p_offset;
	}
	return v;
}

static bool section_is_text(struct elf_file *ef, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(ef->elf, shndx);
	GElf_Shdr shdr;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return false;
	n = elf_strptr(ef->elf, ef->shstrndx, shdr.sh_name);
	return n && strstr(n, "text");
}

static bool sym_wanted(struct elf_file *ef, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	return type == STT_NOTYPE && sym->st_shndx < SHN_LORESERVE &&
	       section_is_text(ef, sym->st_shndx);
}

/* Symbols of table @scn of @ef, addresses turned into offsets of @rt. */
static int load_table(struct symtab *t, struct elf_file *ef, Elf_Scn *scn, struct elf_file *rt)
{
	GElf_Shdr shdr;
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n;
	int nr = 0;

	if (!d || !gelf_getshdr(scn, &shdr) || !shdr.sh_entsize)
		return 0;
	n = shdr.sh_size / shdr.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		char *dem;
		struct symbol *s;

		if (!gelf_getsym(d, i, &sym) || !sym_wanted(ef, &sym))
			continue;
		name = elf_strptr(ef->elf, shdr.sh_link, sym.st_name);
		if (!name || !*name || (name[0] == '$' && strchr("adtx", name[1])))
			continue;
		dem = symbol__demangle(name);
		s = symbol__new(vaddr_to_offset(rt, sym.st_value), sym.st_size,
				GELF_ST_BIND(sym.st_info), GELF_ST_TYPE(sym.st_info), dem ? dem : name);
		free(dem);
		if (!s || symtab__add(t, s))
			return -ENOMEM;
		nr++;
	}
	return nr;
}

/* "name@plt" for each PLT relocation, as perf 6.1 lays them out. */
static int synthesize_plt(struct symtab *t, struct elf_file *ef)
{
	GElf_Shdr plt, rel, dyn;
	size_t dynidx = 0;
	Elf_Scn *rscn, *dscn;
	Elf_Data *rd, *dd;
	u64 off, entsize;
	size_t n;
	int nr = 0;

	if (!elf_file__section(ef, ".plt", &plt, NULL))
		return 0;
	rscn = elf_file__section(ef, ".rela.plt", &rel, NULL);
	if (!rscn)
		rscn = elf_file__section(ef, ".rel.plt", &rel, NULL);
	dscn = elf_file__section(ef, ".dynsym", &dyn, &dynidx);
	if (!rscn || !dscn || rel.sh_link != dynidx || !rel.sh_entsize)
		return 0;
	if (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL)
		return 0;
	rd = elf_getdata(rscn, NULL);
	dd = elf_getdata(dscn, NULL);
	if (!rd || !dd)
		return 0;
	entsize = plt.sh_entsize;
	off = plt.sh_offset + entsize;
	n = rel.sh_size / rel.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		u64 info;
		const char *name;
		char buf[1024], *dem;
		struct symbol *s;

		if (rel.sh_type == SHT_RELA) {
			if (!gelf_getrela(rd, i, &rela))
				break;
			info = rela.r_info;
		} else {
			if (!gelf_getrel(rd, i, &r))
				break;
			info = r.r_info;
		}
		if (!gelf_getsym(dd, GELF_R_SYM(info), &sym))
			continue;
		name = elf_strptr(ef->elf, dyn.sh_link, sym.st_name);
		dem = name ? symbol__demangle(name) : NULL;
		snprintf(buf, sizeof(buf), "%s@plt", dem ? dem : name ? name : "");
		free(dem);
		s = symbol__new(off, entsize, STB_GLOBAL, STT_FUNC, buf);
		if (!s || symtab__add(t, s))
			return -ENOMEM;
		off += entsize;
		nr++;
	}
	return nr;
}

int symtab__load_elf(struct symtab *t, const char *path, const char *debug,
		     const struct elf_syms_opts *o)
{
	struct elf_file rt, dbg;
	bool have_dbg = false;
	GElf_Shdr shdr;
	Elf_Scn *scn = NULL;
	int nr, plt;

	nr = elf_file__open(&rt, path);
	if (nr)
		return nr;
	if (!build_id_matches(&rt, o)) {
		elf_file__close(&rt);
		return -ESRCH;
	}
	if (debug && !elf_file__open(&dbg, debug)) {
		scn = elf_file__section(&dbg, ".symtab", &shdr, NULL);
		if (scn && shdr.sh_type == SHT_SYMTAB && build_id_matches(&dbg, o))
			have_dbg = true;
		else
			elf_file__close(&dbg);
	}
	if (have_dbg) {
		nr = load_table(t, &dbg, scn, &rt);
		elf_file__close(&dbg);
	} else {
		scn = elf_file__section(&rt, ".symtab", &shdr, NULL);
		if (!scn)
			scn = elf_file__section(&rt, ".dynsym", &shdr, NULL);
		nr = scn ? load_table(t, &rt, scn, &rt) : 0;
	}
	if (nr >= 0)
		symtab__fixup(t, false);
	plt = nr >= 0 ? synthesize_plt(t, &rt) : 0;
	elf_file__close(&rt);
	if (nr < 0 || plt < 0)
		return nr < 0 ? nr : plt;
	t->sorted = false;
	symtab__sort(t);
	return nr + plt;
}
