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
