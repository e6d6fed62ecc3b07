// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hist entries: insertion by key, the final merge of entries whose keys
 * print the same (perf's collapse), and perf's output order: children
 * period, self period, then each key's sort order, then the keys' identity
 * order (addresses) for ties.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

int hists__init(struct hists *h, const enum sort_key_id *keys, int nr_keys, bool children,
		const struct callchain_param *cc)
{
	memset(h, 0, sizeof(*h));
	h->keys = keys;
	h->nr_keys = nr_keys;
	h->children = children;
	h->cc = cc;
	return 0;
}

static void entry__free(struct hist_entry *e)
{
	cc_node__free_children(&e->callchain);
	free(e);
}

void hists__exit(struct hists *h)
{
	if (h->sorted) {
		for (size_t i = 0; i < h->nr_sorted; i++)
			entry__free(h->sorted[i]);
	} else {
		for (size_t i = 0; i < h->nr; i++)
			entry__free(h->all[i]);
	}
	free(h->sorted);
	if (h->all != h->sorted)
		free(h->all);
	memset(h, 0, sizeof(*h));
}

static const char *dso_name(const struct hist_entry *e)
{
	return e->dso ? e->dso->short_name : NULL;
}

static int cmp_str_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? 1 : -1;
	return strcmp(a, b);
}

static int pid_of(const struct hist_entry *e)
{
	return e->thread ? e->thread->tid : -1;
}

/*
 * Tracepoint keys: perf orders a field by memcmp() of its bytes, the larger
 * first; the trace text by strcmp(), the smaller first.
 */
static int dyn_sort(int i, const struct hist_entry *a, const struct hist_entry *b)
{
	if (a->dyn_raw[i] || b->dyn_raw[i])
		return -cmp_str_null_last(a->dyn_raw[i], b->dyn_raw[i]);
	/* perf computes the text when it first compares it: the entries
	 * (and templates) compared here are never const objects */
	((struct hist_entry *)a)->dyn_compared |= 1u << i;
	((struct hist_entry *)b)->dyn_compared |= 1u << i;
	return cmp_str_null_last(a->dyn_val[i], b->dyn_val[i]);
}

/* The key's output order (perf's sort function of the key). */
static int key_sort(enum sort_key_id k, const struct hist_entry *a, const struct hist_entry *b)
{
	if (k >= SORT_DYN0 && k <= SORT_DYN_LAST)
		return dyn_sort(k - SORT_DYN0, a, b);
	switch (k) {
	case SORT_COMM:
		return strcmp(a->comm->str, b->comm->str);
	case SORT_DSO:
		return cmp_str_null_last(dso_name(a), dso_name(b));
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
		return 0;
	}
}

/* perf compares addresses by their signed difference */
static int cmp_addr(u64 a, u64 b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* The key's identity order, which decides between equal sort values. */
static int key_ident(enum sort_key_id k, const struct hist_entry *a, const struct hist_entry *b)
{
	int c;

	if (k != SORT_SYM)
		return key_sort(k, a, b);
	if (!a->sym && !b->sym)
		return cmp_addr(a->ip, b->ip);
	/* perf compares the DSOs first here (not when both lack a symbol) */
	c = cmp_str_null_last(dso_name(a), dso_name(b));
	if (c)
		return c;
	if (!a->sym || !b->sym)
		return !a->sym ? 1 : -1;
	if (a->sym->start != b->sym->start)
		return cmp_addr(a->sym->start, b->sym->start);
	return cmp_addr(a->sym->end, b->sym->end);
}

static const struct hists *sort_hists;

static int ident_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	for (int i = 0; i < sort_hists->nr_keys; i++) {
		int c = key_ident(sort_hists->keys[i], a, b);

		if (c)
			return c;
	}
	return 0;
}

static int output_cmp(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(struct hist_entry *const *)pa;
	const struct hist_entry *b = *(struct hist_entry *const *)pb;
	int c;

	if (sort_hists->children && a->period_acc != b->period_acc)
		return a->period_acc > b->period_acc ? -1 : 1;
	/* perf puts callers above callees of the same thread at equal periods */
	if (sort_hists->children && a->thread == b->thread && sort_hists->has_callchain &&
	    a->max_depth != b->max_depth) {
		bool caller = sort_hists->cc && sort_hists->cc->order == ORDER_CALLER;

		return (a->max_depth > b->max_depth) == caller ? -1 : 1;
	}
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < sort_hists->nr_keys; i++) {
		c = key_sort(sort_hists->keys[i], a, b);
		if (c)
			return c;
	}
	return ident_cmp(a, b);
}

/*
 * perf inserts the entries, in their collapsed order, into a red-black tree
 * with this comparison; since callers-above-callees only applies within a
 * thread the order is not total, so the tree's shape decides: build the
 * same tree.
 */
static void rb_rotate(struct hist_rb_node **root, struct hist_rb_node *x, bool left)
{
	struct hist_rb_node *y = left ? x->r : x->l;

	if (left) {
		x->r = y->l;
		if (y->l)
			y->l->p = x;
	} else {
		x->l = y->r;
		if (y->r)
			y->r->p = x;
	}
	y->p = x->p;
	if (!x->p)
		*root = y;
	else if (x == x->p->l)
		x->p->l = y;
	else
		x->p->r = y;
	if (left)
		y->l = x;
	else
		y->r = x;
	x->p = y;
}

static int entry__merge(const struct hists *h, struct hist_entry *dst, struct hist_entry *src);

typedef int (*entry_cmp_fn)(const void *, const void *);

/*
 * Insert @z by @cmp (negative: to the left).  With @merge, an equal node is
 * returned instead (z is not inserted).
 */
static struct hist_rb_node *rb_insert(struct hist_rb_node **root, struct hist_rb_node *z, entry_cmp_fn cmp, bool merge)
{
	struct hist_rb_node *y = NULL, *x = *root;
	int c = 0;

	while (x) {
		y = x;
		c = cmp(&z->e, &x->e);
		if (!c && merge)
			return x;
		x = c < 0 ? x->l : x->r;
	}
	z->p = y;
	z->l = z->r = NULL;
	z->red = true;
	if (!y)
		*root = z;
	else if (c < 0)
		y->l = z;
	else
		y->r = z;
	while (z->p && z->p->red) {
		struct hist_rb_node *g = z->p->p;
		bool pl = z->p == g->l;
		struct hist_rb_node *u = pl ? g->r : g->l;

		if (u && u->red) {
			z->p->red = false;
			u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == (pl ? z->p->r : z->p->l)) {
			z = z->p;
			rb_rotate(root, z, pl);
		}
		z->p->red = false;
		g->red = true;
		rb_rotate(root, g, !pl);
	}
	(*root)->red = false;
	return NULL;
}

static size_t rb_walk(const struct hist_rb_node *n, struct hist_entry **out, size_t i)
{
	while (n) {
		i = rb_walk(n->l, out, i);
		out[i++] = n->e;
		n = n->r;
	}
	return i;
}

/*
 * Pass @v (n entries) through a tree ordered by @cmp, as perf's stages do,
 * merging equal entries when @merge; *out gets the survivors in order.
 */
static int tree_pass(const struct hists *h, struct hist_entry **v, size_t *n, entry_cmp_fn cmp,
		     bool merge)
{
	struct hist_rb_node *nodes = calloc(*n + 1, sizeof(*nodes)), *root = NULL;
	int err = 0;

	if (!nodes)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		struct hist_rb_node *same;

		nodes[i].e = v[i];
		same = rb_insert(&root, &nodes[i], cmp, merge);
		if (same) {
			if (!err)
				err = entry__merge(h, same->e, v[i]);
			entry__free(v[i]);
		}
	}
	*n = rb_walk(root, v, 0);
	free(nodes);
	return err;
}

bool hists__same(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hists *saved = sort_hists;
	bool same;

	sort_hists = h;
	same = !ident_cmp(a, b);
	sort_hists = saved;
	return same;
}

/* Merge @src into @dst (same printed keys). */
static int entry__merge(const struct hists *h, struct hist_entry *dst, struct hist_entry *src)
{
	dst->period += src->period;
	dst->nr_samples += src->nr_samples;
	dst->period_acc += src->period_acc;
	dst->nr_acc += src->nr_acc;
	if (src->max_depth > dst->max_depth)
		dst->max_depth = src->max_depth;
	return cc_node__merge(&dst->callchain, &src->callchain, h->cc && h->cc->key_address);
}

static int ident_cmp_v(const void *pa, const void *pb)
{
	return ident_cmp(*(struct hist_entry *const *)pa, *(struct hist_entry *const *)pb);
}

/*
 * perf's three trees: entries by their keys in the order they were made
 * (equal ones are one entry), the collapsed tree built from that one's
 * order, the output tree from the collapsed one's.  The address order of
 * unresolved symbols is by signed difference, not total, so the order
 * depends on each tree's shape: build the same trees.
 */
int hists__output_resort(struct hists *h)
{
	size_t n = h->nr;
	struct hist_entry **v = h->all;
	int err;

	if (!v)
		v = h->all = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	sort_hists = h;
	rb_walk(h->root_in, v, 0);
	h->sorted = v;
	h->nr_sorted = n;
	err = tree_pass(h, v, &n, ident_cmp_v, true);
	h->nr_sorted = n;
	if (!err)
		err = tree_pass(h, v, &n, output_cmp, false);
	h->nr_sorted = n;
	h->total_period = 0;
	for (size_t i = 0; i < n; i++)
		h->total_period += v[i]->period;
	return err;
}

int sort_key__parse(const char *s, enum sort_key_id *keys, int max)
{
	static const struct { const char *name; enum sort_key_id id; } names[] = {
		{ "comm", SORT_COMM }, { "dso", SORT_DSO }, { "sym", SORT_SYM },
		{ "symbol", SORT_SYM }, { "pid", SORT_PID }, { "cpu", SORT_CPU },
	};
	char *copy = strdup(s), *tok, *save = NULL;
	int nr = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcasecmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0]) || nr == max) {
			free(copy);
			return -EINVAL;
		}
		keys[nr++] = names[i].id;
	}
	free(copy);
	return nr ? nr : -EINVAL;
}

static int tmpl_cmp(const void *pa, const void *pb)
{
	return ident_cmp(*(struct hist_entry *const *)pa, *(struct hist_entry *const *)pb);
}

/*
 * perf's lookup: a walk down the tree of entries by key.  Its address
 * order is not total, so a walk can miss an equal entry and make a second
 * one, as perf does.
 */
struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *tmpl)
{
	struct hist_rb_node *x = h->root_in;
	struct hist_entry *e;

	sort_hists = h;
	while (x) {
		int c = ident_cmp(tmpl, x->e);

		if (!c)
			return x->e;
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
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	*e = *tmpl;
	memset(&e->callchain, 0, sizeof(e->callchain));
	e->period = e->nr_samples = e->period_acc = e->nr_acc = e->max_depth = 0;
	e->seq = h->seq++;
	e->in_node = (struct hist_rb_node){ .e = e };
	rb_insert(&h->root_in, &e->in_node, tmpl_cmp, false);
	h->all[h->nr++] = e;
	return e;
}
