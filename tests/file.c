// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the reading of files a user names (util/lib/file.c):
 * devices, FIFOs and folders refused without blocking, the null device
 * taken as empty, lines bounded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/lib/file.h"

TPERF_TEST(file_check_kinds, "files: devices, FIFOs and folders refused, the null device taken")
{
	char *dir = test_mkdtemp(), fifo[128], big[128], msg[256];
	FILE *f;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("dir", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(big, sizeof(big), "%s/big", dir);
	if (mkfifo(fifo, 0600) || test_sparse_file(big, 3ll << 30))
		goto out;
	if (file__check("/dev/zero", 1 << 20, msg, sizeof(msg)) != -EINVAL ||
	    strcmp(msg, "'/dev/zero' is not a regular file"))
		goto out;
	if (file__check(dir, 1 << 20, msg, sizeof(msg)) != -EINVAL ||
	    file__check(fifo, 1 << 20, msg, sizeof(msg)) != -EINVAL ||
	    file__check("/nonexistent", 1 << 20, msg, sizeof(msg)) != -ENOENT ||
	    file__check("/dev/null", 1 << 20, msg, sizeof(msg)))
		goto out;
	if (file__check(big, 256 << 20, msg, sizeof(msg)) != -EFBIG ||
	    !strstr(msg, "' is larger than 256 MiB"))
		goto out;
	/* opened without blocking on the FIFO (no writer), and refused */
	errno = 0;
	if (file__fopen(fifo, -1, NULL) || errno != EINVAL)
		goto out;
	if (file__fopen("/dev/zero", -1, NULL) || errno != EINVAL)
		goto out;
	if (file__fopen(big, 1 << 20, NULL) || errno != EFBIG)
		goto out;
	f = file__fopen(big, -1, NULL);		/* no size limit */
	if (!f)
		goto out;
	fclose(f);
	f = file__fopen("/dev/null", 0, NULL);
	if (!f || fgetc(f) != EOF)
		goto out;
	fclose(f);
	ret = TEST_OK;
out:
	if (ret)
		fprintf(stderr, "last message: %s\n", msg);
	test_rm_rf(dir);
	return ret;
}

TPERF_TEST(file_getline_bounded, "files: lines read up to a limit, a longer one refused")
{
	char path[] = "/tmp/tperf-file-XXXXXX", *text = malloc(20000), *line = NULL;
	size_t cap = 0;
	FILE *f;
	ssize_t n;

	TEST_ASSERT_VAL("text", text);
	/* 16 bytes, 16 and a newline, no newline at the end; then a long one */
	memset(text, 'x', 19999);
	text[19999] = '\0';
	memcpy(text, "0123456789abcdef\n0123456789abcdef\nend\n", 38);
	text[38 + 5000] = '\n';
	TEST_ASSERT_VAL("file", !test_tmp_file(path, text));
	free(text);
	f = fopen(path, "r");
	unlink(path);
	TEST_ASSERT_VAL("open", f);
	n = file__getline(&line, &cap, f, 16);
	TEST_ASSERT_VAL("16 bytes and a newline", n == 17 && !strcmp(line, "0123456789abcdef\n"));
	TEST_ASSERT_VAL("the buffer is bounded", cap <= 18);
	n = file__getline(&line, &cap, f, 16);
	TEST_ASSERT_VAL("again", n == 17);
	n = file__getline(&line, &cap, f, 16);
	TEST_ASSERT_VAL("short", n == 4 && !strcmp(line, "end\n"));
	n = file__getline(&line, &cap, f, 4096);
	TEST_ASSERT_VAL("5000 bytes: too long", n == -1 && errno == EOVERFLOW);
	TEST_ASSERT_VAL("the buffer is bounded", cap <= 4098);
	n = file__getline(&line, &cap, f, 1 << 20);
	TEST_ASSERT_VAL("the rest of it", n > 0 && line[n - 1] == '\n');
	n = file__getline(&line, &cap, f, 1 << 20);
	TEST_ASSERT_VAL("the last line, without a newline", n == 19999 - 38 - 5001 &&
			line[n - 1] == 'x' && !line[n]);
	n = file__getline(&line, &cap, f, 1 << 20);
	TEST_ASSERT_VAL("the end", n == 0);
	free(line);
	fclose(f);
	return TEST_OK;
}
