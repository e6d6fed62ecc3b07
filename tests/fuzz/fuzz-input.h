/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the fuzz targets whose code under test opens a file by name: the
 * input in a memfd, named by its /proc/self/fd path.
 */
#ifndef TPERF_FUZZ_INPUT_H
#define TPERF_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/lib/io.h"

/* The memfd holding @data (close it after), its path in @path; -1 if none. */
static inline int fuzz_input_file(const char *name, const uint8_t *data, size_t size,
				  char *path, size_t len)
{
	int fd = memfd_create(name, 0);

	if (fd < 0)
		return -1;
	if (io__write_all(fd, data, size)) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
