/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole transfers on a descriptor.  A signal may interrupt read() and
 * write() (EINTR) and a pipe, a socket or a full disk may take or give
 * fewer bytes than asked; these helpers carry on until all is moved.
 */
#ifndef TPERF_IO_H
#define TPERF_IO_H

#include <stddef.h>
#include <sys/types.h>

/* All @n bytes of @buf to @fd: 0, or -errno (-EIO when nothing is taken). */
int io__write_all(int fd, const void *buf, size_t n);
/* All @n bytes of @buf to @fd at @off: 0, or -errno (-EIO as above). */
int io__pwrite_all(int fd, const void *buf, size_t n, off_t off);
/* Up to @n bytes into @buf, fewer only at end of file: the count or -errno. */
ssize_t io__read_all(int fd, void *buf, size_t n);
/* Up to @n bytes from @off, fewer only at end of file: the count or -errno. */
ssize_t io__pread_all(int fd, void *buf, size_t n, off_t off);

#endif
