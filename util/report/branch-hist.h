/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report's branch mode (perf's SORT_MODE__BRANCH): each entry of a
 * sample's branch stack counts as one sample of period 1 in a histogram
 * keyed by comm and the branch keys (dso_from, symbol_from, symbol_to,
 * cycles ...), ordered as perf 6.1 orders it (its comparators, its three
 * red-black trees: samples in, collapsed, output), with its branch type
 * statistics.  branch-hist-stdio.c prints it.
 */
#ifndef TPERF_BRANCH_HIST_H
#define TPERF_BRANCH_HIST_H

#include <stdbool.h>
#include <stdio.h>

#include "util/lib/rbtree.h"
#include "util/model/machine.h"
#include "util/perf-data/event.h"

enum bkey {
	BKEY_PID, BKEY_COMM,
	BKEY_DSO_FROM, BKEY_DSO_TO, BKEY_SYM_FROM, BKEY_SYM_TO, BKEY_MISPREDICT, BKEY_IN_TX,
	BKEY_ABORT, BKEY_CYCLES, BKEY_SRCLINE_FROM, BKEY_SRCLINE_TO, BKEY_ADDR_FROM,
	BKEY_ADDR_TO,
	BKEY_DSO, BKEY_SYM,		/* perf's dso and sym: of the branch's target */
	BKEY_IPC,			/* ipc_lbr, added after symbol_from/to by perf */
	BKEY_NR
};

#define BHIST_MAX_KEYS 16

/* One end of a branch, resolved as perf resolves it (kernel, user, hypervisor). */
struct bend {
	u64 addr;			/* as sampled */
	u64 al_addr;			/* map-relative */
	char level;
	struct map *map;
	struct symbol *sym;
};

struct bhist_entry {
	struct rb_link in_node, col_node, out_node;
	struct comm *comm;
	struct thread *thread;
	struct bend from, to;
	u64 flags;			/* the perf_branch_entry flag word */
	char level;			/* the sample's (perf's he->level) */
	const char *srcline_from, *srcline_to;	/* looked up when compared, as perf */
	u64 period, nr_samples;
};

/* perf's branch_type_stat: counted with the flags of the entry each branch found */
struct bhist_type_stat {
	u64 counts[16], new_counts[16];
	u64 cond_fwd, cond_bwd, cross_4k, cross_2m;
};

struct branch_hists {
	enum bkey keys[BHIST_MAX_KEYS];
	int nr_keys;
	bool verbose;			/* -v: DSOs by their long names */
	bool hide_unresolved;		/* -U: only branches with both symbols */
	struct machine *machine;
	struct rb_link *in_root, *col_root, *out_root;
	struct bhist_entry **all;	/* every entry made */
	size_t nr, alloc;
	struct bhist_entry **sorted;	/* the output order, after branch_hists__resort() */
	size_t nr_sorted;
	u64 nr_samples, total_period;
	struct bhist_type_stat st;
	struct bhist_cache *cache;	/* found entries by branch, when the keys allow it */
	size_t cache_size;
	struct bend_cache *ends;	/* resolved branch addresses (resolve_end()) */
};

/**
 * branch_hists__parse_sort - the branch-mode keys of --sort @sort (NULL:
 * perf's default, comm,dso_from,symbol_from,symbol_to,cycles); names as
 * perf matches them (a prefix of a key's name, any case)
 * Return: 0, or -EINVAL with the bad name in @bad.
 */
int branch_hists__parse_sort(struct branch_hists *h, const char *sort, char *bad, size_t size);

/** branch_hists__init - an empty histogram on the keys set by parse_sort */
void branch_hists__init(struct branch_hists *h, struct machine *m, bool verbose);

/** branch_hists__add - each branch of sample @s (of thread @t). 0 or -ENOMEM. */
int branch_hists__add(struct branch_hists *h, struct thread *t, const struct perf_sample *s);

/** branch_hists__resort - collapse and sort for output, as perf. 0 or -ENOMEM. */
int branch_hists__resort(struct branch_hists *h);

void branch_hists__exit(struct branch_hists *h);

/** branch_hists__header - the column header of key @k */
const char *branch_hists__header(enum bkey k);

/**
 * branch_hists__fprintf - the column headers (with @header) and the
 * entries of at least @min_percent, perf's columns and widths
 * Return: 0 or -EIO.
 */
int branch_hists__fprintf(struct branch_hists *h, bool header, double min_percent, bool color,
			  FILE *fp);

/** branch_hists__fprintf_stat - perf's "# Branch Statistics:" (nothing when none counted) */
void branch_hists__fprintf_stat(const struct branch_hists *h, FILE *fp);

#endif
