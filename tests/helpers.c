// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers shared by the unit tests: fake trees in scratch folders, callchain tries compared. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/report/callchain.h"

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int test_write_file(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >= sizeof(path))
		return -1;
	if (mkdir_p(path))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

int test_tmp_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

int test_sparse_file(const char *path, long long size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ret = fd < 0 || ftruncate(fd, size) ? -1 : 0;

	if (fd >= 0)
		close(fd);
	return ret;
}

char *test_mkdtemp(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/tperf-test.XXXXXX");
	return mkdtemp(dir);
}

int test_rm_rf(const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (strncmp(dir, "/tmp/", 5) || strstr(dir, ".."))
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static int child_index(const struct cc_node *n, const struct rb_link *x)
{
	for (u32 k = 0; k < n->nr; k++)
		if (&n->child[k]->rb == x)
			return k;
	return -1;
}

/* The trees of children of @a and @b: the same shape, the same children in it. */
static bool same_shape(const struct cc_node *a, const struct rb_link *x,
		       const struct cc_node *b, const struct rb_link *y)
{
	if (!x || !y)
		return !x && !y;
	return x->red == y->red && child_index(a, x) == child_index(b, y) &&
	       child_index(a, x) >= 0 && same_shape(a, x->l, b, y->l) &&
	       same_shape(a, x->r, b, y->r);
}

bool test_same_trie(const struct cc_node *a, const struct cc_node *b)
{
	if (a->dso != b->dso || a->sym != b->sym || a->ip != b->ip || a->addr != b->addr ||
	    a->hit != b->hit || a->children_hit != b->children_hit || a->count != b->count ||
	    a->children_count != b->children_count || a->nr != b->nr ||
	    a->inlined_child != b->inlined_child || (a->nr && a->hint != b->hint)) {
		fprintf(stderr, "node %s %#" PRIx64 ": hit %" PRIu64 "/%" PRIu64
			" children_hit %" PRIu64 "/%" PRIu64 " count %" PRIu64 "/%" PRIu64
			" children_count %" PRIu64 "/%" PRIu64 " nr %u/%u hint %u/%u\n",
			a->sym ? a->sym->name : "-", a->ip, a->hit, b->hit, a->children_hit,
			b->children_hit, a->count, b->count, a->children_count,
			b->children_count, a->nr, b->nr, a->hint, b->hint);
		return false;
	}
	for (u32 k = 0; k < a->nr; k++)
		if (!test_same_trie(a->child[k], b->child[k]))
			return false;
	return same_shape(a, a->kids, b, b->kids);
}
