// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening the output files a user names (file-out.h).  open() with O_CREAT
 * and O_TRUNC follows a symbolic link at the path and empties whatever it
 * points at: as root, any file of the machine whose name someone could
 * plant as a link where the output goes (a shared /tmp).  Here the last
 * component is never followed (O_NOFOLLOW), a new file is made with O_EXCL
 * once the old one is moved away, and what is opened in place is checked
 * on its descriptor before it is emptied.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/lib/file-out.h"

#define OUT_FLAGS (O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)

/* "cannot @what '@path': reason" ("open" says "for writing" after the path) */
static int fail(int err, char *msg, size_t size, const char *what, const char *path)
{
	snprintf(msg, size, "cannot %s '%s'%s: %s", what, path,
		 strcmp(what, "open") ? "" : " for writing", strerror(err));
	return -err;
}

/* The message of a failed open(): a link at the path is named as such. */
static int open_failed(int err, const char *path, const char *what, char *msg, size_t size)
{
	struct stat st;

	if (err == ELOOP && !lstat(path, &st) && S_ISLNK(st.st_mode)) {
		snprintf(msg, size, "'%s' is a symbolic link: tperf does not write through one; "
			 "name the file itself", path);
		return -ELOOP;
	}
	return fail(err, msg, size, what, path);
}

/* The descriptor that /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N names, or -1. */
static int named_fd(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);
		char *end;
		long fd;

		if (strncmp(path, dirs[i], n) || !isdigit((unsigned char)path[n]))
			continue;
		errno = 0;
		fd = strtol(path + n, &end, 10);
		if (!*end && !errno && fd <= INT_MAX)
			return (int)fd;
	}
	return -1;
}

static int dup_named(const char *path, int fd, char *msg, size_t size)
{
	int flags = fcntl(fd, F_GETFL), dup;

	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
		snprintf(msg, size, "cannot write to '%s': descriptor %d is not open for writing",
			 path, fd);
		return -EBADF;
	}
	dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return dup < 0 ? fail(errno, msg, size, "write to", path) : dup;
}

/* What an opened output must be: no block device; seekable when asked. */
static int check_fd(int fd, const char *path, int how, struct stat *st, char *msg, size_t size)
{
	if (fstat(fd, st))
		return fail(errno, msg, size, "write to", path);
	if (S_ISBLK(st->st_mode)) {
		snprintf(msg, size, "'%s' is a block device: tperf does not write over one", path);
		return -EINVAL;
	}
	if ((how & FILE_CREATE_SEEKABLE) && lseek(fd, 0, SEEK_CUR) < 0) {
		snprintf(msg, size, "'%s' is not seekable (a FIFO, socket or terminal): name a "
			 "file", path);
		return -ESPIPE;
	}
	return 0;
}

/* stat -o: open or create, then empty a regular file (or append to it). */
static int open_stream(const char *path, int how, mode_t mode, char *msg, size_t size)
{
	int named = named_fd(path), fd, err;
	struct stat st;

	if (named >= 0) {
		fd = dup_named(path, named, msg, size);
		if (fd < 0)
			return fd;
	} else {
		/* no O_TRUNC yet: the file is emptied once it is known to be one */
		fd = open(path, OUT_FLAGS | O_CREAT |
			  ((how & FILE_CREATE_HOW) == FILE_CREATE_APPEND ? O_APPEND : 0), mode);
		if (fd < 0)
			return open_failed(errno, path, "open", msg, size);
	}
	err = check_fd(fd, path, how, &st, msg, size);
	if (!err && named < 0 && (how & FILE_CREATE_HOW) == FILE_CREATE_TRUNCATE &&
	    S_ISREG(st.st_mode) && ftruncate(fd, 0))
		err = fail(errno, msg, size, "empty", path);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* perf's files of a directory recording: data, data.N */
static bool recording_name(const char *name)
{
	return !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/*
 * Whether the folder @path holds a recording's files only, removing them
 * when @remove: how many, -ENOTDIR when it holds others, or -errno.
 */
static int recording_dir(const char *path, bool remove)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err = 0, n = 0;
	struct dirent *d;
	DIR *dir;

	if (dfd < 0)
		return -errno;
	dir = fdopendir(dfd);
	if (!dir) {
		err = -errno;
		close(dfd);
		return err;
	}
	while (!err && (d = readdir(dir))) {
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		n++;
		if (!recording_name(d->d_name) ||
		    fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode))
			err = -ENOTDIR;
		else if (remove && unlinkat(dfd, d->d_name, 0))
			err = -errno;
	}
	closedir(dir);
	return err ? err : n;
}

/*
 * Clear the way for PATH.old as perf does: a file goes, a recording's
 * folder too (an empty one as well).  With @dry, only whether it could.
 */
static int remove_old(const char *old, bool dry, char *msg, size_t size)
{
	struct stat st;
	int err;

	if (lstat(old, &st))
		return errno == ENOENT ? 0 : fail(errno, msg, size, "replace", old);
	if (!S_ISDIR(st.st_mode))
		return !dry && unlink(old) && errno != ENOENT ?
		       fail(errno, msg, size, "replace", old) : 0;
	err = recording_dir(old, false);
	if (err == -ENOTDIR) {
		snprintf(msg, size, "cannot replace '%s': a folder that is not a recording's "
			 "(tperf removes no other); move it away", old);
		return -ENOTEMPTY;
	}
	if (err >= 0 && !dry)
		err = recording_dir(old, true);
	if (err >= 0 && !dry && rmdir(old))
		err = -errno;
	return err < 0 ? fail(-err, msg, size, "replace", old) : 0;
}

enum backup_step { MAKE_NEW, MOVE_OLD, IN_PLACE };

/*
 * What the BACKUP way does with what is at @path (lstat() into @st), and
 * @old, its PATH.old: enum backup_step, or -errno with the message.
 */
static int backup_step(const char *path, int how, struct stat *st, char *old, char *msg,
		       size_t size)
{
	if ((size_t)snprintf(old, PATH_MAX, "%s.old", path) >= PATH_MAX)
		return fail(ENAMETOOLONG, msg, size, "create", path);
	if (lstat(path, st))
		return errno == ENOENT ? MAKE_NEW : fail(errno, msg, size, "create", path);
	if (S_ISLNK(st->st_mode))
		return open_failed(ELOOP, path, "create", msg, size);
	if (S_ISDIR(st->st_mode) && recording_dir(path, false) <= 0) {
		snprintf(msg, size, "'%s' is a folder: name a file to write", path);
		return -EISDIR;
	}
	if (S_ISDIR(st->st_mode) || (S_ISREG(st->st_mode) && (st->st_size || st->st_nlink > 1))) {
		int err = remove_old(old, true, msg, size);

		return err ? err : MOVE_OLD;
	}
	if (S_ISBLK(st->st_mode)) {
		snprintf(msg, size, "'%s' is a block device: tperf does not write over one", path);
		return -EINVAL;
	}
	if ((how & FILE_CREATE_SEEKABLE) && (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode))) {
		/* refused before open(), which would wait for a FIFO's reader */
		snprintf(msg, size, "'%s' is not seekable (a FIFO, socket or terminal): name a "
			 "file", path);
		return -ESPIPE;
	}
	return IN_PLACE;	/* an empty file, a device such as /dev/null, a FIFO */
}

/* Open what @st found at @path where it is, checking it is still that. */
static int open_in_place(const char *path, int how, const struct stat *st, char *msg,
			 size_t size)
{
	int fd = open(path, OUT_FLAGS), err;
	struct stat fst;

	if (fd < 0)
		return open_failed(errno, path, "open", msg, size);
	err = check_fd(fd, path, how, &fst, msg, size);
	if (!err && (fst.st_dev != st->st_dev || fst.st_ino != st->st_ino ||
		     (S_ISREG(fst.st_mode) && fst.st_nlink > 1))) {
		snprintf(msg, size, "'%s' was replaced while tperf opened it", path);
		err = -EAGAIN;
	}
	if (!err && S_ISREG(fst.st_mode) && ftruncate(fd, 0))
		err = fail(errno, msg, size, "empty", path);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int open_backup(const char *path, int how, mode_t mode, char *msg, size_t size)
{
	char old[PATH_MAX];
	struct stat st;
	int step = backup_step(path, how, &st, old, msg, size), fd, err;

	if (step < 0)
		return step;
	if (step == IN_PLACE)
		return open_in_place(path, how, &st, msg, size);
	if (step == MOVE_OLD) {
		err = remove_old(old, false, msg, size);
		if (err)
			return err;
		if (rename(path, old)) {
			err = errno;
			snprintf(msg, size, "cannot rename '%s' to '%s': %s", path, old,
				 strerror(err));
			return -err;
		}
	}
	fd = open(path, OUT_FLAGS | O_CREAT | O_EXCL, mode);
	return fd < 0 ? open_failed(errno, path, "create", msg, size) : fd;
}

/* The folder @path goes in takes new files (missing, read-only: not). */
static int folder_check(const char *path, char *msg, size_t size)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return access(dir, W_OK | X_OK) ? fail(errno, msg, size, "create", path) : 0;
}

/**
 * file__create_check - see util/lib/file-out.h
 */
int file__create_check(const char *path, int how, char *msg, size_t size)
{
	char old[PATH_MAX];
	struct stat st;
	int step = named_fd(path) < 0 ? folder_check(path, msg, size) : 0;

	if (step)
		return step;
	if ((how & FILE_CREATE_HOW) == FILE_CREATE_BACKUP) {
		step = backup_step(path, how, &st, old, msg, size);
		return step < 0 ? step : 0;
	}
	if (named_fd(path) >= 0 || lstat(path, &st))
		return 0;	/* open() says what is wrong with the folder */
	if (S_ISLNK(st.st_mode))
		return open_failed(ELOOP, path, "open", msg, size);
	if (S_ISDIR(st.st_mode))
		return fail(EISDIR, msg, size, "open", path);
	if (S_ISBLK(st.st_mode)) {
		snprintf(msg, size, "'%s' is a block device: tperf does not write over one", path);
		return -EINVAL;
	}
	return 0;
}

/**
 * file__create - see util/lib/file-out.h
 */
int file__create(const char *path, int how, mode_t mode, char *msg, size_t size)
{
	if ((how & FILE_CREATE_HOW) == FILE_CREATE_BACKUP)
		return open_backup(path, how, mode, msg, size);
	return open_stream(path, how, mode, msg, size);
}
