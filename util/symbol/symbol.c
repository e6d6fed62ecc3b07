// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol tables: ELF (libelf) and kallsyms loaders, perf's fix-ups.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/lib/config.h"
#include "util/symbol/build-id.h"
#include "util/lib/rbtree.h"
#include "util/symbol/symbol.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

/**
 * symbol__demangle - a C++ or Rust (legacy and v0) name as perf shows it by
 * default: demangled, without parameters, a Rust legacy hash removed
 * Return: a malloc()ed string, or NULL when @name is not mangled (or no
 * libiberty, or tperf_config.demangle off).
 */
char *symbol__demangle(const char *name)
{
#ifdef HAVE_LIBIBERTY
	if (!tperf_config.demangle)
		return NULL;
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
	s->flags = 0;
	memcpy(s->name, name, n + 1);
	return s;
}

/* A symbol dropped or freed with its symtab: chunk ones go with their chunk. */
static void symbol__free(struct symbol *s)
{
	if (!(s->flags & SYMBOL_CHUNK))
		free(s);
}

int symtab__add(struct symtab *t, struct symbol *sym)
{
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 256;
		struct symbol **p = realloc(t->syms, n * sizeof(*p));

		if (!p) {
			symbol__free(sym);
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
	/*
	 * Only the rest after the sorted start is sorted, then merged with it
	 * (kallsyms' modules come after a sorted kernel): the same order.
	 */
	msort(t->syms + n, tmp, t->nr - n);
	memcpy(tmp, t->syms, n * sizeof(*tmp));
	for (size_t i = 0, j = n, k = 0; i < n; k++)
		t->syms[k] = j < t->nr && t->syms[j]->start < tmp[i]->start ? t->syms[j++] : tmp[i++];
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

/* Drop all but the preferred symbol at each start; @lost (or NULL) gets the dropped ones' addresses in order. */
static void fixup_duplicates(struct symtab *t, uintptr_t *lost, size_t *nr_lost)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++) {
		struct symbol *s = t->syms[i];

		if (out && t->syms[out - 1]->start == s->start) {
			struct symbol *drop = s;

			if (!prefer_first(t->syms[out - 1], s)) {
				drop = t->syms[out - 1];
				t->syms[out - 1] = s;
			}
			if (lost)
				lost[(*nr_lost)++] = (uintptr_t)drop;
			symbol__free(drop);
			continue;
		}
		t->syms[out++] = s;
	}
	t->nr = out;
}

static bool has_bracket(const struct symbol *s)
{
	return s->namelen < 0xffff ? !!memchr(s->name, '[', s->namelen) : !!strchr(s->name, '[');
}

static void fixup_end(struct symtab *t, bool kallsyms)
{
	int prev_br = -1;		/* has_bracket(prev) when known */

	for (size_t i = 1; i < t->nr; i++) {
		struct symbol *prev = t->syms[i - 1], *curr = t->syms[i];
		int br;

		if (prev->end != prev->start) {
			prev_br = -1;
			continue;
		}
		if (!kallsyms) {
			prev->end = curr->start;
			continue;
		}
		br = has_bracket(curr);
		if ((prev_br >= 0 ? prev_br : has_bracket(prev)) != br)
			prev->end = ((prev->end + 4096) + 4095) / 4096 * 4096;
		else
			prev->end = curr->start;
		prev_br = br;
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
		fixup_duplicates(t, NULL, NULL);
	} else {
		fixup_duplicates(t, NULL, NULL);
		fixup_end(t, false);
	}
}

/*
 * perf's tree of a DSO's symbols (an rb-tree by start), as it was built:
 * the symbols of the table inserted in table order, the duplicates
 * erased, then the PLT entries inserted.  A lookup takes the first node
 * on its way down that contains the address, so where symbols overlap
 * (a zero-size symbol such as _init extended up to the next one, over
 * PLT entries made later) the tree's shape decides, not the order.
 */
struct symtab_tree {
	struct rb_link *root;
	size_t nr;			/* the symtab's when it was built: valid while equal */
	struct tree_node {
		struct rb_link rb;	/* first */
		struct symbol *sym;
		u64 start;		/* its key (a dropped symbol's is freed) */
	} nodes[];
};

static void tree_insert(struct symtab_tree *tr, struct tree_node *z)
{
	struct rb_link *x = tr->root, *y = NULL;
	bool left = false;

	while (x) {
		y = x;
		left = z->start < ((struct tree_node *)x)->start;	/* equal: right */
		x = left ? x->l : x->r;
	}
	rb_link_leaf(&tr->root, &z->rb, y, left);
	rb_insert_fixup(&tr->root, &z->rb);
}

static struct symbol *tree_find(const struct symtab_tree *tr, u64 addr)
{
	const struct rb_link *x = tr->root;

	while (x) {
		struct symbol *s = ((const struct tree_node *)x)->sym;

		if (addr < s->start)
			x = x->l;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			x = x->r;
		else
			return s;
	}
	return NULL;
}

/* Does a symbol of sorted @t start inside an earlier one (or at its zero-size end)? */
static bool overlaps(const struct symtab *t)
{
	u64 end = 0;

	for (size_t i = 0; i < t->nr; i++) {
		if (i && t->syms[i]->start < end)
			return true;
		if (t->syms[i]->end > end)
			end = t->syms[i]->end;
	}
	return false;
}

struct ptr_index {
	uintptr_t p;
	size_t i;
};

static int ptr_index_cmp(const void *a, const void *b)
{
	const struct ptr_index *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

/*
 * The tree perf builds: @order (@n symbols in table order, starting at
 * @starts; those in @lost were dropped and freed since: their addresses
 * only), then @plt (@nr_plt, made after).
 */
static struct symtab_tree *tree_build(struct symbol *const *order, const u64 *starts, size_t n,
				      const uintptr_t *lost, size_t nr_lost,
				      struct symbol *const *plt, size_t nr_plt)
{
	struct symtab_tree *tr = calloc(1, sizeof(*tr) + (n + nr_plt) * sizeof(tr->nodes[0]));
	struct ptr_index *ix = nr_lost ? malloc(n * sizeof(*ix)) : NULL;

	if (!tr || (nr_lost && !ix)) {
		free(tr);
		free(ix);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		tr->nodes[i].sym = order[i];
		tr->nodes[i].start = starts[i];
		tree_insert(tr, &tr->nodes[i]);
		if (ix)
			ix[i] = (struct ptr_index){ (uintptr_t)order[i], i };
	}
	if (ix) {
		qsort(ix, n, sizeof(*ix), ptr_index_cmp);
		for (size_t k = 0; k < nr_lost; k++) {
			struct ptr_index key = { lost[k], 0 };
			struct ptr_index *f = bsearch(&key, ix, n, sizeof(*ix), ptr_index_cmp);

			if (f) {
				rb_erase(&tr->root, &tr->nodes[f->i].rb);
				tr->nodes[f->i].sym = NULL;
			}
		}
		free(ix);
	}
	for (size_t i = 0; i < nr_plt; i++) {
		tr->nodes[n + i].sym = plt[i];
		tr->nodes[n + i].start = plt[i]->start;
		tree_insert(tr, &tr->nodes[n + i]);
	}
	return tr;
}

struct symbol *symtab__find(struct symtab *t, u64 addr)
{
	size_t lo = 0, hi = t->nr;

	if (t->tree && t->tree->nr == t->nr)
		return tree_find(t->tree, addr);

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

/*
 * Symbols carved from chunks, many to a mapping: the kallsyms loader makes
 * a hundred thousand of them at once, and one malloc() each (and one page
 * fault every hundred) was a third of its time.  Its pages are made in the
 * mmap() call, not one fault at a time.
 */
struct symbol_chunk {
	struct symbol_chunk *next;
	size_t size, used;		/* bytes mapped, bytes used (this header too) */
};

#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

/* A chunk of at least @want bytes; with @populate its pages are made now. */
static struct symbol_chunk *chunk_map(size_t want, bool populate)
{
	size_t size = (ALIGN8(sizeof(struct symbol_chunk)) + want + 4095) & ~(size_t)4095;
	struct symbol_chunk *c = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
				      MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);

	if (c == MAP_FAILED)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->used = ALIGN8(sizeof(*c));
	return c;
}

static struct symbol_chunk *chunk_new(size_t want)
{
	return chunk_map(want, true);
}

static void chunks_free(struct symbol_chunk *c)
{
	while (c) {
		struct symbol_chunk *n = c->next;

		munmap(c, c->size);
		c = n;
	}
}

void symtab__exit(struct symtab *t)
{
	free(t->tree);
	for (size_t i = 0; i < t->nr; i++)
		symbol__free(t->syms[i]);
	free(t->syms);
	chunks_free(t->chunks);
	memset(t, 0, sizeof(*t));
}

void symtab__move_chunks(struct symtab *to, struct symtab *from)
{
	struct symbol_chunk **pp = &to->chunks;

	while (*pp)
		pp = &(*pp)->next;
	*pp = from->chunks;
	from->chunks = NULL;
}

/* The kallsyms symbol types perf keeps: text, weak, data, bss. */
static bool kallsyms_type_wanted(char c)
{
	c &= ~0x20;
	return c == 'T' || c == 'W' || c == 'D' || c == 'B';
}

/*
 * A kallsyms file is text of lines of ~40 bytes; the kernel's is 10 to
 * 30 MB.  What is larger, or has no line end early on or a NUL byte (a
 * device such as /dev/zero, a binary file), is not one: refused (EFBIG,
 * EINVAL) before it is read whole.
 */
#define KALLSYMS_MAX_BYTES	(256u << 20)
#define KALLSYMS_MAX_LINE	4096

static bool kallsyms_text(const char *buf, size_t n)
{
	const char *nl = memchr(buf, '\n', n < KALLSYMS_MAX_LINE ? n : KALLSYMS_MAX_LINE);

	return !memchr(buf, '\0', n) && (nl || n < KALLSYMS_MAX_LINE);
}

/*
 * The whole file in one buffer, NUL-terminated.  /proc/kallsyms has no size
 * and the kernel formats it a read at a time: large reads cost it least.
 * @stop, when set, ends it early (-ECANCELED).
 */
static char *read_whole(int fd, size_t *len, const atomic_bool *stop)
{
	size_t cap = 4 << 20, n = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t r;

		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			errno = ECANCELED;
			goto fail;
		}
		if (!buf || cap - n < (1 << 20) + 1) {
			char *nb = realloc(buf, buf ? (cap *= 2) : cap);

			if (!nb)
				goto fail;
			buf = nb;
		}
		/* a MB a read: a stop is seen soon */
		r = read(fd, buf + n, cap - n - 1 < (1 << 20) ? cap - n - 1 : (1 << 20));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		if (!kallsyms_text(buf + n, (size_t)r)) {
			errno = EINVAL;
			goto fail;
		}
		n += r;
		if (n > KALLSYMS_MAX_BYTES) {
			errno = EFBIG;
			goto fail;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

#define BYTES(b)	(0x0101010101010101ULL * (b))

/* The 8 hex digits at @p (any case) in *@v; false when one is not a digit. */
static inline __attribute__((always_inline)) bool hex8(const char *p, u64 *v)
{
	u64 x, y, ok;

	memcpy(&x, p, 8);
	y = x | BYTES(0x20);
	/* per byte, no carries between bytes (all are below 0x80) */
	ok = ((x + BYTES(0x80 - '0')) & ~(x + BYTES(0x7f - '9'))) |
	     ((y + BYTES(0x80 - 'a')) & ~(y + BYTES(0x7f - 'f')));
	if ((x & BYTES(0x80)) || (ok & BYTES(0x80)) != BYTES(0x80))
		return false;
	x = (x & BYTES(0x0f)) + 9 * ((x >> 6) & BYTES(0x01));	/* the first digit in byte 0 */
	x = ((x << 4) | (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = ((x << 8) | (x >> 16)) & 0x0000ffff0000ffffULL;
	*v = ((x << 16) | (x >> 32)) & 0xffffffffULL;
	return true;
}

#define KALLSYMS_SEGS		16
#define KALLSYMS_SEG_MIN	(128 << 10)

/* A run of whole lines of a kallsyms file and the symbols parsed from it. */
struct kseg {
	const char *p, *end;
	struct symbol **syms;
	size_t nr, alloc;
	struct symbol **kept;		/* when sorted: syms but the last, duplicates dropped */
	size_t nr_kept;
	char *mem;			/* its part of the load's arena */
	size_t mem_left;
	bool arrays_in_arena;		/* syms and then kept, in the arena */
	bool kept_malloced;
	struct symbol_chunk *chunks;	/* more when that is full, newest first */
	u64 ref_addr;
	bool ref_seen;
	bool sorted;			/* ascending starts, ends fixed up (see kseg_parse) */
	bool first_br, last_br;		/* a '[' in the first, the last symbol's name */
	size_t nr_mod;			/* SYMBOL_KMODULE ones */
	int err;
};

struct kallsyms_load {
	char *buf;			/* the text: read, or mapped */
	size_t len;
	bool mapped;
	char *ref;
	size_t reflen;
	const atomic_bool *stop;
	struct symbol_chunk *arena;	/* the segments' symbols, a part each */
	unsigned int nr_seg;
	atomic_uint next;		/* the next segment to take */
	struct kseg seg[KALLSYMS_SEGS];
};

/* The first @c at or after @from before @limit, kept in *@next across lines. */
static bool has_char(const char **next, char c, const char *from, const char *to,
		     const char *limit)
{
	if (*next < from) {
		*next = memchr(from, c, limit - from);
		if (!*next)
			*next = limit;
	}
	return *next < to;
}

static struct symbol *kseg_alloc(struct kseg *g, size_t size, const char *p)
{
	struct symbol_chunk *c = g->chunks;
	struct symbol *s;

	if (g->mem_left >= size) {
		s = (struct symbol *)g->mem;
		g->mem += size;
		g->mem_left -= size;
		return s;
	}
	if (!c || c->size - c->used < size) {
		/* about as many bytes of symbols as of text are left */
		size_t want = (size_t)(g->end - p) + (size_t)(g->end - p) / 4 + size;

		c = chunk_new(want < (64 << 10) ? (64 << 10) : want);
		if (!c)
			return NULL;
		c->next = g->chunks;
		g->chunks = c;
	}
	s = (struct symbol *)((char *)c + c->used);
	c->used += size;
	return s;
}

static int kseg_add(struct kseg *g, struct symbol *s)
{
	if (g->nr == g->alloc) {
		size_t n = g->alloc ? g->alloc * 2 : (size_t)(g->end - g->p) / 32 + 16;
		struct symbol **a = realloc(g->arrays_in_arena ? NULL : g->syms, n * sizeof(*a));

		if (!a)
			return -ENOMEM;
		if (g->arrays_in_arena)		/* more lines than the arena expected */
			memcpy(a, g->syms, g->nr * sizeof(*a));
		g->arrays_in_arena = false;
		g->syms = a;
		g->alloc = n;
	}
	g->syms[g->nr++] = s;
	return 0;
}

/* Keep the better of two symbols at one address, as fixup_duplicates(). */
static void keep_better(struct symbol **out, size_t *n, struct symbol *s)
{
	if (*n && out[*n - 1]->start == s->start) {
		if (!prefer_first(out[*n - 1], s))
			out[*n - 1] = s;
		return;
	}
	out[(*n)++] = s;
}

/*
 * The duplicates of a sorted segment dropped in the segment's thread: all
 * its symbols but the last have their final ends.  perf's preference is an
 * order (the first of the best), so the join can merge a run of one address
 * that crosses segments from each one's pick.
 */
static int kseg_dedup(struct kseg *g)
{
	if (g->nr < 2)
		return 0;
	if (g->arrays_in_arena) {	/* as many as syms has room for */
		g->kept = g->syms + g->alloc;
	} else {
		g->kept = malloc((g->nr - 1) * sizeof(*g->kept));
		g->kept_malloced = true;
		if (!g->kept)
			return -ENOMEM;
	}
	for (size_t i = 0; i + 1 < g->nr; i++)
		keep_better(g->kept, &g->nr_kept, g->syms[i]);
	return 0;
}

/*
 * "ADDR T name[\t[module]]" lines; others are skipped.  While the starts
 * ascend, the end of each symbol is fixed up as the next one is read, with
 * symtab__fixup()'s kallsyms rule: to the next start, or to the page after
 * the next one where the kernel and the modules meet (a '[' in one name and
 * not in the other).  kallsyms_load__finish() undoes it when they do not.
 */
static int kseg_parse(const struct kallsyms_load *l, struct kseg *g)
{
	const char *p, *end, *nul = NULL, *tab = NULL, *br = NULL;
	struct symbol *prev = NULL;
	bool prev_br = false;

	g->sorted = true;
	for (p = g->p; p < g->end; p = end + 1) {
		unsigned long long addr = 0;
		const char *q = p, *name;
		u64 hi, lo;
		size_t namelen, size;
		struct symbol *s;
		int d, digits = 0;
		bool mod, bracket;
		char type;

		/* the usual line: 16 digits, a space, the type, a space, the name */
		if (g->end - p > 19 && p[16] == ' ' && p[17] != '\n' && p[18] != '\n' &&
		    hex8(p, &hi) && hex8(p + 8, &lo)) {
			end = memchr(p + 19, '\n', g->end - p - 19);
			if (!end)
				end = g->end;
			addr = hi << 32 | lo;
			q = p + 16;
			digits = 16;
		} else {
			end = memchr(p, '\n', g->end - p);
			if (!end)
				end = g->end;
			while (q < end && (d = hex_digit(*q)) >= 0 && digits < 17) {
				addr = addr << 4 | d;
				q++;
				digits++;
			}
		}
		if (!digits || digits > 16 || end - q < 3 || *q != ' ' || !q[1] || q[2] != ' ')
			continue;
		type = q[1];
		name = q + 3;
		/* a NUL ends the name, as it did the C string */
		namelen = has_char(&nul, '\0', name, end, g->end) ? (size_t)(nul - name) :
			  (size_t)(end - name);
		if (!g->ref_seen && l->ref && namelen == l->reflen &&
		    !memcmp(name, l->ref, namelen)) {
			g->ref_addr = addr;
			g->ref_seen = true;
		}
		if (!kallsyms_type_wanted(type) || !namelen || name[0] == '$')
			continue;
		mod = has_char(&tab, '\t', name, name + namelen, g->end);
		bracket = has_char(&br, '[', name, name + namelen, g->end);
		size = ALIGN8(offsetof(struct symbol, name) + namelen + 1);
		s = kseg_alloc(g, size, p);
		if (!s || kseg_add(g, s))
			return -ENOMEM;
		s->start = s->end = addr;
		s->binding = (type | 0x20) == 'w' ? STB_WEAK :
			     type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
		s->type = (type | 0x20) == 't' || (type | 0x20) == 'w' ? STT_FUNC : STT_OBJECT;
		s->namelen = namelen > 0xffff ? 0xffff : namelen;
		s->inlined = 0;
		s->flags = SYMBOL_CHUNK | (mod ? SYMBOL_KMODULE : 0);
		g->nr_mod += mod;
		memcpy(s->name, name, namelen);
		s->name[namelen] = '\0';
		if (!prev) {
			g->first_br = bracket;
		} else {
			if (addr < prev->start)
				g->sorted = false;
			prev->end = prev_br != bracket ? (prev->start + 4096 + 4095) / 4096 * 4096 : addr;
		}
		prev = s;
		prev_br = bracket;
	}
	g->last_br = prev_br;
	return g->sorted ? kseg_dedup(g) : 0;
}

/*
 * Room for each segment's symbols (a symbol takes about 1.15 times its
 * line) and its two arrays of them.
 */
static void kallsyms_load__arena(struct kallsyms_load *l)
{
	size_t want = 0;
	char *mem;

	for (unsigned int i = 0; i < l->nr_seg; i++) {
		size_t len = l->seg[i].end - l->seg[i].p;

		want += ALIGN8(len * 5 / 4 + 256) + 2 * (len / 21 + 16) * sizeof(struct symbol *);
	}
	/*
	 * one mapping, not huge pages (see util/lib/slab.c map_chunk()); its pages
	 * are made by the threads that parse the segments (kseg_populate())
	 */
	l->arena = want >= (1 << 20) ? chunk_map(want, false) : NULL;
	if (!l->arena)
		return;		/* the segments make chunks of their own */
	mem = (char *)l->arena + l->arena->used;
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		struct kseg *g = &l->seg[i];
		size_t len = g->end - g->p;

		/* a line with a whole address and a name is 21 bytes or more */
		g->syms = (struct symbol **)mem;
		g->alloc = len / 21 + 16;
		g->arrays_in_arena = true;
		mem += 2 * g->alloc * sizeof(*g->syms);
		g->mem = mem;
		g->mem_left = ALIGN8(len * 5 / 4 + 256);
		mem += g->mem_left;
	}
	l->arena->used = l->arena->size;
}

struct kallsyms_load *kallsyms_load__open(const char *path, const char *ref,
					  const atomic_bool *stop)
{
	struct kallsyms_load *l = calloc(1, sizeof(*l));
	struct stat st;
	int fd, err;

	if (!l)
		return NULL;
	l->stop = stop;
	if (ref && !(l->ref = strdup(ref)))
		goto fail;
	l->reflen = ref ? strlen(ref) : 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	/*
	 * a regular file with a size (not /proc's) is mapped, not copied, and its
	 * pages are mapped by the threads that parse them
	 */
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		errno = err;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !(S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3)) {
		close(fd);
		errno = EINVAL;		/* a device (but /dev/null), a directory */
		goto fail;
	}
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > KALLSYMS_MAX_BYTES) {
		close(fd);
		errno = EFBIG;
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		l->buf = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (l->buf == MAP_FAILED)
			l->buf = NULL;
		l->len = st.st_size;
		l->mapped = l->buf;
	}
	if (!l->buf)
		l->buf = read_whole(fd, &l->len, stop);
	err = errno;
	close(fd);
	if (!l->buf) {
		errno = err;
		goto fail;
	}
	/* segments cut at line starts */
	l->nr_seg = l->len / KALLSYMS_SEG_MIN;
	l->nr_seg = l->nr_seg < 1 ? 1 : l->nr_seg > KALLSYMS_SEGS ? KALLSYMS_SEGS : l->nr_seg;
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		const char *e = l->buf + (i + 1 == l->nr_seg ? l->len : l->len / l->nr_seg * (i + 1));
		const char *nl = e < l->buf + l->len ? memchr(e, '\n', l->buf + l->len - e) : NULL;

		l->seg[i].p = i ? l->seg[i - 1].end : l->buf;
		l->seg[i].end = nl ? nl + 1 : l->buf + l->len;
		if (l->seg[i].end < l->seg[i].p)
			l->seg[i].end = l->seg[i].p;
	}
	kallsyms_load__arena(l);
	atomic_init(&l->next, 0);
	return l;
fail:
	err = errno;
	free(l->ref);
	free(l);
	errno = err;
	return NULL;
}

/*
 * Make the pages of segment @g's part of the arena in one call, on the
 * thread that parses it: populating the whole arena first (11 MB for
 * 120,000 symbols) was half the loading thread's time, while the main
 * thread, come to help, waited for it.
 */
static void kseg_populate(const struct kallsyms_load *l, const struct kseg *g)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t from, to;

	if (!l->arena || !g->arrays_in_arena)
		return;
	from = ((uintptr_t)g->syms + 4095) & ~(uintptr_t)4095;
	to = (uintptr_t)g->mem + g->mem_left;
	to &= ~(uintptr_t)4095;
	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
	(void)l;
	(void)g;
#endif
}

static void kallsyms_load__parse(struct kallsyms_load *l, bool stoppable)
{
	for (;;) {
		unsigned int i;

		if (stoppable && l->stop && atomic_load_explicit(l->stop, memory_order_relaxed))
			return;
		i = atomic_fetch_add(&l->next, 1);
		if (i >= l->nr_seg)
			return;
		kseg_populate(l, &l->seg[i]);
		l->seg[i].err = kseg_parse(l, &l->seg[i]);
	}
}

void kallsyms_load__work(struct kallsyms_load *l)
{
	kallsyms_load__parse(l, true);
}

void kallsyms_load__abort(struct kallsyms_load *l)
{
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		if (!l->seg[i].arrays_in_arena)
			free(l->seg[i].syms);
		if (l->seg[i].kept_malloced)
			free(l->seg[i].kept);
		chunks_free(l->seg[i].chunks);
	}
	chunks_free(l->arena);
	if (l->mapped)
		munmap(l->buf, l->len);
	else
		free(l->buf);
	free(l->ref);
	free(l);
}

/* The segments in order into @t, which was empty: ends and duplicates as symtab__fixup(). */
static void kallsyms_join(struct kallsyms_load *l, struct symtab *t)
{
	struct symbol *pending = NULL;	/* a segment's last: its end comes from the next */
	const struct kseg *last = NULL;
	bool sorted = true;

	for (unsigned int i = 0; i < l->nr_seg && sorted; i++) {
		const struct kseg *g = &l->seg[i];

		if (!g->nr)
			continue;
		sorted = g->sorted && (!last || last->syms[last->nr - 1]->start <= g->syms[0]->start);
		last = g;
	}
	if (!sorted) {		/* the ends were fixed up in the wrong order */
		for (unsigned int i = 0; i < l->nr_seg; i++) {
			const struct kseg *g = &l->seg[i];

			memcpy(t->syms + t->nr, g->syms, g->nr * sizeof(*g->syms));
			t->nr += g->nr;
		}
		for (size_t i = 0; i < t->nr; i++)
			t->syms[i]->end = t->syms[i]->start;
		symtab__fixup(t, true);
		return;
	}
	last = NULL;
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		const struct kseg *g = &l->seg[i];

		if (!g->nr)
			continue;
		if (pending) {
			pending->end = last->last_br != g->first_br ?
				       (pending->start + 4096 + 4095) / 4096 * 4096 : g->syms[0]->start;
			keep_better(t->syms, &t->nr, pending);
		}
		if (g->nr_kept) {	/* only its first can have the address before */
			keep_better(t->syms, &t->nr, g->kept[0]);
			memcpy(t->syms + t->nr, g->kept + 1, (g->nr_kept - 1) * sizeof(*g->kept));
			t->nr += g->nr_kept - 1;
		}
		pending = g->syms[g->nr - 1];
		last = g;
	}
	if (pending) {
		pending->end = (pending->start + 4095) / 4096 * 4096 + 4096;
		keep_better(t->syms, &t->nr, pending);
	}
	t->sorted = true;
}

int kallsyms_load__finish(struct kallsyms_load *l, struct symtab *t, u64 *ref_addr,
			  size_t *nr_mod)
{
	bool ref_seen = !l->ref, empty = !t->nr;
	size_t nr = 0;
	int err = 0;

	kallsyms_load__parse(l, false);		/* what no worker took */
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		struct kseg *g = &l->seg[i];

		if (g->err)
			err = g->err;
		if (!ref_seen && g->ref_seen) {
			*ref_addr = g->ref_addr;
			ref_seen = true;
		}
		nr += g->nr;
		if (nr_mod)
			*nr_mod += g->nr_mod;
	}
	if (!err && !ref_seen)
		err = -ENOENT;
	if (!err && t->alloc - t->nr < nr) {
		struct symbol **a = realloc(t->syms, (t->nr + nr) * sizeof(*a));

		if (a) {
			t->syms = a;
			t->alloc = t->nr + nr;
		} else {
			err = -ENOMEM;
		}
	}
	if (err) {
		kallsyms_load__abort(l);
		symtab__exit(t);
		return err;
	}
	if (empty) {
		kallsyms_join(l, t);
	} else {		/* after other symbols: the plain way */
		for (unsigned int i = 0; i < l->nr_seg; i++) {
			struct kseg *g = &l->seg[i];

			for (size_t j = 0; j < g->nr; j++)
				g->syms[j]->end = g->syms[j]->start;
			memcpy(t->syms + t->nr, g->syms, g->nr * sizeof(*g->syms));
			t->nr += g->nr;
		}
		t->sorted = false;
		symtab__fixup(t, true);
	}
	if (l->arena) {
		l->arena->next = t->chunks;
		t->chunks = l->arena;
		l->arena = NULL;
	}
	for (unsigned int i = 0; i < l->nr_seg; i++) {
		struct symbol_chunk *c = l->seg[i].chunks;

		while (c) {
			struct symbol_chunk *n = c->next;

			c->next = t->chunks;
			t->chunks = c;
			c = n;
		}
		l->seg[i].chunks = NULL;
	}
	kallsyms_load__abort(l);
	return nr;
}

int kallsyms__strerror(int err, const char *path, char *buf, size_t size)
{
	switch (err) {
	case -EINVAL:
		return snprintf(buf, size, "'%s' holds no kallsyms text (a device, a folder, or "
				"binary data)", path);
	case -EFBIG:
		return snprintf(buf, size, "'%s' is larger than %u MB", path,
				KALLSYMS_MAX_BYTES >> 20);
	default:
		return snprintf(buf, size, "cannot read '%s': %s", path, strerror(-err));
	}
}

int symtab__load_kallsyms_ref(struct symtab *t, const char *path, const char *ref, u64 *ref_addr)
{
	struct kallsyms_load *l = kallsyms_load__open(path, ref, NULL);

	if (!l)
		return errno ? -errno : -ENOMEM;
	return kallsyms_load__finish(l, t, ref_addr, NULL);
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

bool elf__has_symtab(const char *path)
{
	struct elf_file ef;
	GElf_Shdr shdr;
	bool found;

	if (!path || elf_file__open(&ef, path))
		return false;
	found = elf_file__section(&ef, ".symtab", &shdr, NULL) && shdr.sh_type == SHT_SYMTAB &&
		shdr.sh_entsize && shdr.sh_size / shdr.sh_entsize > 1;
	elf_file__close(&ef);
	return found;
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

/* perf's sections for labels: a name with "text" or "data" in it */
static bool section_is_text_or_data(struct elf_file *ef, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(ef->elf, shndx);
	GElf_Shdr shdr;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return false;
	n = elf_strptr(ef->elf, ef->shstrndx, shdr.sh_name);
	return n && (strstr(n, "text") || strstr(n, "data"));
}

static bool sym_wanted(struct elf_file *ef, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	/* labels: as perf, not hidden or internal ones */
	return type == STT_NOTYPE && sym->st_shndx < SHN_LORESERVE &&
	       GELF_ST_VISIBILITY(sym->st_other) != STV_HIDDEN &&
	       GELF_ST_VISIBILITY(sym->st_other) != STV_INTERNAL &&
	       section_is_text_or_data(ef, sym->st_shndx);
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
	struct symbol **order = NULL;
	uintptr_t *lost = NULL;
	u64 *starts = NULL;
	size_t nr_lost = 0, nr_fixed;
	int nr, plt;

	free(t->tree);		/* of an earlier load (none is kept: it failed) */
	t->tree = NULL;
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
	/* perf's order of insertion, kept for its tree should symbols overlap */
	if (nr > 0 && (size_t)nr == t->nr) {
		order = malloc(t->nr * sizeof(*order));
		starts = malloc(t->nr * sizeof(*starts));
		lost = malloc(t->nr * sizeof(*lost));
		for (size_t i = 0; order && starts && i < t->nr; i++) {
			order[i] = t->syms[i];
			starts[i] = t->syms[i]->start;
		}
	}
	/* as perf: ends first, with the duplicates there (only the last of a run gets one) */
	if (nr >= 0 && !symtab__sort(t)) {
		fixup_end(t, false);
		fixup_duplicates(t, order && starts && lost ? lost : NULL, &nr_lost);
	}
	nr_fixed = t->nr;
	plt = nr > 0 ? synthesize_plt(t, &rt) : 0;	/* perf: only where it found symbols */
	elf_file__close(&rt);
	if (nr >= 0 && plt >= 0) {
		struct symbol **made = plt > 0 ? malloc(plt * sizeof(*made)) : NULL;

		if (made)
			memcpy(made, t->syms + nr_fixed, plt * sizeof(*made));
		t->sorted = false;
		symtab__sort(t);
		if (order && starts && lost && (!plt || made) && overlaps(t) &&
		    (t->tree = tree_build(order, starts, nr, lost, nr_lost, made, plt)))
			t->tree->nr = t->nr;
		free(made);
	}
	free(order);
	free(starts);
	free(lost);
	if (nr < 0 || plt < 0)
		return nr < 0 ? nr : plt;
	return nr + plt;
}
