/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Histograms: one entry per distinct value of the sort keys (comm, dso,
 * sym, pid ...), with its period and sample count (self, and with
 * --children the period of the samples whose callchain went through it),
 * its callchain trie, perf's output order, and the stdio output.
 */
#ifndef TPERF_HIST_H
#define TPERF_HIST_H

#include <stdio.h>

#include "callchain.h"

/* SORT_DYN0.. are tracepoint keys (trace, event fields): util/sort-trace.h */
#define SORT_DYN_MAX 4
enum sort_key_id { SORT_COMM, SORT_DSO, SORT_SYM, SORT_PID, SORT_TID, SORT_CPU,
		   SORT_DYN0, SORT_DYN_LAST = SORT_DYN0 + SORT_DYN_MAX - 1, SORT_NR_KEYS };

/* A node of perf's red-black trees, which tperf rebuilds to get perf's order. */
struct hist_rb_node {
	struct hist_rb_node *l, *r, *p;
	bool red;
	struct hist_entry *e;
};

struct hist_entry {
	struct comm *comm;
	struct thread *thread;
	struct dso *dso;
	struct symbol *sym;
	u64 ip;				/* map-relative (the raw address without a map) */
	char level;
	int cpu;
	u64 period, nr_samples;		/* self */
	u64 period_acc, nr_acc;		/* children */
	struct cc_node callchain;
	u64 max_depth;			/* longest chain appended (perf's tie rule) */
	u64 seq;			/* creation order */
	struct hist_rb_node in_node;	/* in the tree samples are added to */
	/* tracepoint keys (interned): the text shown, and the field's bytes in
	 * hex that identify and order it (NULL: ordered by the text) */
	const char *dyn_val[SORT_DYN_MAX], *dyn_raw[SORT_DYN_MAX];
	/* bit i: the trace text of key i took part in a comparison (perf
	 * only counts such texts in the column's width) */
	unsigned int dyn_compared;
};

struct hists {
	struct hist_rb_node *root_in;	/* entries by key, as samples find them */
	struct hist_entry **all;	/* every entry, in the order made */
	size_t nr, alloc;
	u64 seq;
	struct hist_entry **sorted;	/* after hists__output_resort() */
	size_t nr_sorted;
	u64 nr_samples, total_period;
	bool has_callchain;
	const enum sort_key_id *keys;	/* the sort keys, nr_keys of them */
	int nr_keys;
	bool children;			/* --children */
	const struct callchain_param *cc;
	/* tracepoint key columns: header (NULL: not shown for this event),
	 * minimum width, text left-aligned and never cut (trace) or right-aligned */
	const char *dyn_header[SORT_DYN_MAX];
	int dyn_width[SORT_DYN_MAX];
	bool dyn_left[SORT_DYN_MAX];
};

/**
 * hists__init - an empty histogram sorted by @keys (kept, not copied)
 * @children: --children; @cc: the callchain parameters (kept)
 * Return: 0.
 */
int hists__init(struct hists *h, const enum sort_key_id *keys, int nr_keys, bool children,
		const struct callchain_param *cc);
/** hists__exit - free the entries of @h */
void hists__exit(struct hists *h);

/**
 * hists__findnew - the entry @tmpl's keys name (created with zero counts)
 * @tmpl: comm, thread, dso, sym, ip, level, cpu set
 * Return: the entry, or NULL on ENOMEM.
 */
struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *tmpl);

/** hists__same - do @a and @b have the same keys (perf's identity)? */
bool hists__same(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b);

/** hists__output_resort - merge equal entries and sort them as perf prints them */
int hists__output_resort(struct hists *h);

/** sort_key__parse - "comm,dso,sym" into @keys (at most @max).  Return: count or -EINVAL */
int sort_key__parse(const char *s, enum sort_key_id *keys, int max);

struct hists_print_opts {
	bool show_nr_samples;
	bool show_header;
	double min_percent;
	bool skip_first_frame;		/* the sort order starts with sym */
};

/**
 * hists__fprintf - the column headers and rows (with callchains) of @h
 * Return: 0, or -EIO when writing failed.
 */
int hists__fprintf(struct hists *h, const struct hists_print_opts *o, FILE *fp);

#endif
