// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report's branch mode: the histogram of branches (see branch-hist.h).
 *
 * perf's order is that of its red-black trees and comparators, some of
 * which are not orders at all (mispredict, in_tx and abort say 1 for any
 * difference, srcline_from/to look their lines up only when compared):
 * the entries go through the same three trees with the same comparisons,
 * so the result is perf's also where the comparators are odd.  Where every
 * key is a true order, a cache of the branches already seen skips the
 * walk (it finds the one entry equal to them, the walk's answer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/report/branch.h"
#include "util/report/branch-hist.h"
#include "util/symbol/srcline.h"

static const struct {
	const char *name, *header;
} bkeys[BKEY_NR] = {
	[BKEY_PID] = { "pid", "    Pid:Command" },
	[BKEY_COMM] = { "comm", "Command" },
	[BKEY_DSO_FROM] = { "dso_from", "Source Shared Object" },
	[BKEY_DSO_TO] = { "dso_to", "Target Shared Object" },
	[BKEY_SYM_FROM] = { "symbol_from", "Source Symbol" },
	[BKEY_SYM_TO] = { "symbol_to", "Target Symbol" },
	[BKEY_MISPREDICT] = { "mispredict", "Branch Mispredicted" },
	[BKEY_IN_TX] = { "in_tx", "Branch in transaction" },
	[BKEY_ABORT] = { "abort", "Transaction abort" },
	[BKEY_CYCLES] = { "cycles", "Basic Block Cycles" },
	[BKEY_SRCLINE_FROM] = { "srcline_from", "From Source:Line" },
	[BKEY_SRCLINE_TO] = { "srcline_to", "To Source:Line" },
	[BKEY_ADDR_FROM] = { "addr_from", "Source Address" },
	[BKEY_ADDR_TO] = { "addr_to", "Target Address" },
	[BKEY_DSO] = { "dso", "Shared Object" },
	[BKEY_SYM] = { "symbol", "Symbol" },
	[BKEY_IPC] = { "ipc_lbr", "IPC   [IPC Coverage]" },
};

const char *branch_hists__header(enum bkey k)
{
	return bkeys[k].header;
}

/*
 * perf's common keys come first in its lookup: a name that is a prefix of
 * one of them (sym, dso, cpu ...) is that key, which branch mode here does
 * not sort by.
 */
static const char *const common_keys[] = {
	"pid", "comm", "dso", "symbol", "parent", "cpu", "socket", "srcline", "srcfile",
	"local_weight", "weight", "transaction", "trace", "symbol_size", "dso_size", "cgroup_id",
	"cgroup", "time", "code_page_size", "local_ins_lat", "ins_lat", "local_p_stage_cyc",
	"p_stage_cyc", "addr", "local_retire_lat", "retire_lat", "simd",
};

static int key_of(const char *tok, size_t len)
{
	for (size_t i = 0; i < sizeof(common_keys) / sizeof(common_keys[0]); i++)
		if (!strncasecmp(tok, common_keys[i], len))
			return !strcmp(common_keys[i], "pid") ? BKEY_PID :
			       !strcmp(common_keys[i], "comm") ? BKEY_COMM :
			       !strcmp(common_keys[i], "dso") ? BKEY_DSO :
			       !strcmp(common_keys[i], "symbol") ? BKEY_SYM : -EINVAL;
	for (int k = BKEY_DSO_FROM; k <= BKEY_ADDR_TO; k++)
		if (!strncasecmp(tok, bkeys[k].name, len))
			return k;
	return -EINVAL;
}

int branch_hists__parse_sort(struct branch_hists *h, const char *sort, char *bad, size_t size)
{
	const char *p = sort ? sort : "comm,dso_from,symbol_from,symbol_to,cycles";
	bool ipc = false;

	h->nr_keys = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int k = len ? key_of(p, len) : -EINVAL;
		bool dup = false;

		if (k < 0 || h->nr_keys == BHIST_MAX_KEYS) {
			snprintf(bad, size, "%.*s", (int)len, p);
			return -EINVAL;
		}
		for (int i = 0; i < h->nr_keys; i++)
			dup |= h->keys[i] == (enum bkey)k;
		if (!dup)	/* perf adds a key once */
			h->keys[h->nr_keys++] = k;
		ipc |= k == BKEY_SYM_FROM || k == BKEY_SYM_TO;
		p += len + !!p[len];
	}
	/* perf adds its IPC column after a --sort with symbol_from or symbol_to */
	if (sort && ipc && h->nr_keys < BHIST_MAX_KEYS)
		h->keys[h->nr_keys++] = BKEY_IPC;
	return 0;
}

/*
 * A cache slot: the hash of the keys' values of a branch (see cache_key())
 * and its entry, whose own values confirm a hit (small slots: the table
 * stays in the caches).
 */
#define CACHE_VALS 12
struct bhist_cache {
	u64 hash;
	struct bhist_entry *e;
};

#define CACHE_BITS 14

/*
 * A resolved branch address of a process: valid while neither its maps
 * nor the kernel's change (their generations).
 */
struct bend_cache {
	const struct maps *maps;
	u64 gen, kgen, addr;
	struct bend b;
};

#define ENDS_BITS 13

void branch_hists__init(struct branch_hists *h, struct machine *m, bool verbose)
{
	int vals = 0;
	bool ordered = true;

	h->machine = m;
	h->verbose = verbose;
	h->ends = calloc(1U << ENDS_BITS, sizeof(*h->ends));	/* none: no cache */
	for (int i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case BKEY_MISPREDICT:
		case BKEY_IN_TX:
		case BKEY_ABORT:
		case BKEY_SRCLINE_FROM:
		case BKEY_SRCLINE_TO:
			ordered = false;
			break;
		case BKEY_SYM_FROM:
		case BKEY_SYM_TO:
		case BKEY_ADDR_FROM:
		case BKEY_ADDR_TO:
		case BKEY_SYM:
		case BKEY_IPC:
			vals += 2;
			break;
		default:
			vals++;
		}
	}
	if (ordered && vals <= CACHE_VALS) {
		h->cache = calloc(1U << CACHE_BITS, sizeof(*h->cache));
		h->cache_size = h->cache ? 1U << CACHE_BITS : 0;
	}
}

/* What perf's _sort__dso_cmp() compares: the short names (-v: the long ones). */
static const char *dso_name(const struct branch_hists *h, const struct map *m)
{
	return h->verbose ? m->dso->long_name : m->dso->short_name;
}

static int sign(int64_t v)
{
	return (v > 0) - (v < 0);
}

static int cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

static int dso_cmp(const struct branch_hists *h, const struct map *l, const struct map *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return sign(strcmp(dso_name(h, l), dso_name(h, r)));
}

static int sym_cmp(const struct symbol *l, const struct symbol *r)
{
	if (!l || !r)
		return cmp_null(l, r);
	if (l == r)
		return 0;
	if (l->inlined || r->inlined) {
		int ret = strcmp(l->name, r->name);

		if (ret)
			return sign(ret);
		if (l->start <= r->end && l->end >= r->start)
			return 0;
	}
	if (l->start != r->start)
		return sign((int64_t)(r->start - l->start));
	return sign((int64_t)(r->end - l->end));
}

static int end_sym_cmp(const struct bend *l, const struct bend *r)
{
	if (!l->sym && !r->sym)
		return sign((int64_t)(r->addr - l->addr));
	return sym_cmp(l->sym, r->sym);
}

/* perf's sort__sym_cmp() on the target: its DSO (the other way round), then the symbol */
static int target_sym_cmp(const struct branch_hists *h, const struct bend *l, const struct bend *r)
{
	int ret;

	if (!l->sym && !r->sym)	/* perf's he->ip here: the address as sampled */
		return sign((int64_t)(r->addr - l->addr));
	ret = dso_cmp(h, r->map, l->map);
	return ret ? ret : sym_cmp(l->sym, r->sym);
}

static int end_addr_cmp(const struct branch_hists *h, const struct bend *l, const struct bend *r)
{
	int ret = dso_cmp(h, l->map, r->map);

	return ret ? ret : sign((int64_t)(r->addr - l->addr));
}

/* perf's map__srcline(): "??:0" where there is no line (no map, no file found) */
static const char *end_srcline(const struct bend *b)
{
	const char *s;

	if (!b->map || (b->map->dso->kind == DSO_USER && !b->map->dso->bin_path))
		return "??:0";
	s = dso__srcline(b->map->dso, b->al_addr, b->sym);

	return s ? s : "??:0";
}

static int srcline_cmp(const char **l, const struct bend *lb, const char **r,
		       const struct bend *rb)
{
	if (!*l)
		*l = end_srcline(lb);
	if (!*r)
		*r = end_srcline(rb);
	return sign(strcmp(*r, *l));
}

/* perf's se_cmp of key @k (also its collapse and sort: the same for these keys) */
static int key_cmp(const struct branch_hists *h, enum bkey k, struct bhist_entry *l,
		   struct bhist_entry *r)
{
	switch (k) {
	case BKEY_PID:
		return sign((int64_t)r->thread->tid - l->thread->tid);
	case BKEY_COMM:
		return sign(strcmp(r->comm->str, l->comm->str));
	case BKEY_DSO_FROM:
		return dso_cmp(h, l->from.map, r->from.map);
	case BKEY_DSO_TO:
		return dso_cmp(h, l->to.map, r->to.map);
	case BKEY_SYM_FROM:
		return end_sym_cmp(&l->from, &r->from);
	case BKEY_SYM_TO:
		return end_sym_cmp(&l->to, &r->to);
	case BKEY_MISPREDICT:
		return BRANCH_MISPRED(l->flags) != BRANCH_MISPRED(r->flags) ||
		       BRANCH_PREDICTED(l->flags) != BRANCH_PREDICTED(r->flags);
	case BKEY_IN_TX:
		return BRANCH_IN_TX(l->flags) != BRANCH_IN_TX(r->flags);
	case BKEY_ABORT:
		return BRANCH_ABORT(l->flags) != BRANCH_ABORT(r->flags);
	case BKEY_CYCLES:
		return sign((int)BRANCH_CYCLES(l->flags) - (int)BRANCH_CYCLES(r->flags));
	case BKEY_SRCLINE_FROM:
		return srcline_cmp(&l->srcline_from, &l->from, &r->srcline_from, &r->from);
	case BKEY_SRCLINE_TO:
		return srcline_cmp(&l->srcline_to, &l->to, &r->srcline_to, &r->to);
	case BKEY_ADDR_FROM:
		return end_addr_cmp(h, &l->from, &r->from);
	case BKEY_ADDR_TO:
		return end_addr_cmp(h, &l->to, &r->to);
	case BKEY_DSO:
		return dso_cmp(h, r->to.map, l->to.map);
	case BKEY_SYM:
	case BKEY_IPC:
		return target_sym_cmp(h, &l->to, &r->to);
	default:
		return 0;
	}
}

/* perf's se_sort where it differs from se_cmp: sym by name */
static int key_sort(const struct branch_hists *h, enum bkey k, struct bhist_entry *l,
		    struct bhist_entry *r)
{
	if (k != BKEY_SYM)
		return key_cmp(h, k, l, r);
	if (!l->to.sym || !r->to.sym)
		return cmp_null(l->to.sym, r->to.sym);
	return sign(strcmp(r->to.sym->name, l->to.sym->name));
}

static int entry_cmp(const struct branch_hists *h, struct bhist_entry *l, struct bhist_entry *r)
{
	for (int i = 0; i < h->nr_keys; i++) {
		int c = key_cmp(h, h->keys[i], l, r);

		if (c)
			return c;
	}
	return 0;
}

/* The values the keys compare, for the cache; the number of them. */
static int cache_key(const struct branch_hists *h, const struct bhist_entry *e, u64 *v)
{
	int n = 0;

	for (int i = 0; i < h->nr_keys; i++) {
		const struct bend *b = NULL;

		switch (h->keys[i]) {
		case BKEY_PID:
			v[n++] = (u64)e->thread->tid;
			break;
		case BKEY_COMM:
			v[n++] = (u64)(uintptr_t)e->comm->str;	/* interned */
			break;
		case BKEY_DSO_FROM:
		case BKEY_DSO_TO:
			b = h->keys[i] == BKEY_DSO_FROM ? &e->from : &e->to;
			v[n++] = b->map ? (u64)(uintptr_t)b->map->dso : 0;
			break;
		case BKEY_SYM_FROM:
		case BKEY_SYM_TO:
			b = h->keys[i] == BKEY_SYM_FROM ? &e->from : &e->to;
			v[n++] = b->sym ? 1 : 2;
			v[n++] = b->sym ? (u64)(uintptr_t)b->sym : b->addr;
			break;
		case BKEY_ADDR_FROM:
		case BKEY_ADDR_TO:
			b = h->keys[i] == BKEY_ADDR_FROM ? &e->from : &e->to;
			v[n++] = b->map ? (u64)(uintptr_t)b->map->dso : 0;
			v[n++] = b->addr;
			break;
		case BKEY_CYCLES:
			v[n++] = BRANCH_CYCLES(e->flags);
			break;
		case BKEY_DSO:
			v[n++] = e->to.map ? (u64)(uintptr_t)e->to.map->dso : 0;
			break;
		case BKEY_SYM:
		case BKEY_IPC:
			v[n++] = e->to.map ? (u64)(uintptr_t)e->to.map->dso : 0;
			v[n++] = e->to.sym ? (u64)(uintptr_t)e->to.sym : e->to.addr;
			break;
		default:
			break;
		}
	}
	return n;
}

static u64 cache_hash(const u64 *v, int n)
{
	u64 x = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < n; i++)
		x = (x ^ v[i]) * 0xff51afd7ed558ccdULL;
	return x ^ x >> 29;
}

/* The entry the cache has for the values @v (@n of them) of hash @x, or NULL */
static struct bhist_entry *cache_find(const struct branch_hists *h, const struct bhist_cache *c,
				      u64 x, const u64 *v, int n)
{
	u64 ev[CACHE_VALS];

	if (!c->e || c->hash != x)
		return NULL;
	cache_key(h, c->e, ev);
	return memcmp(ev, v, n * sizeof(u64)) ? NULL : c->e;
}

/* perf's thread__find_cpumode_addr_location(): kernel, user, then hypervisor */
static void resolve_end(struct branch_hists *h, struct thread *t, u64 addr, struct bend *b)
{
	static const u8 modes[] = { PERF_RECORD_MISC_KERNEL, PERF_RECORD_MISC_USER,
				    PERF_RECORD_MISC_HYPERVISOR };
	struct addr_location al;
	struct bend_cache *c = NULL;
	u64 gen = t->maps ? t->maps->gen : 0, kgen = h->machine->kmaps ? h->machine->kmaps->gen : 0;

	if (h->ends) {
		u64 x = (addr ^ (uintptr_t)t->maps * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;

		c = &h->ends[x >> (64 - ENDS_BITS)];
		if (c->addr == addr && c->maps == t->maps && c->gen == gen && c->kgen == kgen &&
		    c->maps) {
			*b = c->b;
			return;
		}
	}

	for (size_t i = 0; i < sizeof(modes); i++) {
		machine__resolve_addr(h->machine, t, modes[i], addr, &al);
		if (al.map)
			break;
	}
	b->addr = addr;
	b->al_addr = al.addr;
	b->level = al.level;
	b->map = al.map;
	b->sym = al.map ? al.sym : NULL;
	if (c && t->maps)
		*c = (struct bend_cache){ t->maps, gen, kgen, addr, *b };
}

static int add_entry(struct branch_hists *h, struct bhist_entry **found)
{
	struct bhist_entry *e;

	if (h->nr == h->alloc) {
		size_t n = h->alloc ? h->alloc * 2 : 256;
		struct bhist_entry **all = realloc(h->all, n * sizeof(*all));

		if (!all)
			return -ENOMEM;
		h->all = all;
		h->alloc = n;
	}
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	*e = **found;
	h->all[h->nr++] = e;
	*found = e;
	return 0;
}

/* perf's hists__findnew_entry(): the walk, a new red leaf where it ends */
static int findnew(struct branch_hists *h, struct bhist_entry *tmpl, struct bhist_entry **out)
{
	struct rb_link **p = &h->in_root, *parent = NULL;
	bool left = false;
	int err;

	while (*p) {
		struct bhist_entry *e = (struct bhist_entry *)((char *)*p -
				offsetof(struct bhist_entry, in_node));
		int c = entry_cmp(h, e, tmpl);

		if (!c) {
			*out = e;
			return 0;
		}
		parent = *p;
		left = c < 0;
		p = left ? &parent->l : &parent->r;
	}
	*out = tmpl;
	err = add_entry(h, out);
	if (err)
		return err;
	rb_link_leaf(&h->in_root, &(*out)->in_node, parent, left);
	rb_insert_fixup(&h->in_root, &(*out)->in_node);
	return 0;
}

/* perf's branch_type_count(), with the flags and addresses of the entry found */
static void count_type(struct bhist_type_stat *st, const struct bhist_entry *e)
{
	unsigned int t = BRANCH_TYPE(e->flags);
	u64 from = e->from.addr, to = e->to.addr;

	if (!t || !from)
		return;
	if (t == 15) {	/* PERF_BR_EXTEND_ABI */
		unsigned int n = BRANCH_NEW_TYPE(e->flags);
		/* perf 6.1's new_counts[] has 8: past them, the counters after it */
		u64 *next[] = { &st->cond_fwd, &st->cond_bwd, &st->cross_4k, &st->cross_2m };

		if (n < 8)
			st->new_counts[n]++;
		else if (n < 12)
			(*next[n - 8])++;
	} else {
		st->counts[t]++;
	}
	if (t == 1) {	/* PERF_BR_COND */
		if (to > from)
			st->cond_fwd++;
		else
			st->cond_bwd++;
	}
	if ((from & ~(u64)0x1fffff) != (to & ~(u64)0x1fffff))
		st->cross_2m++;
	else if ((from & ~(u64)0xfff) != (to & ~(u64)0xfff))
		st->cross_4k++;
}

/* The level perf's machine__resolve() gives the sample: of its cpumode */
static char sample_level(const struct perf_sample *s)
{
	switch (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return 'H';
	}
}

int branch_hists__add(struct branch_hists *h, struct thread *t, const struct perf_sample *s)
{
	char level = sample_level(s);

	for (u64 i = 0; i < s->branch_nr; i++) {
		const struct perf_branch_entry_raw *b = &s->branch_entries[i];
		struct bhist_entry tmpl = { .comm = t->comm, .thread = t, .flags = b->flags,
					    .level = level };
		struct bhist_entry *e = NULL;
		struct bhist_cache *slot = NULL;
		u64 v[CACHE_VALS], x = 0;
		int n = 0, err;

		resolve_end(h, t, b->from, &tmpl.from);
		resolve_end(h, t, b->to, &tmpl.to);
		if (h->hide_unresolved && !(tmpl.from.sym && tmpl.to.sym))
			continue;	/* perf's -U: not counted at all */
		if (h->cache) {
			n = cache_key(h, &tmpl, v);
			x = cache_hash(v, n);
			slot = &h->cache[x & (h->cache_size - 1)];
			e = cache_find(h, slot, x, v, n);
		}
		if (!e) {
			err = findnew(h, &tmpl, &e);
			if (err)
				return err;
			if (slot)
				*slot = (struct bhist_cache){ x, e };
		}
		e->period++;
		e->nr_samples++;
		h->nr_samples++;
		h->total_period++;
		count_type(&h->st, e);
	}
	return 0;
}

#define ENTRY_OF(link, member) \
	((struct bhist_entry *)((char *)(link) - offsetof(struct bhist_entry, member)))

/* perf's hists__collapse_insert_entry(): merged into an equal one, or a new leaf */
static void collapse_insert(struct branch_hists *h, struct bhist_entry *e)
{
	struct rb_link **p = &h->col_root, *parent = NULL;
	bool left = false;

	while (*p) {
		struct bhist_entry *it = ENTRY_OF(*p, col_node);
		int c = entry_cmp(h, it, e);

		if (!c) {
			it->period += e->period;
			it->nr_samples += e->nr_samples;
			e->period = e->nr_samples = 0;
			return;
		}
		parent = *p;
		left = c < 0;
		p = left ? &parent->l : &parent->r;
	}
	rb_link_leaf(&h->col_root, &e->col_node, parent, left);
	rb_insert_fixup(&h->col_root, &e->col_node);
}

/* perf's hist_entry__sort(): the period (more first), then the keys */
static int output_cmp(const struct branch_hists *h, struct bhist_entry *a, struct bhist_entry *b)
{
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (int i = 0; i < h->nr_keys; i++) {
		int c = key_sort(h, h->keys[i], a, b);

		if (c)
			return c;
	}
	return 0;
}

static void output_insert(struct branch_hists *h, struct bhist_entry *e)
{
	struct rb_link **p = &h->out_root, *parent = NULL;
	bool left = false;

	while (*p) {
		parent = *p;
		left = output_cmp(h, e, ENTRY_OF(parent, out_node)) > 0;
		p = left ? &parent->l : &parent->r;
	}
	rb_link_leaf(&h->out_root, &e->out_node, parent, left);
	rb_insert_fixup(&h->out_root, &e->out_node);
}

int branch_hists__resort(struct branch_hists *h)
{
	bool collapse = false;
	struct rb_link *n;
	size_t k = 0;

	for (int i = 0; i < h->nr_keys; i++)	/* comm has perf's se_collapse */
		collapse |= h->keys[i] == BKEY_COMM;
	if (collapse) {
		for (n = rb_first(h->in_root); n; n = rb_next(n))
			collapse_insert(h, ENTRY_OF(n, in_node));
		for (n = rb_first(h->col_root); n; n = rb_next(n))
			output_insert(h, ENTRY_OF(n, col_node));
	} else {
		for (n = rb_first(h->in_root); n; n = rb_next(n))
			output_insert(h, ENTRY_OF(n, in_node));
	}
	h->sorted = malloc((h->nr + 1) * sizeof(*h->sorted));
	if (!h->sorted)
		return -ENOMEM;
	for (n = rb_first(h->out_root); n; n = rb_next(n))
		h->sorted[k++] = ENTRY_OF(n, out_node);
	h->nr_sorted = k;
	return 0;
}

void branch_hists__exit(struct branch_hists *h)
{
	for (size_t i = 0; i < h->nr; i++)
		free(h->all[i]);
	free(h->all);
	free(h->sorted);
	free(h->cache);
	free(h->ends);
	memset(h, 0, sizeof(*h));
}
