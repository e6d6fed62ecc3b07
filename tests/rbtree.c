// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the red-black tree (util/lib/rbtree.c): random insertions and
 * erasures keep it a red-black tree in order, and erasing takes a node's
 * successor as the kernel's rb_erase() does (the shape perf's trees have).
 */
#include <stdlib.h>

#include "tests/tests.h"
#include "util/lib/rbtree.h"

struct knode {
	struct rb_link rb;	/* first */
	int key;
	bool in;
};

static int key(const struct rb_link *x)
{
	return ((const struct knode *)x)->key;
}

static void insert(struct rb_link **root, struct knode *z)
{
	struct rb_link *x = *root, *y = NULL;
	bool left = false;

	while (x) {
		y = x;
		left = z->key < key(x);
		x = left ? x->l : x->r;
	}
	rb_link_leaf(root, &z->rb, y, left);
	rb_insert_fixup(root, &z->rb);
	z->in = true;
}

/* The black height of @x, or -1 when a rule is broken under it. */
static int check(const struct rb_link *x, const struct rb_link *parent)
{
	int l, r;

	if (!x)
		return 1;
	if (x->p != parent || (x->red && parent && parent->red) ||
	    (x->l && key(x->l) > key(x)) || (x->r && key(x->r) < key(x)))
		return -1;
	l = check(x->l, x);
	r = check(x->r, x);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !x->red;
}

static int count(const struct rb_link *x)
{
	return x ? 1 + count(x->l) + count(x->r) : 0;
}

static int test_rbtree_erase(void)
{
	enum { N = 600 };
	struct knode *n = calloc(N, sizeof(*n));
	struct rb_link *root = NULL;
	int in = 0;

	if (!n)
		return TEST_FAIL;
	srand(7);
	for (int i = 0; i < N; i++)
		n[i].key = rand() % 200;	/* equal keys too */
	for (int step = 0; step < 20000; step++) {
		struct knode *z = &n[rand() % N];

		if (z->in) {
			rb_erase(&root, &z->rb);
			z->in = false;
			in--;
		} else {
			insert(&root, z);
			in++;
		}
		if ((root && root->red) || check(root, NULL) < 0 || count(root) != in) {
			free(n);
			TEST_FAILED_AT("not a red-black tree after step %d", step);
			return TEST_FAIL;
		}
	}
	free(n);
	return TEST_OK;
}
TPERF_TEST(test_rbtree_erase, "report: red-black tree erasure keeps the tree's rules");

static int test_rbtree_erase_shape(void)
{
	struct knode n[7];
	struct rb_link *root = NULL;

	/* 10 20 30 40 50 60 70 inserted in order: 20 at the root, 40 over 30 and 60 */
	for (int i = 0; i < 7; i++) {
		n[i] = (struct knode){ .key = 10 * (i + 1) };
		insert(&root, &n[i]);
	}
	TEST_ASSERT_EQUAL("root", key(root), 20);
	TEST_ASSERT_EQUAL("40", key(root->r), 40);
	/* erasing 40 (two children): its successor 50 takes its place and colour */
	rb_erase(&root, &n[3].rb);
	TEST_ASSERT_EQUAL("successor", key(root->r), 50);
	TEST_ASSERT_EQUAL("its right", key(root->r->r), 60);
	TEST_ASSERT_EQUAL("then 70", key(root->r->r->r), 70);
	TEST_ASSERT_VAL("tree", check(root, NULL) > 0);
	/* erasing the root 20: 30 (its successor, a leaf) takes it */
	rb_erase(&root, &n[1].rb);
	TEST_ASSERT_EQUAL("new root", key(root), 30);
	TEST_ASSERT_VAL("tree", check(root, NULL) > 0);
	return TEST_OK;
}
TPERF_TEST(test_rbtree_erase_shape, "report: red-black tree erasure takes the successor, as the kernel's");
