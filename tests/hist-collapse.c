// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hists__collapse() on two threads against the serial one: the same random
 * hists (keys with inline symbols, so the order of the collapsed tree is
 * partial and its shape decides; many entries with equal keys, each with a
 * callchain trie) collapsed both ways must give the same entries in the
 * same order, with the same counts and tries node for node.
 */
#include <elf.h>
#include <stdlib.h>

#include "tests/tests.h"
#include "util/report/hist.h"
#include "util/symbol/symbol.h"

struct pool {
	char names[2][8];
	struct comm comm[2];
	struct dso dso[2];
	struct symbol *sym[8];
	struct cc_frame frame[12];
};

/* Names going down as addresses go up, and inline ones among them. */
static int pool__init(struct pool *p)
{
	static const struct { u64 start; const char *name; bool inl; } syms[] = {
		{ 0x100, "u", false }, { 0x200, "t", false }, { 0x300, "s", false },
		{ 0x400, "r", false }, { 0x100, "u_alias", false }, { 0x300, "rr", true },
		{ 0x100, "tt", true }, { 0x200, "zz", true },
	};

	p->comm[0].str = "alpha";
	p->comm[1].str = "beta";
	for (int i = 0; i < 2; i++) {
		snprintf(p->names[i], sizeof(p->names[i]), "/lib%c", 'a' + i);
		p->dso[i] = (struct dso){ .long_name = p->names[i], .short_name = p->names[i] + 1,
					  .kind = DSO_KERNEL, .seq = 1 + i };
	}
	for (size_t i = 0; i < 8; i++) {
		p->sym[i] = symbol__new(syms[i].start, 0x100, STB_GLOBAL, STT_FUNC, syms[i].name);
		if (!p->sym[i])
			return -1;
		p->sym[i]->inlined = syms[i].inl;
	}
	for (size_t i = 0; i < 12; i++) {
		struct symbol *s = i < 8 ? p->sym[i] : NULL;
		u64 ip = (s ? s->start : 0x150 + 0x100 * i) + 4 * i;

		p->frame[i] = (struct cc_frame){ .dso = &p->dso[i % 2], .sym = s, .ip = ip,
						 .addr = ip };
	}
	return 0;
}

static void pool__exit(struct pool *p)
{
	for (size_t i = 0; i < 8; i++)
		free(p->sym[i]);
}

static u32 rnd(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

/* An entry with random keys (few of them: many equal), counts and chains. */
static struct hist_entry *random_entry(const struct pool *p, u64 *state, enum cc_key key)
{
	struct hist_entry *e = hist_entry__zalloc();
	u32 r = rnd(state);

	if (!e)
		return NULL;
	e->comm = (struct comm *)&p->comm[r % 2];
	e->dso = (struct dso *)&p->dso[r / 2 % 2];
	e->sym = r / 4 % 9 < 8 ? p->sym[r / 4 % 9] : NULL;
	e->ip = e->sym ? e->sym->start + r / 64 % 8 : 0x150 + r / 64 % 3 * 0x100;
	e->period = rnd(state) % 1000;
	e->nr_samples = 1 + e->period % 7;
	e->period_acc = e->period + rnd(state) % 100;
	e->nr_acc = e->nr_samples + 1;
	e->period_sys = e->period / 3;
	e->period_us = e->period - e->period_sys;
	for (u32 n = rnd(state) % 7; n; n--) {
		struct cc_frame f[6];
		size_t len = 1 + rnd(state) % 6;

		for (size_t k = 0; k < len; k++)
			f[k] = p->frame[rnd(state) % (k < 2 ? 12 : 6)];
		if (cc_node__append(&e->callchain, f, len, rnd(state) % 4, key)) {
			hist_entry__free(e);
			return NULL;
		}
	}
	hist_entry__template_keys(e);
	return e;
}

/* @n random entries in @h, in a random order of its tree of entries. */
static int build(struct hists *h, const struct pool *p, u64 seed, size_t n,
		 const enum sort_key_id *keys, const struct callchain_param *cc)
{
	u64 state = seed;

	hists__init(h, keys, 3, true, cc);
	h->has_callchain = true;
	h->all = calloc(n, sizeof(*h->all));
	if (!h->all)
		return -1;
	h->alloc = n;
	for (size_t i = 0; i < n; i++) {
		struct hist_entry *e = random_entry(p, &state, callchain_param__key(cc));
		struct rb_link *x = h->root_in, *parent = NULL;
		bool left = false;

		if (!e)
			return -1;
		e->seq = h->seq++;
		while (x) {
			parent = x;
			left = rnd(&state) & 1;
			x = left ? x->l : x->r;
		}
		rb_link_leaf(&h->root_in, &e->in_node, parent, left);
		rb_insert_fixup(&h->root_in, &e->in_node);
		h->all[h->nr++] = e;
	}
	return 0;
}

static bool same_entry(const struct hist_entry *a, const struct hist_entry *b)
{
	if (a->comm != b->comm || a->dso != b->dso || a->sym != b->sym || a->ip != b->ip ||
	    a->seq != b->seq || a->period != b->period || a->nr_samples != b->nr_samples ||
	    a->period_acc != b->period_acc || a->nr_acc != b->nr_acc ||
	    a->period_sys != b->period_sys || a->period_us != b->period_us) {
		fprintf(stderr, "entry %" PRIu64 "/%" PRIu64 ": period %" PRIu64 "/%" PRIu64 "\n",
			a->seq, b->seq, a->period, b->period);
		return false;
	}
	return test_same_trie(&a->callchain, &b->callchain);
}

TPERF_TEST(hists_collapse_threads, "report: collapse on two threads as on one")
{
	static const enum sort_key_id keys[] = { SORT_COMM, SORT_DSO, SORT_SYM };
	struct callchain_param cc[2] = { { .mode = CHAIN_GRAPH_ABS },
					 { .mode = CHAIN_GRAPH_ABS, .key_address = true } };
	struct pool p;
	size_t merged = 0;

	TEST_ASSERT_VAL("setup", !pool__init(&p));
	for (u64 seed = 1; seed <= 24; seed++) {
		struct hists a, b;
		size_t n = seed % 4 ? 1500 + seed * 50 : 5;

		TEST_ASSERT_VAL("build", !build(&a, &p, seed, n, keys, &cc[seed % 2]));
		TEST_ASSERT_VAL("build", !build(&b, &p, seed, n, keys, &cc[seed % 2]));
		a.collapse_mode = HISTS_COLLAPSE_PARALLEL;
		/* the second thread stops at the start, within, at the end */
		a.collapse_split_pct = seed % 5 * 25;
		TEST_ASSERT_VAL("two threads", !hists__collapse(&a));
		b.collapse_mode = HISTS_COLLAPSE_SERIAL;
		TEST_ASSERT_VAL("one thread", !hists__collapse(&b));
		TEST_ASSERT_EQUAL("entries", a.nr_sorted, b.nr_sorted);
		for (size_t i = 0; i < a.nr_sorted; i++)
			if (!same_entry(a.sorted[i], b.sorted[i])) {
				TEST_FAILED_AT("seed %" PRIu64 ": entry %zu differs", seed, i);
				return TEST_FAIL;
			}
		merged += n - a.nr_sorted;
		hists__exit(&a);
		hists__exit(&b);
	}
	/* entries were merged, not only kept */
	TEST_ASSERT_VAL("merges", merged > 10000);
	pool__exit(&p);
	return TEST_OK;
}
