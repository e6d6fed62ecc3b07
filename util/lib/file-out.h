/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files a user names (record -o, ftrace record -o, stat -o): opened
 * without following a symbolic link at the path, what was there kept as
 * PATH.old where perf keeps it.
 */
#ifndef TPERF_FILE_OUT_H
#define TPERF_FILE_OUT_H

#include <stddef.h>
#include <sys/types.h>

/* What file__create() does with what is at the path (one of these) ... */
enum file_create_how {
	/*
	 * record's: a file with data (or with other names: hard links)
	 * becomes PATH.old, as does a folder that holds only a recording's
	 * files (perf's data, data.N); an empty file is emptied again.
	 */
	FILE_CREATE_BACKUP,
	FILE_CREATE_TRUNCATE,	/* stat -o: an existing file is emptied */
	FILE_CREATE_APPEND,	/* stat --append: written at its end */
};
#define FILE_CREATE_HOW 0xff

/* ... and these flags */
/* the output is written at offsets (pwrite): no FIFO, socket or terminal */
#define FILE_CREATE_SEEKABLE 0x100

/*
 * file__create - open an output file for writing
 * @path: the file
 * @how: enum file_create_how, | FILE_CREATE_SEEKABLE
 * @mode: the permissions of a new file (less the umask)
 * @msg: receives the message on failure, naming @path
 * @size: size of @msg
 *
 * A symbolic link at @path is never followed (nor renamed): whoever could
 * put one there could point a root tperf at any file.  In the TRUNCATE and APPEND
 * ways, /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (links to
 * descriptors this process has open) give a duplicate of that descriptor.
 * A block device is refused (a typo would write over a disk).  What is
 * opened is checked on its descriptor, so a path changed meanwhile cannot
 * make it truncate or write another file.
 *
 * Return: a descriptor (close-on-exec) or -errno: -ELOOP a symbolic link,
 * -EISDIR a folder (that is not a recording's), -EINVAL a block device,
 * -ESPIPE not seekable, -ENOTEMPTY PATH.old is a folder with other files
 * (BACKUP), -EEXIST the path was taken while the old file was moved away,
 * -EAGAIN it was replaced while being opened, or what rename() and open()
 * return.
 */
int file__create(const char *path, int how, mode_t mode, char *msg, size_t size);

/*
 * file__create_check - what file__create() would refuse at @path now (a
 * link, a folder, a block device, a FIFO where SEEKABLE; a PATH.old it
 * could not replace; a folder that takes no new file: missing, read-only,
 * not the user's), for a command that writes its file at the end and
 * should fail before its work rather than after; changes nothing
 *
 * Return: 0, or -errno with @msg set as file__create() sets it.
 */
int file__create_check(const char *path, int how, char *msg, size_t size);

#endif
