// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole transfers on a descriptor (see io.h). */
#include <errno.h>
#include <unistd.h>

#include "util/lib/io.h"

int io__write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int io__pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t w = pwrite(fd, p, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

ssize_t io__read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t io__pread_all(int fd, void *buf, size_t n, off_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, p + got, n - got, off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
