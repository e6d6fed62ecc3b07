// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event groups in one report section (perf's --group): the leader's
 * entries get a pointer to the entry with the same keys in each member's
 * histogram, and keys only a member has get an empty leader entry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/hist.h"

/* qsort_r() order of struct hist_entry * by the keys of hists @h */
static int by_ident(const void *pa, const void *pb, void *h)
{
	return hists__ident_cmp(h, *(struct hist_entry *const *)pa,
				*(struct hist_entry *const *)pb);
}

/* bsearch() for @e in @idx (@n, sorted by_ident() with @h) */
static struct hist_entry *find_ident(const struct hists *h, struct hist_entry **idx, size_t n,
				     const struct hist_entry *e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = hists__ident_cmp(h, e, idx[mid]);

		if (!c)
			return idx[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* An empty leader entry with the keys of member entry @m. */
static struct hist_entry *dummy_of(const struct hist_entry *m, int nr)
{
	struct hist_entry *e = hist_entry__zalloc();

	if (!e)
		return NULL;
	*e = *m;
	e->period = e->nr_samples = e->period_acc = e->nr_acc = 0;
	e->period_sys = e->period_us = e->period_guest_sys = e->period_guest_us = 0;
	e->max_depth = 0;
	memset(&e->callchain, 0, sizeof(e->callchain));
	e->pairs = calloc(nr, sizeof(*e->pairs));
	if (!e->pairs) {
		hist_entry__free(e);
		return NULL;
	}
	return e;
}

static int add_entry(struct hists *h, struct hist_entry *e)
{
	struct hist_entry **v = realloc(h->sorted, (h->nr_sorted + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	if (h->all == h->sorted)
		h->all = v;
	h->sorted = v;
	h->sorted[h->nr_sorted++] = e;
	return 0;
}

/* Pair member @mi's entries with the leader's (sorted copy @idx of @n). */
static int link_member(struct hists *leader, struct hist_entry **idx, size_t n,
		       struct hists *m, int mi, int nr)
{
	for (size_t i = 0; i < m->nr_sorted; i++) {
		struct hist_entry *me = m->sorted[i], *e;

		e = find_ident(leader, idx, n, me);
		if (!e) {
			/* a key only members have (perf's dummy entry) */
			for (size_t k = n; k < leader->nr_sorted && !e; k++)
				if (!hists__ident_cmp(leader, leader->sorted[k], me))
					e = leader->sorted[k];
		}
		if (!e) {
			e = dummy_of(me, nr);
			if (!e || add_entry(leader, e))
				return -ENOMEM;
		}
		e->pairs[mi] = me;
	}
	return 0;
}

struct placed {
	struct hist_entry *e;
	size_t i;
};

static int by_ident_placed(const void *pa, const void *pb, void *h)
{
	const struct placed *a = pa, *b = pb;
	int c = hists__ident_cmp(h, a->e, b->e);

	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* The leader's entries, the dummies among them, in the collapsed order. */
static int order_dummies(struct hists *leader)
{
	struct placed *v = malloc(leader->nr_sorted * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < leader->nr_sorted; i++)
		v[i] = (struct placed){ leader->sorted[i], i };
	qsort_r(v, leader->nr_sorted, sizeof(*v), by_ident_placed, leader);
	for (size_t i = 0; i < leader->nr_sorted; i++)
		leader->sorted[i] = v[i].e;
	free(v);
	return 0;
}

int hists__link_group(struct hists *leader, struct hists **members, int nr)
{
	struct hist_entry **idx;
	size_t n;
	int err;

	err = hists__collapse(leader);
	for (int i = 0; i < nr && !err; i++)
		err = hists__collapse(members[i]);
	if (err)
		return err;
	n = leader->nr_sorted;
	for (size_t i = 0; i < n; i++) {
		leader->sorted[i]->pairs = calloc(nr, sizeof(struct hist_entry *));
		if (!leader->sorted[i]->pairs)
			return -ENOMEM;
	}
	idx = malloc((n + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	memcpy(idx, leader->sorted, n * sizeof(*idx));
	qsort_r(idx, n, sizeof(*idx), by_ident, leader);
	for (int i = 0; i < nr && !err; i++)
		err = link_member(leader, idx, n, members[i], i, nr);
	free(idx);
	/* perf adds the dummies to the leader's tree: they take their place
	 * in its order, which the output tree is built in */
	if (!err && leader->nr_sorted > n)
		err = order_dummies(leader);
	leader->members = members;
	leader->nr_members = nr;
	return err;
}
