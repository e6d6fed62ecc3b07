// SPDX-License-Identifier: GPL-2.0-or-later
/* argv_split(): a command line string into words, as sh splits them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/lib/argv-split.h"

/* @s split gives the words of @want ("|" between them), or the error @err. */
static int check(const char *s, const char *want, int err)
{
	char **v, buf[256] = "";
	int n = argv_split(s, &v);

	if (err) {
		TEST_ASSERT_EQUAL(s, n, err);
		TEST_ASSERT_VAL("nothing on error", !v);
		return TEST_OK;
	}
	TEST_ASSERT_VAL(s, n >= 0);
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "|" : "", v[i]);
	TEST_ASSERT_VAL("NULL after the words", !v[n]);
	free(v);
	TEST_ASSERT_STR(s, buf, want);
	return TEST_OK;
}

TPERF_TEST(argv_split_words, "argv_split: words, quotes and backslashes as sh")
{
	static const struct { const char *s, *want; int err; } cases[] = {
		{ "./old --fast 3", "./old|--fast|3", 0 },
		{ "  a\t b \n", "a|b", 0 },
		{ "", "", 0 },
		{ "a 'b c' \"d e\"", "a|b c|d e", 0 },
		{ "x'y'\"z\"w", "xyzw", 0 },
		{ "'a\\b' \"a\\b\" a\\b", "a\\b|a\\b|ab", 0 },
		{ "\"a\\\"b\\\\c\\$\"", "a\"b\\c$", 0 },
		{ "a\\ b", "a b", 0 },
		{ "'' b", "|b", 0 },
		{ "'open", NULL, -EINVAL },
		{ "\"open", NULL, -EINVAL },
		{ "end\\", NULL, -EINVAL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (check(cases[i].s, cases[i].want, cases[i].err) != TEST_OK)
			return TEST_FAIL;
	return TEST_OK;
}
