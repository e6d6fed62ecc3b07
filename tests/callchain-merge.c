// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cc_node__merge() against perf's way of merging, kept here as the
 * reference: every node of the source where chains end with a period, in
 * pre-order with children in tree order, appended again from the root as
 * one sample.  Random tries with inline frames (ordered by name, the others
 * by address: a partial order), frames without a symbol, two symbols at one
 * address and chains without a period; the results must be the same node
 * for node, down to the trees of children and the hints.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/report/callchain.h"
#include "util/symbol/dso.h"
#include "util/symbol/symbol.h"

struct pool {
	struct dso dso[2];
	struct symbol *sym[8];
	struct cc_frame frame[13];
};

/*
 * Functions whose names go down as their addresses go up, and inline ones
 * named between them: perf's order of children has cycles, so its walks
 * miss children and make twins of them.
 */
static int pool__init(struct pool *p)
{
	static const struct { u64 start; const char *name; bool inl; } syms[] = {
		{ 0x100, "u", false }, { 0x200, "t", false }, { 0x300, "s", false },
		{ 0x400, "r", false }, { 0x100, "u_alias", false }, { 0x300, "rr", true },
		{ 0x100, "tt", true }, { 0x200, "zz", true },
	};
	/* dso (0: none), symbol (-1: none), ip */
	static const struct { int dso, sym; u64 ip; } frames[] = {
		{ 1, 0, 0x104 }, { 1, 1, 0x208 }, { 1, 2, 0x30c }, { 1, 3, 0x408 },
		{ 1, 4, 0x108 }, { 1, 5, 0x304 }, { 1, 6, 0x10c }, { 1, 7, 0x204 },
		{ 2, 0, 0x110 }, { 2, 5, 0x310 }, { 1, -1, 0x150 }, { 0, -1, 0x250 },
		{ 2, -1, 0x120 },
	};

	p->dso[0] = (struct dso){ .kind = DSO_KERNEL, .seq = 1 };
	p->dso[1] = (struct dso){ .kind = DSO_KERNEL, .seq = 2 };
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		p->sym[i] = symbol__new(syms[i].start, 0x100, STB_GLOBAL, STT_FUNC, syms[i].name);
		if (!p->sym[i])
			return -1;
		p->sym[i]->inlined = syms[i].inl;
	}
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		p->frame[i] = (struct cc_frame){
			.dso = frames[i].dso ? &p->dso[frames[i].dso - 1] : NULL,
			.sym = frames[i].sym < 0 ? NULL : p->sym[frames[i].sym],
			.ip = frames[i].ip, .addr = frames[i].ip,
		};
	return 0;
}

static void pool__exit(struct pool *p)
{
	for (size_t i = 0; i < sizeof(p->sym) / sizeof(p->sym[0]); i++)
		free(p->sym[i]);
}

static u32 rnd(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

/* @n random chains (the same ones for the same *state), a quarter without period */
static int fill(struct cc_node *root, const struct pool *p, u64 *state, int n, enum cc_key key)
{
	for (int i = 0; i < n; i++) {
		struct cc_frame f[6];
		size_t len = 1 + rnd(state) % 6;

		/* many siblings near the root, tries that share further down */
		for (size_t k = 0; k < len; k++)
			f[k] = p->frame[rnd(state) % (k < 2 ? 13 : 6)];
		if (cc_node__append(root, f, len, rnd(state) % 4, key))
			return -1;
	}
	return 0;
}

struct ref_walk {
	struct cc_node *dst;
	struct cc_frame path[64];
	enum cc_key key;
};

static int ref_walk(struct ref_walk *w, const struct cc_node *s, size_t depth)
{
	if (depth) {
		w->path[depth - 1] = (struct cc_frame){ .dso = s->dso, .sym = s->sym, .ip = s->ip,
							.addr = s->addr, .inl = s->inl };
		if (s->hit && cc_node__append(w->dst, w->path, depth, s->hit, w->key))
			return -1;
	}
	for (struct rb_link *x = rb_first(s->kids); x; x = rb_next(x))
		if (ref_walk(w, (const struct cc_node *)x, depth + 1))
			return -1;
	return 0;
}

/* perf's merge, chain end by chain end */
static int ref_merge(struct cc_node *dst, struct cc_node *src, enum cc_key key)
{
	struct ref_walk w = { .dst = dst, .key = key };

	dst->hit += src->hit;
	dst->count += src->count;
	if (ref_walk(&w, src, 0))
		return -1;
	cc_node__free_children(src);
	return 0;
}

/* Children that perf's walk missed: two of one node are the same frame. */
static int twins(const struct cc_node *n)
{
	int t = 0;

	for (u32 i = 0; i < n->nr; i++) {
		t += twins(n->child[i]);
		for (u32 k = 0; k < i; k++)
			t += n->child[i]->sym == n->child[k]->sym &&
			     n->child[i]->dso == n->child[k]->dso && n->child[i]->sym;
	}
	return t;
}

/* Build dst and three sources from @seed, merge them with @merge, append some more. */
static int build(struct cc_node *dst, const struct pool *p, u64 seed, enum cc_key key,
		 int (*merge)(struct cc_node *, struct cc_node *, enum cc_key))
{
	u64 state = seed;

	if (fill(dst, p, &state, rnd(&state) % 24, key))
		return -1;
	for (int i = 0; i < 3; i++) {
		struct cc_node src = { 0 };

		/* a period at the root too: perf adds it and the root's count */
		src.hit = rnd(&state) % 2;
		src.count = src.hit;
		if (fill(&src, p, &state, rnd(&state) % 24, key) || merge(dst, &src, key))
			return -1;
		if (src.nr || src.kids)
			return -1;
	}
	return fill(dst, p, &state, 4, key);
}

TPERF_TEST(callchain_merge_reference, "report: callchain merge as perf's chain by chain")
{
	static const enum cc_key keys[] = { CCKEY_FUNCTION, CCKEY_ADDRESS, CCKEY_SRCLINE };
	struct pool p;
	int twin = 0;

	TEST_ASSERT_VAL("setup", !pool__init(&p));
	for (u64 seed = 1; seed <= 600; seed++) {
		enum cc_key key = keys[seed % 3];
		struct cc_node a = { 0 }, b = { 0 };

		TEST_ASSERT_VAL("merge", !build(&a, &p, seed, key, cc_node__merge));
		TEST_ASSERT_VAL("reference", !build(&b, &p, seed, key, ref_merge));
		if (!test_same_trie(&a, &b)) {
			TEST_FAILED_AT("seed %" PRIu64 ": merged tries differ", seed);
			return TEST_FAIL;
		}
		twin += twins(&a);
		cc_node__free_children(&a);
		cc_node__free_children(&b);
	}
	/* the partial order did make twins: the walks were really tested */
	TEST_ASSERT_VAL("twins", twin > 0);
	pool__exit(&p);
	return TEST_OK;
}

static int nr_kept;	/* chains fill_kept() kept */

/*
 * @n random chains as fill() makes them, each kept where the trie can
 * keep it (from a random frame of its sample's on), else appended; or all
 * appended when @kp is NULL.  Half of the samples start as the one before
 * (*@prev, @prev_n), so that kept frames are shared.
 */
static int fill_kept(struct cc_node *root, const struct pool *p, u64 *state, int n,
		     enum cc_key key, struct cc_keeper *kp, struct cc_frame *prev, size_t *prev_n)
{
	for (int i = 0; i < n; i++) {
		struct cc_frame f[8];
		size_t skip = rnd(state) % 3, len = 1 + rnd(state) % 6, same = 0;
		u64 period;

		for (size_t k = 0; k < skip + len; k++)
			f[k] = p->frame[rnd(state) % (k < skip + 2 ? 13 : 6)];
		if (rnd(state) % 2)	/* the first ones as the previous sample's */
			for (; same < skip + len && same < *prev_n && rnd(state) % 4; same++)
				f[same] = prev[same];
		memcpy(prev, f, (skip + len) * sizeof(*f));
		*prev_n = skip + len;
		period = rnd(state) % 4;
		if (kp && cc_node__can_keep(root)) {
			const struct cc_kept *k = cc_keeper__frames(kp, f, skip + len, period);

			if (!k)
				return -1;
			cc_node__keep(root, k, skip);
			nr_kept++;
		} else if (cc_node__append(root, f + skip, len, period, key)) {
			return -1;
		}
	}
	return 0;
}

/* build() with kept chains (@kp) or without, the sources mostly of one or two chains */
static int build_kept(struct cc_node *dst, const struct pool *p, u64 seed, enum cc_key key,
		      struct cc_keeper *kp)
{
	struct cc_frame prev[8];
	size_t prev_n = 1;
	u64 state = seed;

	prev[0] = p->frame[0];
	if (fill_kept(dst, p, &state, rnd(&state) % 4, key, kp, prev, &prev_n))
		return -1;
	for (int i = 0; i < 4; i++) {
		struct cc_node src = { 0 };
		int n = rnd(&state) % 8;

		src.hit = rnd(&state) % 2;
		src.count = src.hit;
		if (fill_kept(&src, p, &state, n < 6 ? n % 3 : 12, key, kp, prev, &prev_n) ||
		    cc_node__merge(dst, &src, key))
			return -1;
		if (src.nr || src.kids || src.kept[0])
			return -1;
	}
	if (fill_kept(dst, p, &state, rnd(&state) % 3, key, kp, prev, &prev_n))
		return -1;
	return cc_node__settle(dst, key);
}

/* Whether the frames kept up to @last are @f, @n of them. */
static bool kept_chain_is(const struct cc_kept *last, const struct cc_frame *f, u32 n)
{
	const struct cc_kept *k = last;

	for (u32 i = n; i--; k = k->prev)
		if (!k || k->pos != i || k->sym != f[i].sym || k->ip != f[i].ip ||
		    k->dso != f[i].dso || k->inl != f[i].inl)
			return false;
	return !k;
}

/* The kept frame at @pos of the chain up to @last. */
static const struct cc_kept *kept_at(const struct cc_kept *last, u32 pos)
{
	while (last && last->pos > pos)
		last = last->prev;
	return last;
}

TPERF_TEST(callchain_kept, "report: kept callchains as appended ones, merged or settled")
{
	static const enum cc_key keys[] = { CCKEY_FUNCTION, CCKEY_ADDRESS, CCKEY_SRCLINE };
	struct cc_keeper kp = { .next = 0 };
	const struct cc_kept *a1, *k;
	struct symbol *i1, *i2;
	struct cc_frame f[4], g[4];
	struct pool p;

	TEST_ASSERT_VAL("setup", !pool__init(&p));
	/* chains share the first frames they have with a recent one */
	f[0] = p.frame[0], f[1] = p.frame[1], f[2] = p.frame[2], f[3] = p.frame[3];
	TEST_ASSERT_VAL("keep", (a1 = cc_keeper__frames(&kp, f, 4, 7)) != NULL);
	TEST_ASSERT_VAL("chain", kept_chain_is(a1, f, 4) && a1->period == 7);
	memcpy(g, f, sizeof(g));
	g[2] = p.frame[5];
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, g, 3, 1)) != NULL);
	TEST_ASSERT_VAL("other end", kept_chain_is(k, g, 3) && k->period == 1);
	TEST_ASSERT_VAL("start shared", k->prev == kept_at(a1, 1));
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, f, 4, 3)) != NULL);
	TEST_ASSERT_VAL("the same chain", kept_chain_is(k, f, 4));
	TEST_ASSERT_VAL("its own last frame", k != a1 && k->prev == a1->prev);
	TEST_ASSERT_VAL("periods apart", k->period == 3 && a1->period == 7);
	for (int i = 0; i < 3; i++) {	/* chains in between that share nothing */
		g[0] = p.frame[8 + i];
		TEST_ASSERT_VAL("keep", cc_keeper__frames(&kp, g, 2, 1) != NULL);
	}
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, f, 3, 1)) != NULL);
	TEST_ASSERT_VAL("a recent one's start", k->prev == kept_at(a1, 1));
	memcpy(g, f, sizeof(g));
	g[1].ip++;		/* the same function, another address */
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, g, 4, 1)) != NULL);
	TEST_ASSERT_VAL("other address", kept_chain_is(k, g, 4) &&
					  kept_at(k, 1) != kept_at(a1, 1) &&
					  kept_at(k, 0) == kept_at(a1, 0));
	memcpy(g, f, sizeof(g));
	g[1].inl = 1;		/* another place in the address' inline expansion */
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, g, 4, 1)) != NULL);
	TEST_ASSERT_VAL("other inline frame", kept_chain_is(k, g, 4) &&
					       kept_at(k, 1) != kept_at(a1, 1));
	/* each process' unwinder has its own inline symbols: one name and range is one */
	i1 = symbol__new(0x100, 0x40, STB_GLOBAL, STT_FUNC, "inl");
	i2 = symbol__new(0x100, 0x40, STB_GLOBAL, STT_FUNC, "inl");
	TEST_ASSERT_VAL("symbols", i1 && i2);
	i1->inlined = i2->inlined = 1;
	memcpy(g, f, sizeof(g));
	g[1].sym = i1;
	TEST_ASSERT_VAL("keep", (a1 = cc_keeper__frames(&kp, g, 4, 1)) != NULL);
	g[1].sym = i2;
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, g, 4, 1)) != NULL);
	TEST_ASSERT_VAL("inline symbols alike", kept_at(k, 2) == kept_at(a1, 2));
	i2->inlined = 0;
	TEST_ASSERT_VAL("keep", (k = cc_keeper__frames(&kp, g, 4, 1)) != NULL);
	TEST_ASSERT_VAL("not with a function", kept_at(k, 1) != kept_at(a1, 1));
	cc_keeper__exit(&kp);
	free(i1);
	free(i2);

	for (u64 seed = 1; seed <= 600; seed++) {
		enum cc_key key = keys[seed % 3];
		struct cc_node a = { 0 }, b = { 0 };

		TEST_ASSERT_VAL("kept", !build_kept(&a, &p, seed, key, &kp));
		TEST_ASSERT_VAL("appended", !build_kept(&b, &p, seed, key, NULL));
		if (!test_same_trie(&a, &b)) {
			TEST_FAILED_AT("seed %" PRIu64 ": kept and appended tries differ", seed);
			return TEST_FAIL;
		}
		cc_node__free_children(&a);
		cc_node__free_children(&b);
		cc_keeper__exit(&kp);
	}
	TEST_ASSERT_VAL("chains were kept", nr_kept > 1000);
	pool__exit(&p);
	return TEST_OK;
}
