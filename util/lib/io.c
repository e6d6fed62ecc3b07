// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole transfers on a descriptor (see io.h). */
#include <errno.h>
#include <unistd.h>

#include "util/lib/io.h"

/* @off < 0: at the descriptor's position (write()), else pwrite() there */
static int write_whole(int fd, const void *buf, size_t n, off_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t w = off < 0 ? write(fd, p, n) : pwrite(fd, p, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		if (off >= 0)
			off += w;
	}
	return 0;
}

/* @off < 0: at the descriptor's position (read()), else pread() there */
static ssize_t read_whole(int fd, void *buf, size_t n, off_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = off < 0 ? read(fd, p + got, n - got) :
				      pread(fd, p + got, n - got, off + (off_t)got);

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

int io__write_all(int fd, const void *buf, size_t n)
{
	return write_whole(fd, buf, n, -1);
}

int io__pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	return off < 0 ? -EINVAL : write_whole(fd, buf, n, off);
}

ssize_t io__read_all(int fd, void *buf, size_t n)
{
	return read_whole(fd, buf, n, -1);
}

ssize_t io__pread_all(int fd, void *buf, size_t n, off_t off)
{
	return off < 0 ? -EINVAL : read_whole(fd, buf, n, off);
}
