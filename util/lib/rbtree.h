/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The red-black tree perf's hists and callchains are kept in, rebuilt where
 * tperf must reproduce perf's order: perf's comparisons are not always a
 * total order (inline frames compare by name, other symbols by address),
 * and then which entries a walk finds depends on the tree's shape.  The
 * rebalancing is the classic bottom-up one the kernel's rbtree implements,
 * so the same insertions give the same shape.  Callers walk down to the
 * slot themselves, link the node there and call rb_insert_fixup().
 */
#ifndef TPERF_RBTREE_H
#define TPERF_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

struct rb_link {
	struct rb_link *l, *r, *p;
	bool red;
};

/* Put @z as a red leaf under @parent (NULL: the root), on its left or right. */
static inline void rb_link_leaf(struct rb_link **root, struct rb_link *z, struct rb_link *parent,
				bool left)
{
	z->p = parent;
	z->l = z->r = NULL;
	z->red = true;
	if (!parent)
		*root = z;
	else if (left)
		parent->l = z;
	else
		parent->r = z;
}

/** rb_insert_fixup - rebalance @root after rb_link_leaf() put @z in it */
void rb_insert_fixup(struct rb_link **root, struct rb_link *z);

/** rb_erase - take @n out of @root, rebalancing as the kernel's rb_erase() does */
void rb_erase(struct rb_link **root, struct rb_link *n);

/** rb_first - the leftmost node of @root (NULL: empty) */
struct rb_link *rb_first(struct rb_link *root);
/** rb_next - the node after @n in order (NULL: the last) */
struct rb_link *rb_next(struct rb_link *n);

#endif
