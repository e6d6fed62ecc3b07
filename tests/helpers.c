// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers shared by the unit tests: fake trees in scratch folders. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/tests.h"

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
