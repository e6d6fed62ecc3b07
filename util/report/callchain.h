/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Callchains of a hist entry: a trie of frames (callee first, or caller
 * first with --children / -G), keyed as perf keys them (DSO and symbol
 * start, or DSO and address when a frame has no symbol), with the period
 * that ended at each node (hit) and went through it (children_hit), and
 * perf's graph output of it.
 */
#ifndef TPERF_CALLCHAIN_H
#define TPERF_CALLCHAIN_H

#include <stdio.h>

#include "util/model/machine.h"
#include "util/lib/rbtree.h"
#include "util/lib/slab.h"

enum chain_mode { CHAIN_NONE, CHAIN_GRAPH_ABS, CHAIN_GRAPH_REL, CHAIN_FLAT, CHAIN_FOLDED };
enum chain_order { ORDER_CALLEE, ORDER_CALLER };
enum chain_value { CCVAL_PERCENT, CCVAL_PERIOD, CCVAL_COUNT };
/* what makes two frames the same: the function, the address, the source line */
enum cc_key { CCKEY_FUNCTION, CCKEY_ADDRESS, CCKEY_SRCLINE };

struct callchain_param {
	enum chain_mode mode;
	double min_percent;
	enum chain_order order;
	bool order_set;			/* "caller"/"callee" was given */
	enum chain_value value;
	bool key_address;		/* "address" instead of "function" */
	bool key_srcline;		/* "srcline": frames by their source line */
	unsigned int print_limit;	/* 0: all */
	int max_stack;
	bool color;			/* colour the percentages as perf does on a terminal */
};

/* One frame of a sample's callchain. */
struct cc_frame {
	struct dso *dso;
	struct symbol *sym;
	u64 ip;
	u64 addr;			/* map-relative (the ip without a map) */
	u8 inl;				/* of an address' inline frames: 0 the innermost */
	struct map *map;		/* the frame's map and the set it is in: */
	const struct maps *maps;	/* together, perf's map object (see hist.h) */
};

/*
 * Most tries of a report with --children get a chain or two, and are then
 * merged into another entry's trie at the collapse: until then such a trie
 * can keep its chains as references to their frames (cc_node__keep()),
 * and its nodes are made from those freed by the merge before (memory
 * touched before: a first touch costs on a VM), or not at all, when a
 * merge of its one chain is an append.  A sample's kept frames are linked
 * each to the one before it in the chain, and share the first ones with
 * the chain of a recent sample that has them (struct cc_keeper): samples
 * differ in their last frames.  The last frame is the sample's own: it
 * holds the period.
 */
#define CC_KEPT_MAX 2
#define CC_KEEPER_RECENT 8

struct cc_kept {
	const struct cc_kept *prev;	/* the frame before it (NULL: the first) */
	struct dso *dso;
	struct symbol *sym;
	u64 ip, addr;
	u64 period;			/* of the sample whose last frame it is */
	u32 pos;			/* its place in the chain: 0 for the first */
	u8 inl;
};

struct cc_node {
	struct rb_link rb;		/* first: in the parent's tree of children */
	struct rb_link *kids;		/* the children by perf's key (rb_root_in) */
	union {
		struct {		/* a node's frame */
			struct dso *dso;
			struct symbol *sym;
			u64 ip;		/* of the first frame that made it */
			u64 addr;	/* its map-relative address (srcline) */
		};
		struct {		/* a root's kept chains (no children then) */
			const struct cc_kept *kept[CC_KEPT_MAX];	/* last frames */
			u32 kept_from[CC_KEPT_MAX];	/* from that frame on */
		};
	};
	u8 inl;				/* its frame's cc_frame.inl (srcline) */
	u32 idx;			/* its place in its parent's child array */
	u64 hit, children_hit;
	u64 count, children_count;
	struct cc_node **child;		/* &one while there is room for one only */
	struct cc_node *one;
	u32 nr, alloc;
	u32 hint;			/* the child the last append went to */
	bool inlined_child;		/* a child is an inline frame */
	u8 kid_kinds;			/* CC_KID_SYM: a child has a symbol; CC_KID_NOSYM: one has none */
	u32 rank;			/* its place among its siblings (output) */
};

/** cc_node__append - add a chain of @n frames with @period under @root.  Return: 0 or -ENOMEM */
int cc_node__append(struct cc_node *root, const struct cc_frame *f, size_t n, u64 period,
		    enum cc_key key);

/* Where one thread keeps frames: an arena, and the kept frames of recent chains. */
struct cc_keeper {
	struct arena arena;
	const struct cc_kept **recent[CC_KEEPER_RECENT];	/* each one's frames, in order */
	u32 nr[CC_KEEPER_RECENT], alloc[CC_KEEPER_RECENT];
	u32 next;			/* the slot the next chain takes */
};

/**
 * cc_keeper__frames - the @n frames @f of a sample with @period kept in
 * @k: its last one (n > 0), linked to the ones before.  NULL: no memory.
 */
const struct cc_kept *cc_keeper__frames(struct cc_keeper *k, const struct cc_frame *f, u32 n,
					u64 period);
/** cc_keeper__exit - free @k's frames (the tries that keep them are freed) */
void cc_keeper__exit(struct cc_keeper *k);

/** cc_node__can_keep - whether @root can keep one more chain (cc_node__keep()) */
static inline bool cc_node__can_keep(const struct cc_node *root)
{
	if (root->kids)
		return false;
	return !root->children_count || (root->kept[0] && !root->kept[CC_KEPT_MAX - 1]);
}

/**
 * cc_node__keep - cc_node__append() of a kept sample's frames from the
 * one at @from on (to its @last, whose period it has) to a @root that can
 * keep it (cc_node__can_keep()): the frames must live on until the trie is
 * freed.  Its nodes are made when another chain is appended, when the
 * trie is merged into another one or settled.
 */
void cc_node__keep(struct cc_node *root, const struct cc_kept *last, u32 from);

/** cc_node__settle - make the nodes of @root's kept chains, if any.  Return: 0 or -ENOMEM */
int cc_node__settle(struct cc_node *root, enum cc_key key);
/**
 * cc_node__use_slab - the calling thread's nodes come from slab @i (0, the
 * default, or 1) from now on, and the nodes it frees go there.  Each slab
 * is used by one thread at a time: a thread that makes or frees nodes while
 * another one does (hists__collapse()'s second thread) uses slab 1.
 */
void cc_node__use_slab(int i);
/**
 * cc_node__merge - move everything of @src into @dst (src is emptied).
 * Kept chains of either are settled first, but the one chain of @src,
 * which is appended.  Return: 0 or -ENOMEM
 */
int cc_node__merge(struct cc_node *dst, struct cc_node *src, enum cc_key key);

/*
 * Merging tries is a walk of nodes spread over memory, one cache miss
 * after the other: a caller that knows which tries it merges next starts
 * fetching them ahead, each trie one node further at every third step
 * (a step per merge: a node has the time of three merges to come).
 */
#define CC_PREFETCH_TRIES	48
#define CC_PREFETCH_EVERY	3	/* a trie steps at every third step */
#define CC_PREFETCH_DEPTH	16

struct cc_prefetch {
	const struct rb_link *stack[CC_PREFETCH_TRIES][CC_PREFETCH_DEPTH];
	u8 top[CC_PREFETCH_TRIES];
	u8 next;			/* the slot the next trie takes */
	u8 phase;			/* the slots that step now: phase, phase + EVERY... */
};

/**
 * cc_prefetch__start - fetch the trie at @root (NULL: none) in place of
 * the oldest of the CC_PREFETCH_TRIES ones of @p (a zeroed @p has none).
 * A trie may be changed or freed once it is replaced, not before: steps
 * read its nodes.
 */
void cc_prefetch__start(struct cc_prefetch *p, const struct cc_node *root);
/** cc_prefetch__step - fetch the next nodes of a third of the tries of @p (best effort) */
void cc_prefetch__step(struct cc_prefetch *p);

/** callchain_param__key - the frame key of @p (NULL: function) */
static inline enum cc_key callchain_param__key(const struct callchain_param *p)
{
	return !p ? CCKEY_FUNCTION : p->key_srcline ? CCKEY_SRCLINE :
	       p->key_address ? CCKEY_ADDRESS : CCKEY_FUNCTION;
}
/**
 * cc_node__free_children - free the nodes under root @n (not @n itself), or
 * forget its kept chains
 */
void cc_node__free_children(struct cc_node *n);

static inline u64 cc_node__cumul(const struct cc_node *n)
{
	return n->hit + n->children_hit;
}

/**
 * callchain__fprintf_graph - perf's graph output of the chains under @root
 * @total: the period percentages are of (the hists' total)
 * @parent: the entry's period (self, or children with --children)
 * @min_hit: nodes below it are not shown
 * @skip_first: the first frame repeats the entry's symbol (sort by sym first)
 * Return: bytes written.
 */
size_t callchain__fprintf_graph(FILE *fp, struct cc_node *root, u64 total, u64 parent,
				u64 min_hit, bool skip_first, const struct callchain_param *p);

/**
 * callchain__fprintf_flat - perf's flat output: each chain that ends under
 * @root with at least @min_hit of period, heaviest first, as its value then
 * one frame per line (callchain__fprintf_folded: "value a;b;c" lines)
 * Return: bytes written.
 */
size_t callchain__fprintf_flat(FILE *fp, const struct cc_node *root, u64 total, u64 min_hit,
			       const struct callchain_param *p);
/** callchain__fprintf_folded - see callchain__fprintf_flat() */
size_t callchain__fprintf_folded(FILE *fp, const struct cc_node *root, u64 total, u64 min_hit,
				 const struct callchain_param *p);

/**
 * callchain_param__parse - "graph,0.5,caller,function,percent" and its parts
 * Return: 0 or -EINVAL.
 */
int callchain_param__parse(struct callchain_param *p, const char *s);

#endif
