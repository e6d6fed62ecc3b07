// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the tracefs instance's restore list: every value written
 * through tracefs_instance__write() is written back by
 * tracefs_instance__remove(), however many there are (the list grows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "util/trace/tracefs-instance.h"

#define NR_FILES 200

TPERF_TEST(tracefs_restore_many, "tracefs instance: more than 64 changed settings are all restored")
{
	char *dir = test_mkdtemp(), name[32], old[32], buf[64];
	int bad = 0;

	if (!dir)
		return TEST_FAIL;
	for (int i = 0; i < NR_FILES; i++) {
		snprintf(name, sizeof(name), "setting%d", i);
		snprintf(old, sizeof(old), "old %d\n", i);
		if (test_write_file(dir, name, old))
			return TEST_FAIL;
	}
	if (tracefs_instance__attach(dir))
		return TEST_FAIL;
	/* each setting changed, the first ten twice: the oldest value wins */
	for (int i = 0; i < NR_FILES + 10; i++) {
		snprintf(name, sizeof(name), "setting%d", i % NR_FILES);
		if (tracefs_instance__write(name, i < NR_FILES ? "new" : "newer"))
			return TEST_FAIL;
	}
	if (tracefs_instance__read("setting5", buf, sizeof(buf)) < 0 || strcmp(buf, "newer")) {
		fprintf(stderr, "setting5 is '%s' before the restore, not 'newer'\n", buf);
		return TEST_FAIL;
	}
	tracefs_instance__remove();
	for (int i = 0; i < NR_FILES; i++) {
		snprintf(name, sizeof(name), "setting%d", i);
		snprintf(old, sizeof(old), "old %d\n", i);
		if (tracefs_instance__read(name, buf, sizeof(buf)) < 0 || strcmp(buf, old)) {
			fprintf(stderr, "%s is '%s' after the restore, not '%.*s'\n", name, buf,
				(int)strlen(old) - 1, old);
			bad++;
		}
	}
	test_rm_rf(dir);
	return bad ? TEST_FAIL : TEST_OK;
}
