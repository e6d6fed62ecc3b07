// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks and the bounded reads of the files a user names (file.h).
 * A character device or a FIFO given where a table is expected would be
 * read for ever (/dev/zero, /dev/urandom) or block; a regular file is at
 * most its size, which is checked before it is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/lib/file.h"

int file__st_readable(const struct stat *st)
{
	/* the null device is 1:3 on Linux */
	return S_ISREG(st->st_mode) ||
	       (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3);
}

/**
 * file__check - see util/lib/file.h
 */
int file__check(const char *path, off_t max, char *msg, size_t size)
{
	struct stat st;

	if (stat(path, &st)) {
		int err = errno;

		snprintf(msg, size, "cannot open '%s': %s", path, strerror(err));
		return -err;
	}
	if (!file__st_readable(&st)) {
		snprintf(msg, size, "'%s' is not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > max) {
		snprintf(msg, size, "'%s' is larger than %lld MiB", path,
			 (long long)(max >> 20));
		return -EFBIG;
	}
	return 0;
}

/**
 * file__fopen - see util/lib/file.h
 */
FILE *file__fopen(const char *path, off_t max, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	err = fstat(fd, &sb) ? errno : !file__st_readable(&sb) ? EINVAL :
	      max >= 0 && sb.st_size > max ? EFBIG : 0;
	/* O_NONBLOCK stays: regular files and the null device ignore it */
	f = err ? NULL : fdopen(fd, "r");
	if (!f) {
		err = err ?: errno;
		close(fd);
		errno = err;
		return NULL;
	}
	if (st)
		*st = sb;
	return f;
}

/**
 * file__getline - see util/lib/file.h
 */
ssize_t file__getline(char **line, size_t *cap, FILE *f, size_t max)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF) {
		if (n + 2 > *cap) {	/* room for @c and the NUL */
			size_t want = *cap ? *cap * 2 : 256;
			char *p;

			if (want > max + 2)	/* still >= n + 2: n <= max here */
				want = max + 2;
			p = realloc(*line, want);
			if (!p)
				return -1;
			*line = p;
			*cap = want;
		}
		(*line)[n++] = c;
		if (c == '\n')
			break;
		if (n > max)
			goto long_line;
	}
	if (ferror(f))
		return -1;
	if (*line)
		(*line)[n] = '\0';
	return n;
long_line:
	errno = EOVERFLOW;
	return -1;
}
