// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the opening of output files (util/lib/file-out.c): no
 * symbolic link at the path followed or renamed, record's PATH.old, a
 * FIFO refused without blocking where the output must seek, the stream
 * ways (stat -o) emptying or appending to a file and duplicating the
 * descriptors /dev/stdout and /dev/fd/N name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/lib/file-out.h"

#define BACKUP (FILE_CREATE_BACKUP | FILE_CREATE_SEEKABLE)

/* @dir/@name, in one of four buffers used in turn (a call's arguments) */
static char *at(const char *dir, const char *name)
{
	static char path[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	if ((size_t)snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name) >= sizeof(path[i]))
		abort();	/* the scratch folder is a short /tmp name */
	return path[i];
}

/* @path holds @text exactly (NULL: it does not exist). */
static bool holds(const char *path, const char *text)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return !text && errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return text && n == (ssize_t)strlen(text) && !memcmp(buf, text, n);
}

static bool put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	return !close(fd) && ok;
}

/* file__create(), write @text, close: 0, or the error with its message in @msg */
static int create(const char *path, int how, const char *text, char *msg, size_t size)
{
	int fd = file__create(path, how, 0600, msg, size), err = 0;

	if (fd < 0)
		return fd;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int backup_cases(const char *d)
{
	char msg[512], want[512];
	struct stat st;

	/* a new file, then one with data: kept as .old */
	TEST_ASSERT_EQUAL("new", create(at(d, "f"), BACKUP, "one", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("mode 0600", !stat(at(d, "f"), &st) && (st.st_mode & 0777) == 0600);
	TEST_ASSERT_EQUAL("again", create(at(d, "f"), BACKUP, "two", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("new data", holds(at(d, "f"), "two"));
	TEST_ASSERT_VAL("the old one kept", holds(at(d, "f.old"), "one"));
	/* an empty file is emptied where it is, its .old left alone (perf) */
	TEST_ASSERT_VAL("empty", put(at(d, "f"), "") && !chmod(at(d, "f"), 0640));
	TEST_ASSERT_EQUAL("in place", create(at(d, "f"), BACKUP, "three", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("written", holds(at(d, "f"), "three") && holds(at(d, "f.old"), "one"));
	TEST_ASSERT_VAL("its mode", !stat(at(d, "f"), &st) && (st.st_mode & 0777) == 0640);

	/* links: neither followed nor renamed, whatever they point at */
	TEST_ASSERT_VAL("target", put(at(d, "target"), "secret"));
	TEST_ASSERT_VAL("links", !symlink("target", at(d, "l")) && !symlink("none", at(d, "dl")));
	snprintf(want, sizeof(want), "'%s' is a symbolic link: tperf does not write through one; "
		 "name the file itself", at(d, "l"));
	TEST_ASSERT_EQUAL("link", create(at(d, "l"), BACKUP, "x", msg, sizeof(msg)), -ELOOP);
	TEST_ASSERT_STR("link", msg, want);
	TEST_ASSERT_EQUAL("check", file__create_check(at(d, "l"), BACKUP, msg, sizeof(msg)),
			  -ELOOP);
	TEST_ASSERT_EQUAL("dangling", create(at(d, "dl"), BACKUP, "x", msg, sizeof(msg)), -ELOOP);
	TEST_ASSERT_VAL("target untouched", holds(at(d, "target"), "secret"));
	TEST_ASSERT_VAL("nothing made", holds(at(d, "none"), NULL) && holds(at(d, "l.old"), NULL));
	TEST_ASSERT_VAL("links stay", !lstat(at(d, "l"), &st) && S_ISLNK(st.st_mode));

	/* a folder: refused, unless it holds a recording's files (data, data.N) */
	TEST_ASSERT_VAL("dir", !mkdir(at(d, "dir"), 0755) && put(at(d, "dir/notes"), "x"));
	TEST_ASSERT_EQUAL("folder", create(at(d, "dir"), BACKUP, "x", msg, sizeof(msg)), -EISDIR);
	snprintf(want, sizeof(want), "'%s' is a folder: name a file to write", at(d, "dir"));
	TEST_ASSERT_STR("folder", msg, want);
	TEST_ASSERT_VAL("rec", !mkdir(at(d, "rec"), 0755) && put(at(d, "rec/data"), "a") &&
			put(at(d, "rec/data.1"), "b"));
	TEST_ASSERT_EQUAL("recording", create(at(d, "rec"), BACKUP, "new", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("moved", holds(at(d, "rec.old/data.1"), "b") &&
			holds(at(d, "rec"), "new"));
	/* a recording's .old folder makes room; another folder does not */
	TEST_ASSERT_EQUAL("file over a recording's .old",
			  create(at(d, "rec"), BACKUP, "newer", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("replaced", holds(at(d, "rec.old"), "new"));
	TEST_ASSERT_VAL("g", put(at(d, "g"), "g1") && !mkdir(at(d, "g.old"), 0755) &&
			put(at(d, "g.old/notes"), "keep"));
	TEST_ASSERT_EQUAL("check", file__create_check(at(d, "g"), BACKUP, msg, sizeof(msg)),
			  -ENOTEMPTY);
	TEST_ASSERT_EQUAL("other .old", create(at(d, "g"), BACKUP, "x", msg, sizeof(msg)),
			  -ENOTEMPTY);
	TEST_ASSERT_VAL("both kept", holds(at(d, "g"), "g1") && holds(at(d, "g.old/notes"), "keep"));

	/* a FIFO is refused before open(), which would wait for a reader */
	TEST_ASSERT_VAL("fifo", !mkfifo(at(d, "fifo"), 0600));
	TEST_ASSERT_EQUAL("fifo", create(at(d, "fifo"), BACKUP, "x", msg, sizeof(msg)), -ESPIPE);
	TEST_ASSERT_EQUAL("null", create("/dev/null", BACKUP, "x", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("full", create("/dev/full", BACKUP, "x", msg, sizeof(msg)), -EIO);
	TEST_ASSERT_EQUAL("missing folder", create(at(d, "no/f"), BACKUP, "x", msg, sizeof(msg)),
			  -ENOENT);
	snprintf(want, sizeof(want), "cannot create '%s': No such file or directory", at(d, "no/f"));
	TEST_ASSERT_STR("missing folder", msg, want);
	/* the check changes nothing */
	TEST_ASSERT_EQUAL("check", file__create_check(at(d, "f"), BACKUP, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("unchanged", holds(at(d, "f"), "three") && holds(at(d, "f.old"), "one"));
	return TEST_OK;
}

static int stream_cases(const char *d)
{
	char msg[512], path[64];
	int fd, w[2];

	TEST_ASSERT_EQUAL("new", create(at(d, "s"), FILE_CREATE_TRUNCATE, "long text", msg,
					sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("emptied", create(at(d, "s"), FILE_CREATE_TRUNCATE, "short", msg,
					    sizeof(msg)), 0);
	TEST_ASSERT_VAL("no .old", holds(at(d, "s"), "short") && holds(at(d, "s.old"), NULL));
	TEST_ASSERT_EQUAL("append", create(at(d, "s"), FILE_CREATE_APPEND, "+", msg, sizeof(msg)),
			  0);
	TEST_ASSERT_VAL("appended", holds(at(d, "s"), "short+"));
	TEST_ASSERT_VAL("links", put(at(d, "target"), "secret") &&
			!symlink("target", at(d, "l")) && !symlink("none", at(d, "dl")));
	TEST_ASSERT_EQUAL("link", create(at(d, "l"), FILE_CREATE_TRUNCATE, "x", msg, sizeof(msg)),
			  -ELOOP);
	TEST_ASSERT_EQUAL("link", create(at(d, "l"), FILE_CREATE_APPEND, "x", msg, sizeof(msg)),
			  -ELOOP);
	TEST_ASSERT_EQUAL("dangling", create(at(d, "dl"), FILE_CREATE_TRUNCATE, "x", msg,
					     sizeof(msg)), -ELOOP);
	TEST_ASSERT_VAL("untouched", holds(at(d, "target"), "secret") && holds(at(d, "none"), NULL));
	TEST_ASSERT_EQUAL("folder", create(d, FILE_CREATE_TRUNCATE, "x", msg, sizeof(msg)),
			  -EISDIR);
	/* /dev/fd/N: that descriptor, not the file reopened (and emptied) */
	TEST_ASSERT_VAL("pipe", !pipe(w));
	snprintf(path, sizeof(path), "/dev/fd/%d", w[1]);
	fd = file__create(path, FILE_CREATE_TRUNCATE, 0600, msg, sizeof(msg));
	TEST_ASSERT_VAL("dup", fd >= 0 && fd != w[1] && write(fd, "p", 1) == 1);
	close(fd);
	TEST_ASSERT_VAL("through the pipe", read(w[0], path, 1) == 1 && path[0] == 'p');
	snprintf(path, sizeof(path), "/proc/self/fd/%d", w[0]);
	TEST_ASSERT_EQUAL("read end", file__create(path, FILE_CREATE_TRUNCATE, 0600, msg,
						   sizeof(msg)), -EBADF);
	close(w[0]);
	close(w[1]);
	return TEST_OK;
}

TPERF_TEST(file_create_backup, "output files: FILE.old, no link followed, FIFOs refused")
{
	char dir[PATH_MAX];
	int ret;

	snprintf(dir, sizeof(dir), "%s", test_mkdtemp());
	ret = backup_cases(dir);
	test_rm_rf(dir);
	return ret;
}

TPERF_TEST(file_create_stream, "output files: emptied or appended, no link followed, /dev/fd/N")
{
	char dir[PATH_MAX];
	int ret;

	snprintf(dir, sizeof(dir), "%s", test_mkdtemp());
	ret = stream_cases(dir);
	test_rm_rf(dir);
	return ret;
}
