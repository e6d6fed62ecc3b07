// SPDX-License-Identifier: GPL-2.0-or-later
/* The build-id cache record fills: layout, existing entries, failures. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "util/symbol/build-id-cache.h"
#include "util/symbol/build-id.h"
#include "util/perf-data/header.h"

static void hex_of(const u8 *id, int n, char *hex)
{
	for (int i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
}

TPERF_TEST(build_id_cache_file, "build-id cache: a file's entry, its link, kept when there")
{
	char dir[PATH_MAX], exe[PATH_MAX], path[3 * PATH_MAX], target[PATH_MAX], want[2 * PATH_MAX];
	char hex[2 * PERF_BUILD_ID_SIZE + 1];
	u8 id[PERF_BUILD_ID_SIZE];
	struct stat a, b;
	ssize_t n;
	int len, ret = TEST_FAIL;

	if (!realpath("/proc/self/exe", exe))
		return test_skip("no /proc/self/exe");
	len = filename__read_build_id(exe, id, sizeof(id));
	if (len <= 0)
		return test_skip("tperf has no build-id");
	hex_of(id, len, hex);
	snprintf(dir, sizeof(dir), "%s", test_mkdtemp());
	if (build_id_cache__add(dir, exe, false, id, (size_t)len))
		goto out;
	snprintf(path, sizeof(path), "%s%s/%s/elf", dir, exe, hex);
	if (stat(path, &a) || stat(exe, &b) || a.st_size != b.st_size) {
		TEST_FAILED_AT("no copy of '%s' at '%s'", exe, path);
		goto out;
	}
	snprintf(path, sizeof(path), "%s%s/%s/probes", dir, exe, hex);
	if (stat(path, &a) || a.st_size) {
		TEST_FAILED_AT("no empty '%s'", path);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "../..%s/%s", exe, hex);
	if (strcmp(target, want)) {
		TEST_FAILED_AT("'%s' -> '%s', expected '%s'", path, target, want);
		goto out;
	}
	/* there already: left as it is */
	snprintf(path, sizeof(path), "%s%s/%s/elf", dir, exe, hex);
	if (unlink(path) || test_write_file(dir, path + strlen(dir) + 1, "kept") ||
	    build_id_cache__add(dir, exe, false, id, (size_t)len) || stat(path, &a) ||
	    a.st_size != 4) {
		TEST_FAILED_AT("'%s' was replaced", path);
		goto out;
	}
	/* a file where a folder must be */
	snprintf(path, sizeof(path), "%s/file", dir);
	if (test_write_file(dir, "file", "x"))
		goto out;
	snprintf(path, sizeof(path), "%s/file/cache", dir);
	if (build_id_cache__add(path, exe, false, id, (size_t)len) != -ENOTDIR) {
		TEST_FAILED_AT("a cache under a file is not -ENOTDIR");
		goto out;
	}
	ret = TEST_OK;
out:
	test_rm_rf(dir);
	return ret;
}

TPERF_TEST(build_id_cache_errs, "build-id cache: failures counted once per errno, skipped names")
{
	static char names[5][16] = { "[vsyscall]", "/nonexistent/x", "[vdso]", "/nonexistent/y",
				     "/nonexistent/z" };
	struct perf_build_id_entry e[5] = { 0 };
	struct perf_env env = { .nr_build_ids = 5, .build_ids = e };
	struct build_id_cache_errs errs;
	char dir[PATH_MAX];
	u8 id[PERF_BUILD_ID_SIZE] = { 1, 2, 3 };
	int failed;

	for (int i = 0; i < 5; i++) {
		e[i].misc = PERF_RECORD_MISC_USER;
		e[i].size = 20;
		e[i].filename = names[i];
		e[i].build_id[0] = 0xab;	/* not this vDSO's */
	}
	snprintf(dir, sizeof(dir), "%s", test_mkdtemp());
	failed = build_id_cache__add_env(dir, &env, &errs);
	TEST_ASSERT_EQUAL("failed", failed, 4);
	TEST_ASSERT_EQUAL("kinds", errs.nr, 2);
	TEST_ASSERT_EQUAL("first kind", errs.kind[0].err, ENOENT);
	TEST_ASSERT_EQUAL("its count", errs.kind[0].count, 3);
	TEST_ASSERT_STR("its first DSO", errs.kind[0].name, "/nonexistent/x");
	TEST_ASSERT_EQUAL("second kind", errs.kind[1].err, ESTALE);
	TEST_ASSERT_STR("its DSO", errs.kind[1].name, "[vdso]");
	TEST_ASSERT_EQUAL("no build-id", build_id_cache__add(dir, "/bin/sh", false, id, 0),
			  -EINVAL);
	test_rm_rf(dir);
	return TEST_OK;
}
