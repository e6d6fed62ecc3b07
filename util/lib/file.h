/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text and table files a user names or a recording points to (a JIT map,
 * -F srccode's and a probe's sources, stat diff's JSON files): regular
 * files only, read with bounds, never grown without limit.  --kallsyms is not read through
 * these: it may be a pipe (builtin__check_text_file(), kallsyms_load__open()).
 */
#ifndef TPERF_FILE_H
#define TPERF_FILE_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Whether @st, as fstat() or stat() gave it, is a file whose text can be
 * read whole: a regular file, or the null device (empty: a user's way to
 * say "none", as in `--kallsyms /dev/null`).
 */
int file__st_readable(const struct stat *st);

/*
 * file__check - whether @path is a file of text to read whole
 * @path: the file
 * @max: the most bytes it may have (its st_size)
 * @msg: receives the message on failure: "'PATH' is not a regular file",
 *	 "'PATH' is larger than N MiB", "cannot open 'PATH': ..."
 * @size: size of @msg
 *
 * Return: 0; -ENOENT and others from stat(); -EINVAL not a regular file
 * (nor the null device); -EFBIG larger than @max.
 */
int file__check(const char *path, off_t max, char *msg, size_t size);

/*
 * file__fopen - fopen(@path, "r") for a file checked as file__check() does
 * (no message): open() does not block on a FIFO, which is refused
 * @max: the most bytes it may have, or -1: any size
 * @st: NULL, or receives the file's fstat()
 *
 * Return: the stream, or NULL with errno set: EINVAL not a regular file
 * (nor the null device), EFBIG larger than @max, or open()'s.
 */
FILE *file__fopen(const char *path, off_t max, struct stat *st);

/*
 * file__getline - getline() with a bound: the next line of @f into *@line
 * (NUL-terminated, with its newline), growing *@line (*@cap bytes) up to
 * @max + 2 bytes
 * @max: the longest line accepted, without its newline
 *
 * Return: the line's length; 0 at the end of the file; -1 with errno set
 * on a read error, or with errno EOVERFLOW when the line is longer than
 * @max (the rest of it is left unread).
 */
ssize_t file__getline(char **line, size_t *cap, FILE *f, size_t max);

#endif
