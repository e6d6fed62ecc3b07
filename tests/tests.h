/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests linked into `tperf test`.  A test registers itself next to the
 * code it exercises, in one macro:
 *
 *	TPERF_TEST(parse_options_groups, "option parsing: grouped short flags")
 *	{
 *		TEST_ASSERT_VAL("-ag sets both", a && g);
 *		return TEST_OK;
 *	}
 *
 * Each runs in a forked child.  Return TEST_OK, TEST_FAIL, or
 * test_skip("reason") (e.g. "tracefs not mounted").
 */
#ifndef TPERF_TESTS_H
#define TPERF_TESTS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum { TEST_OK = 0, TEST_FAIL = -1, TEST_SKIP = -2 };

struct tperf_test {
	const char *name;	/* identifier, for `tperf test NAME` */
	const char *desc;	/* what `tperf test` prints */
	int (*func)(void);
	const char *file;
	int line;
};

#define TPERF_TEST(fn, description)						\
	static int fn(void);							\
	static const struct tperf_test __tperf_test_##fn			\
		__attribute__((used, section("tperf_tests"), aligned(8))) = {	\
		.name = #fn, .desc = description, .func = fn,			\
		.file = __FILE__, .line = __LINE__ };				\
	static int fn(void)

/* Record why a test is skipped (shown by `tperf test`); returns TEST_SKIP. */
int test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Path of a file under tests/data: $TPERF_TEST_DATA, else the tests/data of
 * the source tree tperf was built from, wherever `tperf test` runs.
 */
const char *test_data_path(const char *name);
/* A fixture the test needs is not there: say so; returns TEST_FAIL. */
int test_missing_fixture(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Fake trees: write @text to @dir/@rel, creating folders.  0 or -1. */
int test_write_file(const char *dir, const char *rel, const char *text);
/* A temporary file with @text in @path (a mkstemp() template).  0 or -1. */
int test_tmp_file(char *path, const char *text);
/* A file of @size bytes at @path that takes no room (a hole).  0 or -1. */
int test_sparse_file(const char *path, long long size);
/* A new scratch folder under /tmp (static buffer), and its removal. */
char *test_mkdtemp(void);
int test_rm_rf(const char *dir);

struct cc_node;
/*
 * Are the callchain tries under @a and @b the same node for node (frames,
 * periods, counts, hints, trees of children)?  Prints the first difference.
 */
bool test_same_trie(const struct cc_node *a, const struct cc_node *b);

#define TEST_FAILED_AT(...)							\
	do {									\
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);			\
		fprintf(stderr, __VA_ARGS__);					\
		fputc('\n', stderr);						\
	} while (0)

#define TEST_ASSERT_VAL(text, cond)						\
	do {									\
		if (!(cond)) {							\
			TEST_FAILED_AT("%s (%s)", text, #cond);			\
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST_ASSERT_EQUAL(text, val, expected)					\
	do {									\
		long long __v = (long long)(val), __e = (long long)(expected);	\
		if (__v != __e) {						\
			TEST_FAILED_AT("%s: got %lld (%#llx), expected %lld (%#llx)", \
				       text, __v, __v, __e, __e);		\
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST_ASSERT_STR(text, got, expected)					\
	do {									\
		const char *__g = (got), *__e = (expected);			\
		if (!__g || !__e || strcmp(__g, __e)) {				\
			TEST_FAILED_AT("%s:\n  got:      '%s'\n  expected: '%s'",	\
				       text, __g ? __g : "(null)", __e ? __e : "(null)"); \
			return TEST_FAIL;					\
		}								\
	} while (0)

#endif
