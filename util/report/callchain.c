// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Callchain tries and their graph output (the layout of perf 6.1's stdio
 * report: "---" for a single root chain, "|--N%--" branches, " --N%--" for
 * the last one, 11-column levels under a 12-column margin).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/callchain.h"
#include "util/lib/slab.h"
#include "util/symbol/srcline.h"

/*
 * The source line perf keys a frame by with "srcline": of the frame's place
 * in its address' inline expansion; NULL where addr2line has no answer (a
 * PLT entry, a file not there), without a file (the kernel) or a map.  A
 * frame without one goes before those with one, as in perf.
 */
static const char *key_srcline(struct dso *dso, u64 addr, u8 inl)
{
	if (!dso || dso->kind != DSO_USER)
		return NULL;
	return srcline__frame(dso, addr, inl);
}

static int cmp_key(long long a, long long b)
{
	return a < b ? -1 : a > b;
}

/*
 * perf's order of a frame @f against a child @n (match_chain(): the new
 * frame goes left of a smaller child): with "srcline" by the source lines
 * (where either has one), then inline frames by name, others by DSO (its
 * object's address: tperf's DSO creation order) and symbol start or
 * address.  0: the same frame.
 */
static int frame_order(const struct cc_node *n, const struct cc_frame *f, enum cc_key key)
{
	long long dn, df;
	int c;

	if (key == CCKEY_SRCLINE) {
		const char *a = key_srcline(n->dso, n->addr, n->inl);
		const char *b = key_srcline(f->dso, f->addr, f->inl);

		if (a || b) {
			c = a && b ? strcmp(a, b) : !a ? 1 : -1;
			return c < 0 ? -1 : c > 0;
		}
	}
	if (key != CCKEY_ADDRESS && n->sym && n->sym == f->sym &&
	    (n->dso == f->dso || n->sym->inlined))
		return 0;
	if (key != CCKEY_ADDRESS && n->sym && f->sym && (n->sym->inlined || f->sym->inlined))
		return strcmp(n->sym->name, f->sym->name) < 0 ? -1 : strcmp(n->sym->name, f->sym->name) > 0;
	dn = n->dso ? (long long)n->dso->seq : -1;
	df = f->dso ? (long long)f->dso->seq : -1;
	if ((c = cmp_key(dn, df)))
		return c;
	if (key != CCKEY_ADDRESS && n->sym && f->sym)
		return n->sym->start < f->sym->start ? -1 : n->sym->start > f->sym->start;
	return n->ip < f->ip ? -1 : n->ip > f->ip;
}

/*
 * The order of frames is total where none is an inline frame and, with
 * function keys, where all have a symbol or none has: a frame with a
 * symbol is placed by its start among those, by its address among the
 * others (a node's address is that of its first frame), and three such
 * frames can be in a circle.  Then a walk may miss an equal child, and
 * perf makes a second one.
 */
#define CC_KID_SYM	1
#define CC_KID_NOSYM	2

static u8 frame_kind(const struct symbol *sym)
{
	return sym ? CC_KID_SYM : CC_KID_NOSYM;
}

/* Is the order of @n's children total, also with @f (NULL: none) among them? */
static bool kids_total(const struct cc_node *n, const struct cc_frame *f, enum cc_key key)
{
	u8 kinds = n->kid_kinds | (f ? frame_kind(f->sym) : 0);

	if (n->inlined_child || (f && f->sym && f->sym->inlined))
		return false;
	return key == CCKEY_ADDRESS || kinds != (CC_KID_SYM | CC_KID_NOSYM);
}

/* Same frame?  The usual case first, without reading the symbols. */
static bool frame_matches(const struct cc_node *n, const struct cc_frame *f, enum cc_key key)
{
	if (key == CCKEY_FUNCTION && n->sym && n->sym == f->sym)
		return n->dso == f->dso || n->sym->inlined;
	return !frame_order(n, f, key);
}

static struct cc_node *node_of(struct rb_link *x)
{
	return (struct cc_node *)x;	/* rb is the first member */
}

/*
 * The child of @p that is frame @f, as perf's walk down its tree of
 * children finds it; NULL when the walk ends without it, with where to
 * link a new child in *@parent and *@left.
 */
static struct cc_node *find_child(struct cc_node *p, const struct cc_frame *f, enum cc_key key,
				  struct rb_link **parent, bool *left)
{
	struct rb_link *x = p->kids;

	*parent = NULL;
	*left = false;
	while (x) {
		int c;

		/* the next step is one of them: ask for both while comparing */
		__builtin_prefetch(x->l);
		__builtin_prefetch(x->r);
		c = frame_order(node_of(x), f, key);
		if (!c)
			return node_of(x);
		*parent = x;
		*left = c < 0;
		x = c < 0 ? x->l : x->r;
	}
	return NULL;
}

/* Put @c among @p's children (in perf's tree at @parent/@left). */
static int link_child(struct cc_node *p, struct cc_node *c, struct rb_link *parent, bool left)
{
	if (!p->alloc) {		/* most nodes have one child: no array */
		p->child = &p->one;
		p->alloc = 1;
	} else if (p->nr == p->alloc) {
		u32 n = p->alloc * 4;
		struct cc_node **a = realloc(p->child == &p->one ? NULL : p->child,
					      n * sizeof(*a));

		if (!a)
			return -ENOMEM;
		if (p->child == &p->one)
			a[0] = p->one;
		p->child = a;
		p->alloc = n;
	}
	p->inlined_child |= c->sym && c->sym->inlined;
	p->kid_kinds |= frame_kind(c->sym);
	c->idx = p->nr;
	p->child[p->nr++] = c;
	rb_link_leaf(&p->kids, &c->rb, parent, left);
	rb_insert_fixup(&p->kids, &c->rb);
	return 0;
}

/*
 * Nodes come from a slab (populated 2 MB chunks, a free list): reports make
 * and merge hundreds of thousands of them (one chain per entry, merged at
 * collapse).  A thread takes them from the first slab, or from the second
 * once it says so (the collapse's second thread): a node may be freed to
 * another slab than its own, all have the same size and live on.
 */
static struct slab node_slabs[2] = { SLAB_INIT(struct cc_node), SLAB_INIT(struct cc_node) };
static __thread struct slab *node_slab = &node_slabs[0];

/**
 * cc_node__use_slab - see callchain.h
 */
void cc_node__use_slab(int i)
{
	node_slab = &node_slabs[i];
}

static struct cc_node *node_alloc(void)
{
	return slab__zalloc(node_slab);
}

static void node_free(struct cc_node *c)
{
	slab__free(node_slab, c);
}

static struct cc_node *add_child(struct cc_node *p, const struct cc_frame *f,
				 struct rb_link *parent, bool left)
{
	struct cc_node *c = node_alloc();

	if (!c)
		return NULL;
	c->dso = f->dso;
	c->sym = f->sym;
	c->ip = f->ip;
	c->addr = f->addr;
	c->inl = f->inl;
	if (link_child(p, c, parent, left)) {
		node_free(c);
		return NULL;
	}
	return c;
}

/*
 * One step down a chain: the child of @cur that is frame @f, as perf's walk
 * down its tree of children finds it, made where the walk ends without it;
 * the hint follows the child taken.  NULL: no memory.
 */
static struct cc_node *step(struct cc_node *cur, const struct cc_frame *f, enum cc_key key)
{
	struct cc_node *next;
	struct rb_link *parent;
	bool left;

	/*
	 * Without inline frames on either side the order is total, so the
	 * walk finds the one equal child: try the last one taken.
	 */
	if (cur->hint < cur->nr && kids_total(cur, f, key) &&
	    frame_matches(cur->child[cur->hint], f, key))
		next = cur->child[cur->hint];
	else if (!(next = find_child(cur, f, key, &parent, &left)) &&
		 !(next = add_child(cur, f, parent, left)))
		return NULL;
	cur->hint = next->idx;
	return next;
}

/* Whether root @root keeps chains (cc_node__keep()); not for other nodes. */
static bool is_kept(const struct cc_node *root)
{
	return !root->kids && root->kept[0];
}

/*
 * The walk of an append of the kept frames from the one at @from to @last
 * (cc_node__append()'s), with @last's period.
 */
static int append_kept(struct cc_node *root, const struct cc_kept *last, u32 from,
		       enum cc_key key)
{
	const struct cc_kept *buf[128], **v = buf, *k = last;
	u32 n = last->pos + 1 - from;
	struct cc_node *cur = root;
	int err = 0;

	if (n > 128 && !(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	for (u32 i = n; i--; k = k->prev)
		v[i] = k;
	for (u32 i = 0; i < n; i++) {
		struct cc_frame f = { .dso = v[i]->dso, .sym = v[i]->sym, .ip = v[i]->ip,
				      .addr = v[i]->addr, .inl = v[i]->inl };
		struct cc_node *next = step(cur, &f, key);

		if (!next) {
			err = -ENOMEM;
			break;
		}
		cur->children_hit += last->period;
		cur->children_count++;
		cur = next;
	}
	if (!err) {
		cur->hit += last->period;
		cur->count++;
	}
	if (v != buf)
		free(v);
	return err;
}

void cc_node__keep(struct cc_node *root, const struct cc_kept *last, u32 from)
{
	int i = root->kept[0] ? 1 : 0;

	root->kept[i] = last;
	root->kept_from[i] = from;
	root->children_hit += last->period;
	root->children_count++;
}

/*
 * Take the kept chains off @root, and what they added to its counts (they
 * are its only chains); @k and @from get them, in the order they came.
 * Return: how many.
 */
static int unkeep(struct cc_node *root, const struct cc_kept **k, u32 *from)
{
	int n = 0;

	for (int i = 0; i < CC_KEPT_MAX && root->kept[i]; i++, n++) {
		k[i] = root->kept[i];
		from[i] = root->kept_from[i];
		root->kept[i] = NULL;
		root->kept_from[i] = 0;
	}
	root->children_hit = 0;
	root->children_count = 0;
	return n;
}

int cc_node__settle(struct cc_node *root, enum cc_key key)
{
	const struct cc_kept *k[CC_KEPT_MAX];
	u32 from[CC_KEPT_MAX];
	int n;

	if (!is_kept(root))
		return 0;
	n = unkeep(root, k, from);
	for (int i = 0; i < n; i++)
		if (append_kept(root, k[i], from[i], key))
			return -ENOMEM;
	return 0;
}

/*
 * Whether kept frame @k can stand for frame @f: the same frame, but for
 * inline symbols, which each process' unwinder makes its own of (the same
 * name and range: callchains compare them by name).
 */
static bool same_kept(const struct cc_kept *k, const struct cc_frame *f)
{
	if (k->ip != f->ip || k->dso != f->dso || k->addr != f->addr || k->inl != f->inl)
		return false;
	if (k->sym == f->sym)
		return true;
	return k->sym && f->sym && k->sym->inlined && f->sym->inlined &&
	       k->sym->start == f->sym->start && k->sym->end == f->sym->end &&
	       !strcmp(k->sym->name, f->sym->name);
}

/* How many of the first frames of @f (@n) chain @k (@nr) has, as kept frames. */
static u32 common_start(const struct cc_kept *const *k, u32 nr, const struct cc_frame *f, u32 n)
{
	u32 i = 0;

	while (i < n && i < nr && same_kept(k[i], &f[i]))
		i++;
	return i;
}

const struct cc_kept *cc_keeper__frames(struct cc_keeper *k, const struct cc_frame *f, u32 n,
					u64 period)
{
	u32 best = 0, from = 0, slot = k->next;
	const struct cc_kept **v;

	for (u32 r = 0; r < CC_KEEPER_RECENT; r++) {
		u32 c = common_start(k->recent[r], k->nr[r], f, n);

		if (c > from) {
			from = c;
			best = r;
		}
	}
	if (from == n)			/* the last frame is the sample's own */
		from--;
	if (k->alloc[slot] < n) {
		const struct cc_kept **a = realloc(k->recent[slot], n * sizeof(*a));

		if (!a)
			return NULL;
		k->recent[slot] = a;
		k->alloc[slot] = n;
	}
	v = k->recent[slot];
	if (slot != best)
		memcpy(v, k->recent[best], from * sizeof(*v));
	k->nr[slot] = from;		/* valid so far */
	for (u32 i = from; i < n; i++) {
		struct cc_kept *c = arena__alloc(&k->arena, sizeof(*c));

		if (!c)
			return NULL;
		*c = (struct cc_kept){ .prev = i ? v[i - 1] : NULL, .dso = f[i].dso,
				       .sym = f[i].sym, .ip = f[i].ip, .addr = f[i].addr,
				       .pos = i, .inl = f[i].inl };
		v[i] = c;
		k->nr[slot] = i + 1;
	}
	((struct cc_kept *)v[n - 1])->period = period;
	k->next = (slot + 1) % CC_KEEPER_RECENT;
	return v[n - 1];
}

void cc_keeper__exit(struct cc_keeper *k)
{
	arena__free(&k->arena);
	for (int r = 0; r < CC_KEEPER_RECENT; r++) {
		free(k->recent[r]);
		k->recent[r] = NULL;
		k->nr[r] = k->alloc[r] = 0;
	}
	k->next = 0;
}

int cc_node__append(struct cc_node *root, const struct cc_frame *f, size_t n, u64 period,
		    enum cc_key key)
{
	struct cc_node *cur = root;

	if (!n)
		return 0;
	if (cc_node__settle(root, key))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct cc_node *next = step(cur, &f[i], key);

		if (!next)
			return -ENOMEM;
		cur->children_hit += period;
		cur->children_count++;
		cur = next;
	}
	cur->hit += period;
	cur->count++;
	return 0;
}

/* The children of @n in perf's tree order (*nr of them; in @buf if room, else malloc()ed). */
static struct cc_node **children_in_order(const struct cc_node *n, u32 *nr,
					  struct cc_node **buf, u32 size)
{
	struct cc_node **v = size && n->nr <= size ? buf : malloc((n->nr + 1) * sizeof(*v));
	u32 k = 0;

	if (v)
		for (struct rb_link *x = rb_first(n->kids); x; x = rb_next(x))
			v[k++] = node_of(x);
	*nr = k;
	return v;
}

static void free_children_array(struct cc_node *n)
{
	if (n->child != &n->one)
		free(n->child);
	n->child = NULL;
}

/* The chain ends a merge took from under a node: their period and number. */
struct merge_sums {
	u64 hit;
	u64 ends;
};

static int merge_kids(struct cc_node *d, struct rb_link *x, enum cc_key key,
		      struct merge_sums *sum);

/*
 * Merge the source node @s, a child of the node that @d stands for, and
 * everything under it, then free them.  perf appends each node of the
 * source where chains end (with a period: the others are not appended), in
 * pre-order with children in tree order, from the root as one sample.  An
 * append's walk only links nodes under the last one it goes through, so
 * the walks down to a node of the source all end at the same node of the
 * destination, the one the first of them took or made (at the time the
 * pre-order reaches it: no chain ends between).  One walk of the source
 * thus takes the same steps in the same order, makes the same nodes and
 * leaves the same hints; a node's period and counts are the sums of what
 * the appends added: hit and one count per chain end there, the periods
 * and number of those below for children_hit and children_count.  @d is
 * NULL where nothing is merged (no period under @s, or no memory).
 */
static int merge_node(struct cc_node *d, struct cc_node *s, enum cc_key key,
		      struct merge_sums *sum)
{
	struct merge_sums below = { 0, 0 };
	struct cc_node *t = NULL;
	int err = 0;

	if (d && cc_node__cumul(s)) {
		struct cc_frame f = { .dso = s->dso, .sym = s->sym, .ip = s->ip,
				      .addr = s->addr, .inl = s->inl };

		if (!(t = step(d, &f, key)))
			err = -ENOMEM;
	}
	if (s->kids)
		err = merge_kids(t, s->kids, key, &below) ?: err;
	if (t) {
		t->hit += s->hit;
		t->count += s->hit != 0;
		t->children_hit += below.hit;
		t->children_count += below.ends;
	}
	sum->hit += s->hit + below.hit;
	sum->ends += (s->hit != 0) + below.ends;
	free_children_array(s);
	node_free(s);
	return err;
}

/* merge_node() the children in the tree at @x, in order, under @d. */
static int merge_kids(struct cc_node *d, struct rb_link *x, enum cc_key key,
		      struct merge_sums *sum)
{
	int err = 0;

	while (x) {
		struct rb_link *r = x->r;

		if (x->l)
			err = merge_kids(d, x->l, key, sum) ?: err;
		err = merge_node(err ? NULL : d, node_of(x), key, sum) ?: err;
		x = r;
	}
	return err;
}

int cc_node__merge(struct cc_node *dst, struct cc_node *src, enum cc_key key)
{
	struct merge_sums sum = { 0, 0 };
	int err;

	if (cc_node__settle(dst, key))
		return -ENOMEM;
	if (is_kept(src) && !src->kept[1]) {
		/*
		 * The nodes of a single chain are all on the way to its end,
		 * which has its period: merge_node()'s walk is an append of
		 * it, and there is none without a period.
		 */
		const struct cc_kept *k;
		u32 from;

		dst->hit += src->hit;
		dst->count += src->count;
		unkeep(src, &k, &from);
		return k->period ? append_kept(dst, k, from, key) : 0;
	}
	if (cc_node__settle(src, key))
		return -ENOMEM;
	dst->hit += src->hit;
	dst->count += src->count;
	err = merge_kids(dst, src->kids, key, &sum);
	dst->children_hit += sum.hit;
	dst->children_count += sum.ends;
	free_children_array(src);
	src->kids = NULL;
	src->nr = src->alloc = 0;
	return err;
}

/* Ask for the part of @n a merge reads (up to the children's array). */
static void prefetch_node(const struct rb_link *x)
{
	const char *c = (const char *)x;

	__builtin_prefetch(c);
	__builtin_prefetch(c + 64);
	__builtin_prefetch(c + offsetof(struct cc_node, one) - 1);
}

static void prefetch_push(struct cc_prefetch *p, int k, const struct rb_link *x)
{
	if (x && p->top[k] < CC_PREFETCH_DEPTH) {
		p->stack[k][p->top[k]++] = x;
		prefetch_node(x);
	}
}

void cc_prefetch__start(struct cc_prefetch *p, const struct cc_node *root)
{
	u8 k = p->next;

	p->next = (k + 1) % CC_PREFETCH_TRIES;
	p->top[k] = 0;
	for (int i = 0; root && !root->kids && i < CC_KEPT_MAX && root->kept[i]; i++)
		__builtin_prefetch(root->kept[i]);	/* the callers' are shared, mostly cached */
	if (root)
		prefetch_push(p, k, root->kids);
}

/*
 * Each trie's stack holds nodes asked for at an earlier step (in the cache
 * by now): take one, ask for the nodes its first cache line links to, the
 * next ones in its tree of siblings and the root of its tree of children.
 * What does not fit the stack is not fetched.
 */
void cc_prefetch__step(struct cc_prefetch *p)
{
	int first = p->phase;

	p->phase = (first + 1) % CC_PREFETCH_EVERY;
	for (int k = first; k < CC_PREFETCH_TRIES; k += CC_PREFETCH_EVERY) {
		const struct rb_link *x;

		if (!p->top[k])
			continue;
		x = p->stack[k][--p->top[k]];
		prefetch_push(p, k, x->r);
		prefetch_push(p, k, x->l);
		prefetch_push(p, k, node_of((struct rb_link *)x)->kids);
	}
}

static void free_nodes(struct cc_node *n)
{
	for (u32 i = 0; i < n->nr; i++) {
		free_nodes(n->child[i]);
		node_free(n->child[i]);
	}
	free_children_array(n);
	n->kids = NULL;
	n->nr = n->alloc = 0;
}

void cc_node__free_children(struct cc_node *n)
{
	if (!is_kept(n)) {
		free_nodes(n);
		return;
	}
	for (int i = 0; i < CC_KEPT_MAX; i++) {	/* the frames are not its own */
		n->kept[i] = NULL;
		n->kept_from[i] = 0;
	}
}

/*
 * perf orders siblings by cumulated period, equal ones in the order of its
 * tree of children (children_in_order()).
 */
static int sibling_cmp(const void *pa, const void *pb)
{
	const struct cc_node *a = *(struct cc_node *const *)pa, *b = *(struct cc_node *const *)pb;
	u64 ca = cc_node__cumul(a), cb = cc_node__cumul(b);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/*
 * The children of @n above @min_hit, in output order; *nr of them.  fractal
 * (graph relative to each parent) has its own threshold at every node: the
 * percentage of the period that went on from @n, rounded up.
 */
/* qsort_r(): the order of two children in their parent's tree (@key: enum cc_key) */
static int tree_order(const void *pa, const void *pb, void *key)
{
	const struct cc_node *a = *(struct cc_node *const *)pa, *b = *(struct cc_node *const *)pb;
	struct cc_frame f = { .dso = a->dso, .sym = a->sym, .ip = a->ip, .addr = a->addr,
			      .inl = a->inl };

	return frame_order(b, &f, *(enum cc_key *)key);	/* negative: @a went left of @b */
}

static struct cc_node **sorted_children(const struct cc_node *n, u64 min_hit, u32 *nr,
					const struct callchain_param *p)
{
	enum cc_key key = callchain_param__key(p);
	u32 all, k = 0;
	struct cc_node **v;

	if (p->mode == CHAIN_GRAPH_REL)
		min_hit = (u64)ceil(n->children_hit * (p->min_percent / 100.0));
	/*
	 * Where the tree's order is total (no inline frames, no source
	 * lines), the children that pass are ranked among themselves by it:
	 * the array of children is read, not the tree, one cache miss after
	 * the other (a node can have thousands of children, few of them shown).
	 */
	if (key != CCKEY_SRCLINE && kids_total(n, NULL, key)) {
		v = malloc((n->nr + 1) * sizeof(*v));
		if (!v)
			return NULL;
		for (u32 i = 0; i < n->nr; i++)
			if (cc_node__cumul(n->child[i]) >= min_hit)
				v[k++] = n->child[i];
		qsort_r(v, k, sizeof(*v), tree_order, &key);
		for (u32 i = 0; i < k; i++)
			v[i]->rank = i;
	} else {
		v = children_in_order(n, &all, NULL, 0);
		if (!v)
			return NULL;
		for (u32 i = 0; i < all; i++) {
			v[i]->rank = i;
			if (cc_node__cumul(v[i]) >= min_hit)
				v[k++] = v[i];
		}
	}
	*nr = k;
	qsort(v, k, sizeof(*v), sibling_cmp);
	return v;
}

/* The last node of the run of frames printed as one chain from @n. */
static const struct cc_node *run_end(const struct cc_node *n)
{
	while (n->hit == 0 && n->nr == 1)
		n = n->child[0];
	return n;
}

/*
 * perf's callchain srcline: "file.c:12" (for the frames of an address'
 * inline functions, the innermost has the address' line, each outer one
 * the line of its call), addr2line's "file.c:0" or "??:0" where it finds
 * the address in the symbol table only, else (no answer: a PLT entry, a
 * file not there, the kernel) "+OFFSET" (decimal); inline frames then say so.
 */
static void frame_srcline(const struct cc_node *n, char *buf, size_t size)
{
	const char *inl = n->sym->inlined ? " (inlined)" : "";
	const char *line = n->dso ? srcline__frame(n->dso, n->addr, n->inl) : NULL;

	if (line)
		snprintf(buf, size, "%s %s%s", n->sym->name, line, inl);
	else
		snprintf(buf, size, "%s +%" PRIu64 "%s", n->sym->name, n->addr - n->sym->start, inl);
}

/* A frame as perf names it; with "address" keys the symbol has its srcline. */
static const char *frame_name_p(const struct cc_node *n, char *buf, size_t size,
				const struct callchain_param *p)
{
	const char *line;

	if (n->sym && n->dso && p && p->key_address) {	/* not "[...]" */
		frame_srcline(n, buf, size);
		return buf;
	}
	/* printed as perf does: not where addr2line has no answer (a PLT entry) */
	line = n->sym && n->dso && p && p->key_srcline ? srcline__frame(n->dso, n->addr, n->inl)
						       : NULL;
	if (line) {
		snprintf(buf, size, "%s %s%s", n->sym->name, line, n->sym->inlined ? " (inlined)" : "");
		return buf;
	}
	if (n->sym && n->sym->inlined) {
		snprintf(buf, size, "%s (inlined)", n->sym->name);
		return buf;
	}
	if (n->sym)
		return n->sym->name;
	snprintf(buf, size, "%#" PRIx64, n->ip);
	return buf;
}

static size_t left_margin(FILE *fp, int margin)
{
	return fprintf(fp, "            %*s", margin, "");
}

/* "12.34%", red from 5%, green above 0.5% with colour */
static size_t fprintf_percent(FILE *fp, double v, const struct callchain_param *p)
{
	const char *c = !p->color ? NULL : v >= 5.0 ? "\033[31m" : v > 0.5 ? "\033[32m" : NULL;

	return fprintf(fp, "%s%.2f%%%s", c ? c : "", v, c ? "\033[m" : "");
}

static size_t fprintf_value(FILE *fp, const struct cc_node *n, u64 total,
			    const struct callchain_param *p)
{
	switch (p->value) {
	case CCVAL_PERIOD:
		return fprintf(fp, "%" PRIu64, cc_node__cumul(n));
	case CCVAL_COUNT:
		return fprintf(fp, "%" PRIu64, n->count + n->children_count);
	default:
		return fprintf_percent(fp, total ? cc_node__cumul(n) * 100.0 / total : 0.0, p);
	}
}

static size_t graph_line(FILE *fp, int depth, unsigned long long mask, int margin)
{
	size_t ret = left_margin(fp, margin);

	for (int i = 0; i < depth; i++)
		ret += fprintf(fp, "%s", (mask & (1ULL << i)) ? "|          " : "           ");
	return ret + fprintf(fp, "\n");
}

static size_t graph_entry(FILE *fp, const struct cc_node *run, const struct cc_node *frame,
			  int depth, unsigned long long mask, int idx, u64 total, int margin,
			  const struct callchain_param *p)
{
	char buf[4096];
	size_t ret = left_margin(fp, margin);

	for (int i = 0; i < depth; i++) {
		ret += fprintf(fp, "%c", (mask & (1ULL << i)) ? '|' : ' ');
		if (!idx && i == depth - 1) {
			ret += fprintf(fp, "--");
			ret += fprintf_value(fp, run, total, p);
			ret += fprintf(fp, "--");
		} else {
			ret += fprintf(fp, "          ");
		}
	}
	return ret + fprintf(fp, "%s\n", frame_name_p(frame, buf, sizeof(buf), p));
}

static size_t graph_level(FILE *fp, const struct cc_node *parent, u64 total, int depth,
			  unsigned long long mask, int margin, u64 min_hit,
			  const struct callchain_param *p)
{
	unsigned long long new_mask = mask;
	u64 remaining = total, counted = 0;
	u32 nr;
	struct cc_node **v = sorted_children(parent, min_hit, &nr, p);
	size_t ret = 0;

	if (!v)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		const struct cc_node *c = v[i], *end = run_end(c), *f = c;
		u64 new_total = p->mode == CHAIN_GRAPH_REL ? c->children_hit : total;
		int idx = 0;

		remaining -= cc_node__cumul(c);
		counted += c->count + c->children_count;
		if (i + 1 == nr && (p->mode != CHAIN_GRAPH_REL || !remaining))
			new_mask &= ~(1ULL << (depth - 1));
		ret += graph_line(fp, depth, mask, margin);
		for (;; f = f->child[0]) {
			ret += graph_entry(fp, c, f, depth, new_mask, idx++, total, margin, p);
			if (f == end)
				break;
		}
		if (p->mode == CHAIN_GRAPH_REL)
			new_total = end->children_hit;
		ret += graph_level(fp, end, new_total, depth + 1, new_mask | (1ULL << depth),
				   margin, min_hit, p);
		if (p->print_limit && i + 1 == p->print_limit)
			break;
	}
	if (p->mode == CHAIN_GRAPH_REL && remaining && remaining != total) {
		/* the samples of the children not shown, as perf counts them */
		struct cc_node rem = { .hit = remaining, .count = parent->children_count - counted };
		struct symbol *sym = symbol__new(0, 0, 0, 0, "[...]");

		if (p->value == CCVAL_COUNT && parent->children_count <= counted) {
			free(sym);
		} else if (sym) {
			rem.sym = sym;
			new_mask &= ~(1ULL << (depth - 1));
			ret += graph_entry(fp, &rem, &rem, depth, new_mask, 0, total, margin, p);
			free(sym);
		}
	}
	free(v);
	return ret;
}

size_t callchain__fprintf_graph(FILE *fp, struct cc_node *root, u64 total, u64 parent,
				u64 min_hit, bool skip_first, const struct callchain_param *p)
{
	const struct cc_node *top = root;
	int margin = 0;
	size_t ret = 0;
	u32 nr;
	struct cc_node **v;

	v = sorted_children(root, min_hit, &nr, p);
	if (!v)
		return 0;
	if (nr == 1 && cc_node__cumul(v[0]) == parent) {
		const struct cc_node *end = run_end(v[0]), *f = v[0];
		bool printed = false;
		unsigned int n = 0;
		char buf[4096];

		for (int i = 0;; f = f->child[0], i++) {
			if (!(i == 0 && skip_first)) {
				if (!printed) {
					ret += left_margin(fp, margin) + fprintf(fp, "|\n");
					ret += left_margin(fp, margin) + fprintf(fp, "---");
					margin += 3;
					printed = true;
				} else {
					ret += left_margin(fp, margin);
				}
				ret += fprintf(fp, "%s\n", frame_name_p(f, buf, sizeof(buf), p));
				if (p->print_limit && ++n == p->print_limit)
					break;
			}
			if (f == end)
				break;
		}
		top = end;
	}
	free(v);
	if (p->mode == CHAIN_GRAPH_REL)
		total = parent;
	ret += graph_level(fp, top, total, 1, 1, margin, min_hit, p);
	if (ret)
		ret += fprintf(fp, "\n");
	return ret;
}

struct flat_walk {
	const struct cc_node **path;	/* every node visited; parent[] links them */
	int *parent;
	int *sel;			/* pairs: a visited node that ends chains, its post-order rank */
	size_t nr, nr_sel, alloc;
	u64 min_hit;
	int err;
};

static int flat_push(struct flat_walk *w, const struct cc_node *n, int parent)
{
	if (w->nr == w->alloc) {
		size_t a = w->alloc ? w->alloc * 2 : 64;
		const struct cc_node **p = realloc(w->path, a * sizeof(*p));
		int *par = p ? realloc(w->parent, a * sizeof(*par)) : NULL;
		int *sel = par ? realloc(w->sel, 2 * a * sizeof(*sel)) : NULL;

		if (p)
			w->path = p;
		if (par)
			w->parent = par;
		if (!sel)
			return -1;
		w->sel = sel;
		w->alloc = a;
	}
	w->path[w->nr] = n;
	w->parent[w->nr] = parent;
	return w->nr++;
}

/* perf's sort_chain_flat: children first, then the node if chains end there. */
static void flat_collect(struct flat_walk *w, const struct cc_node *n, int parent, bool root)
{
	int me = root ? -1 : flat_push(w, n, parent);
	struct cc_node **v;
	u32 nr;

	if (me < 0 && !root) {
		w->err = -ENOMEM;
		return;
	}
	v = children_in_order(n, &nr, NULL, 0);
	if (!v) {
		w->err = -ENOMEM;
		return;
	}
	for (u32 i = 0; i < nr && !w->err; i++)
		flat_collect(w, v[i], me, false);
	free(v);
	if (me >= 0 && n->hit && n->hit >= w->min_hit) {
		w->sel[2 * w->nr_sel] = me;
		w->sel[2 * w->nr_sel + 1] = w->nr_sel;
		w->nr_sel++;
	}
}

/*
 * Heaviest chain first; equal ones in the order collected (post-order, as
 * perf inserts them right of their equals): sel[] is sorted with the
 * collection rank, the second int of each pair, as the tie-break.
 */
static int flat_sel_cmp(const void *pa, const void *pb, void *walk)
{
	const struct flat_walk *w = walk;
	const int *a = pa, *b = pb;
	u64 ha = w->path[a[0]]->hit, hb = w->path[b[0]]->hit;

	if (ha != hb)
		return ha > hb ? -1 : 1;
	return a[1] - b[1];
}

static size_t flat_frames(FILE *fp, const struct flat_walk *w, int i, bool folded, bool *first,
			  const struct callchain_param *p)
{
	char buf[4096];
	const char *name;
	size_t ret = 0;

	if (i < 0)
		return 0;
	ret += flat_frames(fp, w, w->parent[i], folded, first, p);
	name = frame_name_p(w->path[i], buf, sizeof(buf), p);
	if (folded)
		ret += fprintf(fp, "%s%s", *first ? "" : ";", name);
	else
		ret += fprintf(fp, "                %s\n", name);
	*first = false;
	return ret;
}

static size_t flat_value(FILE *fp, const struct cc_node *n, u64 total, bool folded,
			 const struct callchain_param *p)
{
	/* flat shows the period through the chain's last node, folded what ended there */
	u64 period = folded ? n->hit : cc_node__cumul(n);
	u64 count = folded ? n->count : n->count + n->children_count;

	switch (p->value) {
	case CCVAL_PERIOD:
		return fprintf(fp, "%" PRIu64, period);
	case CCVAL_COUNT:
		return fprintf(fp, "%" PRIu64, count);
	default:
		return fprintf_percent(fp, total ? period * 100.0 / total : 0.0, p);
	}
}

static size_t fprintf_flat_or_folded(FILE *fp, const struct cc_node *root, u64 total,
				     u64 min_hit, const struct callchain_param *p, bool folded)
{
	struct flat_walk w = { .min_hit = min_hit };
	size_t ret = 0;

	flat_collect(&w, root, -1, true);
	if (w.nr_sel)
		qsort_r(w.sel, w.nr_sel, 2 * sizeof(*w.sel), flat_sel_cmp, &w);
	for (size_t i = 0; i < w.nr_sel && !w.err; i++) {
		bool first = true;

		if (!folded)
			ret += fprintf(fp, "           ");
		ret += flat_value(fp, w.path[w.sel[2 * i]], total, folded, p);
		ret += fprintf(fp, folded ? " " : "\n");
		ret += flat_frames(fp, &w, w.sel[2 * i], folded, &first, p);
		ret += fprintf(fp, "\n");
		if (p->print_limit && i + 1 == p->print_limit)
			break;
	}
	free(w.path);
	free(w.parent);
	free(w.sel);
	return ret;
}

size_t callchain__fprintf_flat(FILE *fp, const struct cc_node *root, u64 total, u64 min_hit,
			       const struct callchain_param *p)
{
	return fprintf_flat_or_folded(fp, root, total, min_hit, p, false);
}

size_t callchain__fprintf_folded(FILE *fp, const struct cc_node *root, u64 total, u64 min_hit,
				 const struct callchain_param *p)
{
	return fprintf_flat_or_folded(fp, root, total, min_hit, p, true);
}

int callchain_param__parse(struct callchain_param *p, const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;
	bool threshold_set = false;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double d;

		if (!strcmp(tok, "graph"))
			p->mode = CHAIN_GRAPH_ABS;
		else if (!strcmp(tok, "fractal"))
			p->mode = CHAIN_GRAPH_REL;
		else if (!strcmp(tok, "flat"))
			p->mode = CHAIN_FLAT;
		else if (!strcmp(tok, "folded"))
			p->mode = CHAIN_FOLDED;
		else if (!strcmp(tok, "none"))
			p->mode = CHAIN_NONE;
		else if (!strcmp(tok, "caller"))
			p->order = ORDER_CALLER, p->order_set = true;
		else if (!strcmp(tok, "callee"))
			p->order = ORDER_CALLEE, p->order_set = true;
		else if (!strcmp(tok, "function"))
			p->key_address = p->key_srcline = false;
		else if (!strcmp(tok, "address"))
			p->key_address = true, p->key_srcline = false;
		else if (!strcmp(tok, "srcline"))
			p->key_srcline = true, p->key_address = false;
		else if (!strcmp(tok, "percent"))
			p->value = CCVAL_PERCENT;
		else if (!strcmp(tok, "period"))
			p->value = CCVAL_PERIOD;
		else if (!strcmp(tok, "count"))
			p->value = CCVAL_COUNT;
		else if (!threshold_set && (d = strtod(tok, &end), end != tok && !*end))
			p->min_percent = d, threshold_set = true;
		else if (threshold_set && (d = strtoul(tok, &end, 0), end != tok && !*end))
			p->print_limit = d;	/* as perf: the second number */
		else
			err = -EINVAL;
		if (err)
			break;
	}
	free(copy);
	return err;
}
