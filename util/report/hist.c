// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hist entries: insertion by key, the final merge of entries whose keys
 * print the same (perf's collapse), and perf's output order: children
 * period, self period, then each key's sort order, then the keys' identity
 * order (addresses) for ties.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/batch-pipe.h"
#include "util/report/hist.h"
#include "util/lib/slab.h"

/* What the keys ask of each lookup, once per key set. */
static void note_keys(struct hists *h)
{
	h->cache_ip = h->sym_key = false;
	h->walk_keys = true;
	for (int i = 0; i < h->nr_keys; i++) {
		h->cache_ip |= h->keys[i] == SORT_SYMOFF;
		h->sym_key |= h->keys[i] == SORT_SYM;
		h->walk_keys &= h->keys[i] == SORT_COMM || h->keys[i] == SORT_DSO ||
				h->keys[i] == SORT_SYM;
	}
	h->walk_default = h->nr_keys == 3 && h->keys[0] == SORT_COMM &&
			  h->keys[1] == SORT_DSO && h->keys[2] == SORT_SYM;
	/* the quick table: walk keys; a symbol key after a DSO key */
	h->comm_key = h->dso_key = h->class_comm = false;
	h->quick_keys = h->walk_keys;
	for (int i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] == SORT_SYM) {
			h->quick_keys &= h->dso_key;
			h->class_comm = h->comm_key;
		}
		h->comm_key |= h->keys[i] == SORT_COMM;
		h->dso_key |= h->keys[i] == SORT_DSO;
	}
}

int hists__init(struct hists *h, const enum sort_key_id *keys, int nr_keys, bool children,
		const struct callchain_param *cc)
{
	memset(h, 0, sizeof(*h));
	h->keys = keys;
	h->nr_keys = nr_keys;
	h->children = children;
	h->cc = cc;
	note_keys(h);
	return 0;
}

void hists__set_format(struct hists *h, const struct hist_format *f)
{
	h->fmt = f;
	h->keys = f->keys;
	h->nr_keys = f->nr_keys;
	note_keys(h);
}

/*
 * The lookup cache: the entry the tree walk found for these sample fields
 * (at least as fine as any key set), with the walk's path.  A walk's answer
 * depends on the tree: with inline symbols its order is partial, and an
 * entry's symbol can change in place (follow_map), so a walk may miss an
 * equal entry, as perf's does.  The same path, each node still linked to
 * the next and with the key it had, is the same walk: the answer holds.
 * Samples with a symbol use a table that holds every key; those without
 * one (key: their address) a direct-mapped one of NOSYM_CACHE slots, a
 * key taking its slot over from another: a stripped library's frames have
 * as many keys as addresses (xz's recording: 95,000, against 2,700 with
 * one), and the table would be tens of bytes per sample.
 */
#define CACHE_PATH 40
#define NOSYM_CACHE 16384

struct hist_cache_key {
	const void *comm, *thread, *dso, *sym, *parent;
	const char *srcline, *srcfile;
	u64 ip, weight;
	int cpu, socket;
};

struct hist_cache_slot {
	struct hist_cache_key k;
	struct hist_entry *e;		/* NULL: an empty slot */
	unsigned int len;		/* nodes of the path (0: walk again) */
	u64 version;			/* the tree's then (hists.version) */
	u64 left;			/* bit i: the walk went left at path[i] */
	struct rb_link *path[CACHE_PATH];
	u32 moved[CACHE_PATH];		/* their entries' key changes then */
};

static void key_of(const struct hists *h, const struct hist_entry *t, struct hist_cache_key *k)
{
	memset(k, 0, sizeof(*k));
	k->comm = t->comm;
	k->thread = t->thread;
	k->dso = t->dso;
	k->sym = t->sym;
	k->parent = t->parent;
	k->srcline = t->srcline;
	k->srcfile = t->srcfile;
	k->ip = h->cache_ip || !t->sym ? t->ip : 0;
	k->weight = t->weight;
	k->cpu = t->cpu;
	k->socket = t->socket;
}

static size_t key_hash(const struct hist_cache_key *k, size_t size)
{
	u64 x = (uintptr_t)k->comm ^ (uintptr_t)k->thread * 31 ^ (uintptr_t)k->dso * 131 ^
		(uintptr_t)k->sym * 1031 ^ (uintptr_t)k->parent ^ (uintptr_t)k->srcline * 7 ^
		(uintptr_t)k->srcfile ^ k->ip * 13 ^ k->weight * 17 ^ (u64)k->cpu * 8191 ^
		(u64)k->socket << 40;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return x & (size - 1);
}

static bool key_same(const struct hist_cache_key *a, const struct hist_cache_key *b)
{
	return a->comm == b->comm && a->thread == b->thread && a->dso == b->dso &&
	       a->sym == b->sym && a->parent == b->parent && a->srcline == b->srcline &&
	       a->srcfile == b->srcfile && a->ip == b->ip && a->weight == b->weight &&
	       a->cpu == b->cpu && a->socket == b->socket;
}

/* The slot of key @k: its answer, or the empty slot where it goes. */
static struct hist_cache_slot *cache_find(struct hists *h, const struct hist_cache_key *k)
{
	size_t i;

	if (!h->cache_size)
		return NULL;
	for (i = key_hash(k, h->cache_size); h->cache[i].e; i = (i + 1) & (h->cache_size - 1))
		if (key_same(&h->cache[i].k, k))
			return &h->cache[i];
	return &h->cache[i];
}

/* The slot of a key without a symbol (NULL: no table, no memory). */
static struct hist_cache_slot *nosym_slot(struct hists *h, const struct hist_cache_key *k)
{
	if (!h->cache_nosym && !(h->cache_nosym = calloc(NOSYM_CACHE, sizeof(*h->cache_nosym))))
		return NULL;
	return &h->cache_nosym[key_hash(k, NOSYM_CACHE)];
}

/* The answer to key @k in its table, or NULL. */
static struct hist_cache_slot *cache_lookup(struct hists *h, const struct hist_cache_key *k)
{
	struct hist_cache_slot *s = k->sym ? cache_find(h, k) : nosym_slot(h, k);

	return s && s->e && key_same(&s->k, k) ? s : NULL;
}

static void slot_set(struct hist_cache_slot *s, const struct hist_cache_key *k,
		     struct hist_entry *e, struct rb_link *const *path, const u32 *moved,
		     u64 left, unsigned int len, u64 version)
{
	s->k = *k;
	s->e = e;
	s->len = len;
	s->version = version;
	s->left = left;
	memcpy(s->path, path, len * sizeof(*path));
	memcpy(s->moved, moved, len * sizeof(*moved));
}

static void cache_add(struct hists *h, const struct hist_cache_key *k, struct hist_entry *e,
		      struct rb_link *const *path, const u32 *moved, u64 left, unsigned int len)
{
	struct hist_cache_slot *s;

	if (!k->sym) {
		if ((s = nosym_slot(h, k)))
			slot_set(s, k, e, path, moved, left, len, h->version);
		return;
	}

	if (2 * (h->cache_nr + 1) > h->cache_size) {
		size_t size = h->cache_size ? 2 * h->cache_size : 1024;
		struct hist_cache_slot *old = h->cache, *n = calloc(size, sizeof(*n));
		size_t old_size = h->cache_size;

		if (!n)
			return;		/* no cache: the walk still works */
		h->cache = n;
		h->cache_size = size;
		for (size_t i = 0; i < old_size; i++)
			if (old[i].e)
				*cache_find(h, &old[i].k) = old[i];
		free(old);
	}
	s = cache_find(h, k);
	if (!s->e)
		h->cache_nr++;
	slot_set(s, k, e, path, moved, left, len, h->version);
}

static void cache_free(struct hists *h)
{
	free(h->quick);
	h->quick = NULL;
	h->quick_size = h->quick_nr = 0;
	free(h->order);
	h->order = NULL;
	free(h->sym_memo);
	h->sym_memo = NULL;
	free(h->cache);
	h->cache = NULL;
	free(h->cache_nosym);
	h->cache_nosym = NULL;
	h->cache_size = h->cache_nr = 0;
}

/*
 * Entries: a DWARF report of forked processes makes ~65,000 of them on the
 * hists' thread (perf's map-following rule), merged back at collapse.
 */
static struct slab entry_slabs[2] = { SLAB_INIT_ALIGNED(struct hist_entry, 64),
				      SLAB_INIT_ALIGNED(struct hist_entry, 64) };
static __thread struct slab *entry_slab = &entry_slabs[0];	/* see cc_node__use_slab() */

struct hist_entry *hist_entry__zalloc(void)
{
	return slab__zalloc(entry_slab);
}

void hist_entry__free(struct hist_entry *e)
{
	cc_node__free_children(&e->callchain);
	free(e->pairs);
	slab__free(entry_slab, e);
}

void hists__exit(struct hists *h)
{
	if (h->sorted) {
		for (size_t i = 0; i < h->nr_sorted + h->nr_filtered; i++)
			hist_entry__free(h->sorted[i]);
	} else {
		for (size_t i = 0; i < h->nr; i++)
			hist_entry__free(h->all[i]);
	}
	free(h->sorted);
	if (h->all != h->sorted)
		free(h->all);
	cache_free(h);
	memset(h, 0, sizeof(*h));
}

static const char *dso_name(const struct hists *h, const struct hist_entry *e)
{
	if (!e->dso)
		return NULL;
	/* perf -v orders by the long names it shows */
	return h && h->long_dso ? e->dso->long_name : e->dso->short_name;
}

/* strcmp(), deciding at the first byte without a call when it can (tree walks) */
static inline int str_cmp(const char *a, const char *b)
{
	if (a[0] != b[0])
		return (unsigned char)a[0] < (unsigned char)b[0] ? -1 : 1;
	return strcmp(a, b);
}

static int cmp_str_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? 1 : -1;
	return str_cmp(a, b);
}

static int pid_of(const struct hist_entry *e)
{
	return e->thread ? e->thread->tid : -1;
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* The keys added after comm/dso/sym/pid/cpu: their output order. */
static int key_sort_more(enum sort_key_id k, const struct hist_entry *a, const struct hist_entry *b)
{
	switch (k) {
	case SORT_SYMOFF:
		if (!a->sym || !b->sym)
			return !a->sym && !b->sym ? cmp_u64(a->ip, b->ip) : !a->sym ? 1 : -1;
		return strcmp(a->sym->name, b->sym->name) ?: cmp_u64(a->ip, b->ip);
	case SORT_SRCLINE:
		return strcmp(a->srcline, b->srcline);
	case SORT_SRCFILE:
		return strcmp(a->srcfile, b->srcfile);
	case SORT_PARENT:
		if (!a->parent || !b->parent)
			return !a->parent && !b->parent ? 0 : !a->parent ? 1 : -1;
		return strcmp(a->parent->name, b->parent->name);
	case SORT_SOCKET:
		return a->socket - b->socket;
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		return cmp_u64(b->weight, a->weight);	/* heaviest first */
	default:
		return 0;
	}
}

/*
 * perf's memcmp() of a field's bytes: those of @l (where its record has
 * them) against the same bytes of @r's record (past its end: as zeros).
 */
static int dyn_bytes(const struct hist_dyn *l, const struct hist_dyn *r)
{
	const char *p = l->raw + 2 * (size_t)l->off, *q = r->raw;
	size_t rlen = strlen(r->raw);

	for (size_t i = 0; i < 2 * (size_t)l->size; i++) {
		size_t at = 2 * (size_t)l->off + i;
		char c = at < rlen ? q[at] : '0';

		if (p[i] != c)
			return p[i] < c ? -1 : 1;
	}
	return 0;
}

/*
 * Tracepoint keys: perf orders a field by memcmp() of its bytes, the larger
 * first, and its left entry is @left (0: @a, 1: @b); the trace text by
 * strcmp(), the smaller first.
 */
static int dyn_sort(int i, const struct hist_entry *a, const struct hist_entry *b, int left)
{
	static const struct hist_dyn none;
	const struct hist_dyn *x = a->dyn ? &a->dyn[i] : &none;
	const struct hist_dyn *y = b->dyn ? &b->dyn[i] : &none;

	if (x->raw && y->raw)
		return left ? dyn_bytes(y, x) : -dyn_bytes(x, y);
	if (x->raw || y->raw)
		return -cmp_str_null_last(x->raw, y->raw);
	/* perf computes the text when it first compares it: the entries
	 * (and templates) compared here are never const objects */
	((struct hist_entry *)a)->dyn_compared |= 1ull << i;
	((struct hist_entry *)b)->dyn_compared |= 1ull << i;
	return cmp_str_null_last(x->val, y->val);
}

static bool dyn_key(enum sort_key_id k)
{
	return k >= SORT_DYN0 && k <= SORT_DYN_LAST;
}

/* The key's output order (perf's sort function of the key). */
static int key_sort(const struct hists *h, enum sort_key_id k, const struct hist_entry *a,
		    const struct hist_entry *b)
{
	if (dyn_key(k)) {	/* perf's output sort: the entry placed is the left one */
		((struct hist_entry *)a)->dyn_sized |= 1ull << (k - SORT_DYN0);
		return dyn_sort(k - SORT_DYN0, a, b, 0);
	}
	switch (k) {
	case SORT_COMM:		/* the machine interns the names */
		return a->comm->str == b->comm->str ? 0 : strcmp(a->comm->str, b->comm->str);
	case SORT_DSO:
		return a->dso == b->dso ? 0 : cmp_str_null_last(dso_name(h, a), dso_name(h, b));
	case SORT_SYM:
		if (!a->sym || !b->sym)
			return !a->sym && !b->sym ? 0 : !a->sym ? 1 : -1;
		return strcmp(a->sym->name, b->sym->name);
	case SORT_PID:
	case SORT_TID:
		return pid_of(a) - pid_of(b);
	case SORT_CPU:
		return a->cpu - b->cpu;
	default:
		return key_sort_more(k, a, b);
	}
}

/* perf compares addresses by their signed difference */
static int cmp_addr(u64 a, u64 b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* The key's identity order, which decides between equal sort values. */
/* perf's rule for inline frames (util/unwind/unwind.c): by name, then same if they overlap. */
static int cmp_inlined(const struct symbol *a, const struct symbol *b)
{
	int c = str_cmp(b->name, a->name);	/* perf: strcmp(existing, new) */

	if (c)
		return c;
	if (a->start <= b->end && a->end >= b->start)
		return 0;
	return a->start != b->start ? cmp_addr(a->start, b->start) : cmp_addr(a->end, b->end);
}

static int key_ident(const struct hists *h, enum sort_key_id k, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	int c;

	/* the usual answers of a tree walk first: same name, same DSO */
	if (k == SORT_COMM && a->comm->str == b->comm->str)
		return 0;
	if (k == SORT_DSO && a->dso == b->dso)
		return 0;
	if (k == SORT_SYM && a->sym == b->sym && a->sym && a->dso == b->dso)
		return 0;
	if (k == SORT_SYMOFF)
		return key_ident(h, SORT_SYM, a, b) ?: cmp_u64(a->ip, b->ip);
	if (dyn_key(k)) {	/* perf's lookup and collapse: the entry in the tree is left */
		((struct hist_entry *)b)->dyn_sized |= 1ull << (k - SORT_DYN0);
		return dyn_sort(k - SORT_DYN0, a, b, 1);
	}
	if (k != SORT_SYM)
		return key_sort(h, k, a, b);
	if (!a->sym && !b->sym)
		return cmp_addr(a->ip, b->ip);
	/* perf compares the DSOs first here (not when both lack a symbol) */
	c = a->dso == b->dso ? 0 : cmp_str_null_last(dso_name(h, a), dso_name(h, b));
	if (c)
		return c;
	if (!a->sym || !b->sym)
		return !a->sym ? 1 : -1;
	if (a->sym->inlined || b->sym->inlined)
		return cmp_inlined(a->sym, b->sym);
	if (a->sym->start != b->sym->start)
		return cmp_addr(a->sym->start, b->sym->start);
	return cmp_addr(a->sym->end, b->sym->end);
}

static int ident_cmp(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b)
{
	for (int i = 0; i < h->nr_keys; i++) {
		int c = key_ident(h, h->keys[i], a, b);

		if (c)
			return c;
	}
	return 0;
}

/* The children overhead order: larger first, then callers above callees. */
static int children_cmp(const struct hists *h, const struct hist_entry *a,
			const struct hist_entry *b)
{
	if (a->period_acc != b->period_acc)
		return a->period_acc > b->period_acc ? -1 : 1;
	/* perf puts callers above callees of the same thread at equal periods */
	if (a->thread == b->thread && h->has_callchain && a->max_depth != b->max_depth) {
		bool caller = h->cc && h->cc->order == ORDER_CALLER;

		return (a->max_depth > b->max_depth) == caller ? -1 : 1;
	}
	return 0;
}

/* A value column's order: larger first. */
static int value_cmp(const struct hists *h, enum sort_key_id k, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	switch (k) {
	case SORT_OVERHEAD_CHILDREN:
		return children_cmp(h, a, b);
	case SORT_OVERHEAD_SYS:
		return cmp_u64(b->period_sys, a->period_sys);
	case SORT_OVERHEAD_US:
		return cmp_u64(b->period_us, a->period_us);
	case SORT_OVERHEAD_GUEST_SYS:
		return cmp_u64(b->period_guest_sys, a->period_guest_sys);
	case SORT_OVERHEAD_GUEST_US:
		return cmp_u64(b->period_guest_us, a->period_guest_us);
	case SORT_SAMPLE:
		return cmp_u64(b->nr_samples, a->nr_samples);
	default:
		return cmp_u64(b->period, a->period);
	}
}

/* A group's members' values, in member order, after the leader's. */
static int group_value_cmp(const struct hists *h, enum sort_key_id k, const struct hist_entry *a,
			   const struct hist_entry *b)
{
	static const struct hist_entry none;
	int c = value_cmp(h, k, a, b);

	/* perf's children order looks at the leader only */
	for (int m = 0; !c && k != SORT_OVERHEAD_CHILDREN && m < h->nr_members; m++) {
		const struct hist_entry *pa = a->pairs && a->pairs[m] ? a->pairs[m] : &none;
		const struct hist_entry *pb = b->pairs && b->pairs[m] ? b->pairs[m] : &none;

		c = value_cmp(h, k, pa, pb);
	}
	return c;
}

/* The order of perf's output fields (hist_format's sorts). */
static int format_cmp(const struct hists *h, const struct hist_format *f,
		      const struct hist_entry *a, const struct hist_entry *b)
{
	for (int i = 0; i < f->nr_sorts; i++) {
		enum sort_key_id k = f->sorts[i];
		int c = sort_key__is_value(k) ? group_value_cmp(h, k, a, b) : key_sort(h, k, a, b);

		if (c)
			return c;
	}
	return 0;
}

static int output_cmp(const void *pa, const void *pb, const struct hists *h)
{
	const struct hist_entry *a = *(struct hist_entry *const *)pa;
	const struct hist_entry *b = *(struct hist_entry *const *)pb;
	int c;

	if (h->fmt)
		return format_cmp(h, h->fmt, a, b);
	if (h->children && (c = children_cmp(h, a, b)))
		return c;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < h->nr_keys; i++) {
		c = key_sort(h, h->keys[i], a, b);
		if (c)
			return c;
	}
	return 0;	/* perf's sort functions, no identity: the tree's shape decides */
}

/*
 * perf inserts the entries, in their collapsed order, into a red-black tree
 * with this comparison; since callers-above-callees only applies within a
 * thread the order is not total, so the tree's shape decides: build the
 * same tree.
 */
static int entry__merge(const struct hists *h, struct hist_entry *dst, struct hist_entry *src);

/* a comparison of two struct hist_entry * (pointed to) by the keys of @h */
typedef int (*entry_cmp_fn)(const void *, const void *, const struct hists *h);

/*
 * Insert @z by @cmp (negative: to the left).  With @merge, an equal node is
 * returned instead (z is not inserted).
 */
/* The node of the rb_link @x (its first member). */
static struct hist_rb_node *hnode(const struct rb_link *x)
{
	return (struct hist_rb_node *)x;
}

static struct hist_rb_node *rb_insert(struct rb_link **root, struct hist_rb_node *z, entry_cmp_fn cmp,
				      const struct hists *h, bool merge)
{
	struct rb_link *y = NULL, *x = *root;
	int c = 0;

	while (x) {
		y = x;
		c = cmp(&z->e, &hnode(x)->e, h);
		if (!c && merge)
			return hnode(x);
		x = c < 0 ? x->l : x->r;
	}
	rb_link_leaf(root, &z->rb, y, c < 0);
	rb_insert_fixup(root, &z->rb);
	return NULL;
}

/* The entry of a node of the tree samples are added to (its first member). */
_Static_assert(offsetof(struct hist_entry, in_node) == 0, "in_node first");
static struct hist_entry *in_entry(const struct rb_link *x)
{
	return (struct hist_entry *)x;
}

/* rb_walk() of that tree */
static size_t in_walk(const struct rb_link *n, struct hist_entry **out, size_t i)
{
	while (n) {
		__builtin_prefetch(n->r);
		i = in_walk(n->l, out, i);
		out[i++] = in_entry(n);
		n = n->r;
	}
	return i;
}

/*
 * The entries of the tree at @n in order, into @out from @i.  The right
 * child is asked for before the walk of the left subtree: it comes
 * during it, not as one cache miss after the other.
 */
static size_t rb_walk(const struct rb_link *n, struct hist_entry **out, size_t i)
{
	while (n) {
		__builtin_prefetch(n->r);
		i = rb_walk(n->l, out, i);
		out[i++] = hnode(n)->e;
		n = n->r;
	}
	return i;
}

/*
 * The collapse merges entries (and their callchains) that are one cache
 * miss after the other: ask for the entry 2 * CC_PREFETCH_TRIES merges
 * ahead, start the prefetch walk of the callchain CC_PREFETCH_TRIES ahead
 * (in the slot of the one merged and freed last) and step the walks.
 */
static void prefetch_ahead(struct cc_prefetch *pf, struct hist_entry **v, size_t i, size_t n)
{
	if (i + 2 * CC_PREFETCH_TRIES < n) {
		const char *e = (const char *)v[i + 2 * CC_PREFETCH_TRIES];

		for (size_t off = 0; off < offsetof(struct hist_entry, callchain); off += 64)
			__builtin_prefetch(e + off);
	}
	if (i == 0)
		for (size_t k = 0; k < CC_PREFETCH_TRIES; k++)
			cc_prefetch__start(pf, k < n ? &v[k]->callchain : NULL);
	else
		cc_prefetch__start(pf, i + CC_PREFETCH_TRIES - 1 < n ?
				   &v[i + CC_PREFETCH_TRIES - 1]->callchain : NULL);
	cc_prefetch__step(pf);
}

/*
 * Pass @v (n entries) through a tree ordered by @cmp, as perf's stages do,
 * merging equal entries when @merge; *out gets the survivors in order.
 */
static int tree_pass(const struct hists *h, struct hist_entry **v, size_t *n, entry_cmp_fn cmp,
		     bool merge)
{
	struct hist_rb_node *nodes = calloc(*n + 1, sizeof(*nodes));
	struct cc_prefetch *pf = merge ? calloc(1, sizeof(*pf)) : NULL;
	struct rb_link *root = NULL;
	int err = 0;

	if (!nodes) {
		free(pf);
		return -ENOMEM;
	}
	for (size_t i = 0; i < *n; i++) {
		struct hist_rb_node *same;

		if (pf)
			prefetch_ahead(pf, v, i, *n);
		nodes[i].e = v[i];
		same = rb_insert(&root, &nodes[i], cmp, h, merge);
		if (same) {
			if (!err)
				err = entry__merge(h, same->e, v[i]);
			hist_entry__free(v[i]);
		}
	}
	*n = rb_walk(root, v, 0);
	free(nodes);
	free(pf);
	return err;
}

/* The first @n (8 or 16) bytes of @str as big-endian words: their order is strcmp()'s. */
static void prefix_words(const char *str, u64 *w, size_t n)
{
	u64 b[2] = { 0, 0 };

	memcpy(b, str, strnlen(str, n));
	for (size_t i = 0; i < n / 8; i++)
		w[i] = __builtin_bswap64(b[i]);
}

/*
 * prefix_words() of a symbol's name, remembered by each thread for the
 * last symbols it saw (the frames of a sample's chain come again and
 * again).  Symbols live as long as their DSO (the report's), so one at
 * the same place with the same bounds and length is the same symbol.
 */
#define NAME_MEMO 128

static __thread struct name_memo {
	const struct symbol *sym;
	u64 start, end;
	u64 w[2];
} name_memo[NAME_MEMO];

static void name_words(const struct symbol *s, u64 *w)
{
	struct name_memo *m = &name_memo[((uintptr_t)s >> 5) % NAME_MEMO];

	if (m->sym != s || m->start != s->start || m->end != s->end) {
		m->sym = s;
		m->start = s->start;
		m->end = s->end;
		prefix_words(s->name, m->w, 16);
	}
	w[0] = m->w[0];
	w[1] = m->w[1];
}

/* prefix_words() of a DSO's short name, remembered likewise (DSOs live as long) */
#define DSO_MEMO 16

static __thread struct dso_memo {
	const struct dso *dso;
	u64 w;
} dso_memo[DSO_MEMO];

static u64 dso_words(const struct dso *d)
{
	struct dso_memo *m = &dso_memo[((uintptr_t)d >> 6) % DSO_MEMO];

	if (m->dso != d) {
		m->dso = d;
		prefix_words(d->short_name, &m->w, 8);
	}
	return m->w;
}

/* The walk's copy of @e's keys (after any change of them). */
static void wkey_set(struct hist_wkey *k, const struct hist_entry *e)
{
	const struct symbol *s = e->sym;

	memset(k, 0, sizeof(*k));
	k->comm = e->comm ? e->comm->str : NULL;
	k->dso = e->dso;
	if (e->dso)
		k->dso_name = dso_words(e->dso);
	k->sym = s;
	k->ip = e->ip;
	if (!s)
		return;
	k->start = s->start;
	k->end = s->end;
	k->inlined = s->inlined;
	name_words(s, k->name);
}

/* perf's DSO order (cmp_str_null_last of the names), from the prefixes when they differ. */
static int wkey_dso(const struct hists *h, const struct hist_wkey *x, const struct hist_wkey *y,
		    const struct hist_entry *a, const struct hist_entry *b)
{
	if (x->dso && y->dso && !h->long_dso && x->dso_name != y->dso_name)
		return x->dso_name < y->dso_name ? -1 : 1;
	return cmp_str_null_last(dso_name(h, a), dso_name(h, b));
}

/* key_ident(SORT_SYM) on the walk's copies (@a and @b for the DSO names). */
static inline int wkey_sym(const struct hists *h, const struct hist_wkey *x,
			   const struct hist_wkey *y, const struct hist_entry *a,
			   const struct hist_entry *b)
{
	int c;

	if (x->sym == y->sym && x->sym && x->dso == y->dso)
		return 0;
	if (!x->sym && !y->sym)
		return cmp_addr(x->ip, y->ip);
	c = x->dso == y->dso ? 0 : wkey_dso(h, x, y, a, b);
	if (c)
		return c;
	if (!x->sym || !y->sym)
		return !x->sym ? 1 : -1;
	if (x->inlined || y->inlined) {
		/* cmp_inlined(): strcmp(b's name, a's name) first */
		if (x->name[0] != y->name[0])
			return y->name[0] < x->name[0] ? -1 : 1;
		if (x->name[1] != y->name[1])
			return y->name[1] < x->name[1] ? -1 : 1;
		if (x->name[1] & 0xff) {	/* both names go on past 16 bytes */
			c = strcmp(y->sym->name, x->sym->name);
			if (c)
				return c < 0 ? -1 : 1;
		}
		if (x->start <= y->end && x->end >= y->start)
			return 0;
		return x->start != y->start ? cmp_addr(x->start, y->start) :
		       cmp_addr(x->end, y->end);
	}
	if (x->start != y->start)
		return cmp_addr(x->start, y->start);
	return cmp_addr(x->end, y->end);
}

/* ident_cmp() of template @a (keys @x) and entry @b, when h->walk_keys. */
static inline __attribute__((always_inline))
int wkey_cmp(const struct hists *h, const struct hist_wkey *x, const struct hist_entry *a,
	     const struct hist_entry *b)
{
	const struct hist_wkey *y = &b->wk;
	int c;

	if (h->walk_default) {		/* comm, dso, sym */
		if (x->comm != y->comm && (c = strcmp(x->comm, y->comm)))
			return c;
		if (x->dso != y->dso && (c = wkey_dso(h, x, y, a, b)))
			return c;
		return wkey_sym(h, x, y, a, b);
	}
	for (int i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case SORT_COMM:
			if (x->comm == y->comm)
				continue;
			c = strcmp(x->comm, y->comm);
			break;
		case SORT_DSO:
			if (x->dso == y->dso)
				continue;
			c = wkey_dso(h, x, y, a, b);
			break;
		default:
			c = wkey_sym(h, x, y, a, b);
		}
		if (c)
			return c;
	}
	return 0;
}

/* perf's quick test before comparing all keys: are the symbols different? */
static bool sym_differs(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct symbol *x = a->sym, *y = b->sym;

	if (!x || !y)
		return x || y || a->ip != b->ip;
	if (x == y)
		return false;
	if (x->inlined || y->inlined)
		return cmp_inlined(x, y) != 0;
	return x->start != y->start || x->end != y->end;
}

/* Do @a and @b have the same keys?  perf tests the symbols first, by the keys of @h. */
static bool same_keys(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b)
{
	if (!h->walk_keys) {
		for (int i = 0; i < h->nr_keys; i++)
			if ((h->keys[i] == SORT_SYM || h->keys[i] == SORT_SYMOFF) &&
			    sym_differs(a, b))
				return false;
		return !ident_cmp(h, a, b);
	}
	/* on the walk keys: two different non-inline symbols are different keys */
	if (h->sym_key && a->wk.sym != b->wk.sym && a->wk.sym && b->wk.sym && !a->wk.inlined &&
	    !b->wk.inlined && (a->wk.start != b->wk.start || a->wk.end != b->wk.end))
		return false;
	return !wkey_cmp(h, &a->wk, a, b);
}

bool hists__same_any(const struct hists *h, const struct hist_entry *a,
		     struct hist_entry *const *v, size_t n)
{
	bool same = false;

	for (size_t i = 0; i < n && !same; i++)
		same = same_keys(h, a, v[i]);
	return same;
}

/* Merge @src into @dst (same printed keys). */
static int entry__merge(const struct hists *h, struct hist_entry *dst, struct hist_entry *src)
{
	dst->period += src->period;
	dst->nr_samples += src->nr_samples;
	dst->period_sys += src->period_sys;
	dst->period_us += src->period_us;
	dst->period_guest_sys += src->period_guest_sys;
	dst->period_guest_us += src->period_guest_us;
	dst->period_acc += src->period_acc;
	dst->nr_acc += src->nr_acc;
	/* perf keeps the callchain depth of @dst: its tie rule looks at that */
	return cc_node__merge(&dst->callchain, &src->callchain, callchain_param__key(h->cc));
}

static int ident_cmp_v(const void *pa, const void *pb, const struct hists *h)
{
	return ident_cmp(h, *(struct hist_entry *const *)pa, *(struct hist_entry *const *)pb);
}

/* ident_cmp_v() from the walk keys (h->walk_keys): the entries' first lines */
static int wkey_cmp_v(const void *pa, const void *pb, const struct hists *h)
{
	const struct hist_entry *a = *(struct hist_entry *const *)pa;

	return wkey_cmp(h, &a->wk, a, *(struct hist_entry *const *)pb);
}

/* The collapsed tree's order: ident_cmp(), from the walk keys where they hold all keys. */
static entry_cmp_fn collapse_cmp(const struct hists *h)
{
	return h->walk_keys ? wkey_cmp_v : ident_cmp_v;
}

/*
 * perf 6.1 only has a collapsed tree when a key has a collapse function:
 * comm (not the tracepoint keys: perf's output takes their entries in the
 * first tree's order).  Without one, the entries the first tree missed
 * stay apart.
 */
static bool needs_collapse(const struct hists *h)
{
	for (int i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == SORT_COMM)
			return true;
	return false;
}


/* Below this many entries one thread merges them all (a thread costs ~50 us). */
#define COLLAPSE_THREAD_MIN	4096

/* The merges one thread makes: src[i] into dst[i], in this order. */
struct merge_part {
	const struct hists *h;
	struct hist_entry **src, **dst;
	size_t n;
	int err;
};

static void merge_part(struct merge_part *p)
{
	struct cc_prefetch *pf = calloc(1, sizeof(*pf));

	for (size_t i = 0; i < p->n; i++) {
		if (pf)
			prefetch_ahead(pf, p->src, i, p->n);
		if (!p->err)
			p->err = entry__merge(p->h, p->dst[i], p->src[i]);
		hist_entry__free(p->src[i]);
	}
	free(pf);
}

/*
 * The collapse on two threads.  The tree's comparisons look at the keys
 * only, never at periods or callchains: where each entry goes does not
 * depend on the merges, and merges into different entries are
 * independent.  So this thread puts the entries into the tree (perf's
 * shape, as tree_pass() does) and lists each merge it finds (the entry,
 * the one equal to it in the tree); a second thread makes the listed
 * merges meanwhile, in their order.  Once all entries are in, the second
 * thread stops where it is and the destinations of the merges left are
 * split: each thread makes all those into its own ones, in their order.
 */
struct collapse_run {
	const struct hists *h;
	struct hist_entry **src, **dst;	/* the merges, in order */
	u32 *to;			/* the node (index) of each one's dst */
	u32 *nr_to;			/* by node: merges into it, then its thread (owner()) */
	u32 *dsts;			/* the nodes merged into, in the order of their first */
	size_t nr_dsts;
	_Alignas(64) atomic_size_t nr;	/* merges listed so far (a line of its own) */
	_Alignas(64) atomic_bool all_in;	/* the list is complete: stop */
	atomic_size_t stop;		/* where the second thread stopped, + 1 */
	atomic_bool split;		/* nr_to[] has the owners */
	int err[2];			/* this thread's, the second's */
	unsigned int split_pct;		/* h->collapse_split_pct */
	atomic_size_t made;		/* with split_pct: merges the second thread made */
};

static void wait_a_bit(void)
{
	sched_yield();
}

/* The thread that merges into node @d, once split */
static int owner(const struct collapse_run *r, u32 d)
{
	return UINT32_MAX - r->nr_to[d];
}

/*
 * Make the merges from @from on into thread @t's destinations: from a list
 * of them with the prefetch pipeline, or without memory for it one by one.
 */
static void merge_own(struct collapse_run *r, size_t from, int t)
{
	size_t m = atomic_load_explicit(&r->nr, memory_order_relaxed), n = 0;
	struct merge_part p = { .h = r->h, .err = r->err[t] };

	for (size_t k = from; k < m; k++)
		n += owner(r, r->to[k]) == t;
	p.src = malloc(2 * (n + 1) * sizeof(*p.src));
	if (p.src) {
		p.dst = p.src + n + 1;
		for (size_t k = from; k < m; k++)
			if (owner(r, r->to[k]) == t) {
				p.src[p.n] = r->src[k];
				p.dst[p.n++] = r->dst[k];
			}
		merge_part(&p);
		free(p.src);
	} else {
		for (size_t k = from; k < m; k++)
			if (owner(r, r->to[k]) == t) {
				if (!p.err)
					p.err = entry__merge(r->h, r->dst[k], r->src[k]);
				hist_entry__free(r->src[k]);
			}
	}
	r->err[t] = p.err;
}

/* The second thread: the listed merges until all entries are in, then its own. */
static void *collapse_worker(void *arg)
{
	struct collapse_run *r = arg;
	struct cc_prefetch *pf = calloc(1, sizeof(*pf));
	size_t i = 0, nr = 0;

	/* the main thread makes and frees nodes and entries meanwhile */
	cc_node__use_slab(1);
	entry_slab = &entry_slabs[1];
	for (;;) {
		/* now and then: each look takes the line of nr from its writer */
		if (i == nr || i % 32 == 0) {
			if (atomic_load_explicit(&r->all_in, memory_order_acquire))
				break;
			nr = atomic_load_explicit(&r->nr, memory_order_acquire);
			if (i == nr) {
				wait_a_bit();
				continue;
			}
		}
		if (pf)
			prefetch_ahead(pf, r->src, i, nr);
		if (!r->err[1])
			r->err[1] = entry__merge(r->h, r->dst[i], r->src[i]);
		hist_entry__free(r->src[i]);
		i++;
		if (r->split_pct)
			atomic_store_explicit(&r->made, i, memory_order_relaxed);
	}
	free(pf);	/* its walks read tries the split may give the main thread */
	atomic_store_explicit(&r->stop, i + 1, memory_order_release);
	while (!atomic_load_explicit(&r->split, memory_order_acquire))
		wait_a_bit();
	merge_own(r, i, 1);
	return NULL;
}

/*
 * Give each destination of the merges from @from on a thread: greedy on
 * the number of merges into each, in the order of their first.
 */
static void split_merges(struct collapse_run *r, size_t from)
{
	size_t load[2] = { 0, 0 };

	for (size_t k = 0; k < from; k++)
		r->nr_to[r->to[k]]--;
	for (size_t i = 0; i < r->nr_dsts; i++) {
		u32 *c = &r->nr_to[r->dsts[i]];
		int t = load[1] < load[0];

		load[t] += *c;
		*c = UINT32_MAX - (*c ? t : 0);
	}
}

/* Merge on two threads?  Not with srcline frames: their lookups share the DSOs' caches. */
static bool collapse_threaded(const struct hists *h, size_t n)
{
	if (h->collapse_mode == HISTS_COLLAPSE_SERIAL || n >= UINT32_MAX / 2 ||
	    (h->has_callchain && callchain_param__key(h->cc) == CCKEY_SRCLINE))
		return false;
	if (h->collapse_mode == HISTS_COLLAPSE_PARALLEL)
		return true;
	return h->has_callchain && n >= COLLAPSE_THREAD_MIN && batch_pipe__usable_cpus() > 1;
}

/* Put @v's @n entries into @root as tree_pass() does, listing the merges for @r. */
static void collapse_insert(struct collapse_run *r, struct hist_entry **v, size_t n,
			    struct hist_rb_node *nodes, struct rb_link **root)
{
	entry_cmp_fn cmp = collapse_cmp(r->h);
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		struct hist_rb_node *same;
		u32 d;

		if (i + 2 * CC_PREFETCH_TRIES < n)	/* its keys (the walk keys first) */
			for (size_t off = 0; off < offsetof(struct hist_entry, callchain); off += 64)
				__builtin_prefetch((const char *)v[i + 2 * CC_PREFETCH_TRIES] + off);
		nodes[i].e = v[i];
		same = rb_insert(root, &nodes[i], cmp, r->h, true);
		if (!same)
			continue;
		d = same - nodes;
		if (!r->nr_to[d]++)
			r->dsts[r->nr_dsts++] = d;
		r->src[m] = v[i];
		r->dst[m] = same->e;
		r->to[m++] = d;
		atomic_store_explicit(&r->nr, m, memory_order_release);
	}
}

/* tree_pass() of the collapse on two threads (see struct collapse_run). */
static int collapse_pass(const struct hists *h, struct hist_entry **v, size_t *n)
{
	struct hist_rb_node *nodes = calloc(*n + 1, sizeof(*nodes));
	struct collapse_run r = { .h = h, .split_pct = h->collapse_split_pct };
	struct rb_link *root = NULL;
	size_t from = 0;
	pthread_t th;
	bool threaded;

	r.src = malloc(2 * (*n + 1) * sizeof(*r.src));
	r.to = malloc(2 * (*n + 1) * sizeof(*r.to));
	r.nr_to = calloc(*n + 1, sizeof(*r.nr_to));
	if (!nodes || !r.src || !r.to || !r.nr_to) {
		free(nodes);
		free(r.src);
		free(r.to);
		free(r.nr_to);
		return -ENOMEM;
	}
	r.dst = r.src + *n + 1;
	r.dsts = r.to + *n + 1;
	threaded = !pthread_create(&th, NULL, collapse_worker, &r);
	collapse_insert(&r, v, *n, nodes, &root);
	if (threaded) {
		while (atomic_load_explicit(&r.made, memory_order_relaxed) * 100 <
		       atomic_load_explicit(&r.nr, memory_order_relaxed) * r.split_pct)
			wait_a_bit();
		atomic_store_explicit(&r.all_in, true, memory_order_release);
		while (!(from = atomic_load_explicit(&r.stop, memory_order_acquire)))
			wait_a_bit();
		from--;
	}
	split_merges(&r, from);
	if (threaded)
		atomic_store_explicit(&r.split, true, memory_order_release);
	else		/* no second thread: this one makes them all */
		merge_own(&r, from, 1);
	merge_own(&r, from, 0);
	if (threaded)
		pthread_join(th, NULL);
	free(r.src);
	free(r.to);
	free(r.nr_to);
	*n = rb_walk(root, v, 0);
	free(nodes);
	return r.err[0] ?: r.err[1];
}

/* The entries are all there: make the nodes of the chains they kept (cc_node__keep()). */
static int settle_chains(struct hists *h)
{
	enum cc_key key = callchain_param__key(h->cc);

	for (size_t i = 0; h->has_callchain && i < h->nr_sorted; i++)
		if (cc_node__settle(&h->sorted[i]->callchain, key))
			return -ENOMEM;
	return 0;
}

/*
 * perf's three trees: entries by their keys in the order they were made
 * (equal ones are one entry), the collapsed tree built from that one's
 * order, the output tree from the collapsed one's.  The address order of
 * unresolved symbols is by signed difference, not total, so the order
 * depends on each tree's shape: build the same trees.
 */
int hists__collapse(struct hists *h)
{
	size_t n = h->nr;
	struct hist_entry **v = h->all;
	int err;

	if (h->collapsed)
		return 0;
	cache_free(h);
	if (!v)
		v = h->all = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	in_walk(h->root_in, v, 0);
	h->sorted = v;
	h->nr_sorted = n;
	if (!needs_collapse(h)) {
		h->collapsed = true;
		return settle_chains(h);
	}
	if (collapse_threaded(h, n))
		err = collapse_pass(h, v, &n);
	else
		err = tree_pass(h, v, &n, collapse_cmp(h), true);
	h->nr_sorted = n;
	h->collapsed = true;
	return err ?: settle_chains(h);
}

int hists__ident_cmp(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b)
{
	return ident_cmp(h, a, b);
}

struct prefix_item {
	const struct hist_entry *e;
	size_t i;
};

/* the keys prefix_cmp() compares: the first @nr_keys of @h's */
struct prefix_keys {
	const struct hists *h;
	int nr_keys;
};

/* ident_cmp() by the first p->nr_keys keys only */
static int prefix_ident(const struct prefix_keys *p, const struct hist_entry *a,
			const struct hist_entry *b)
{
	for (int k = 0; k < p->nr_keys; k++) {
		int c = key_ident(p->h, p->h->keys[k], a, b);

		if (c)
			return c;
	}
	return 0;
}

static int prefix_cmp(const void *pa, const void *pb, void *keys)
{
	const struct prefix_item *a = pa, *b = pb;
	int c = prefix_ident(keys, a->e, b->e);

	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

bool *hists__text_compared(const struct hists *h, enum sort_key_id k)
{
	bool *seen = calloc(h->nr_sorted ? h->nr_sorted : 1, sizeof(*seen));
	struct prefix_item *v = malloc((h->nr_sorted ? h->nr_sorted : 1) * sizeof(*v));
	int at = -1;

	for (int i = 0; i < h->nr_keys && at < 0; i++)
		if (h->keys[i] == k)
			at = i;
	if (!seen || !v || at < 0) {
		free(v);
		free(seen);
		return NULL;
	}
	for (size_t i = 0; i < h->nr_sorted; i++)
		v[i] = (struct prefix_item){ h->sorted[i], i };
	struct prefix_keys keys = { h, at };

	qsort_r(v, h->nr_sorted, sizeof(*v), prefix_cmp, &keys);
	for (size_t i = 0, j; i < h->nr_sorted; i = j) {
		for (j = i + 1; j < h->nr_sorted && !prefix_ident(&keys, v[i].e, v[j].e); j++)
			;
		for (size_t m = i; m < j; m++)
			seen[v[m].i] = j - i > 1 ||
				       (h->children ? v[m].e->nr_acc : v[m].e->nr_samples) > 1;
	}
	free(v);
	return seen;
}

int hists__output_resort(struct hists *h)
{
	size_t n, nr_hidden;
	int err = hists__collapse(h);

	n = h->nr_sorted;
	if (!err)
		err = tree_pass(h, h->sorted, &n, output_cmp, false);
	/* entries a filter made hidden go after the others, still owned */
	nr_hidden = 0;
	for (size_t i = 0; i < n; i++)
		nr_hidden += h->sorted[i]->hidden;
	if (!err && nr_hidden) {
		struct hist_entry **out = malloc(n * sizeof(*out));
		size_t k = 0, m = n - nr_hidden;

		if (!out)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			out[h->sorted[i]->hidden ? m++ : k++] = h->sorted[i];
		memcpy(h->sorted, out, n * sizeof(*out));
		free(out);
		n -= nr_hidden;
	}
	h->nr_filtered = nr_hidden;
	h->nr_sorted = n;
	h->total_period = h->relative ? 0 : h->hidden_period;
	for (size_t i = 0; i < n; i++)
		h->total_period += h->sorted[i]->period;
	h->threshold_total = h->total_period;
	h->chain_total = h->total_period + (h->relative ? h->hidden_period : 0);
	if (h->symbol_filter) {	/* perf's entry filter: the totals stay (unless relative) */
		struct hist_entry **out = malloc((n ? n : 1) * sizeof(*out));
		size_t k = 0, m = n;
		u64 shown = 0;

		if (!out)
			return -ENOMEM;
		/* the shown in order, the others after them, still owned (hists__exit()) */
		for (size_t i = 0; i < n; i++) {
			struct hist_entry *e = h->sorted[i];

			if (e->sym && strstr(e->sym->name, h->symbol_filter)) {
				out[k++] = e;
				shown += e->period;
			} else {
				out[--m] = e;
			}
		}
		memcpy(h->sorted, out, n * sizeof(*out));
		free(out);
		h->nr_filtered = n - k + nr_hidden;
		h->nr_sorted = k;
		if (h->relative)
			h->total_period = shown;
	}
	return err;
}

void hist_entry__template_keys(struct hist_entry *tmpl)
{
	wkey_set(&tmpl->wk, tmpl);
}

/*
 * perf's lookup: a walk down the tree of entries by key.  Its address
 * order is not total, so a walk can miss an equal entry and make a second
 * one, as perf does.
 */
/*
 * The cache holds samples unless a tracepoint key is sorted on: its values
 * are not in the slot, and perf's widths for the trace key
 * depend on the comparisons the walk makes.
 */
/*
 * Entries found by their keys without the tree walk.  The order of inline
 * symbols is partial, so perf's walk can miss an entry it made before and
 * make another, merged at collapse: the rows are the same, the callchain
 * counts are not (a merged chain counts once).  Only for those counts do
 * inline symbols take the (slower) walk.
 */
static bool cacheable(const struct hists *h, const struct hist_entry *t)
{
	for (int i = 0; i < h->nr_keys; i++)
		if (dyn_key(h->keys[i]))
			return false;
	if (t->sym && t->sym->inlined && h->has_callchain && h->cc && h->cc->value == CCVAL_COUNT)
		return false;
	return true;
}

/*
 * symtab__find(&d->syms, start), remembered: entries of forked processes
 * move between their maps at almost every sample.  Symbols are only
 * added to a table (BPF, JIT), so its size tells whether it changed.
 */
#define SYM_MEMO 256

struct sym_memo {
	const struct dso *dso;
	u64 start;
	size_t nr;
	struct symbol *sym;
};

static struct symbol *symbol_at(struct hists *h, struct dso *d, u64 start)
{
	struct sym_memo *m;

	if (!h->sym_memo && !(h->sym_memo = calloc(SYM_MEMO, sizeof(*h->sym_memo))))
		return symtab__find(&d->syms, start);
	m = &h->sym_memo[(((uintptr_t)d >> 4) ^ start * 0x9e3779b97f4a7c15ull >> 40) % SYM_MEMO];
	if (m->dso != d || m->start != start || m->nr != d->syms.nr) {
		m->dso = d;
		m->start = start;
		m->nr = d->syms.nr;
		m->sym = symtab__find(&d->syms, start);
	}
	return m->sym;
}

/*
 * @e was found by @tmpl: perf moves it to @tmpl's map when that is another
 * map object, and then looks its symbol up again there by the symbol's
 * start (an inline symbol has its function's start, so it becomes that
 * function).  The entry keeps its place in the tree under its new key, so
 * later walks may miss it, or take other ways.
 */
static void follow_map(struct hists *h, struct hist_entry *e, const struct hist_entry *tmpl)
{
	struct symbol *sym = e->sym;

	if (e->map == tmpl->map && e->maps == tmpl->maps)
		return;
	if (!h->sym_key)
		return;
	if (sym) {
		struct dso *d = tmpl->map ? tmpl->map->dso : NULL;

		sym = d && d->syms.sorted ? symbol_at(h, d, sym->start) : NULL;
	}
	e->map = tmpl->map;
	e->maps = tmpl->maps;
	if (sym == e->sym && e->dso == tmpl->dso)
		return;
	e->moved++;		/* its key changed: paths through it are stale */
	h->version++;
	h->order_unsure = true;	/* and walks may miss it (quick_on()) */
	e->sym = sym;
	e->dso = tmpl->dso;
	wkey_set(&e->wk, e);
}

/*
 * The quick table.  Where the walk's order is a total one (a strict weak
 * order), an entry equal to the template is the only one, and every walk
 * finds it whatever the tree's shape: the entry can be looked up by its
 * keys in a hash table, and the tree walked only to make new ones.
 *
 * The order is lexicographic over the keys, and only the symbol key can
 * break it: addresses compare by their signed difference (perf's), which
 * is a total order only over less than half the circle, and inline
 * symbols are equal when they overlap.  So it holds class by class: the
 * entries with the same values of the keys before the symbol (the DSO's
 * name must be one of them: perf compares the names of DSOs at symbols,
 * but not at addresses without one), with a symbol or without.  A class
 * whose addresses lie in two neighbouring quarters of the space (the top
 * two bits; 3 and 0 too: the kernel's and user space) and that has no
 * inline symbol is ordered, and so is its place among the other classes:
 * a walk for its keys finds its entry, whatever other classes hold.  An
 * entry that changes its keys in place (follow_map) is out of place for
 * every walk: then no class is trusted any more.  Elsewhere the lookup is
 * perf's walk, cached as above.  Classes share a mask when their hashes
 * do: more addresses in one mask, a safe error.
 */
struct hist_quick {
	u64 hash;
	struct hist_entry *e;		/* NULL: an empty slot */
};

#define ORDER_CLASSES 1024
#define CLASS_BROKEN 0xff		/* an inline symbol */

static const char *comm_str(const struct hist_entry *e)
{
	return e->comm ? e->comm->str : NULL;
}

/*
 * The classes' masks, and the hashes of DSO names as the walk compares
 * them, remembered for the last DSOs seen (they live as long as the report).
 */
#define NAME_HASH_MEMO 16

struct hist_order {
	unsigned char masks[ORDER_CLASSES];
	struct {
		const struct dso *dso;
		u64 hash;
	} memo[NAME_HASH_MEMO];
};

static u64 dso_name_hash(struct hists *h, const struct hist_entry *e)
{
	typeof(h->order->memo[0]) *m = &h->order->memo[((uintptr_t)e->dso >> 6) % NAME_HASH_MEMO];
	const char *str;
	u64 x = 0xcbf29ce484222325ull;

	if (!e->dso)
		return 0;
	if (m->dso == e->dso)
		return m->hash;
	for (str = dso_name(h, e); str && *str; str++)
		x = (x ^ (unsigned char)*str) * 0x100000001b3ull;
	m->dso = e->dso;
	m->hash = x;
	return x;
}

/* The quarters mask of @e's class (NULL: no memory, no class is trusted). */
static unsigned char *order_class(struct hists *h, const struct hist_entry *e)
{
	u64 x = e->sym ? 0x9e3779b97f4a7c15ull : 0;

	if (!h->order && !(h->order = calloc(1, sizeof(*h->order)))) {
		h->order_unsure = true;
		return NULL;
	}
	if (h->class_comm)
		x ^= (uintptr_t)comm_str(e);
	x ^= dso_name_hash(h, e) * 31;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return &h->order->masks[x % ORDER_CLASSES];
}

/* none, one quarter, or two neighbours (0-1, 1-2, 2-3, 3-0) */
static bool quarters_ok(unsigned int m)
{
	return m == 0 || m == 1 || m == 2 || m == 4 || m == 8 || m == 3 || m == 6 || m == 12 ||
	       m == 9;
}

/* A new entry @e: its addresses (or inline symbol) into its class. */
static void note_order(struct hists *h, const struct hist_entry *e)
{
	const struct symbol *s = e->sym;
	unsigned char *m;

	if (!h->quick_keys || !h->sym_key || h->order_unsure || !(m = order_class(h, e)))
		return;
	if (s && s->inlined)
		*m = CLASS_BROKEN;
	else if (s)
		*m |= 1u << (s->start >> 62) | 1u << (s->end >> 62);
	else
		*m |= 1u << (e->ip >> 62);
}

/* May @tmpl's entry be looked up in the quick table? */
static bool quick_on(struct hists *h, const struct hist_entry *tmpl)
{
	unsigned char *m;

	if (!h->quick_keys || h->order_unsure) {
		if (h->quick) {
			free(h->quick);
			h->quick = NULL;
			h->quick_size = h->quick_nr = 0;
		}
		return false;
	}
	if (!h->sym_key)
		return true;
	if (!(m = order_class(h, tmpl)))
		return false;
	if (tmpl->sym && tmpl->sym->inlined)
		*m = CLASS_BROKEN;
	return quarters_ok(*m);
}

static u64 quick_hash(const struct hists *h, const struct hist_entry *t)
{
	u64 x = 0;

	if (h->comm_key)
		x ^= (uintptr_t)comm_str(t);
	if (h->dso_key)
		x ^= (uintptr_t)t->dso * 131;
	if (h->sym_key)
		x ^= t->sym ? (uintptr_t)t->sym * 1031 : t->ip * 13 + 1;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return x;
}

/*
 * The same keys, by identity (the walk would find the entry); the entry's
 * from its walk keys, the line a lookup reads (set for every entry).
 */
static bool quick_same(const struct hists *h, const struct hist_entry *t, const struct hist_entry *e)
{
	if (h->comm_key && comm_str(t) != e->wk.comm)
		return false;
	if (h->dso_key && t->dso != e->wk.dso)
		return false;
	return !h->sym_key || (t->sym == e->wk.sym && (t->sym || t->ip == e->wk.ip));
}

/* perf's walk (@cache: with the cache of its answers above) */
static struct hist_entry *findnew_walk(struct hists *h, const struct hist_entry *tmpl, bool cache)
{
	struct rb_link *x = h->root_in, *y = NULL, *path[CACHE_PATH];
	u32 moved[CACHE_PATH];
	u64 left = 0;
	unsigned int len = 0;
	struct hist_cache_key key;
	struct hist_cache_slot *hit = NULL;
	struct hist_entry *e;
	bool cached = cache && cacheable(h, tmpl);
	int c = 0;

	if (cached) {
		key_of(h, tmpl, &key);
		hit = cache_lookup(h, &key);
		if (hit && hit->version == h->version) {	/* the tree is as it was */
			e = hit->e;
			follow_map(h, e, tmpl);
			return e;
		}
	}
	/*
	 * The steps of the last walk with these keys, while they are the
	 * same steps: the same node, its keys unchanged (so the same
	 * comparison).  Where they part, the walk goes on from there.  The
	 * nodes are spread over memory: ask for them all first.
	 */
	for (unsigned int i = 0; hit && i < hit->len; i++)
		__builtin_prefetch(hit->path[i]);
	while (hit && len < hit->len && x == hit->path[len] && in_entry(x)->moved == hit->moved[len]) {
		path[len] = x;
		moved[len] = hit->moved[len];
		if (len + 1 == hit->len) {		/* the entry it found */
			hit->version = h->version;	/* the path holds now */
			e = in_entry(x);
			follow_map(h, e, tmpl);
			return e;
		}
		c = hit->left >> len & 1 ? -1 : 1;
		left |= (u64)(c < 0) << len;
		len++;
		y = x;
		x = c < 0 ? x->l : x->r;
	}
	while (x) {
		__builtin_prefetch(x->l);	/* the next step: in flight during this one */
		__builtin_prefetch(x->r);
		c = h->walk_keys ? wkey_cmp(h, &tmpl->wk, tmpl, in_entry(x)) :
			ident_cmp(h, tmpl, in_entry(x));

		if (len < CACHE_PATH) {
			path[len] = x;
			moved[len] = in_entry(x)->moved;
			left |= (u64)(c < 0) << len;
		}
		len++;
		if (!c) {
			e = in_entry(x);
			if (cached && len <= CACHE_PATH)
				cache_add(h, &key, e, path, moved, left, len);
			follow_map(h, e, tmpl);
			return e;
		}
		y = x;
		x = c < 0 ? x->l : x->r;
	}
	if (h->nr == h->alloc) {
		size_t n = h->alloc ? h->alloc * 2 : 1024;
		struct hist_entry **a = realloc(h->all, n * sizeof(*a));

		if (!a)
			return NULL;
		h->all = a;
		h->alloc = n;
	}
	e = hist_entry__zalloc();
	if (!e)
		return NULL;
	*e = *tmpl;
	memset(&e->callchain, 0, sizeof(e->callchain));
	e->period = e->nr_samples = e->period_acc = e->nr_acc = e->max_depth = 0;
	e->period_sys = e->period_us = e->period_guest_sys = e->period_guest_us = 0;
	e->moved = 0;
	e->seq = h->seq++;
	e->in_node = (struct rb_link){ 0 };
	h->version++;
	if (!h->walk_keys) {	/* perf marks tracepoint keys it compares: again, as e */
		y = NULL;
		for (x = h->root_in; x; x = c < 0 ? x->l : x->r) {
			y = x;
			c = ident_cmp(h, e, in_entry(x));
		}
	}			/* else where the walk ended: its comparisons were e's */
	rb_link_leaf(&h->root_in, &e->in_node, y, c < 0);
	rb_insert_fixup(&h->root_in, &e->in_node);
	h->all[h->nr++] = e;
	note_order(h, e);
	return e;
}

/* Entries the quick table held: a fresh table holds twice as many slots. */
static void quick_add(struct hists *h, struct hist_entry *e, u64 hash)
{
	struct hist_quick *q;

	if (2 * (h->quick_nr + 1) > h->quick_size) {
		size_t size = h->quick_size ? 2 * h->quick_size : 4096;
		struct hist_quick *old = h->quick, *n = calloc(size, sizeof(*n));

		if (!n)
			return;		/* no table: the walk still works */
		for (size_t i = 0; i < h->quick_size; i++) {
			size_t j = old[i].hash & (size - 1);

			if (!old[i].e)
				continue;
			while (n[j].e)
				j = (j + 1) & (size - 1);
			n[j] = old[i];
		}
		free(old);
		h->quick = n;
		h->quick_size = size;
	}
	for (q = &h->quick[hash & (h->quick_size - 1)]; q->e;
	     q = &h->quick[(q - h->quick + 1) & (h->quick_size - 1)])
		if (q->e == e && q->hash == hash)
			return;
	*q = (struct hist_quick){ .hash = hash, .e = e };
	h->quick_nr++;
}

struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *tmpl)
{
	struct hist_entry *e;
	u64 hash;

	if (!quick_on(h, tmpl))
		return findnew_walk(h, tmpl, true);
	hash = quick_hash(h, tmpl);
	for (size_t i = hash & (h->quick_size - 1); h->quick_size && h->quick[i].e;
	     i = (i + 1) & (h->quick_size - 1)) {
		e = h->quick[i].e;
		if (h->quick[i].hash == hash && quick_same(h, tmpl, e)) {
			follow_map(h, e, tmpl);
			return e;
		}
	}
	e = findnew_walk(h, tmpl, false);
	/* not for aliases (the same keys in other objects); nor when the new
	 * entry's addresses leave its class unordered */
	if (e && quick_same(h, tmpl, e) && quick_on(h, tmpl))
		quick_add(h, e, hash);
	return e;
}
