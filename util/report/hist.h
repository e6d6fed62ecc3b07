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

#include "util/report/callchain.h"
#include "util/report/sort.h"
#include "util/lib/rbtree.h"

/* A node of perf's red-black trees, which tperf rebuilds to get perf's order. */
struct hist_rb_node {
	struct rb_link rb;		/* first: a struct rb_link * is one of these */
	struct hist_entry *e;
};

struct hist_cache_slot;
struct sym_memo;

/*
 * The value of a tracepoint key (interned): the text shown, and the
 * field's bytes in hex that identify and order it (NULL: ordered by the
 * text): of a dynamic field the whole record's, as perf compares the
 * bytes at the left entry's place in both records; and whether perf finds
 * the text in the payload's (which sizes the column).  An entry's are an array, one per SORT_DYN slot in use, that
 * its maker keeps (and shares between entries with the same values).
 */
struct hist_dyn {
	const char *val, *raw;
	u32 off, size;			/* the field's bytes in raw (hex: twice as many chars) */
	bool in_text;			/* val is the field's "name=value" text in the payload */
};

/*
 * What a walk down the tree of entries compares when the keys are among
 * comm, dso and sym (perf's default), kept beside the tree's node: a step
 * of the walk reads one place of the entry, not its comm, symbol and name.
 */
struct hist_wkey {
	/* with the tree's links, the first cache line of an entry: a step
	 * between entries of one DSO without symbols, a lookup by identity */
	const char *comm;		/* comm->str (interned) */
	const struct dso *dso;
	const struct symbol *sym;
	u64 ip;
	/* the second: other DSOs, symbols */
	u64 dso_name;			/* the DSO's short name: its first 8 bytes */
	u64 start, end;			/* the symbol's */
	u64 name[2];			/* the symbol's name: its first 16 bytes, big-endian */
	bool inlined;
};

struct hist_entry {
	/*
	 * Entries come 64-aligned (hist_entry__zalloc()): the first two cache
	 * lines are what a walk down the tree of entries reads, the third
	 * what a sample adds to.
	 */
	struct rb_link in_node;		/* in the tree samples are added to */
	struct hist_wkey wk;		/* its keys for the walk (hists__findnew) */
	u32 moved;			/* times its symbol or DSO changed (hists__findnew) */
	int cpu, socket;
	char level;
	/*
	 * The map of the sample or frame that last found the entry, and the
	 * set it is in.  perf's map objects are per process (a fork clones
	 * them) and the kernel's are shared: the pair is that identity.
	 */
	struct map *map;
	const struct maps *maps;
	u64 period, nr_samples;		/* self */
	u64 period_acc, nr_acc;		/* children */
	u64 max_depth;			/* longest chain appended (perf's tie rule) */
	/* made by a sample a filter (--comms, --pid, --tid, --dsos, --symbols)
	 * hides (a template's flag, copied when the entry is made): not
	 * shown, its period in hidden_period, whichever samples add to it
	 * later (perf's he->filtered) */
	bool hidden;
	u64 period_sys, period_us, period_guest_sys, period_guest_us;	/* self by cpumode */
	struct comm *comm;
	struct thread *thread;
	struct dso *dso;
	struct symbol *sym;
	u64 ip;				/* map-relative (the raw address without a map) */
	u64 weight;			/* the sample's weight (keys weight, local_weight) */
	struct symbol *parent;		/* first callchain symbol matching --parent */
	const char *srcline, *srcfile;	/* owned by the DSO's srcline cache */
	struct cc_node callchain;
	u64 seq;			/* creation order */
	struct hist_entry **pairs;	/* a group leader's: each member's entry or NULL */
	/* the tracepoint keys' values, slot by slot (NULL: no such key) */
	const struct hist_dyn *dyn;
	/* bit i: the trace text of key i took part in a comparison (perf
	 * only counts such texts in the column's width) */
	u64 dyn_compared;
	/* bit i: key i's size was taken, as perf takes the size of a dynamic
	 * field of the left entry it compares, for the column's width */
	u64 dyn_sized;
};

/*
 * How hists__collapse() merges (struct hists' collapse_mode): AUTO, on two
 * threads with callchains, a second usable CPU and enough entries; SERIAL,
 * on the calling thread; PARALLEL, on two threads whatever the size
 * (tests).  Never on two with srcline callchain keys (their lookups share
 * the DSOs' caches).  The result is the same.
 */
enum hists_collapse_mode { HISTS_COLLAPSE_AUTO, HISTS_COLLAPSE_SERIAL, HISTS_COLLAPSE_PARALLEL };

struct hists {
	struct rb_link *root_in;	/* entries by key, as samples find them */
	struct hist_entry **all;	/* every entry, in the order made */
	size_t nr, alloc;
	u64 seq;
	struct hist_entry **sorted;	/* after hists__output_resort() */
	size_t nr_sorted;
	u64 nr_samples, total_period;
	u64 nr_lost_samples;		/* LOST_SAMPLES of its event (report --stats) */
	u64 hidden_period;		/* of samples a filter hid: in total_period */
	bool relative;			/* --percentage relative: totals of what is shown */
	const char *symbol_filter;	/* --symbol-filter: entries whose symbol has it */
	size_t nr_filtered;		/* entries it hid: in sorted[], after nr_sorted */
	u64 hidden_samples;		/* the samples of hidden_period */
	/* after hists__output_resort(), perf's other totals: of the callchain
	 * percentages (always of all), of the callchain threshold (before
	 * --symbol-filter) */
	u64 chain_total, threshold_total;
	bool has_callchain;
	const enum sort_key_id *keys;	/* the sort keys, nr_keys of them */
	int nr_keys;
	bool children;			/* --children */
	const struct callchain_param *cc;
	const struct hist_format *fmt;	/* columns and order, or NULL: keys as given */
	struct hist_cache_slot *cache;	/* findnew's answers by sample fields */
	struct hist_cache_slot *cache_nosym;	/* the same for addresses without a symbol */
	u64 version;			/* changes of the tree: entries made, keys changed */
	struct sym_memo *sym_memo;	/* symbols looked up as entries follow maps */
	size_t cache_size, cache_nr;
	bool cache_ip;			/* the keys look at the address (symoff) */
	bool sym_key;			/* a key is sym: entries follow maps (follow_map) */
	bool walk_keys;			/* all keys are comm, dso or sym: walks use hist_wkey */
	bool walk_default;		/* the keys are comm, dso, sym (perf's default) */
	bool comm_key, dso_key;		/* a key is comm, dso */
	bool quick_keys;		/* the keys allow the quick table (hists__findnew) */
	bool class_comm;		/* comm is a key before sym (order_class()) */
	bool order_unsure;		/* the walk's order may not be total (hists__findnew) */
	struct hist_quick *quick;	/* entries by key while it is (hists__findnew) */
	size_t quick_size, quick_nr;
	struct hist_order *order;	/* the address quarters of each class (hists__findnew) */
	bool collapsed;			/* hists__collapse() ran */
	bool long_dso;			/* -v: DSOs compare by their long names */
	enum hists_collapse_mode collapse_mode;	/* AUTO after hists__init() */
	/* for tests: on two threads, the main thread waits until the second
	 * has made this percentage (at most 100) of the merges before the
	 * rest is split (0: no wait, the split comes where it comes) */
	unsigned int collapse_split_pct;
	struct hists **members;		/* a group leader's other members (--group) */
	int nr_members;
	/* tracepoint key columns: header (NULL: not shown for this event),
	 * minimum width, text left-aligned and never cut (trace) or right-aligned */
	const char *dyn_header[SORT_DYN_MAX];
	int dyn_width[SORT_DYN_MAX];
	bool dyn_left[SORT_DYN_MAX];
	/* perf's column width of a field key: at least dyn_width; then the
	 * values found in the payloads' texts (not with raw prints), and the
	 * size (with its NUL) of a dynamic field's bytes; longer values cut */
	bool dyn_raw_print[SORT_DYN_MAX], dyn_dynamic[SORT_DYN_MAX];
};

/**
 * hists__init - an empty histogram sorted by @keys (kept, not copied)
 * @children: --children; @cc: the callchain parameters (kept)
 * Return: 0.
 */
int hists__init(struct hists *h, const enum sort_key_id *keys, int nr_keys, bool children,
		const struct callchain_param *cc);
/** hists__set_format - print and order @h as @f says (kept, not copied; keys too) */
void hists__set_format(struct hists *h, const struct hist_format *f);
/** hists__exit - free the entries of @h */
void hists__exit(struct hists *h);

/** hist_entry__zalloc - a zeroed entry, or NULL (the hists free theirs) */
struct hist_entry *hist_entry__zalloc(void);
/** hist_entry__free - free @e, its callchain and pairs */
void hist_entry__free(struct hist_entry *e);

/**
 * hist_entry__template_keys - set @tmpl's walk keys (wk) from its comm, dso,
 * sym and ip: after those are set, before hists__findnew() or hists__same_any()
 */
void hist_entry__template_keys(struct hist_entry *tmpl);

/**
 * hists__findnew - the entry @tmpl's keys name (created with zero counts)
 * @tmpl: comm, thread, dso, map, maps, sym, ip, level, cpu set, then
 *	hist_entry__template_keys()
 *
 * As perf 6.1 (a stable fix), an entry found through another map than the
 * one it holds takes @tmpl's map, and with a symbol key its symbol becomes
 * the one of that map's DSO at the symbol's start: an inline frame's symbol
 * turns into the function it was inlined into once another process (or a
 * split map) finds it.
 * Return: the entry, or NULL on ENOMEM.
 */
struct hist_entry *hists__findnew(struct hists *h, const struct hist_entry *tmpl);

/**
 * hists__same_any - has template @a (hist_entry__template_keys()) the same
 * keys (perf's identity) as one of the @n entries @v?
 */
bool hists__same_any(const struct hists *h, const struct hist_entry *a,
		     struct hist_entry *const *v, size_t n);

/**
 * hists__collapse - merge the entries whose keys are equal (perf's collapse)
 *
 * As h->collapse_mode allows, a second thread makes the merges this
 * one finds as it puts the entries into perf's collapsed tree, and the
 * merges left then are split between the two by destination (util/report/hist.c,
 * struct collapse_run).  Return: 0 or -ENOMEM.
 */
int hists__collapse(struct hists *h);

/**
 * hists__text_compared - for each sorted entry, whether perf 6.1 has
 * looked up its text of key @k (srcline, srcfile) when it sizes the
 * columns: it does so in the key's comparison, made when the keys before
 * it tie -- at a second sample of the entry, or with another entry tying
 * on those keys (inserting one, the walk passes its neighbours in order)
 * Return: an array of h->nr_sorted (free() it), or NULL (@k not a key, ENOMEM).
 */
bool *hists__text_compared(const struct hists *h, enum sort_key_id k);

/** hists__ident_cmp - the order of @a and @b by their keys (0: same entry) */
int hists__ident_cmp(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b);

/**
 * hists__link_group - pair a group leader's entries with its @nr members'
 * (collapsed), adding empty leader entries for keys only members have, as
 * perf does for --group; the leader's output then orders and prints every
 * member's value after its own.  Return: 0 or -ENOMEM.
 */
int hists__link_group(struct hists *leader, struct hists **members, int nr);

/** hists__output_resort - merge equal entries and sort them as perf prints them */
int hists__output_resort(struct hists *h);

struct hists_print_opts {
	bool show_nr_samples;
	bool show_header;
	double min_percent;
	bool skip_first_frame;		/* the sort order starts with sym */
	bool color;			/* colour the percentages (a terminal, or the pager) */
	bool verbose;			/* -v: DSO paths, symbol addresses and origins */
};

/**
 * hists__fprintf - the column headers and rows (with callchains) of @h
 * Return: 0, or -EIO when writing failed.
 */
int hists__fprintf(struct hists *h, const struct hists_print_opts *o, FILE *fp);

#endif
