// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hists__findnew() against a model of perf's lookup: a plain walk down a
 * red-black tree of the entries by perf's comparison (addresses by their
 * signed difference), a new leaf where the walk ends.  Over half the
 * address circle that order is not transitive, so the walk can miss an
 * entry with the same keys and make a second one, as perf does; tperf's
 * lookup tables (the cache of walks, the quick table of ordered classes)
 * must find what the walk finds, entry for entry.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/lib/rbtree.h"
#include "util/report/hist.h"
#include "util/symbol/symbol.h"

struct key {
	int comm, dso;			/* dso -1: none */
	const struct symbol *sym;
	u64 ip;
};

struct model_node {
	struct rb_link rb;		/* first */
	struct key k;
	size_t seq;
};

static const char *const comm_names[] = { "alpha", "beta" };
static const char *const dso_names[] = { "liba.so", "libb.so" };

static int cmp_addr(u64 a, u64 b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's order of the keys comm, dso, sym (hist_entry__cmp of the three) */
static int model_cmp(const struct key *a, const struct key *b)
{
	int c = strcmp(comm_names[a->comm], comm_names[b->comm]);

	if (c)
		return c;
	if (a->dso != b->dso) {		/* names, a missing one last */
		if (a->dso < 0 || b->dso < 0)
			return a->dso < 0 ? 1 : -1;
		return strcmp(dso_names[a->dso], dso_names[b->dso]);
	}
	if (!a->sym && !b->sym)
		return cmp_addr(a->ip, b->ip);
	if (!a->sym || !b->sym)
		return !a->sym ? 1 : -1;
	if (a->sym == b->sym)
		return 0;
	return a->sym->start != b->sym->start ? cmp_addr(a->sym->start, b->sym->start) :
	       cmp_addr(a->sym->end, b->sym->end);
}

/* The walk: the node with key @k, made where the walk ends if none is found. */
static struct model_node *model_findnew(struct rb_link **root, const struct key *k, size_t *nr,
					struct model_node *nodes)
{
	struct rb_link *x = *root, *y = NULL;
	struct model_node *n;
	int c = 0;

	while (x) {
		c = model_cmp(k, &((struct model_node *)x)->k);
		if (!c)
			return (struct model_node *)x;
		y = x;
		x = c < 0 ? x->l : x->r;
	}
	n = &nodes[*nr];
	*n = (struct model_node){ .k = *k, .seq = (*nr)++ };
	rb_link_leaf(root, &n->rb, y, c < 0);
	rb_insert_fixup(root, &n->rb);
	return n;
}

static u32 rnd(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

/*
 * Addresses without a symbol: in one DSO, a quarter of the space; without
 * one, all over it (a stack's garbage read as frames), so that in that
 * class the order goes round the circle.
 */
static const u64 quarter_ips[] = { 0x1000, 0x1010, 0x1020, 0x2000, 0x7fff0000, 0x7fff0100 };
static const u64 circle_ips[] = {
	0x10, 0x20, 0x4000000000000010, 0x4000000000000020, 0x8000000000000010,
	0xc000000000000010, 0xc000000000000020, 0xffffffff81000000, 0x3fffffffffffffff,
	0x7ffffffffffffff0, 0xbffffffffffffff0,
};

static struct key random_key(u64 *state, struct symbol *const *syms)
{
	u32 r = rnd(state);
	struct key k = { .comm = r % 2, .dso = (int)(r / 2 % 3) - 1 };

	r /= 6;
	if (k.dso >= 0 && r % 3 == 0)
		k.sym = syms[r / 3 % 4];
	else if (k.dso >= 0)
		k.ip = quarter_ips[r / 3 % 6];
	else
		k.ip = circle_ips[r / 3 % 11];
	return k;
}

TPERF_TEST(hists_findnew_walk, "report: entries found as perf's walk finds them, also where it misses")
{
	static const enum sort_key_id keys[] = { SORT_COMM, SORT_DSO, SORT_SYM };
	enum { LOOKUPS = 20000 };
	struct model_node *nodes = calloc(LOOKUPS, sizeof(*nodes));
	struct comm comms[2] = { { .str = (char *)comm_names[0] }, { .str = (char *)comm_names[1] } };
	struct dso dsos[2];
	struct symbol *syms[4];
	size_t missed = 0;

	TEST_ASSERT_VAL("memory", nodes);
	for (int i = 0; i < 2; i++)
		dsos[i] = (struct dso){ .long_name = (char *)dso_names[i],
					.short_name = (char *)dso_names[i],
					.seq = 1 + i };
	for (int i = 0; i < 4; i++) {
		syms[i] = symbol__new(0x400000 + 0x100 * (i % 3), 0x80 + 0x40 * i, STB_GLOBAL, STT_FUNC,
				      "f");
		TEST_ASSERT_VAL("symbol", syms[i]);
	}
	for (u64 seed = 1; seed <= 40; seed++) {
		struct rb_link *root = NULL;
		struct hists h;
		size_t nr = 0, distinct = 0;
		u64 state = seed;
		hists__init(&h, keys, 3, false, NULL);
		for (size_t i = 0; i < LOOKUPS; i++) {
			struct key k = random_key(&state, syms);
			struct hist_entry tmpl = { .comm = &comms[k.comm],
						   .dso = k.dso >= 0 ? &dsos[k.dso] : NULL,
						   .sym = (struct symbol *)k.sym, .ip = k.ip };
			struct model_node *want = model_findnew(&root, &k, &nr, nodes);
			struct hist_entry *e;

			hist_entry__template_keys(&tmpl);
			e = hists__findnew(&h, &tmpl);
			TEST_ASSERT_VAL("entry", e);
			if (e->seq != want->seq) {
				TEST_FAILED_AT("seed %" PRIu64 ", lookup %zu (ip %#" PRIx64
					       "): entry %" PRIu64 ", perf's walk: %zu",
					       seed, i, k.ip, e->seq, want->seq);
				return TEST_FAIL;
			}
		}
		TEST_ASSERT_EQUAL("entries", h.nr, nr);
		/* the entries with keys another entry has: the walk missed it */
		for (size_t i = 0; i < nr; i++) {
			bool dup = false;

			for (size_t j = 0; j < i && !dup; j++)
				dup = !model_cmp(&nodes[i].k, &nodes[j].k);
			missed += dup;
			distinct += !dup;
		}
		TEST_ASSERT_VAL("keys", distinct > 30);
		hists__exit(&h);
	}
	/* the case this is about happened */
	TEST_ASSERT_VAL("walks that missed an entry", missed > 0);
	for (int i = 0; i < 4; i++)
		free(syms[i]);
	free(nodes);
	return TEST_OK;
}

/*
 * The same for the children of a callchain node: with function keys a
 * frame with a symbol is placed by its start among those, by its address
 * among frames without one, so a node's children can be in a circle and
 * the walk miss one.  The model: perf's walk down the children.
 */
struct model_kid {
	struct rb_link rb;		/* first */
	const struct symbol *sym;
	u64 ip, count;
};

/* frame_order() of one DSO: negative, the frame goes left of the child */
static int model_kid_order(const struct model_kid *n, const struct symbol *sym, u64 ip)
{
	if (n->sym && n->sym == sym)
		return 0;
	if (n->sym && sym)
		return n->sym->start < sym->start ? -1 : n->sym->start > sym->start;
	return n->ip < ip ? -1 : n->ip > ip;
}

static struct model_kid *model_kid_findnew(struct rb_link **root, const struct symbol *sym, u64 ip,
					   size_t *nr, struct model_kid *kids)
{
	struct rb_link *x = *root, *y = NULL;
	struct model_kid *n;
	int c = 0;

	while (x) {
		c = model_kid_order((struct model_kid *)x, sym, ip);
		if (!c)
			return (struct model_kid *)x;
		y = x;
		x = c < 0 ? x->l : x->r;
	}
	n = &kids[(*nr)++];
	*n = (struct model_kid){ .sym = sym, .ip = ip };
	rb_link_leaf(root, &n->rb, y, c < 0);
	rb_insert_fixup(root, &n->rb);
	return n;
}

TPERF_TEST(callchain_children_walk, "report: callchain children found as perf's walk finds them")
{
	enum { APPENDS = 3000 };
	static const u64 ips[] = { 0x1050, 0x1120, 0x1190, 0x1200, 0x1280, 0x1300, 0x1010 };
	struct model_kid *kids = calloc(APPENDS, sizeof(*kids));
	struct dso dso = { .long_name = (char *)"/lib/x.so", .short_name = (char *)"x.so",
			   .seq = 1 };
	struct symbol *syms[3];
	size_t missed = 0;

	TEST_ASSERT_VAL("memory", kids);
	for (int i = 0; i < 3; i++) {
		syms[i] = symbol__new(0x1000 + 0x100 * i, 0x100, STB_GLOBAL, STT_FUNC, "g");
		TEST_ASSERT_VAL("symbol", syms[i]);
	}
	for (u64 seed = 1; seed <= 40; seed++) {
		struct cc_node root = { 0 };
		struct rb_link *model = NULL;
		size_t nr = 0;
		u64 state = seed;

		for (size_t i = 0; i < APPENDS; i++) {
			u32 r = rnd(&state);
			/* few frames with a symbol: long runs of the same child (the hint) */
			const struct symbol *sym = r % 8 == 0 ? syms[r / 8 % 3] : NULL;
			u64 ip = sym ? sym->start + 0x10 * (r / 24 % 4) : ips[r / 8 % 7];
			struct cc_frame f = { .dso = &dso, .sym = (struct symbol *)sym, .ip = ip,
					      .addr = ip };

			for (u32 k = 1 + r / 200 % 3; k; k--)
				TEST_ASSERT_VAL("append", !cc_node__append(&root, &f, 1, 1,
									    CCKEY_FUNCTION));
			for (u32 k = 1 + r / 200 % 3; k; k--)
				model_kid_findnew(&model, sym, ip, &nr, kids)->count++;
		}
		TEST_ASSERT_EQUAL("children", (size_t)root.nr, nr);
		for (size_t i = 0; i < nr; i++) {
			if (root.child[i]->count != kids[i].count) {
				TEST_FAILED_AT("seed %" PRIu64 ": child %zu (ip %#" PRIx64 ") has %" PRIu64
					       " appends, perf's walk %" PRIu64, seed, i, kids[i].ip,
					       root.child[i]->count, kids[i].count);
				return TEST_FAIL;
			}
			for (size_t j = 0; j < i; j++)
				missed += !model_kid_order(&kids[j], kids[i].sym, kids[i].ip);
		}
		cc_node__free_children(&root);
	}
	TEST_ASSERT_VAL("walks that missed a child", missed > 0);
	for (int i = 0; i < 3; i++)
		free(syms[i]);
	free(kids);
	return TEST_OK;
}
