// SPDX-License-Identifier: GPL-2.0-or-later
/* Red-black tree rebalancing (see rbtree.h). */
#include "rbtree.h"

static void rb_rotate(struct rb_link **root, struct rb_link *x, bool left)
{
	struct rb_link *y = left ? x->r : x->l;

	if (left) {
		x->r = y->l;
		if (y->l)
			y->l->p = x;
	} else {
		x->l = y->r;
		if (y->r)
			y->r->p = x;
	}
	y->p = x->p;
	if (!x->p)
		*root = y;
	else if (x == x->p->l)
		x->p->l = y;
	else
		x->p->r = y;
	if (left)
		y->l = x;
	else
		y->r = x;
	x->p = y;
}

void rb_insert_fixup(struct rb_link **root, struct rb_link *z)
{
	while (z->p && z->p->red) {
		struct rb_link *g = z->p->p;
		bool pl = z->p == g->l;
		struct rb_link *u = pl ? g->r : g->l;

		if (u && u->red) {
			z->p->red = false;
			u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == (pl ? z->p->r : z->p->l)) {
			z = z->p;
			rb_rotate(root, z, pl);
		}
		z->p->red = false;
		g->red = true;
		rb_rotate(root, g, !pl);
	}
	(*root)->red = false;
}

struct rb_link *rb_first(struct rb_link *n)
{
	while (n && n->l)
		n = n->l;
	return n;
}

struct rb_link *rb_next(struct rb_link *n)
{
	if (n->r)
		return rb_first(n->r);
	while (n->p && n == n->p->r)
		n = n->p;
	return n->p;
}
