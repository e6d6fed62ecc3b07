// SPDX-License-Identifier: GPL-2.0-or-later
/* Red-black tree rebalancing (see rbtree.h). */
#include "util/lib/rbtree.h"

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

/* @n's place in its parent (or the root) goes to @c. */
static void rb_replace(struct rb_link **root, struct rb_link *n, struct rb_link *c)
{
	if (!n->p)
		*root = c;
	else if (n->p->l == n)
		n->p->l = c;
	else
		n->p->r = c;
}

/*
 * A black node was taken from under @parent, on the side that is now
 * @node (NULL at a leaf): restore the black heights.  The sibling case
 * analysis of the kernel's __rb_erase_color().
 */
static void rb_erase_fixup(struct rb_link **root, struct rb_link *node, struct rb_link *parent)
{
	while (parent) {
		bool left = node != parent->r;	/* node may be NULL: its side is the other's */
		struct rb_link *s = left ? parent->r : parent->l;

		if (s->red) {				/* red sibling: make it black */
			s->red = false;
			parent->red = true;
			rb_rotate(root, parent, left);
			s = left ? parent->r : parent->l;
		}
		if ((!s->l || !s->l->red) && (!s->r || !s->r->red)) {
			s->red = true;			/* black nephews: up one level */
			if (parent->red) {
				parent->red = false;
				return;
			}
			node = parent;
			parent = node->p;
			continue;
		}
		if (!(left ? s->r : s->l) || !(left ? s->r : s->l)->red) {
			struct rb_link *near = left ? s->l : s->r;

			near->red = false;		/* the near nephew is red: far */
			s->red = true;
			rb_rotate(root, s, !left);
			s = near;
		}
		s->red = parent->red;			/* the far nephew is red */
		parent->red = false;
		(left ? s->r : s->l)->red = false;
		rb_rotate(root, parent, left);
		return;
	}
}

void rb_erase(struct rb_link **root, struct rb_link *n)
{
	struct rb_link *parent = NULL, *child = NULL;
	bool fix = false;

	if (!n->l || !n->r) {
		struct rb_link *c = n->l ? n->l : n->r;

		rb_replace(root, n, c);
		if (c) {			/* a red child: it takes n's place and colour */
			c->p = n->p;
			c->red = n->red;
		} else {
			parent = n->p;
			fix = !n->red;
		}
	} else {
		struct rb_link *s = n->r;	/* the successor */

		if (!s->l) {
			parent = s;
			child = s->r;
		} else {
			while (s->l)
				s = s->l;
			parent = s->p;
			child = s->r;
			parent->l = child;
			s->r = n->r;
			n->r->p = s;
		}
		s->l = n->l;
		n->l->p = s;
		rb_replace(root, n, s);
		if (child) {
			child->p = parent;
			child->red = false;
		} else {
			fix = !s->red;
		}
		s->p = n->p;
		s->red = n->red;
	}
	if (fix)
		rb_erase_fixup(root, NULL, parent);
}
